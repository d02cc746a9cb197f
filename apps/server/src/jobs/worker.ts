import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { LeaseLostError, type JobQueue, type JobRow } from "./queue.ts";

export interface JobContext {
  job: JobRow;
  /** Where a previous attempt got to (null on the first); save yours with `progress`. */
  checkpoint: Record<string, unknown> | null;
  /** Records progress (0..1) and optionally a checkpoint; renews the lease. Throws if the lease was lost. */
  progress(fraction: number, message?: string | null, checkpoint?: Record<string, unknown>): Promise<void>;
  /** Aborted when the worker stops or loses the job: stop at the next safe point. */
  signal: AbortSignal;
}

export type JobHandler = (ctx: JobContext) => Promise<Record<string, unknown> | void>;

/** Thrown by a handler for a failure that another attempt cannot fix (bad input, revoked access). */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/**
 * Slots kept for some job kinds: a lane runs at most `concurrency` jobs of its kinds at a time, so
 * jobs of one lane never wait for another lane's slots (a long run cannot hold up syncs, nor a
 * burst of syncs a run). A lane without `kinds` takes every kind no other lane names.
 */
export interface WorkerLane {
  kinds?: readonly string[];
  concurrency: number;
}

export interface WorkerOptions {
  /** Jobs at a time, of any kind, when no `lanes` are given (default 2). */
  concurrency?: number;
  lanes?: readonly WorkerLane[];
  /** How often a started worker looks for due jobs besides being woken (default 500 ms). */
  pollMs?: number;
  log?: FastifyBaseLogger;
  workerId?: string;
}

/**
 * Claims and runs jobs; any number of workers in any number of processes can share one queue.
 * Started, it looks for due jobs every `pollMs`, and at once when a job is queued through its own
 * queue in this process (`JobQueue.onDue`) or one of its jobs ends (a slot is free).
 */
export class Worker {
  readonly id: string;
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController; lane: number }>();
  /** Each lane's kinds (those with a handler) and slots. */
  private readonly lanes: { kinds: string[]; concurrency: number }[];
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  /** The poll claiming now, if any (stop waits for it). */
  private pollUnderWay: Promise<number> | undefined;
  private polling = false;
  /** Woken while a poll was under way: poll again as soon as it ends. */
  private wokenWhilePolling = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: Record<string, JobHandler>,
    private readonly options: WorkerOptions & { leaseMs?: number } = {},
  ) {
    this.id = options.workerId ?? `worker-${randomUUID()}`;
    const kinds = Object.keys(handlers);
    const lanes = options.lanes ?? [{ concurrency: options.concurrency ?? 2 }];
    const named = new Set(lanes.flatMap((l) => l.kinds ?? []));
    this.lanes = lanes.map((l) => ({ kinds: l.kinds ? kinds.filter((k) => l.kinds!.includes(k)) : kinds.filter((k) => !named.has(k)), concurrency: l.concurrency }));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.queue.onDue(() => this.wake());
    this.schedule(0);
  }

  /** Stops claiming, asks running jobs to stop, and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    // A poll under way may still claim (a job queued after this returns, on a slow database): wait
    // for it, so nothing is claimed once the worker has stopped, then stop what it started too.
    await this.pollUnderWay?.catch(() => undefined);
    for (const r of this.running.values()) r.abort.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Claims and runs due jobs until none is left or every lane is full; for tests and the poll loop. */
  async poll(): Promise<number> {
    if (this.polling) return 0;
    const under = this.claimDue();
    this.pollUnderWay = under;
    return under;
  }

  private async claimDue(): Promise<number> {
    this.polling = true;
    let started = 0;
    try {
      // One claim at a time over the kinds of every lane with a free slot: a poll that finds nothing
      // costs one query, whatever the number of lanes.
      for (;;) {
        const open = this.lanes.map((lane, index) => ({ ...lane, index })).filter((lane) => lane.kinds.length > 0 && this.runningIn(lane.index) < lane.concurrency);
        if (open.length === 0) break;
        const job = await this.queue.claim(open.flatMap((lane) => lane.kinds), this.id);
        if (!job) break;
        started++;
        this.run(job, open.find((lane) => lane.kinds.includes(job.kind))!.index);
      }
    } finally {
      this.polling = false;
    }
    return started;
  }

  /** Resolves when every job started so far has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private runningIn(lane: number): number {
    let n = 0;
    for (const r of this.running.values()) if (r.lane === lane) n++;
    return n;
  }

  /** A started worker looks for due jobs now rather than at its next poll. */
  private wake(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.wokenWhilePolling = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.wokenWhilePolling = false;
      this.poll()
        .catch((err: unknown) => this.options.log?.error({ err }, "job poll failed"))
        .finally(() => this.schedule(this.wokenWhilePolling ? 0 : (this.options.pollMs ?? 500)));
    }, delay);
    this.timer.unref();
  }

  private run(job: JobRow, lane: number): void {
    const abort = new AbortController();
    const handler = this.handlers[job.kind];
    const renew = async (update: Parameters<JobQueue["heartbeat"]>[2]) => {
      try {
        await this.queue.heartbeat(job.id, this.id, update);
      } catch (err) {
        if (err instanceof LeaseLostError) abort.abort();
        throw err;
      }
    };
    const ctx: JobContext = {
      job,
      checkpoint: job.checkpoint ?? null,
      signal: abort.signal,
      progress: (fraction, message, checkpoint) =>
        renew({ progress: fraction, ...(message === undefined ? {} : { message }), ...(checkpoint ? { checkpoint } : {}) }),
    };
    // Keep the lease while the handler works between progress calls.
    const leaseMs = this.options.leaseMs ?? 30_000;
    const keepAlive = setInterval(() => renew({}).catch(() => undefined), Math.max(50, leaseMs / 3));
    keepAlive.unref();

    const done = (async () => {
      try {
        if (!handler) throw new PermanentJobError(`no handler for job kind ${job.kind}`);
        const result = await handler(ctx);
        await this.queue.complete(job.id, this.id, result ?? {});
      } catch (err) {
        if (err instanceof LeaseLostError) {
          this.options.log?.warn({ jobId: job.id }, "lost the lease on a job; another worker has it");
        } else if (abort.signal.aborted && this.stopped) {
          // Shutting down: leave the job running-with-lease; it is resumed from its checkpoint
          // by whichever worker claims it once the lease expires.
          this.options.log?.info({ jobId: job.id }, "stopped mid-job; it will resume from its checkpoint");
        } else {
          const message = err instanceof Error ? err.message : String(err);
          this.options.log?.error({ err, jobId: job.id, kind: job.kind }, "job failed");
          await this.queue.fail(job.id, this.id, message, !(err instanceof PermanentJobError)).catch(() => undefined);
        }
      } finally {
        clearInterval(keepAlive);
        this.running.delete(job.id);
        // Its slot is free: the next due job need not wait for the poll.
        this.wake();
      }
    })();
    this.running.set(job.id, { done, abort, lane });
  }
}
