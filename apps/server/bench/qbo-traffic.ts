// What the QuickBooks emulator saw, for the benches: every API request it admitted under Intuit's
// per-realm limits (when it started and ended, a batch or not) and every one it throttled, taken
// where the emulator applies those limits (its RealmLimiter), and the floors they imply.
import type { Sandbox } from "@groupledger/qbo-sandbox";

/** Intuit's limits per realm (the emulator's and the client's): 10 in flight, 500 requests and 40 batches per rolling minute. */
export const INTUIT = { concurrent: 10, perWindow: 500, batchesPerWindow: 40, windowMs: 60_000 } as const;

export interface RealmCall {
  readonly realmId: string;
  readonly batch: boolean;
  readonly start: number;
  end: number | undefined;
}

export interface RealmFigures {
  readonly realmId: string;
  readonly calls: number;
  readonly batches: number;
  readonly throttled: number;
  /** Most requests in flight at once. */
  readonly peakConcurrent: number;
  /** Most requests started in any rolling window (`windowMs`, a minute unless time is compressed). */
  readonly peakPerWindow: number;
  readonly peakBatchesPerWindow: number;
  /** Time with at least one request in flight. */
  readonly busyMs: number;
  /** Stretches of time with requests in flight, one after another: the round trips made in a row. */
  readonly roundTrips: number;
}

/** Starts observing the sandbox's requests; `now` is the clock the phases are measured with. */
export class QboTraffic {
  readonly calls: RealmCall[] = [];
  readonly throttled: { realmId: string; at: number }[] = [];

  constructor(
    sandbox: Sandbox,
    private readonly now: () => number = () => performance.now(),
  ) {
    const limiter = sandbox.limiter;
    const tryAcquire = limiter.tryAcquire.bind(limiter);
    const release = limiter.release.bind(limiter);
    const open = new Map<string, RealmCall[]>();
    limiter.tryAcquire = (realmId, at, kind) => {
      const admitted = tryAcquire(realmId, at, kind);
      if (!admitted) {
        this.throttled.push({ realmId, at: this.now() });
        return false;
      }
      const call: RealmCall = { realmId, batch: kind === "batch", start: this.now(), end: undefined };
      this.calls.push(call);
      const list = open.get(realmId) ?? [];
      list.push(call);
      open.set(realmId, list);
      return true;
    };
    // A release does not say which request ended: the realm's oldest open one is closed. Counts in
    // flight at any moment, and so busy time and round trips, do not depend on which one it was.
    limiter.release = (realmId) => {
      const call = open.get(realmId)?.shift();
      if (call) call.end = this.now();
      release(realmId);
    };
  }

  /** The calls started at or after `from` (and before `to`). */
  since(from: number, to = Infinity): RealmCall[] {
    return this.calls.filter((c) => c.start >= from && c.start < to);
  }

  /** Per realm: calls, batches, peaks against Intuit's limits, busy time and round trips in a row. */
  figures(from: number, to = Infinity, windowMs: number = INTUIT.windowMs): RealmFigures[] {
    const byRealm = new Map<string, RealmCall[]>();
    for (const c of this.since(from, to)) byRealm.set(c.realmId, [...(byRealm.get(c.realmId) ?? []), c]);
    return [...byRealm].map(([realmId, calls]) => ({
      realmId,
      calls: calls.length,
      batches: calls.filter((c) => c.batch).length,
      throttled: this.throttled.filter((t) => t.realmId === realmId && t.at >= from && t.at < to).length,
      peakConcurrent: peakOverlap(calls),
      peakPerWindow: peakInWindow(calls.map((c) => c.start), windowMs),
      peakBatchesPerWindow: peakInWindow(calls.filter((c) => c.batch).map((c) => c.start), windowMs),
      ...busy(calls),
    }));
  }
}

function peakOverlap(calls: readonly RealmCall[]): number {
  const events = calls.flatMap((c) => [
    [c.start, 1],
    [c.end ?? Infinity, -1],
  ]) as [number, number][];
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of events) peak = Math.max(peak, (now += d));
  return peak;
}

/** The most of `starts` within any window of `windowMs`. */
export function peakInWindow(starts: readonly number[], windowMs: number): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let peak = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}

function busy(calls: readonly RealmCall[]): { busyMs: number; roundTrips: number } {
  const spans = calls.map((c) => [c.start, c.end ?? c.start] as const).sort((a, b) => a[0] - b[0]);
  let busyMs = 0;
  let roundTrips = 0;
  let open: [number, number] | undefined;
  for (const [s, e] of spans) {
    if (open && s <= open[1]) open[1] = Math.max(open[1], e);
    else {
      if (open) busyMs += open[1] - open[0];
      open = [s, e];
      roundTrips++;
    }
  }
  if (open) busyMs += open[1] - open[0];
  return { busyMs, roundTrips };
}

/**
 * The least time Intuit's limits allow one realm's `calls` (of which `batches` are batch
 * requests) each taking `latencyMs`: at most 10 in flight, and within any minute at most 500
 * started and 40 batches, counting `earlier` starts (ms before the phase began, as negative
 * offsets) that are still in the window. The earliest-start schedule is optimal for equal calls.
 */
export function realmFloorMs(calls: number, batches: number, latencyMs: number, earlier: { starts: readonly number[]; batchStarts: readonly number[] } = { starts: [], batchStarts: [] }): number {
  const schedule = (n: number, perWindow: number, concurrent: number, history: readonly number[]) => {
    const starts = [...history].sort((a, b) => a - b);
    const first = starts.length;
    for (let i = 0; i < n; i++) {
      const k = first + i;
      let at = 0;
      if (i >= concurrent) at = Math.max(at, starts[k - concurrent]! + latencyMs);
      if (k >= perWindow) at = Math.max(at, starts[k - perWindow]! + INTUIT.windowMs);
      starts.push(at);
    }
    return n === 0 ? 0 : starts.at(-1)! + latencyMs;
  };
  return Math.max(schedule(calls, INTUIT.perWindow, INTUIT.concurrent, earlier.starts), schedule(batches, INTUIT.batchesPerWindow, Infinity, earlier.batchStarts));
}

/**
 * The rate-limit floor of a phase: realms are limited independently and served in parallel, so the
 * busiest realm sets it. Calls of the minute before the phase count against its windows.
 */
export function rateLimitFloorMs(traffic: QboTraffic, from: number, to: number, latencyMs: number): number {
  const floors = traffic.figures(from, to).map((r) => {
    const before = traffic.since(from - INTUIT.windowMs, from).filter((c) => c.realmId === r.realmId);
    return realmFloorMs(r.calls, r.batches, latencyMs, { starts: before.map((c) => c.start - from), batchStarts: before.filter((c) => c.batch).map((c) => c.start - from) });
  });
  return Math.max(0, ...floors);
}
