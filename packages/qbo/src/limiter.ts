import { systemClock, type Clock } from "./clock.ts";

export interface LimiterOptions {
  /** Requests in flight at once (Intuit: 10 per realm). */
  readonly maxConcurrent: number;
  /** Requests started in any rolling window (Intuit: 500 per minute per realm), a batch counting as one. */
  readonly maxPerWindow: number;
  /** Batch requests started in any rolling window (Intuit: 40 per minute per realm and app); unlimited when absent. */
  readonly maxBatchesPerWindow?: number | undefined;
  readonly windowMs: number;
}

/**
 * Intuit's "API call limits and throttles": 500 requests per minute and 10 at once per realm;
 * batch requests "throttled at 40 Batch requests per minute, per realm ID and app".
 */
export const INTUIT_LIMITS: LimiterOptions = Object.freeze({ maxConcurrent: 10, maxPerWindow: 500, maxBatchesPerWindow: 40, windowMs: 60_000 });

export type RequestKind = "request" | "batch";

/**
 * Keeps one realm's requests within Intuit's limits: a concurrency cap plus exact sliding windows
 * (the start times of the last `maxPerWindow` requests, and of the last `maxBatchesPerWindow`
 * batches), served first come first served, except that a batch waiting for its own window lets
 * other requests by. One instance per realm per process; share it between every client of that realm.
 */
export class RealmLimiter {
  private inFlight = 0;
  private readonly starts: number[] = [];
  private readonly batchStarts: number[] = [];
  private readonly waiting: { readonly kind: RequestKind; readonly go: () => void }[] = [];
  private wakeAt: number | undefined;
  /** Most requests seen in flight at once, for tests and the bench. */
  peakConcurrent = 0;

  constructor(
    readonly options: LimiterOptions = INTUIT_LIMITS,
    private readonly clock: Clock = systemClock,
  ) {
    if (options.maxConcurrent < 1 || options.maxPerWindow < 1 || options.windowMs <= 0 || (options.maxBatchesPerWindow ?? 1) < 1) {
      throw new Error("limiter options must be positive");
    }
  }

  /** Waits for a slot; call the returned function exactly once when the request is finished. */
  async acquire(kind: RequestKind = "request"): Promise<() => void> {
    await new Promise<void>((resolve) => {
      this.waiting.push({ kind, go: resolve });
      this.pump();
    });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight--;
      this.pump();
    };
  }

  async run<T>(fn: () => Promise<T>, kind: RequestKind = "request"): Promise<T> {
    const release = await this.acquire(kind);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.inFlight < this.options.maxConcurrent) {
      const now = this.clock.now();
      const since = now - this.options.windowMs;
      while (this.starts.length > 0 && (this.starts[0] ?? 0) <= since) this.starts.shift();
      while (this.batchStarts.length > 0 && (this.batchStarts[0] ?? 0) <= since) this.batchStarts.shift();
      if (this.starts.length >= this.options.maxPerWindow) {
        this.armTimer((this.starts[0] ?? now) + this.options.windowMs - now);
        return;
      }
      const batchesFull = this.batchStarts.length >= (this.options.maxBatchesPerWindow ?? Infinity);
      const next = this.waiting.findIndex((w) => w.kind === "request" || !batchesFull);
      if (next < 0) {
        this.armTimer((this.batchStarts[0] ?? now) + this.options.windowMs - now);
        return;
      }
      const [chosen] = this.waiting.splice(next, 1);
      this.starts.push(now);
      if (chosen?.kind === "batch") this.batchStarts.push(now);
      this.inFlight++;
      this.peakConcurrent = Math.max(this.peakConcurrent, this.inFlight);
      chosen?.go();
    }
  }

  /** Wakes the queue in `ms`, unless a wake-up is already due by then (an earlier one fires, pumps and re-arms). */
  private armTimer(ms: number): void {
    const at = this.clock.now() + ms;
    if (this.wakeAt !== undefined && this.wakeAt <= at) return;
    this.wakeAt = at;
    void this.clock.sleep(ms).then(() => {
      if (this.wakeAt === at) this.wakeAt = undefined;
      this.pump();
    });
  }
}

/** One limiter per realm, created on first use; the server keeps one pool per process. */
export class LimiterPool {
  private readonly limiters = new Map<string, RealmLimiter>();

  constructor(
    private readonly options: LimiterOptions = INTUIT_LIMITS,
    private readonly clock: Clock = systemClock,
  ) {}

  forRealm(realmId: string): RealmLimiter {
    let limiter = this.limiters.get(realmId);
    if (limiter === undefined) {
      limiter = new RealmLimiter(this.options, this.clock);
      this.limiters.set(realmId, limiter);
    }
    return limiter;
  }
}
