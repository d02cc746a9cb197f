import type { FastifyBaseLogger } from "fastify";

/**
 * A scheduler that ticks now and then every interval until stopped, one tick at a time (a tick
 * still running when the next is due is not doubled), its failures logged and retried at the next
 * tick. The nightly sync and the board pack mail each claim their due work in `tick` (tests call it
 * with a fake clock); stop waits for a tick under way.
 */
export abstract class Ticker {
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<unknown> | null = null;

  protected constructor(
    /** What a tick does, for the log: "scheduling nightly syncs". */
    private readonly what: string,
    protected readonly log: FastifyBaseLogger | undefined,
    private readonly intervalMs: number,
  ) {}

  abstract tick(at?: Date): Promise<unknown>;

  /** Ticks now and then every interval until `stop`. */
  start(): void {
    if (this.timer) return;
    const run = () => {
      this.ticking ??= this.tick()
        .catch((err: unknown) => this.log?.error({ err }, `${this.what} failed; trying again at the next tick`))
        .finally(() => (this.ticking = null));
    };
    run();
    this.timer = setInterval(run, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }
}
