import { and, asc, eq, gte } from "drizzle-orm";
import { PERMISSION_LEVELS } from "@groupledger/contract";
import type { Database } from "../../db/client.ts";
import { accounts, consolidationRuns, users } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { PermanentJobError, type JobHandler } from "../../jobs/worker.ts";
import type { Mailer } from "../../services/mailer.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { loadGroup } from "../group/service.ts";
import { RunService } from "../runs/service.ts";
import { changedPostings } from "./service.ts";

/**
 * The group's setting "replace changed entries after the nightly sync" (accounts.nightly_replace_changed):
 * once the nightly job's syncs have all ended, every posted entry they found changed is replaced by
 * a `replace` run, approved in advance by the setting, and the admins get a summary by mail when
 * that run ends.
 */
export const NIGHTLY_REPLACE_JOB = "group.nightly-replace";

/** Queued by the nightly job after the syncs it queued; it waits for them (retried with the queue's backoff, about 25 minutes in all). */
export async function enqueueNightlyReplace(queue: JobQueue, accountId: string, localDate: string, syncJobIds: readonly string[]): Promise<void> {
  await queue.enqueue({
    kind: NIGHTLY_REPLACE_JOB,
    accountId,
    payload: { localDate, syncJobIds: [...syncJobIds] },
    dedupeKey: `nightly-replace:${accountId}:${localDate}`,
    maxAttempts: 12,
    runAfter: new Date(Date.now() + 2000),
  });
}

export function nightlyReplaceHandler(deps: { database: Database; provider: QboProvider; queue: JobQueue }): JobHandler {
  const { db } = deps.database;
  return async (ctx) => {
    const accountId = ctx.job.accountId;
    if (!accountId) throw new PermanentJobError("a nightly replacement names no account");
    const syncJobIds = ctx.job.payload["syncJobIds"];
    for (const id of Array.isArray(syncJobIds) ? syncJobIds : []) {
      const job = await deps.queue.get(String(id));
      if (job && (job.state === "queued" || job.state === "running")) throw new Error("the nightly syncs are still running; replacing waits for them");
    }
    const [account] = await db.select({ on: accounts.nightlyReplaceChanged }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
    if (!account?.on) return { skipped: "the setting was turned off" };
    const changed = await changedPostings(db, accountId);
    if (changed.length === 0) return { replaced: 0 };
    try {
      const run = await new RunService(deps).startReplace(
        { accountId, userId: null },
        { approve: true, postings: changed.map((p) => ({ id: p.id, detectedAt: p.stale!.detectedAt })) },
        "nightly",
      );
      return { runId: run.id, entries: changed.length };
    } catch (e) {
      // A run the user started is posting: the changed entries stay flagged for the next night or the user.
      if (e instanceof AppError && e.code === "run_in_progress") return { skipped: e.message };
      throw e;
    }
  };
}

/** When a run the nightly setting started has ended: what it replaced, mailed to the group's admins. */
export async function mailNightlyReplacement(deps: { database: Database; provider: QboProvider; queue: JobQueue; mailer: Mailer }, runId: string): Promise<void> {
  const { db } = deps.database;
  const [run] = await db.select().from(consolidationRuns).where(eq(consolidationRuns.id, runId)).limit(1);
  if (!run || run.trigger !== "nightly") return;
  const detail = await new RunService(deps).detail(run.accountId, run.id);
  const group = await loadGroup(db, run.accountId);
  const groupName = group.parent?.companyName ?? "your group";
  const admins = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.accountId, run.accountId), gte(users.permissionLevel, PERMISSION_LEVELS.admin)))
    .orderBy(asc(users.createdAt));
  const { posted, skipped, failed } = detail.counts;
  const subject = `GroupLedger: ${posted} changed ${posted === 1 ? "entry" : "entries"} replaced after the nightly sync (${groupName})`;
  const lines = detail.items.map((i) => `- ${i.companyName} ${i.label}: ${i.status === "posted" ? (i.message ?? "replaced") : `${i.status}. ${i.message ?? ""}`.trim()}`);
  const text = [
    `The nightly sync of ${groupName} found posted entries whose books changed. As the group's setting asks, they were replaced in the parent's QuickBooks:`,
    "",
    ...lines,
    "",
    `${posted} replaced, ${skipped} skipped, ${failed} failed.${failed > 0 ? " The failed ones stay flagged under Consolidation → Multi-period runs; replace them there once the reason is resolved." : ""}`,
    "",
    "To stop replacing after the nightly sync, turn it off under Settings → Nightly sync.",
  ].join("\n");
  for (const { email } of admins) {
    const mail = { to: email, subject, text };
    await deps.mailer.deliver(await deps.mailer.enqueue(mail), mail);
  }
}
