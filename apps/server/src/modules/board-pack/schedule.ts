import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { Ticker } from "../../jobs/ticker.ts";
import { subscriptionAccess } from "@groupledger/contract";
import { monthTextLabel } from "@groupledger/domain";
import type { Database, Db } from "../../db/client.ts";
import { accounts, boardPackSchedules } from "../../db/schema.ts";
import { JobQueue } from "../../jobs/queue.ts";
import { PermanentJobError, type JobHandler } from "../../jobs/worker.ts";
import type { Mailer } from "../../services/mailer.ts";
import type { BoardPackRecipients } from "./recipients.ts";
import { dueMonth, generateBoardPack, mailableAddresses, PDF_TYPE } from "./service.ts";

/** Mails a month's board pack to the schedule's recipients (payload: month, compare, recipients). */
export const BOARD_PACK_MAIL_JOB = "board-pack.mail";
export const BOARD_PACK_TICK_MS = 60_000;

/**
 * The monthly board pack mail, beside the worker in every process that runs one (as the nightly
 * sync's scheduler, sync/nightly.ts): each tick takes the schedules that are on and whose day has
 * come for a month not yet sent, and claims the month with one conditional update of
 * `board_pack_schedules.last_month` in the same transaction as the mail job (dedupe key
 * `board-pack-mail:<account>:<month>`), so however many processes tick at once a month is mailed
 * once, and a crash between the two loses neither. Lapsed trials are left alone.
 */
export class BoardPackScheduler extends Ticker {
  constructor(
    private readonly database: Database,
    log?: FastifyBaseLogger,
    intervalMs = BOARD_PACK_TICK_MS,
  ) {
    super("scheduling board pack mails", log, intervalMs);
  }

  /** Queues the mail of every schedule due at `at`; answers which (tests drive it with a fake clock). */
  async tick(at: Date = new Date()): Promise<{ accountId: string; month: string }[]> {
    const { db } = this.database;
    const rows = await db
      .select({ schedule: boardPackSchedules, status: accounts.subscriptionStatus, trialEndsAt: accounts.trialEndsAt })
      .from(boardPackSchedules)
      .innerJoin(accounts, eq(accounts.id, boardPackSchedules.accountId))
      .where(eq(boardPackSchedules.enabled, true));
    const queued: { accountId: string; month: string }[] = [];
    for (const { schedule, status, trialEndsAt } of rows) {
      if (subscriptionAccess(status, trialEndsAt, at).readOnly) continue;
      const month = dueMonth(schedule.dayOfMonth, at);
      if (month === null || (schedule.lastMonth !== null && schedule.lastMonth >= month)) continue;
      if (await claim(db, schedule.accountId, month, { compare: schedule.compare, recipients: schedule.recipients })) queued.push({ accountId: schedule.accountId, month });
    }
    if (queued.length > 0) this.log?.info({ groups: queued.length }, "queued board pack mails");
    return queued;
  }
}

async function claim(db: Db, accountId: string, month: string, what: { compare: string; recipients: string[] }): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [won] = await tx
      .update(boardPackSchedules)
      .set({ lastMonth: month })
      .where(and(eq(boardPackSchedules.accountId, accountId), eq(boardPackSchedules.enabled, true), or(isNull(boardPackSchedules.lastMonth), lt(boardPackSchedules.lastMonth, month))))
      .returning({ id: boardPackSchedules.accountId });
    if (!won) return false;
    await queueMail(new JobQueue(tx), accountId, month, what, `board-pack-mail:${accountId}:${month}`);
    return true;
  });
}

/** Queues the mail of `month`'s pack to `recipients` (the schedule's, or "Send now"). */
export async function queueMail(queue: JobQueue, accountId: string, month: string, what: { compare: string; recipients: string[] }, dedupeKey: string) {
  return queue.enqueue({ kind: BOARD_PACK_MAIL_JOB, accountId, payload: { month, compare: what.compare, recipients: what.recipients }, dedupeKey, maxAttempts: 3 });
}

/**
 * The mail job: generates the month's pack, then mails it to each recipient that is still chosen
 * and may be mailed: a verified address of the team, or an outside address its owner confirmed
 * (one mail each, with a link to unsubscribe). Any other (awaiting confirmation, no longer
 * verified, taken off since) is skipped and named in the result. Recipients already mailed are kept
 * in the checkpoint, so a retried job never mails anyone twice.
 */
export function boardPackMailHandler(deps: { database: Database; mailer: Mailer; recipients: BoardPackRecipients; publicUrl: string | undefined }): JobHandler {
  return async (ctx) => {
    const accountId = ctx.job.accountId;
    if (!accountId) throw new PermanentJobError("a board pack mail names no account");
    const { db } = deps.database;
    const month = String(ctx.job.payload["month"] ?? "");
    const compare = ctx.job.payload["compare"];
    const recipients = (ctx.job.payload["recipients"] as string[] | undefined) ?? [];
    if (!/^\d{4}-\d{2}$/.test(month)) throw new PermanentJobError(`a board pack mail for ${month || "no month"}`);
    const sent = new Set(((ctx.checkpoint?.["sent"] as string[] | undefined) ?? []).map(String));
    const [schedule] = await db.select({ recipients: boardPackSchedules.recipients, linkOrigin: boardPackSchedules.linkOrigin }).from(boardPackSchedules).where(eq(boardPackSchedules.accountId, accountId)).limit(1);
    const chosen = new Set(schedule?.recipients ?? []);
    const allowed = await mailableAddresses(db, accountId);
    const may = (r: string) => chosen.has(r) && allowed.has(r);
    const to = recipients.filter((r) => may(r) && !sent.has(r));
    const skipped = recipients.filter((r) => !may(r) && !sent.has(r));
    if (to.length === 0) return { month, sent: [...sent], skipped };
    const origin = deps.publicUrl ?? schedule?.linkOrigin ?? "http://localhost:3000";
    const query = { from: month, to: month, compare: compare === "none" || compare === "prior_year" ? compare : ("prior_period" as const) } as const;
    const generated = await generateBoardPack(db, accountId, ctx.job.id, query, (fraction, message) => ctx.progress(fraction * 0.9, message));
    for (const address of to) {
      const mail = {
        to: address,
        subject: `Board pack ${monthTextLabel(month)} (${generated.pack.groupName})`,
        text:
          `The board pack of ${generated.pack.groupName} for ${monthTextLabel(month)} is attached (${generated.fileName}): the consolidated balance sheet, income statement with its comparison, cash flow, changes in equity, key figures, the FX rates used and how the translation reserve was computed.\n\n` +
          `Sent by GroupLedger on the group's monthly schedule (Consolidated reports → Board pack).\n\n` +
          `To stop receiving it at ${address}, unsubscribe here:\n${deps.recipients.unsubscribeLink(origin, accountId, address)}`,
        attachments: [{ filename: generated.fileName, contentType: PDF_TYPE, content: generated.pdf }],
      };
      const id = await deps.mailer.enqueue(mail);
      sent.add(address);
      await ctx.progress(0.9 + (0.1 * sent.size) / recipients.length, `Mailed ${sent.size} of ${to.length}`, { sent: [...sent] });
      await deps.mailer.deliver(id, mail);
    }
    return { month, packId: generated.packId, sent: [...sent], skipped };
  };
}
