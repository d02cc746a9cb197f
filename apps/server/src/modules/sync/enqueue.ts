import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { companies } from "../../db/schema.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import type { JobHandler } from "../../jobs/worker.ts";

export const SYNC_JOB = "company.sync";
/** Queues a company's sync once the one running now has ended (`enqueueSyncAfterChanges`). */
export const SYNC_AGAIN_JOB = "company.sync-again";

type SyncedCompany = { accountId: string; realmId: string };

/** One sync per company at a time: asking again while one is queued or running returns that one. */
export async function enqueueSync(
  database: Database,
  queue: JobQueue,
  company: SyncedCompany,
): Promise<{ jobId: string; alreadyRunning: boolean }> {
  const { job, created } = await queue.enqueue({
    kind: SYNC_JOB,
    accountId: company.accountId,
    payload: { realmId: company.realmId },
    dedupeKey: `sync:${company.realmId}`,
    maxAttempts: 5,
  });
  if (created) {
    await database.db
      .update(companies)
      .set({ syncState: "queued", syncProgress: "0", syncMessage: "Waiting to start", updatedAt: new Date() })
      .where(eq(companies.realmId, company.realmId));
  }
  return { jobId: job.id, alreadyRunning: !created };
}

/**
 * A sync that sees every change made so far (QuickBooks' webhooks): a new one, or the queued one
 * (it has read nothing yet). A sync already running may have asked CDC for changes before this one
 * was made, so then a `company.sync-again` job (one per company) queues the next sync as soon as
 * the running one has ended; that sync's CDC starts where the running one's did.
 */
export async function enqueueSyncAfterChanges(database: Database, queue: JobQueue, company: SyncedCompany): Promise<{ jobId: string; alreadyRunning: boolean; again: boolean }> {
  const queued = await enqueueSync(database, queue, company);
  if (!queued.alreadyRunning || (await queue.get(queued.jobId))?.state !== "running") return { ...queued, again: false };
  await queue.enqueue({
    kind: SYNC_AGAIN_JOB,
    accountId: company.accountId,
    payload: { realmId: company.realmId },
    dedupeKey: `sync-again:${company.realmId}`,
    // Retried with the queue's backoff (2 s, 4 s, … 5 minutes) while the sync runs: about 25 minutes.
    maxAttempts: 12,
    runAfter: new Date(Date.now() + 2000),
  });
  return { ...queued, again: true };
}

/** The `company.sync-again` job: queues the sync once none is running; until then it fails and is retried. */
export function syncAgainHandler(deps: { database: Database; queue: JobQueue }): JobHandler {
  return async (ctx) => {
    const realmId = String(ctx.job.payload["realmId"] ?? "");
    const [company] = await deps.database.db
      .select({ accountId: companies.accountId, realmId: companies.realmId, connection: companies.connection })
      .from(companies)
      .where(eq(companies.realmId, realmId))
      .limit(1);
    if (!company || company.connection !== "connected") return { skipped: company ? "the company is not connected" : "the company was removed" };
    const { jobId, alreadyRunning } = await enqueueSync(deps.database, deps.queue, company);
    if (alreadyRunning && (await deps.queue.get(jobId))?.state === "running") throw new Error("a sync of this company is still running; the next one is queued when it ends");
    return { jobId, alreadyRunning };
  };
}
