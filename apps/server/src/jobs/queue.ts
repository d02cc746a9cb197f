import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import { jobs } from "../db/schema.ts";

export type JobRow = typeof jobs.$inferSelect;

export interface EnqueueInput {
  kind: string;
  accountId?: string | null;
  payload?: Record<string, unknown>;
  /** While a job with this key is queued or running, enqueueing again returns that job. */
  dedupeKey?: string;
  maxAttempts?: number;
  runAfter?: Date;
}

/** A worker lost its lease (it stalled past lockedUntil and someone else took the job over). */
export class LeaseLostError extends Error {
  override name = "LeaseLostError";
}

/** Exponential backoff between attempts: 2 s, 4 s, 8 s … capped at 5 minutes. */
export const retryDelayMs = (attempts: number) => Math.min(300_000, 1000 * 2 ** attempts);

export class JobQueue {
  /** Told when a job is queued that is due now (`onDue`): this process's worker claims it at once. */
  private readonly dueListeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly leaseMs = 30_000,
  ) {}

  /**
   * Calls `listener` whenever this queue object queues a job that is due now (its insert committed),
   * so a worker in the same process need not wait for its next poll; returns the unsubscribe.
   * Workers of other processes, and jobs queued through another JobQueue (one bound to a
   * transaction), are found by the poll as before.
   */
  onDue(listener: () => void): () => void {
    this.dueListeners.add(listener);
    return () => this.dueListeners.delete(listener);
  }

  async enqueue(input: EnqueueInput): Promise<{ job: JobRow; created: boolean }> {
    const values = {
      kind: input.kind,
      accountId: input.accountId ?? null,
      payload: input.payload ?? {},
      dedupeKey: input.dedupeKey ?? null,
      maxAttempts: input.maxAttempts ?? 5,
      runAfter: input.runAfter ?? new Date(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const [created] = await this.db.insert(jobs).values(values).onConflictDoNothing().returning();
      if (created) {
        if (created.runAfter.getTime() <= Date.now()) for (const listener of this.dueListeners) listener();
        return { job: created, created: true };
      }
      // Only the dedupe index can conflict: hand back the active job with that key.
      const [existing] = await this.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.dedupeKey, values.dedupeKey ?? ""), inArray(jobs.state, ["queued", "running"])))
        .limit(1);
      if (existing) return { job: existing, created: false };
      // It finished between the two statements: try again.
    }
    throw new Error(`could not enqueue ${input.kind}: dedupe key ${input.dedupeKey} kept changing`);
  }

  /**
   * Takes the oldest due job of the given kinds, or a running one whose lease ran out (its worker
   * died). SKIP LOCKED lets any number of workers in any number of processes claim concurrently
   * without ever taking the same job.
   */
  async claim(kinds: readonly string[], workerId: string): Promise<JobRow | null> {
    if (kinds.length === 0) return null;
    const kindList = sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    );
    const rows = rowsOf<{ id: string }>(
      await this.db.execute(sql`
        update jobs set
          state = 'running',
          locked_by = ${workerId},
          locked_until = now() + make_interval(secs => ${this.leaseMs / 1000}),
          attempts = attempts + 1,
          started_at = coalesce(started_at, now()),
          updated_at = now()
        where id = (
          select id from jobs
          where kind in (${kindList})
            and ((state = 'queued' and run_after <= now()) or (state = 'running' and locked_until < now()))
          order by run_after, created_at
          for update skip locked
          limit 1
        )
        returning id`),
    );
    const id = rows[0]?.id;
    return id ? this.get(id) : null;
  }

  async get(id: string): Promise<JobRow | null> {
    const [row] = await this.db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
    return row ?? null;
  }

  async listForAccount(accountId: string, limit = 50): Promise<JobRow[]> {
    return this.db.select().from(jobs).where(eq(jobs.accountId, accountId)).orderBy(desc(jobs.createdAt)).limit(limit);
  }

  /** Renews the lease and records progress; throws LeaseLostError when another worker owns the job now. */
  async heartbeat(
    id: string,
    workerId: string,
    update: { progress?: number; message?: string | null; checkpoint?: Record<string, unknown> } = {},
  ): Promise<void> {
    const changed = await this.db
      .update(jobs)
      .set({
        lockedUntil: sql`now() + make_interval(secs => ${this.leaseMs / 1000})`,
        updatedAt: new Date(),
        ...(update.progress === undefined ? {} : { progress: clampProgress(update.progress) }),
        ...(update.message === undefined ? {} : { message: update.message }),
        ...(update.checkpoint === undefined ? {} : { checkpoint: update.checkpoint }),
      })
      .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.state, "running")))
      .returning({ id: jobs.id });
    if (changed.length === 0) throw new LeaseLostError(`job ${id} is no longer held by ${workerId}`);
  }

  async complete(id: string, workerId: string, result: Record<string, unknown> = {}): Promise<void> {
    await this.finish(id, workerId, { state: "succeeded", result, progress: "1", error: null });
  }

  /** A retryable failure goes back to the queue with backoff until maxAttempts; otherwise it ends failed. */
  async fail(id: string, workerId: string, error: string, retryable: boolean): Promise<JobRow | null> {
    const job = await this.get(id);
    if (!job) return null;
    if (retryable && job.attempts < job.maxAttempts) {
      const [row] = await this.db
        .update(jobs)
        .set({
          state: "queued",
          error,
          lockedBy: null,
          lockedUntil: null,
          runAfter: new Date(Date.now() + retryDelayMs(job.attempts)),
          updatedAt: new Date(),
        })
        .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId)))
        .returning();
      return row ?? null;
    }
    return this.finish(id, workerId, { state: "failed", error });
  }

  async cancel(id: string): Promise<boolean> {
    const rows = await this.db
      .update(jobs)
      .set({ state: "cancelled", finishedAt: new Date(), lockedBy: null, lockedUntil: null, updatedAt: new Date() })
      .where(and(eq(jobs.id, id), inArray(jobs.state, ["queued", "running"])))
      .returning({ id: jobs.id });
    return rows.length > 0;
  }

  private async finish(
    id: string,
    workerId: string,
    set: { state: "succeeded" | "failed"; result?: Record<string, unknown>; progress?: string; error: string | null },
  ): Promise<JobRow | null> {
    const [row] = await this.db
      .update(jobs)
      .set({ ...set, lockedBy: null, lockedUntil: null, finishedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(jobs.id, id), eq(jobs.lockedBy, workerId), eq(jobs.state, "running")))
      .returning();
    if (!row) throw new LeaseLostError(`job ${id} is no longer held by ${workerId}`);
    return row;
  }
}

const clampProgress = (p: number) => String(Math.min(1, Math.max(0, Number.isFinite(p) ? p : 0)).toFixed(4));
