/** Time as the client sees it; injected so tests of backoff and rate limits never really wait. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds (immediately for ms <= 0). */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => (ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))),
};

/**
 * A clock for tests: time stands still until something sleeps, then jumps to the earliest
 * wake-up once every runnable task has had its turn (after a macrotask), so concurrent
 * sleepers wake in time order and nothing waits for real. Real I/O in flight keeps running.
 */
export class VirtualClock implements Clock {
  private time: number;
  private readonly timers: { at: number; seq: number; wake: () => void }[] = [];
  private seq = 0;
  private scheduled = false;
  /** Every sleep requested, in order, for assertions. */
  readonly sleeps: number[] = [];

  constructor(start = Date.parse("2024-01-01T00:00:00Z")) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    return new Promise((resolve) => {
      this.timers.push({ at: this.time + Math.max(0, ms), seq: this.seq++, wake: resolve });
      this.schedule();
    });
  }

  /** Moves time forward by hand (waking whatever falls due). */
  advance(ms: number): void {
    this.time += ms;
    this.fire();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.timers.length === 0) return;
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const first = this.timers[0];
      if (first !== undefined && first.at > this.time) this.time = first.at;
      this.fire();
    });
  }

  private fire(): void {
    this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    while (this.timers.length > 0 && (this.timers[0]?.at ?? Infinity) <= this.time) {
      this.timers.shift()?.wake();
    }
    if (this.timers.length > 0) this.schedule();
  }
}
