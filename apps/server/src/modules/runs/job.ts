import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { MAX_BATCH_ITEMS, QboError } from "@groupledger/qbo";
import { ErrorCodes, type RunPeriod } from "@groupledger/contract";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { consolidationRunItems, consolidationRuns } from "../../db/schema.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import type { JobHandler } from "../../jobs/worker.ts";
import { AppError } from "../../http/errors.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { ReferenceCache } from "../qbo/counterparties.ts";
import { replaceItem, type ReplaceOutcome } from "../reconsolidation/replace.ts";
import { type PeriodResult, postPeriods, type PostOutcome } from "./post.ts";

export const RUN_JOB = "consolidation.run";

/**
 * A multi-period run: every (subsidiary, month) item in order, month by month. It survives a
 * restart because all its state is in the database: items already posted or skipped are not
 * looked at again, and an item cut off mid-posting is repeated with the same requestid
 * (post.ts), so QuickBooks never gets it twice. Pausing is a flag the run checks between items.
 *
 * A subsidiary whose month fails is not posted for its later months of the run (they are
 * 'skipped' with the reason): posting March without February would leave a gap in the parent's
 * books that nobody asked for. Other subsidiaries carry on.
 *
 * A `replace` run ("Replace all changed") is the same loop over approved changed entries in
 * period order: each item replaces one (reconsolidation/replace.ts), exactly once across restarts.
 */
export function runHandler(deps: {
  database: Database;
  provider: QboProvider;
  log?: FastifyBaseLogger;
  /** Told when a run has ended (succeeded, with failures, or stopped): the nightly replacement's summary mail. */
  ended?: (runId: string) => Promise<void>;
}): JobHandler {
  const { database } = deps;
  const { db } = database;
  const setRun = (runId: string, set: Partial<typeof consolidationRuns.$inferInsert>) =>
    db.update(consolidationRuns).set({ ...set, updatedAt: new Date() }).where(eq(consolidationRuns.id, runId));

  return async (ctx) => {
    const runId = String(ctx.job.payload["runId"] ?? "");
    try {
      return await runItems(ctx, runId);
    } catch (e) {
      // The job will not be tried again: say so on the run instead of leaving it "running".
      if (ctx.job.attempts >= ctx.job.maxAttempts && !ctx.signal.aborted) {
        const reason = e instanceof Error ? e.message : String(e);
        await setRun(runId, { status: "failed", finishedAt: new Date(), message: `Stopped after ${ctx.job.attempts} attempts: ${reason}. Resume it to try the remaining items again.` });
        await deps.ended?.(runId);
      }
      throw e;
    }
  };

  async function runItems(ctx: Parameters<JobHandler>[0], runId: string) {
    const [run] = await db.select().from(consolidationRuns).where(eq(consolidationRuns.id, runId)).limit(1);
    if (!run) return { skipped: "the run was removed" };
    if (run.status === "paused" || run.status === "pausing") {
      await setRun(runId, { status: "paused", message: "Paused" });
      return { paused: true };
    }
    if (!["queued", "running"].includes(run.status)) return { skipped: `the run is ${run.status}` };
    await setRun(runId, { status: "running", message: null });

    const items = await db.select().from(consolidationRunItems).where(eq(consolidationRunItems.runId, runId)).orderBy(asc(consolidationRunItems.seq));
    const total = items.length;
    let done = items.filter((i) => i.status !== "pending").length;
    const failedRealms = new Map(items.filter((i) => i.status === "failed").map((i) => [i.realmId, i.month]));
    // Each subsidiary's class and names are looked up for its first posting of the run only.
    const references = new ReferenceCache();

    for (let at = 0; at < items.length; at++) {
      const item = items[at]!;
      if (item.status !== "pending") continue;
      if (ctx.signal.aborted) throw new Error("the worker is stopping; the run resumes where it stopped");
      const [now] = await db.select({ status: consolidationRuns.status }).from(consolidationRuns).where(eq(consolidationRuns.id, runId)).limit(1);
      if (now?.status === "pausing" || now?.status === "paused") {
        await setRun(runId, { status: "paused", message: `Paused after ${done} of ${total}` });
        return { paused: true, done };
      }
      const setItem = (of: Item, set: Partial<typeof consolidationRunItems.$inferInsert>) =>
        db
          .update(consolidationRunItems)
          .set({ ...set, updatedAt: new Date() })
          .where(and(eq(consolidationRunItems.runId, runId), eq(consolidationRunItems.seq, of.seq)));

      const blockedBy = failedRealms.get(item.realmId);
      if (blockedBy) {
        await setItem(item, {
          status: "skipped",
          message: item.replaces
            ? `Not replaced: replacing ${blockedBy} failed for these entries, and replacing later periods first would post them out of order.`
            : `Not posted: ${blockedBy} failed for this company, and posting later months would leave a gap.`,
        });
        done++;
        await ctx.progress(done / total, `${done} of ${total}`);
        continue;
      }
      const poster = { accountId: run.accountId, userId: run.createdBy, runId };
      const batch = item.replaces ? [item] : batchFrom(items, at, failedRealms);
      let results: { item: Item; result: ItemResult }[];
      if (item.replaces) {
        results = [{ item, result: await replaceItem({ ...deps, references }, poster, item.replaces).then(ok, failed) }];
      } else {
        const periods = batch.map((i) => ({ realmId: i.realmId, period: monthPeriod(i.month) }));
        const posted = await postPeriods({ ...deps, references }, poster, periods).catch((error: unknown) => periods.map((): PeriodResult => ({ ok: false, error })));
        results = posted.map((r, j) => ({ item: batch[j]!, result: r.ok ? ok(postedItem(r.outcome, runId)) : r }));
      }
      // Each item's outcome in order; an item still pending for a retryable reason keeps the job's
      // backoff for after the others of its batch are recorded.
      let retry: unknown;
      for (const { item: of, result } of results) {
        if (!result.ok && isRetryable(result.error)) {
          retry ??= result.error;
          continue;
        }
        if (result.ok) {
          await setItem(of, { status: result.outcome.status, postingId: result.outcome.postingId, message: result.outcome.message });
        } else {
          const e = result.error;
          const message = e instanceof AppError ? e.message : e instanceof Error ? e.message : String(e);
          await setItem(of, { status: "failed", message });
          failedRealms.set(of.realmId, of.month);
          if (e instanceof AppError && e.code === ErrorCodes.qboReauthorizationRequired) {
            await db
              .update(consolidationRunItems)
              .set({ status: "skipped", message: "Not posted: the parent company must be re-authorized first.", updatedAt: new Date() })
              .where(and(eq(consolidationRunItems.runId, runId), eq(consolidationRunItems.status, "pending")));
            await setRun(runId, { status: "failed", message, finishedAt: new Date() });
            await deps.ended?.(runId);
            return { failed: message };
          }
        }
        of.status = result.ok ? result.outcome.status : "failed";
        done++;
      }
      if (retry !== undefined) {
        // The job retries with backoff; these items are still pending and nothing is lost.
        await setRun(runId, { message: `Waiting to retry ${item.month}: ${retry instanceof Error ? retry.message : String(retry)}` });
        throw retry;
      }
      await ctx.progress(done / total, `${done} of ${total}`);
    }
    const counts = await itemCounts(database, runId);
    const status = counts.failed > 0 ? "finished_with_failures" : "succeeded";
    await setRun(runId, { status, finishedAt: new Date(), message: `${counts.posted} ${run.kind === "replace" ? "replaced" : "posted"}, ${counts.skipped} skipped, ${counts.failed} failed` });
    await deps.ended?.(runId);
    return counts;
  }
}

type Item = typeof consolidationRunItems.$inferSelect;
type ItemResult = { ok: true; outcome: ReplaceOutcome } | { ok: false; error: unknown };
const ok = (outcome: ReplaceOutcome): ItemResult => ({ ok: true, outcome });
const failed = (error: unknown): ItemResult => ({ ok: false, error });

/**
 * The months posted together with `items[at]` (postings.ts `postBatch`: one batch request): the
 * pending items that follow it in order, up to 30, while each is another subsidiary's month. A
 * subsidiary's next month waits for the next batch, so it is posted only once its month before is
 * known to be posted (a failed one skips the later months, as ever); a replace item or a blocked
 * subsidiary ends the batch, so items are still settled in order.
 */
function batchFrom(items: readonly Item[], at: number, failedRealms: ReadonlyMap<string, string>): Item[] {
  const batch: Item[] = [];
  const realms = new Set<string>();
  for (let j = at; j < items.length && batch.length < MAX_BATCH_ITEMS; j++) {
    const next = items[j]!;
    if (next.status !== "pending") continue;
    if (next.replaces || failedRealms.has(next.realmId) || realms.has(next.realmId)) break;
    batch.push(next);
    realms.add(next.realmId);
  }
  return batch;
}

const monthPeriod = (month: string): RunPeriod => {
  const [year, m] = month.split("-").map(Number) as [number, number];
  return { kind: "month", year, month: m };
};

/** What posting a run's month did, as its item records it. */
function postedItem({ outcome, posting }: PostOutcome, runId: string): ReplaceOutcome {
  // A duplicate is named by its DocNumber, as QuickBooks lists it: the entry's internal Id means nothing to a user.
  // One this run posted is this item's own: resuming another item's batch recorded it first.
  return outcome === "posted" || posting.runId === runId
    ? { status: "posted", postingId: posting.id, message: null }
    : { status: "skipped", postingId: posting.id, message: `Already posted as entry ${posting.docNumber}; skipped as a duplicate.` };
}

/** QuickBooks throttling or outages, or an unknown outcome: try the same item again later. */
function isRetryable(e: unknown): boolean {
  if (e instanceof AppError) return e.code === "qbo_unavailable";
  if (e instanceof QboError) return e.retryable;
  return true;
}

export async function itemCounts(database: Database, runId: string) {
  const rows = await database.db
    .select({ status: consolidationRunItems.status, n: sql<number>`count(*)::int` })
    .from(consolidationRunItems)
    .where(eq(consolidationRunItems.runId, runId))
    .groupBy(consolidationRunItems.status);
  const counts = { total: 0, pending: 0, posted: 0, skipped: 0, failed: 0 };
  for (const r of rows) {
    counts[r.status] += Number(r.n);
    counts.total += Number(r.n);
  }
  return counts;
}

/** Queues (or re-queues) the job of a run; one job per run at a time. */
export async function enqueueRun(queue: JobQueue, run: { id: string; accountId: string }) {
  const { job } = await queue.enqueue({ kind: RUN_JOB, accountId: run.accountId, payload: { runId: run.id }, dedupeKey: `run:${run.id}`, maxAttempts: 8 });
  return job;
}

export const ACTIVE_RUN_STATUSES = ["queued", "running", "pausing"] as const;
export const activeRunFilter = (accountId: string) => and(eq(consolidationRuns.accountId, accountId), inArray(consolidationRuns.status, [...ACTIVE_RUN_STATUSES]));
