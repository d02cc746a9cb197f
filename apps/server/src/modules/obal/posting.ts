import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { closedBooksReason, lastDayOfMonth, monthFromParts } from "@groupledger/domain";
import { journalEntrySchema } from "@groupledger/qbo";
import {
  duplicateModalFlagRequestSchema,
  duplicateModalFlagSchema,
  duplicateModalQuerySchema,
  errorBodySchema,
  journalEntriesQuerySchema,
  journalEntriesResponseSchema,
  obalRealmRequestSchema,
  obalStateSchema,
  obalTrialBalanceSchema,
  realmParamsSchema,
  type ObalTrialBalance,
} from "@groupledger/contract";
import { publicProblem } from "@groupledger/domain";
import type { AppContext } from "../../context.ts";
import type { Database, Db } from "../../db/client.ts";
import { obalCompanies, obalPeriods, userPreferences, type companies } from "../../db/schema.ts";
import { authOf } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { UserRow } from "../../http/auth.ts";
import { audit } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { loadGroup, NO_SUCH_COMPANY } from "../group/service.ts";
import { adjustmentsDocNumber, consolidationDocNumber, eliminationDocNumber, openingDocNumber } from "../posting/names.ts";
import { postOpeningEntry } from "../posting/opening.ts";
import { askQbo, nullIfNotFound } from "../qbo/errors.ts";
import { resolvePeriod } from "../runs/entry.ts";
import { translateSubsidiary } from "../consolidation/translate.ts";
import { obalState } from "./routes.ts";

const security = [{ bearer: [] }];
const tags = ["opening balance"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 502: errorBodySchema };

const monthText = (p: { naturalYear: number; naturalMonth: number }) => monthFromParts(p.naturalYear, p.naturalMonth);

interface Context {
  db: Db;
  user: UserRow;
  realmId: string;
}

async function lockedPeriod(db: Db, accountId: string) {
  const [period] = await db.select().from(obalPeriods).where(eq(obalPeriods.accountId, accountId)).limit(1);
  if (!period) throw errors.conflict("period_not_locked", "Lock the opening period first.");
  return period;
}

async function subsidiary(db: Db, accountId: string, realmId: string) {
  const group = await loadGroup(db, accountId);
  const company = group.company(realmId, NO_SUCH_COMPANY);
  const parent = group.requireParent();
  if (company.isParent) throw errors.badRequest("parent_not_subsidiary", `${company.companyName} is the parent; its own books need no opening entry.`);
  return { company, parent };
}

/** "2023-01" → "January 2023": the reason is read by an accountant, not parsed. */
const monthInWords = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** SPEC §4: eligible when the subsidiary's earliest transaction date is not after the locked month. */
function eligibility(company: typeof companies.$inferSelect, month: string): string | null {
  if (!company.earliestTransactionDate) return `${company.companyName} has not been synced yet, so its first month is unknown.`;
  const first = company.earliestTransactionDate.slice(0, 7);
  if (first > month) {
    return (
      `${company.companyName}'s books start in ${monthInWords(first)} (first transaction on ${company.earliestTransactionDate}), ` +
      `after the opening month, ${monthInWords(month)}: it has no balances to open with.`
    );
  }
  return null;
}

async function trialBalance(db: Db, accountId: string, realmId: string): Promise<ObalTrialBalance> {
  const period = await lockedPeriod(db, accountId);
  const { company, parent } = await subsidiary(db, accountId, realmId);
  const month = monthText(period);
  const reason =
    eligibility(company, month) ??
    closedBooksReason(parent, lastDayOfMonth(month), `the opening entry of ${company.companyName}`, "choose a later opening month (the opening month is chosen on Opening Balance Sheet before it is locked)");
  if (reason) return { realmId, eligible: false, reason, ok: false, problems: [], view: null };
  const t = await translateSubsidiary(db, accountId, realmId, month);
  const view = t.ok ? t : (t.preview ?? null);
  return {
    realmId,
    eligible: true,
    reason: null,
    ok: t.ok,
    problems: t.problems.map(publicProblem),
    view: view && {
      companyName: view.companyName,
      currency: view.currency,
      parentCurrency: view.parentCurrency,
      month: view.month,
      openingMonth: view.openingMonth,
      period: view.period,
      lines: view.lines,
      byParentAccount: view.byParentAccount,
      cta: view.cta,
      totals: view.totals,
    },
  };
}

/** Refuses a transition with the reason in words; otherwise applies `set` where `from` holds. */
async function transition(
  c: Context,
  action: "review" | "unreview" | "confirm" | "unconfirm",
  meta: { ip: string; requestId: string },
): Promise<void> {
  const { db, user, realmId } = c;
  await lockedPeriod(db, user.accountId);
  const { company } = await subsidiary(db, user.accountId, realmId);
  const [row] = await db.select().from(obalCompanies).where(and(eq(obalCompanies.accountId, user.accountId), eq(obalCompanies.realmId, realmId))).limit(1);
  const state = row?.postedAt ? "posted" : row?.confirmedAt ? "confirmed" : row?.reviewedAt ? "reviewed" : "unreviewed";
  const name = company.companyName;
  const refuse = (message: string) => errors.conflict("illegal_transition", message);
  const now = new Date();
  let set: Partial<typeof obalCompanies.$inferInsert>;
  switch (action) {
    case "review": {
      if (state !== "unreviewed") throw refuse(`${name} is already ${state}.`);
      const tb = await trialBalance(db, user.accountId, realmId);
      if (!tb.eligible) throw refuse(tb.reason!);
      if (!tb.ok) throw new AppError(409, "review_blocked", `${name} cannot be reviewed yet: ${tb.problems[0]?.message ?? "its trial balance does not translate."}`, { problems: tb.problems });
      set = { reviewedAt: now };
      break;
    }
    case "unreview":
      if (state !== "reviewed") throw refuse(state === "unreviewed" ? `${name} has not been reviewed.` : `${name} is ${state}; unconfirm it first.`);
      set = { reviewedAt: null };
      break;
    case "confirm":
      if (state !== "reviewed") throw refuse(state === "unreviewed" ? `Review ${name} before confirming it.` : `${name} is already ${state}.`);
      set = { confirmedAt: now };
      break;
    case "unconfirm":
      if (state !== "confirmed") throw refuse(state === "posted" ? `${name} is already posted; it cannot be unconfirmed. If its entry was deleted in QuickBooks, mark it deleted first.` : `${name} is not confirmed.`);
      set = { confirmedAt: null };
      break;
  }
  await db
    .insert(obalCompanies)
    .values({ accountId: user.accountId, realmId, ...set, updatedAt: now })
    .onConflictDoUpdate({ target: [obalCompanies.accountId, obalCompanies.realmId], set: { ...set, updatedAt: now } });
  await audit(db, { action: `obal.${action}`, accountId: user.accountId, userId: user.id, details: { realmId }, ...meta });
}

async function post(c: Context, deps: { database: Database; provider: QboProvider }, meta: { ip: string; requestId: string }): Promise<void> {
  const { db, user, realmId } = c;
  const period = await lockedPeriod(db, user.accountId);
  const { company, parent } = await subsidiary(db, user.accountId, realmId);
  const [row] = await db.select().from(obalCompanies).where(and(eq(obalCompanies.accountId, user.accountId), eq(obalCompanies.realmId, realmId))).limit(1);
  if (row?.postedAt) return; // a second click or tab: already done, same answer
  if (!row?.confirmedAt) throw errors.conflict("illegal_transition", `Confirm ${company.companyName} before posting it.`);
  const month = monthText(period);
  const tb = await trialBalance(db, user.accountId, realmId);
  if (!tb.ok || !tb.view) {
    throw new AppError(409, "posting_blocked", `${company.companyName} cannot be posted: ${tb.problems[0]?.message ?? tb.reason ?? "its trial balance does not translate."}`, { problems: tb.problems });
  }
  await postOpeningEntry(
    deps,
    { accountId: user.accountId, userId: user.id, row, company, parent, month, txnDate: lastDayOfMonth(month), lines: tb.view.byParentAccount, meta },
  );
}

export const obalPostingRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);
  const meta = (req: { ip: string; id: string }) => ({ ip: req.ip, requestId: req.id });
  const ctx = (req: Parameters<typeof authOf>[0], realmId: string): Context => ({ db, user: authOf(req).user, realmId });

  app.get(
    "/obal/:realmId/trialbalance",
    {
      schema: { tags, security, summary: "A subsidiary's trial balance at the locked month-end: local, translated, mapped, with CTA", params: realmParamsSchema, response: { 200: obalTrialBalanceSchema, ...err } },
    },
    async (req) => trialBalance(db, authOf(req).user.accountId, req.params.realmId),
  );

  for (const action of ["review", "unreview", "confirm", "unconfirm"] as const) {
    app.post(
      `/obal/${action}`,
      {
        schema: {
          tags,
          security,
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} a subsidiary's opening balance (unreviewed → reviewed → confirmed → posted)`,
          description: action === "review" || action === "confirm" ? "Not in the product spec; defined here." : undefined,
          body: obalRealmRequestSchema,
          response: { 200: obalStateSchema, ...err },
        },
      },
      async (req) => {
        await transition(ctx(req, req.body.realmId), action, meta(req));
        return obalState(db, authOf(req).user.accountId);
      },
    );
  }

  app.post(
    "/balances/post/:realmId",
    {
      schema: {
        tags,
        security,
        summary: "Post a confirmed subsidiary's translated opening trial balance into the parent's QuickBooks, once",
        params: realmParamsSchema,
        response: { 200: obalStateSchema, ...err },
      },
    },
    async (req) => {
      const c = ctx(req, req.params.realmId);
      const { company } = await subsidiary(db, c.user.accountId, c.realmId);
      // One posting per subsidiary at a time, across processes: a second click waits, then sees it posted.
      await database.withLock(`obal-post:${c.user.accountId}:${c.realmId}`, `Another posting of ${company.companyName}'s opening balance is in progress`, () =>
        post(c, { database, provider }, meta(req)),
      );
      return obalState(db, c.user.accountId);
    },
  );

  app.get(
    "/getJournalEntries/:realmId",
    {
      schema: {
        tags,
        security,
        summary: "Entries already in the parent's QuickBooks for this subsidiary and month (duplicate check)",
        description:
          "month/year: the period's month-end; flag obal|consolidation|eliminations|adjustments (eliminations and group adjustments: ask with the parent's realmId); period month|quarter|year; division: the subsidiary's class name (defaults to its company name).",
        params: realmParamsSchema,
        querystring: journalEntriesQuerySchema,
        response: { 200: journalEntriesResponseSchema, ...err },
      },
    },
    async (req) => {
      const { accountId } = authOf(req).user;
      const month = monthFromParts(req.query.year, req.query.month);
      const period = (parent: Parameters<typeof resolvePeriod>[0]) => resolvePeriod(parent, { kind: req.query.period, year: req.query.year, month: req.query.month });
      let parent: Parameters<typeof resolvePeriod>[0];
      let docNumber: string;
      if (req.query.flag === "eliminations" || req.query.flag === "adjustments") {
        // Eliminations and group adjustments belong to the group, not a subsidiary: asked for with the parent's realm.
        const company = (await loadGroup(db, accountId)).company(req.params.realmId, NO_SUCH_COMPANY);
        if (!company.isParent) throw errors.badRequest("not_parent", "Ask for elimination and group adjustment entries with the parent company's realmId.");
        parent = company;
        docNumber = req.query.flag === "adjustments" ? adjustmentsDocNumber(period(parent).code) : eliminationDocNumber(period(parent).code);
      } else {
        const found = await subsidiary(db, accountId, req.params.realmId);
        parent = found.parent;
        docNumber = req.query.flag === "consolidation" ? consolidationDocNumber(period(parent), found.company.realmId) : openingDocNumber(month, found.company.realmId);
      }
      const found = await askQbo({ subject: "parent", then: "post again", unavailable: (e) => `QuickBooks could not be asked for existing entries: ${e.message}.` }, () =>
        provider.client(parent.realmId).query(`SELECT * FROM JournalEntry WHERE DocNumber = '${docNumber}'`, journalEntrySchema),
      );
      const entries = found.map((e) => ({ id: e.id, docNumber: e.docNumber ?? null, txnDate: e.txnDate, url: provider.journalEntryUrl(parent.realmId, e.id) }));
      return { entriesFound: entries.length > 0, entries };
    },
  );

  app.post(
    "/postIsDeletedFlag",
    {
      schema: {
        tags,
        security,
        summary: "Record that a posted opening entry was deleted in QuickBooks, so it can be posted again",
        description: "The spec does not show the payload; it is {realmId}. QuickBooks is asked first: an entry still there is not marked deleted.",
        body: obalRealmRequestSchema,
        response: { 200: obalStateSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      const { company, parent } = await subsidiary(db, user.accountId, req.body.realmId);
      const [row] = await db.select().from(obalCompanies).where(and(eq(obalCompanies.accountId, user.accountId), eq(obalCompanies.realmId, company.realmId))).limit(1);
      if (!row?.postedAt || !row.journalEntryId) throw errors.conflict("not_posted", `${company.companyName} has no posted opening entry.`);
      const journalEntryId = row.journalEntryId;
      const stillThere = await askQbo({ subject: "parent", then: "mark it deleted again", unavailable: (e) => `QuickBooks could not be asked whether entry ${journalEntryId} is still there (${e.message}); try again.` }, async () =>
        (await provider.client(parent.realmId).readJournalEntry(journalEntryId).catch(nullIfNotFound)) !== null,
      );
      if (stillThere) throw errors.conflict("entry_still_exists", `Entry ${row.journalEntryId} is still in QuickBooks. Delete it there first.`);
      await db
        .update(obalCompanies)
        .set({ postedAt: null, journalEntryId: null, journalEntryUrl: null, postGeneration: row.postGeneration + 1, updatedAt: new Date() })
        .where(and(eq(obalCompanies.accountId, user.accountId), eq(obalCompanies.realmId, company.realmId)));
      await audit(db, { action: "obal.entry_deleted", accountId: user.accountId, userId: user.id, details: { realmId: company.realmId, journalEntryId: row.journalEntryId }, ...meta(req) });
      return obalState(db, user.accountId);
    },
  );

  app.get(
    "/getDontShowDuplicateJEModalFlag",
    { schema: { tags, security, summary: "Whether the user asked not to see the duplicate-entry warning again", querystring: duplicateModalQuerySchema, response: { 200: duplicateModalFlagSchema, ...err } } },
    async (req) => {
      const [row] = await db
        .select()
        .from(userPreferences)
        .where(and(eq(userPreferences.userId, authOf(req).user.id), eq(userPreferences.key, `dontShowDuplicateJE:${req.query.JE}`)))
        .limit(1);
      return { isDontShowDuplicateJEModalChecked: row?.value === true };
    },
  );

  app.post(
    "/setDontShowDuplicateJEModalFlag",
    {
      schema: {
        tags,
        security,
        summary: "Remember the duplicate-entry warning preference",
        description: "Not in the product spec; defined here.",
        body: duplicateModalFlagRequestSchema,
        response: { 200: duplicateModalFlagSchema, ...err },
      },
    },
    async (req) => {
      const key = `dontShowDuplicateJE:${req.body.JE}`;
      const userId = authOf(req).user.id;
      await db
        .insert(userPreferences)
        .values({ userId, key, value: req.body.checked })
        .onConflictDoUpdate({ target: [userPreferences.userId, userPreferences.key], set: { value: req.body.checked, updatedAt: new Date() } });
      return { isDontShowDuplicateJEModalChecked: req.body.checked };
    },
  );
};
