import { systemClock, type Clock } from "./clock.ts";

export interface LimiterOptions {
  /** Requests in flight at once (Intuit: 10 per realm). */
  readonly maxConcurrent: number;
  /** Requests started in any rolling window (Intuit: 500 per minute per realm). */
  readonly maxPerWindow: number;
  readonly windowMs: number;
}

export const INTUIT_LIMITS: LimiterOptions = Object.freeze({ maxConcurrent: 10, maxPerWindow: 500, windowMs: 60_000 });

/**
 * Keeps one realm's requests within Intuit's limits: a concurrency cap plus an exact sliding
 * window (the start time of each of the last `maxPerWindow` requests), served first come first
 * served. One instance per realm per process; share it between every client of that realm.
 */
export class RealmLimiter {
  private inFlight = 0;
  private readonly starts: number[] = [];
  private readonly waiting: (() => void)[] = [];
  private timerArmed = false;
  /** Most requests seen in flight at once, for tests and the bench. */
  peakConcurrent = 0;

  constructor(
    readonly options: LimiterOptions = INTUIT_LIMITS,
    private readonly clock: Clock = systemClock,
  ) {
    if (options.maxConcurrent < 1 || options.maxPerWindow < 1 || options.windowMs <= 0) throw new Error("limiter options must be positive");
  }

  /** Waits for a slot; call the returned function exactly once when the request is finished. */
  async acquire(): Promise<() => void> {
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
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

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private pump(): void {
    while (this.waiting.length > 0 && this.inFlight < this.options.maxConcurrent) {
      const now = this.clock.now();
      while (this.starts.length > 0 && (this.starts[0] ?? 0) <= now - this.options.windowMs) this.starts.shift();
      if (this.starts.length >= this.options.maxPerWindow) {
        this.armTimer((this.starts[0] ?? now) + this.options.windowMs - now);
        return;
      }
      this.starts.push(now);
      this.inFlight++;
      this.peakConcurrent = Math.max(this.peakConcurrent, this.inFlight);
      this.waiting.shift()?.();
    }
  }

  private armTimer(ms: number): void {
    if (this.timerArmed) return;
    this.timerArmed = true;
    void this.clock.sleep(ms).then(() => {
      this.timerArmed = false;
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
