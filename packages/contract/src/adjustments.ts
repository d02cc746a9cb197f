import { z } from "zod";
import { problemSchema } from "./obal.ts";
import { GET, POST } from "./endpoint.ts";
import { postingParamsSchema, postingSummarySchema, postOutcomeSchema, repostRequestSchema, resolvedPeriodSchema, runPeriodSchema } from "./runs.ts";

/**
 * Group adjustments (issue 16): each period, the consolidation's own entries that no company
 * books (the parent's investments against the subsidiaries' equity at acquisition, goodwill and
 * its impairment, the NCI at acquisition; unrealised profit in intra-group stock; intra-group
 * dividends against the parent's income) proposed as one balanced journal entry for the parent's
 * QuickBooks, under the class "Group adjustments" and DocNumbers GA<period>. Like an elimination
 * entry, balance-sheet lines post what moved since the last posted entry and profit-or-loss lines
 * the period's amounts. Intercompany pairs keep their own entry (EL<period>).
 */
export const GROUP_ADJUSTMENTS_CLASS = "Group adjustments";
/** Group adjustments are filed under this "realm" among the consolidation postings (they belong to no one company): GET /consolidation/postings?realmId=adjustments lists them. */
export const ADJUSTMENTS_REALM = "adjustments";

export const adjustmentsQuerySchema = z.object({
  kind: z.enum(["month", "quarter", "year"], { error: "kind is month, quarter or year." }).default("month"),
  year: z.coerce.number({ error: "year is a number such as 2026." }).int().min(2000).max(2100),
  month: z.coerce.number({ error: "month is a number from 1 to 12." }).int().min(1).max(12),
});

const explainedLine = z.object({
  account: z.string(),
  name: z.string(),
  /** Debit positive, parent currency minor units. */
  amount: z.number().int(),
  /** Why this line: which adjustment and what it does. */
  explanation: z.string(),
});

export const adjustmentsViewSchema = z.object({
  period: resolvedPeriodSchema,
  parentCurrency: z.string(),
  ok: z.boolean(),
  problems: z.array(problemSchema),
  warnings: z.array(z.string()),
  /** Each adjustment the consolidation makes at the period's end, with its lines explained. */
  adjustments: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      description: z.string(),
      lines: z.array(explainedLine),
      details: z.record(z.string(), z.union([z.number(), z.string()])),
    }),
  ),
  /** The entry that brings the parent's books to these adjustments: what moved since the last posted one. */
  entry: z
    .object({
      lines: z.array(z.object({ account: z.string(), name: z.string(), debit: z.number().int(), credit: z.number().int() })),
      docNumber: z.string(),
      txnDate: z.string(),
    })
    .nullable(),
  posted: postingSummarySchema.nullable(),
});
export type AdjustmentsView = z.infer<typeof adjustmentsViewSchema>;

export const adjustmentsPostRequestSchema = z.strictObject({ period: runPeriodSchema });

// --- Endpoints ----------------------------------------------------------------------------

export const getAdjustments = GET("/consolidation/adjustments", { 200: adjustmentsViewSchema }, { query: adjustmentsQuerySchema });
export const postAdjustments = POST("/consolidation/adjustments/post", { 200: postOutcomeSchema }, { body: adjustmentsPostRequestSchema });
export const postAdjustmentsRepost = POST("/consolidation/adjustments/:postingId/repost", { 200: postOutcomeSchema }, { params: postingParamsSchema, body: repostRequestSchema });
