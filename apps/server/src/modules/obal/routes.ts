import { desc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorBodySchema, obalLockRequestSchema, obalStateSchema, type ObalState } from "@groupledger/contract";
import { calendarMonthOfFiscal } from "@groupledger/domain";
import type { AppContext } from "../../context.ts";
import type { Db } from "../../db/client.ts";
import { obalCompanies, obalPeriods } from "../../db/schema.ts";
import { authOf } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import { loadGroup } from "../group/service.ts";

const security = [{ bearer: [] }];
const err = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema };

export async function obalState(db: Db, accountId: string): Promise<ObalState> {
  const [period] = await db.select().from(obalPeriods).where(eq(obalPeriods.accountId, accountId)).limit(1);
  const rows = await db
    .select()
    .from(obalCompanies)
    .where(eq(obalCompanies.accountId, accountId))
    .orderBy(desc(obalCompanies.postedAt));
  const flag = (pick: (r: (typeof rows)[number]) => Date | null) =>
    Object.fromEntries(rows.filter((r) => pick(r) !== null).map((r) => [r.realmId, true]));
  return {
    year: period?.year ?? null,
    month: period?.month ?? null,
    naturalYear: period?.naturalYear ?? null,
    naturalMonth: period?.naturalMonth ?? null,
    reviewed: flag((r) => r.reviewedAt),
    confirmed: flag((r) => r.confirmedAt),
    posted: flag((r) => r.postedAt),
    // The spec keeps one link: the most recently posted entry.
    trialBalanceJournalEntryUrl: rows.find((r) => r.journalEntryUrl)?.journalEntryUrl ?? "",
  };
}

export const obalRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.get(
    "/obal",
    { schema: { tags: ["opening balance"], security, summary: "Opening-balance state", response: { 200: obalStateSchema, ...err } } },
    async (req) => obalState(db, authOf(req).user.accountId),
  );

  app.post(
    "/obal",
    {
      schema: {
        tags: ["opening balance"],
        security,
        summary: "Lock the opening period",
        description:
          "year/month: the fiscal year and fiscal month (1 = first month of the parent's fiscal year) whose month-end " +
          "balances open the consolidation. A fiscal year is named by the calendar year it ends in. " +
          "naturalYear/naturalMonth: the same month-end on the calendar; it must agree with the parent's fiscal year start.",
        body: obalLockRequestSchema,
        response: { 200: obalStateSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { parent } = await loadGroup(db, user.accountId);
      if (!parent) throw errors.conflict("parent_required", "Connect and choose a parent company before locking the opening period.");
      const { year, month, naturalYear, naturalMonth } = req.body;
      const natural = calendarMonthOfFiscal(year, month, parent.fiscalYearStartMonth);
      if (natural.year !== naturalYear || natural.month !== naturalMonth) {
        throw errors.badRequest(
          "period_mismatch",
          `Fiscal month ${month} of ${year} is ${natural.month}/${natural.year} on the calendar for ${parent.companyName} ` +
            `(fiscal year starts in month ${parent.fiscalYearStartMonth}), not ${naturalMonth}/${naturalYear}.`,
        );
      }
      const inserted = await db
        .insert(obalPeriods)
        .values({ accountId: user.accountId, year, month, naturalYear, naturalMonth, lockedBy: user.id })
        .onConflictDoNothing()
        .returning({ accountId: obalPeriods.accountId });
      if (inserted.length === 0) {
        const current = await obalState(db, user.accountId);
        throw errors.conflict(
          "period_locked",
          `The opening period is already locked to ${current.naturalMonth}/${current.naturalYear}. Reset it before choosing another.`,
        );
      }
      await audit(db, { action: "obal.locked", accountId: user.accountId, userId: user.id, details: req.body, ip: req.ip, requestId: req.id });
      return obalState(db, user.accountId);
    },
  );

  app.post(
    "/obal/reset",
    {
      schema: {
        tags: ["opening balance"],
        security,
        summary: "Clear the opening period and every subsidiary's review, confirmation and posting marks",
        description: "Entries already posted into QuickBooks stay there; the audit log records what was cleared.",
        response: { 200: obalStateSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const before = await obalState(db, user.accountId);
      await db.transaction(async (tx) => {
        await tx.delete(obalCompanies).where(eq(obalCompanies.accountId, user.accountId));
        await tx.delete(obalPeriods).where(eq(obalPeriods.accountId, user.accountId));
      });
      await audit(db, { action: "obal.reset", accountId: user.accountId, userId: user.id, details: { before }, ip: req.ip, requestId: req.id });
      return obalState(db, user.accountId);
    },
  );
};
