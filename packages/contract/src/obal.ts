import { z } from "zod";
import { realmParamsSchema } from "./companies.ts";
import { GET, POST } from "./endpoint.ts";

const year = z.number({ error: "Year must be a number such as 2025." }).int().min(2000, "Year must be 2000 or later.").max(2100, "Year must be 2100 or earlier.");
const month = z.number({ error: "Month must be a number from 1 to 12." }).int().min(1, "Month must be from 1 to 12.").max(12, "Month must be from 1 to 12.");

/**
 * SPEC §3 OBAL state. year/month are the fiscal period whose month-end balances open the
 * consolidation; naturalYear/naturalMonth the same month-end on the calendar (they differ only in
 * how a non-January fiscal year numbers it). Maps are keyed by the subsidiary's realmId.
 */
export const obalStateSchema = z.object({
  year: z.number().int().nullable(),
  month: z.number().int().nullable(),
  naturalYear: z.number().int().nullable(),
  naturalMonth: z.number().int().nullable(),
  reviewed: z.record(z.string(), z.boolean()),
  confirmed: z.record(z.string(), z.boolean()),
  posted: z.record(z.string(), z.boolean()),
  trialBalanceJournalEntryUrl: z.string(),
});
export type ObalState = z.infer<typeof obalStateSchema>;

export const obalLockRequestSchema = z.object({ year, month, naturalYear: year, naturalMonth: month });
export type ObalLockRequest = z.infer<typeof obalLockRequestSchema>;

/** SPEC §3/§2: the opening balance counts as configured when both year and month are set. */
export const obalConfigured = (s: Pick<ObalState, "year" | "month">): boolean => s.year !== null && s.month !== null;

export const obalRealmRequestSchema = z.object({ realmId: z.string().trim().min(1, "realmId is required.").max(32) });

/** What blocks a translation or posting; a missing rate also names its currency and month (packages/domain publicProblem). */
export const problemSchema = z.object({ code: z.string(), message: z.string(), currency: z.string().optional(), month: z.string().optional() });
const tbLineSchema = z.object({
  account: z.string().nullable(),
  special: z.string().nullable(),
  name: z.string(),
  classification: z.string(),
  local: z.number().int(),
  translated: z.number().int(),
  basis: z.string(),
  rate: z.string().nullable(),
  parentAccount: z.string(),
  parentAccountName: z.string(),
});

/** A subsidiary's trial balance at the locked month-end: local, translated and mapped, with the CTA line. */
export const obalTrialBalanceSchema = z.object({
  realmId: z.string(),
  eligible: z.boolean(),
  /** Why a subsidiary is not eligible (its books start after the locked month). */
  reason: z.string().nullable(),
  /** False when something blocks review and posting; `problems` says what. */
  ok: z.boolean(),
  problems: z.array(problemSchema),
  view: z
    .object({
      companyName: z.string(),
      currency: z.string(),
      parentCurrency: z.string(),
      month: z.string(),
      openingMonth: z.string(),
      period: z.object({ from: z.string(), to: z.string() }),
      lines: z.array(tbLineSchema),
      byParentAccount: z.array(z.object({ account: z.string(), name: z.string(), amount: z.number().int() })),
      cta: z.object({ account: z.string(), opening: z.number().int(), change: z.number().int(), closing: z.number().int(), explanation: z.unknown() }),
      totals: z.object({ localDebit: z.number().int(), localCredit: z.number().int(), debit: z.number().int(), credit: z.number().int(), balanced: z.boolean() }),
    })
    .nullable(),
});
export type ObalTrialBalance = z.infer<typeof obalTrialBalanceSchema>;

/** SPEC §3 Journal entry query; the spec leaves flag/period/quarter/division open (see the API docs). */
export const journalEntriesQuerySchema = z.object({
  month: z.coerce.number().int().min(1).max(12),
  year: z.coerce.number().int().min(2000).max(2100),
  flag: z.enum(["obal", "consolidation", "eliminations", "adjustments"]).default("obal"),
  period: z.enum(["month", "quarter", "year"]).default("month"),
  quarter: z.coerce.number().int().min(1).max(4).optional(),
  division: z.string().max(100).optional(),
});
export const journalEntriesResponseSchema = z.object({
  entriesFound: z.boolean(),
  entries: z.array(z.object({ id: z.string(), docNumber: z.string().nullable(), txnDate: z.string(), url: z.string() })),
});

export const duplicateModalQuerySchema = z.object({ JE: z.string().min(1).max(40).default("obal") });
export const duplicateModalFlagSchema = z.object({ isDontShowDuplicateJEModalChecked: z.boolean() });
export const duplicateModalFlagRequestSchema = z.object({ JE: z.string().min(1).max(40).default("obal"), checked: z.boolean() });

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getObal = GET("/obal", { 200: obalStateSchema });
export const postObal = POST("/obal", { 200: obalStateSchema }, { body: obalLockRequestSchema });
export const postObalReset = POST("/obal/reset", { 200: obalStateSchema });
export const getObalTrialBalance = GET("/obal/:realmId/trialbalance", { 200: obalTrialBalanceSchema }, { params: realmParamsSchema });
/** A change to one subsidiary's opening balance: its realmId in the body, the new state in the answer. */
const subsidiaryChange = <const P extends string>(path: P) => POST(path, { 200: obalStateSchema }, { body: obalRealmRequestSchema });
export const postObalReview = subsidiaryChange("/obal/review");
export const postObalUnreview = subsidiaryChange("/obal/unreview");
export const postObalConfirm = subsidiaryChange("/obal/confirm");
export const postObalUnconfirm = subsidiaryChange("/obal/unconfirm");
/** A subsidiary's opening balance moves unreviewed → reviewed → confirmed → posted; each step has its endpoint. */
export const obalTransitionEndpoints = { review: postObalReview, unreview: postObalUnreview, confirm: postObalConfirm, unconfirm: postObalUnconfirm } as const;
export type ObalTransition = keyof typeof obalTransitionEndpoints;
export const postOpeningBalance = POST("/balances/post/:realmId", { 200: obalStateSchema }, { params: realmParamsSchema });
export const postIsDeletedFlag = subsidiaryChange("/postIsDeletedFlag");
export const getJournalEntries = GET("/getJournalEntries/:realmId", { 200: journalEntriesResponseSchema }, { params: realmParamsSchema, query: journalEntriesQuerySchema });
export const getDontShowDuplicateJEModalFlag = GET("/getDontShowDuplicateJEModalFlag", { 200: duplicateModalFlagSchema }, { query: duplicateModalQuerySchema });
export const postDontShowDuplicateJEModalFlag = POST("/setDontShowDuplicateJEModalFlag", { 200: duplicateModalFlagSchema }, { body: duplicateModalFlagRequestSchema });
