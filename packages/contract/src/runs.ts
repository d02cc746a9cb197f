import { z } from "zod";
import { ctaExplanationSchema } from "@groupledger/domain";
import { GET, POST } from "./endpoint.ts";
import { problemSchema } from "./obal.ts";

/**
 * Consolidation runs (issue 9). A period is named by its kind and its LAST calendar month (the
 * month-end the entry is dated), the same way the duplicate check GET /api/getJournalEntries
 * names it; quarters and years follow the parent's fiscal year.
 */
export const runPeriodKinds = ["month", "quarter", "year"] as const;
export const runPeriodSchema = z.strictObject({
  kind: z.enum(runPeriodKinds, { error: "kind is month, quarter or year." }),
  year: z.number({ error: "year is a number such as 2026." }).int().min(2000, "year is 2000 or later.").max(2100, "year is 2100 or earlier."),
  month: z.number({ error: "month is a number from 1 to 12." }).int().min(1, "month is 1 to 12.").max(12, "month is 1 to 12."),
});
export type RunPeriod = z.infer<typeof runPeriodSchema>;

export const runRequestSchema = z.strictObject({
  realmId: z.string().trim().min(1, "Choose a subsidiary.").max(32),
  period: runPeriodSchema,
});
export type RunRequest = z.infer<typeof runRequestSchema>;

export const resolvedPeriodSchema = z.object({
  kind: z.enum(runPeriodKinds),
  from: z.string(),
  to: z.string(),
  /** "2026-03", "FY2026 Q1", "FY2026". */
  label: z.string(),
});

export const postingLineSchema = z.object({ account: z.string(), name: z.string(), debit: z.number().int(), credit: z.number().int() });

export const postingSummarySchema = z.object({
  id: z.string(),
  realmId: z.string(),
  companyName: z.string(),
  period: resolvedPeriodSchema,
  status: z.enum(["posted", "deleted", "replaced"]),
  journalEntryId: z.string().nullable(),
  journalEntryUrl: z.string().nullable(),
  docNumber: z.string(),
  postedAt: z.string(),
  postedBy: z.string().nullable(),
  runId: z.string().nullable(),
  /** Set when the subsidiary's books changed after posting: what moved, by parent account. */
  stale: z
    .object({
      detectedAt: z.string(),
      changes: z.array(z.object({ account: z.string(), name: z.string(), posted: z.number().int(), now: z.number().int() })),
    })
    .nullable(),
});
export type PostingSummary = z.infer<typeof postingSummarySchema>;
/** What posting an entry once did: posted now, or found already posted for the period (the same entry). */
export const postOutcomeSchema = z.object({ outcome: z.enum(["posted", "duplicate"]), posting: postingSummarySchema });
export type PostOutcome = z.infer<typeof postOutcomeSchema>;

export const runPreviewSchema = z.object({
  realmId: z.string(),
  companyName: z.string(),
  currency: z.string(),
  parentCurrency: z.string(),
  period: resolvedPeriodSchema,
  docNumber: z.string(),
  txnDate: z.string(),
  /** False when something blocks posting; `problems` says what, by name. */
  ok: z.boolean(),
  problems: z.array(problemSchema),
  entry: z
    .object({
      lines: z.array(postingLineSchema),
      totalDebit: z.number().int(),
      totalCredit: z.number().int(),
      memo: z.string(),
    })
    .nullable(),
  cta: z
    .object({
      account: z.string(),
      name: z.string(),
      /** Credit positive: the period's change in the cumulative translation adjustment. */
      change: z.number().int(),
      months: z.array(ctaExplanationSchema),
      total: z.object({
        openingNetAssets: z.number().int(),
        netIncome: z.number().int(),
        dividends: z.number().int(),
        equityMovements: z.number().int(),
        rounding: z.number().int(),
        change: z.number().int(),
      }),
    })
    .nullable(),
  netIncome: z.object({ local: z.number().int(), translated: z.number().int() }).nullable(),
  /** The entry already posted for this subsidiary and period, if any. */
  posted: postingSummarySchema.nullable(),
});
export type RunPreview = z.infer<typeof runPreviewSchema>;

export const postingsQuerySchema = z.object({ realmId: z.string().max(32).optional() });
export const postingsResponseSchema = z.object({ postings: z.array(postingSummarySchema) });

export const repostRequestSchema = z.strictObject({
  /** The user saw the changes and approves replacing the entry in QuickBooks. */
  approve: z.literal(true, { error: "Approve the replacement (approve: true) after reviewing the changes." }),
});

// --- Multi-period runs --------------------------------------------------------------------

/** The most entries one run may post: more would hold the parent's QuickBooks for hours, and is better split. */
export const MAX_RUN_ITEMS = 1200;

export const multiRunRequestSchema = z.strictObject({
  realmIds: z.array(z.string().trim().min(1).max(32)).min(1, "Choose at least one subsidiary.").max(50, "At most 50 subsidiaries in one run."),
  /** First and last month (inclusive) posted month by month. */
  from: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use a month like 2026-01."),
  to: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use a month like 2026-12."),
});
export type MultiRunRequest = z.infer<typeof multiRunRequestSchema>;

export const runItemStatuses = ["pending", "posted", "skipped", "failed"] as const;
export const runStatuses = ["queued", "running", "pausing", "paused", "succeeded", "finished_with_failures", "failed"] as const;

export const runItemSchema = z.object({
  seq: z.number().int(),
  realmId: z.string(),
  companyName: z.string(),
  month: z.string(),
  /** The period in words: the month, or a replaced entry's period ("FY2026 Q1"). */
  label: z.string(),
  status: z.enum(runItemStatuses),
  message: z.string().nullable(),
  journalEntryId: z.string().nullable(),
  journalEntryUrl: z.string().nullable(),
});

export const runKinds = ["post", "replace"] as const;

export const runSummarySchema = z.object({
  id: z.string(),
  /** post: months posted in order; replace: approved changed entries replaced in order ("Replace all changed"). */
  kind: z.enum(runKinds),
  /** Who approved it: a user, or the group's setting to replace after the nightly sync. */
  trigger: z.enum(["user", "nightly"]),
  status: z.enum(runStatuses),
  from: z.string(),
  to: z.string(),
  realmIds: z.array(z.string()),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  finishedAt: z.string().nullable(),
  counts: z.object({ total: z.number().int(), pending: z.number().int(), posted: z.number().int(), skipped: z.number().int(), failed: z.number().int() }),
  /** 0..1: items done over items. */
  progress: z.number(),
  message: z.string().nullable(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

export const runDetailSchema = runSummarySchema.extend({ items: z.array(runItemSchema) });
export type RunDetail = z.infer<typeof runDetailSchema>;

/**
 * "Replace all changed": the changed entries the user reviewed, each with the `stale.detectedAt` of
 * the differences shown. An entry whose differences moved since is refused, so what is replaced is
 * what was approved.
 */
export const replaceChangedRequestSchema = z.strictObject({
  approve: z.literal(true, { error: "Approve the replacements (approve: true) after reviewing the changes." }),
  postings: z
    .array(z.strictObject({ id: z.uuid({ error: "Not a posting id." }), detectedAt: z.string().max(40) }))
    .min(1, "Choose at least one changed entry.")
    .max(MAX_RUN_ITEMS, `At most ${MAX_RUN_ITEMS} entries in one replacement.`),
});
export type ReplaceChangedRequest = z.infer<typeof replaceChangedRequestSchema>;

export const runsResponseSchema = z.object({ runs: z.array(runSummarySchema) });
export const runParamsSchema = z.object({ runId: z.uuid({ error: "Not a run id." }) });
export const postingParamsSchema = z.object({ postingId: z.uuid({ error: "Not a posting id." }) });

// --- Endpoints ----------------------------------------------------------------------------

export const postConsolidationPreview = POST("/consolidation/preview", { 200: runPreviewSchema }, { body: runRequestSchema });
export const postConsolidationPost = POST("/consolidation/post", { 200: postOutcomeSchema }, { body: runRequestSchema });
export const getConsolidationPostings = GET("/consolidation/postings", { 200: postingsResponseSchema }, { query: postingsQuerySchema });
export const postConsolidationRepost = POST("/consolidation/postings/:postingId/repost", { 200: postOutcomeSchema }, { params: postingParamsSchema, body: repostRequestSchema });
export const postReplaceChanged = POST("/consolidation/replace-changed", { 200: runDetailSchema }, { body: replaceChangedRequestSchema });
export const postMultiRun = POST("/multipleconsolidation/runs", { 200: runDetailSchema }, { body: multiRunRequestSchema });
export const getMultiRuns = GET("/multipleconsolidation/runs", { 200: runsResponseSchema });
export const getMultiRun = GET("/multipleconsolidation/runs/:runId", { 200: runDetailSchema }, { params: runParamsSchema });
export const postMultiRunPause = POST("/multipleconsolidation/runs/:runId/pause", { 200: runDetailSchema }, { params: runParamsSchema });
export const postMultiRunResume = POST("/multipleconsolidation/runs/:runId/resume", { 200: runDetailSchema }, { params: runParamsSchema });
