import { and, desc, eq, gte, inArray, lte, ne } from "drizzle-orm";
import { BOARD_PACK_PENDING_MAX, type BoardPackJob, type BoardPackLayoutView, type BoardPackRequest, type BoardPackSchedule, type BoardPackScheduleUpdate, type ConsolidatedReport } from "@groupledger/contract";
import { boardPackLayout, type BoardPack, type BoardPackInput } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { boardPacks, boardPackSchedules, dataVersions, fxRates, jobs, users } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { JobQueue, JobRow } from "../../jobs/queue.ts";
import type { Mail, Mailer } from "../../services/mailer.ts";
import { cashFlowReport } from "../cash-flow/service.ts";
import { changesInEquityReport } from "../reports/changes-in-equity.ts";
import { exportLabels } from "../reports/labels.ts";
import { checkReportPeriod } from "../reports/report-period.ts";
import { consolidatedReport } from "../reports/report.ts";
import { renderBoardPackPdf } from "./pdf.ts";
import { type BoardPackRecipients, forgetUnchosen, recipientMessages, recipientRows, statusOf } from "./recipients.ts";

/** Generates a board pack (payload: from, to, compare) and keeps it in `board_packs`. */
export const BOARD_PACK_JOB = "board-pack.generate";

export const PDF_TYPE = "application/pdf";

type Progress = (fraction: number, message: string) => Promise<void>;

const dataStamp = async (db: Db, accountId: string): Promise<number> => {
  const [row] = await db.select({ version: dataVersions.version }).from(dataVersions).where(eq(dataVersions.accountId, accountId)).limit(1);
  return row?.version ?? 0;
};

export const boardPackFileName = (query: BoardPackRequest) => `board-pack-${query.from === query.to ? query.from : `${query.from}_to_${query.to}`}.pdf`;

/**
 * Everything the pack shows, gathered from the statements' own services (the consolidated report
 * with its comparison, the cash flow, the changes in equity), the FX rates the consolidation used
 * and each subsidiary's CTA explanation. 409 `report_blocked` when the period does not consolidate.
 */
export async function boardPackInput(db: Db, accountId: string, query: BoardPackRequest, progress: Progress): Promise<BoardPackInput> {
  const { report } = await consolidatedReport(db, accountId, query);
  if (!report.ok || !report.report) {
    throw new AppError(409, "report_blocked", `The consolidation for ${report.period.label} cannot be computed yet: ${report.problems[0]?.message ?? "see the report's problems."}`, {
      problems: report.problems,
    });
  }
  await progress(0.25, "Consolidated statements ready; preparing the cash flow");
  const cashFlow = await cashFlowReport(db, accountId, { from: query.from, to: query.to });
  await progress(0.45, "Cash flow ready; preparing the changes in equity");
  const equity = await changesInEquityReport(db, accountId, { from: query.from, to: query.to });
  await progress(0.65, "Changes in equity ready; reading the rates");
  const { parentName } = await exportLabels(db, accountId);
  const r = report.report;
  const c = report.comparison;
  const missing = (what: string, problems: { message: string }[]) => ({ missing: `The ${what} cannot be computed for this period: ${problems[0]?.message ?? "see its page in the reports area."}` });
  return {
    groupName: parentName ?? "Group",
    period: { from: query.from, to: query.to },
    currency: report.parentCurrency,
    balanceSheet: r.balanceSheet,
    incomeStatement: r.incomeStatement,
    comparison: c && c.ok && c.balanceSheet && c.incomeStatement ? { period: c.period, balanceSheet: c.balanceSheet, incomeStatement: c.incomeStatement } : null,
    cashFlow: cashFlow.statement ?? missing("statement of cash flows", cashFlow.problems),
    equity: equity.statement ?? missing("statement of changes in equity", equity.problems),
    rates: await ratesUsed(db, accountId, report),
    cta: r.entities.filter((e) => e.method === "currentRate").map((e) => ({ name: e.name, currency: e.currency, months: e.ctaExplanation.months, total: e.ctaExplanation.total })),
    generatedAt: new Date().toISOString(),
  };
}

/** The closing and average rate of each subsidiary's currency for each month of the period (the rates the engine translated with). */
async function ratesUsed(db: Db, accountId: string, report: ConsolidatedReport): Promise<BoardPackInput["rates"]> {
  const currencies = [...new Set((report.report?.entities ?? []).map((e) => e.currency).filter((cur) => cur !== report.parentCurrency))];
  if (currencies.length === 0) return [];
  const rows = await db
    .select()
    .from(fxRates)
    .where(and(eq(fxRates.accountId, accountId), inArray(fxRates.currency, currencies), gte(fxRates.month, report.period.from), lte(fxRates.month, report.period.to)));
  return rows.map((row) => ({ currency: row.currency, month: row.month, average: row.average ?? "", closing: row.closing ?? "" }));
}

/** Builds the pack's pages and PDF and keeps them; answers the kept row's id. */
export async function generateBoardPack(db: Db, accountId: string, jobId: string, query: BoardPackRequest, progress: Progress): Promise<{ packId: string; pack: BoardPack; pdf: Buffer; fileName: string }> {
  const version = await dataStamp(db, accountId);
  const pack = boardPackLayout(await boardPackInput(db, accountId, query, progress));
  await progress(0.75, "Drawing the PDF");
  const pdf = await renderBoardPackPdf(pack, (done, of) => progress(0.75 + (0.2 * done) / of, `Drawing the PDF: ${done} of ${of} sections`));
  const fileName = boardPackFileName(query);
  const [row] = await db
    .insert(boardPacks)
    .values({ accountId, jobId, periodFrom: query.from, periodTo: query.to, compare: query.compare, dataVersion: version, fileName, pdf: pdf.toString("base64"), layout: pack as unknown as Record<string, unknown> })
    .onConflictDoUpdate({ target: boardPacks.jobId, set: { pdf: pdf.toString("base64"), layout: pack as unknown as Record<string, unknown>, dataVersion: version, createdAt: new Date() } })
    .returning({ id: boardPacks.id });
  // Only the newest pack of a period and comparison is kept: an older one was made from older data.
  await db
    .delete(boardPacks)
    .where(and(eq(boardPacks.accountId, accountId), eq(boardPacks.periodFrom, query.from), eq(boardPacks.periodTo, query.to), eq(boardPacks.compare, query.compare), ne(boardPacks.id, row!.id)));
  return { packId: row!.id, pack, pdf, fileName };
}

const STATES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

/** The board pack routes' work: start a generation (or reuse the kept pack), its progress, the PDF. */
export class BoardPackService {
  constructor(private readonly deps: { db: Db; queue: JobQueue }) {}

  /**
   * Queues the pack's generation, or answers the kept one when nothing it reads has changed since
   * (the account's data version): a second download does not compute it again. The same pack asked
   * for while it is being generated is that job (dedupe key).
   */
  async request(accountId: string, query: BoardPackRequest): Promise<BoardPackJob> {
    checkReportPeriod(query);
    const { db, queue } = this.deps;
    const version = await dataStamp(db, accountId);
    // A pack the monthly mail made is kept too, but answered only through generation jobs of its own.
    const [kept] = await db
      .select({ jobId: boardPacks.jobId })
      .from(boardPacks)
      .innerJoin(jobs, and(eq(jobs.id, boardPacks.jobId), eq(jobs.kind, BOARD_PACK_JOB)))
      .where(
        and(
          eq(boardPacks.accountId, accountId),
          eq(boardPacks.periodFrom, query.from),
          eq(boardPacks.periodTo, query.to),
          eq(boardPacks.compare, query.compare),
          eq(boardPacks.dataVersion, version),
        ),
      )
      .orderBy(desc(boardPacks.createdAt))
      .limit(1);
    if (kept) return this.job(accountId, kept.jobId);
    const { job } = await queue.enqueue({
      kind: BOARD_PACK_JOB,
      accountId,
      payload: { from: query.from, to: query.to, compare: query.compare },
      dedupeKey: `board-pack:${accountId}:${query.from}:${query.to}:${query.compare}:${version}`,
      maxAttempts: 3,
    });
    return this.view(job);
  }

  async job(accountId: string, jobId: string): Promise<BoardPackJob> {
    const [job] = await this.deps.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, jobId), eq(jobs.accountId, accountId), eq(jobs.kind, BOARD_PACK_JOB)))
      .limit(1);
    if (!job) throw errors.notFound("No such board pack in your account.");
    return this.view(job);
  }

  async pdf(accountId: string, packId: string): Promise<{ name: string; contentType: string; content: Buffer }> {
    const [row] = await this.deps.db
      .select({ fileName: boardPacks.fileName, pdf: boardPacks.pdf })
      .from(boardPacks)
      .where(and(eq(boardPacks.id, packId), eq(boardPacks.accountId, accountId)))
      .limit(1);
    if (!row) throw errors.notFound("No such board pack in your account.");
    return { name: row.fileName, contentType: PDF_TYPE, content: Buffer.from(row.pdf, "base64") };
  }

  private async view(job: JobRow): Promise<BoardPackJob> {
    const [pack] =
      job.state === "succeeded"
        ? await this.deps.db.select({ id: boardPacks.id, fileName: boardPacks.fileName, layout: boardPacks.layout }).from(boardPacks).where(eq(boardPacks.jobId, job.id)).limit(1)
        : [];
    const state = STATES.includes(job.state as (typeof STATES)[number]) ? (job.state as (typeof STATES)[number]) : "queued";
    return {
      jobId: job.id,
      state,
      progress: Number(job.progress),
      message: job.message,
      error: job.state === "failed" || job.state === "queued" ? job.error : null,
      pack: pack ? { id: pack.id, fileName: pack.fileName, layout: pack.layout as unknown as BoardPackLayoutView } : null,
    };
  }
}

/** Addresses the team has proven it reads: each member's sign-in email (verified) and verified report address. */
export async function verifiedAddresses(db: Db, accountId: string): Promise<string[]> {
  const rows = await db
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt, reportEmail: users.reportEmail, reportVerifiedAt: users.reportEmailVerifiedAt })
    .from(users)
    .where(eq(users.accountId, accountId));
  const out = new Set<string>();
  for (const r of rows) {
    if (r.verifiedAt) out.add(r.email.toLowerCase());
    if (r.reportEmail && r.reportVerifiedAt) out.add(r.reportEmail.toLowerCase());
  }
  return [...out].sort();
}

/** The addresses that may be mailed the pack: the team's verified ones and the outside ones their owners confirmed. */
export async function mailableAddresses(db: Db, accountId: string): Promise<Set<string>> {
  const rows = await recipientRows(db, accountId);
  const out = new Set(await verifiedAddresses(db, accountId));
  for (const [email, row] of rows) if (row.state === "confirmed") out.add(email);
  return out;
}

export async function scheduleOf(db: Db, accountId: string): Promise<BoardPackSchedule> {
  const [row] = await db.select().from(boardPackSchedules).where(eq(boardPackSchedules.accountId, accountId)).limit(1);
  const verified = await verifiedAddresses(db, accountId);
  const rows = await recipientRows(db, accountId);
  const recipients = row?.recipients ?? [];
  return {
    enabled: row?.enabled ?? false,
    dayOfMonth: row?.dayOfMonth ?? 1,
    compare: (row?.compare as BoardPackSchedule["compare"] | undefined) ?? "prior_period",
    recipients,
    lastMonth: row?.lastMonth ?? null,
    verifiedAddresses: verified,
    recipientStatus: statusOf(recipients, new Set(verified), rows),
    declined: [...rows.values()].filter((r) => r.state === "declined").map((r) => ({ email: r.email, at: (r.declinedAt ?? r.createdAt).toISOString() })),
  };
}

/**
 * Saves the monthly schedule. A recipient that is not a verified address of the team is kept
 * pending and mailed a confirmation link when it is newly chosen (double opt-in: nothing is sent to
 * it until its owner confirms); one that declined is refused (422 `recipient_declined`), as are more
 * than `BOARD_PACK_PENDING_MAX` awaiting confirmation (422) and confirmation mails past the account's
 * budget (429): then nothing is saved. Turning it on needs a recipient. A month whose day has
 * already passed when it is saved counts as sent, so the first mail goes on the next set day, not
 * at the scheduler's next tick.
 */
export async function saveSchedule(
  db: Db,
  user: { id: string; accountId: string; email: string; name: string | null },
  body: BoardPackScheduleUpdate & { compare: BoardPackSchedule["compare"] },
  deps: { recipients: BoardPackRecipients; mailer: Mailer; origin: string },
  at = new Date(),
): Promise<BoardPackSchedule> {
  const recipients = [...new Set(body.recipients)];
  if (body.enabled && recipients.length === 0) throw errors.badRequest("no_recipients", "Choose at least one recipient before turning the monthly board pack on.");
  const verified = new Set(await verifiedAddresses(db, user.accountId));
  const rows = await recipientRows(db, user.accountId);
  const outside = recipients.filter((r) => !verified.has(r));
  const declined = outside.filter((r) => rows.get(r)?.state === "declined");
  if (declined.length > 0) throw new AppError(422, "recipient_declined", recipientMessages.declined(declined), { declined });
  const [saved] = await db.select({ recipients: boardPackSchedules.recipients }).from(boardPackSchedules).where(eq(boardPackSchedules.accountId, user.accountId)).limit(1);
  const before = new Set(saved?.recipients ?? []);
  // Newly chosen and not known yet: each is mailed a link. (One chosen before that is no longer a team address waits for "Resend confirmation".)
  const fresh = outside.filter((r) => !rows.has(r) && !before.has(r));
  const pending = outside.filter((r) => rows.get(r)?.state === "pending").length + fresh.length;
  if (pending > BOARD_PACK_PENDING_MAX) throw new AppError(422, "too_many_pending", recipientMessages.tooManyPending(BOARD_PACK_PENDING_MAX, pending), { max: BOARD_PACK_PENDING_MAX });
  const refund = await deps.recipients.reserve(user.accountId, fresh.length);
  const values = { enabled: body.enabled, dayOfMonth: body.dayOfMonth, compare: body.compare, recipients, linkOrigin: deps.origin, updatedBy: user.id, updatedAt: at };
  const passed = dueMonth(body.dayOfMonth, at);
  let mails: { id: string; mail: Mail }[];
  try {
    mails = await db.transaction(async (tx) => {
      const [existing] = await tx.select({ lastMonth: boardPackSchedules.lastMonth }).from(boardPackSchedules).where(eq(boardPackSchedules.accountId, user.accountId)).limit(1);
      const lastMonth = existing?.lastMonth && existing.lastMonth >= (passed ?? "") ? existing.lastMonth : passed;
      await tx
        .insert(boardPackSchedules)
        .values({ accountId: user.accountId, ...values, lastMonth })
        .onConflictDoUpdate({ target: boardPackSchedules.accountId, set: { ...values, lastMonth } });
      await forgetUnchosen(tx, user.accountId, recipients);
      const out: { id: string; mail: Mail }[] = [];
      for (const email of fresh) {
        const prepared = await deps.recipients.writePending(tx, { accountId: user.accountId, email, by: user, origin: deps.origin, dayOfMonth: body.dayOfMonth, fresh: true });
        if (prepared) out.push(prepared);
      }
      return out;
    });
  } catch (err) {
    await refund();
    throw err;
  }
  // Another save wrote some of the same addresses first (and mailed them): their budget is given back.
  if (mails.length < fresh.length) await refund(fresh.length - mails.length);
  for (const m of mails) await deps.mailer.deliver(m.id, m.mail);
  return scheduleOf(db, user.accountId);
}

/**
 * The month whose pack is due at `at` for a schedule on `dayOfMonth` (UTC): the month before
 * `at`'s once its day has come, else null (the month before that was due last month).
 */
export function dueMonth(dayOfMonth: number, at: Date): string | null {
  if (at.getUTCDate() < dayOfMonth) return null;
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth(); // 0-based: the previous month's 1-based number
  return m === 0 ? `${y - 1}-12` : `${y}-${String(m).padStart(2, "0")}`;
}
