import { eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { companies } from "../../db/schema.ts";
import type { JobQueue } from "../../jobs/queue.ts";

export const SYNC_JOB = "company.sync";

/** One sync per company at a time: asking again while one is queued or running returns that one. */
export async function enqueueSync(
  database: Database,
  queue: JobQueue,
  company: { accountId: string; realmId: string },
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
