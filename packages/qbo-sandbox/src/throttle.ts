/**
 * Fault injection (seeded, so a test can predict which request fails) and Intuit's per-realm
 * limits: at most 10 requests in flight and 500 accepted per rolling minute, a batch counting as
 * one request; and at most 40 batch requests per rolling minute (Intuit's "API call limits and
 * throttles" page: "Throttled at 40 Batch requests per minute, per realm ID and app"; the
 * emulator serves one app).
 */
import type { Random } from "./rng.ts";
import { seededRandom } from "./rng.ts";

export interface FaultSettings {
  /** Added to every API/OAuth response. */
  latencyMs?: number;
  /** 0..1 probability of a throttled answer. */
  rate429?: number;
  /** 0..1 probability of a 500/503 Fault. */
  rate5xx?: number;
  /** 0..1 probability the socket is destroyed without an answer. */
  dropRate?: number;
  /** Every access token is treated as expired (401, code 3200). */
  expireAccessTokens?: boolean;
  /** Deterministic randomness for the above. */
  seed?: number;
}

export type FaultDecision = { kind: "drop" } | { kind: "throttle" } | { kind: "server"; status: 500 | 503 } | { kind: "none" };

export const MAX_CONCURRENT = 10;
export const MAX_PER_MINUTE = 500;
export const MAX_BATCHES_PER_MINUTE = 40;
const MINUTE_MS = 60_000;

export class FaultInjector {
  private random: Random;

  constructor(private settings: FaultSettings = {}) {
    this.random = seededRandom(settings.seed ?? 1);
  }

  get current(): FaultSettings {
    return { ...this.settings };
  }

  set(settings: FaultSettings): void {
    this.settings = { ...settings };
    this.random = seededRandom(settings.seed ?? 1);
  }

  /** Always draws the same number of values, so one request's outcome never shifts the next's. */
  decide(): FaultDecision {
    const [drop, throttle, server, which] = [this.random(), this.random(), this.random(), this.random()];
    const s = this.settings;
    if (drop < (s.dropRate ?? 0)) return { kind: "drop" };
    if (throttle < (s.rate429 ?? 0)) return { kind: "throttle" };
    if (server < (s.rate5xx ?? 0)) return { kind: "server", status: which < 0.5 ? 500 : 503 };
    return { kind: "none" };
  }
}

export class RealmLimiter {
  private readonly inFlight = new Map<string, number>();
  private readonly accepted = new Map<string, number[]>();
  private readonly batches = new Map<string, number[]>();

  /**
   * Whether a new request for the realm may run now (a batch request also within the batches'
   * own limit); if so it counts until `release`.
   */
  tryAcquire(realmId: string, now: number, kind: "request" | "batch" = "request"): boolean {
    const running = this.inFlight.get(realmId) ?? 0;
    const window = recent(this.accepted, realmId, now);
    const batchWindow = recent(this.batches, realmId, now);
    if (running >= MAX_CONCURRENT || window.length >= MAX_PER_MINUTE) return false;
    if (kind === "batch" && batchWindow.length >= MAX_BATCHES_PER_MINUTE) return false;
    this.inFlight.set(realmId, running + 1);
    window.push(now);
    if (kind === "batch") batchWindow.push(now);
    return true;
  }

  release(realmId: string): void {
    this.inFlight.set(realmId, Math.max(0, (this.inFlight.get(realmId) ?? 0) - 1));
  }

  /** Forgets the rolling minute; requests still in flight keep counting until they finish. */
  resetWindow(): void {
    this.accepted.clear();
    this.batches.clear();
  }
}

/** The realm's start times within the last minute (older ones dropped). */
function recent(windows: Map<string, number[]>, realmId: string, now: number): number[] {
  const window = (windows.get(realmId) ?? []).filter((t) => t > now - MINUTE_MS);
  windows.set(realmId, window);
  return window;
}
