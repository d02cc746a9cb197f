/**
 * SPEC §4 Idle. After `timeoutMs` without activity the idle callback runs (the dialog opens), the
 * session is marked timed out and the timer starts again; if another full period passes while it
 * is still marked, `onLogout` runs instead. Activity restarts the period at once, and clears the
 * timed-out mark through a debounced action (250 ms after the last burst of events), so a stream
 * of mouse moves costs one state change, not hundreds.
 */
export interface IdleTimerOptions {
  timeoutMs: number;
  debounceMs: number;
  onIdle: () => void;
  onLogout: () => void;
  /** Runs (debounced) on activity; the timed-out mark is already cleared by then. */
  onAction?: () => void;
}

export class IdleTimer {
  private idleHandle: ReturnType<typeof setTimeout> | undefined;
  private actionHandle: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;
  private running = false;
  /** When the scheduled period ends (epoch ms); what the countdown is read from. */
  private firesAt: number | undefined;

  constructor(private readonly options: IdleTimerOptions) {}

  get isTimedOut(): boolean {
    return this.timedOut;
  }

  /**
   * When the session will be logged out if nobody does anything (epoch ms), or undefined when
   * stopped: the end of this period while timed out, else one more full period after it (activity
   * clears the timed-out mark, so the next period only opens the dialog again).
   */
  logoutAt(): number | undefined {
    if (!this.running || this.firesAt === undefined) return undefined;
    return this.timedOut ? this.firesAt : this.firesAt + this.options.timeoutMs;
  }

  start(): void {
    this.running = true;
    this.timedOut = false;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.idleHandle);
    clearTimeout(this.actionHandle);
  }

  /** Any user activity: mouse, keys, touch, wheel. */
  activity(): void {
    if (!this.running) return;
    this.schedule();
    clearTimeout(this.actionHandle);
    this.actionHandle = setTimeout(() => {
      this.timedOut = false;
      this.options.onAction?.();
    }, this.options.debounceMs);
  }

  private schedule(): void {
    clearTimeout(this.idleHandle);
    this.firesAt = Date.now() + this.options.timeoutMs;
    this.idleHandle = setTimeout(() => this.fire(), this.options.timeoutMs);
  }

  private fire(): void {
    if (!this.running) return;
    if (this.timedOut) {
      this.stop();
      this.options.onLogout();
      return;
    }
    this.timedOut = true;
    this.schedule();
    this.options.onIdle();
  }
}

/** The events that count as someone being at the keyboard. */
export const ACTIVITY_EVENTS = ["mousemove", "mousedown", "keydown", "wheel", "touchstart", "pointerdown"] as const;
