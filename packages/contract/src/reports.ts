import { z } from "zod";
import { consolidationOutputSchema } from "@groupledger/domain";
import { problemSchema } from "./obal.ts";

const month = (field: string) => z.string({ error: `${field} is required: a month like 2026-03.` }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use a month like 2026-03.");

export const reportComparisons = ["none", "prior_period", "prior_year"] as const;

/** A consolidated report for a month or a range of months (inclusive), with an optional comparison column. */
export const reportQuerySchema = z.object({
  from: month("from"),
  to: month("to"),
  compare: z.enum(reportComparisons, { error: "compare is none, prior_period or prior_year." }).default("none"),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

const out = consolidationOutputSchema.shape;

export const reportStatementsSchema = z.object({
  worksheet: out.worksheet,
  trialBalance: out.trialBalance,
  balanceSheet: out.balanceSheet,
  incomeStatement: out.incomeStatement,
  eliminations: out.eliminations,
  nci: out.nci,
  unmapped: out.unmapped,
  entities: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      currency: z.string(),
      method: z.string(),
      netIncome: z.object({ local: z.number().int(), translated: z.number().int() }),
      ctaChange: z.number().int(),
    }),
  ),
});

export const reportSchema = z.object({
  /** False when something stops the consolidation; `problems` names what, by company, account, currency and month. */
  ok: z.boolean(),
  problems: z.array(problemSchema),
  period: z.object({ from: z.string(), to: z.string(), label: z.string() }),
  parentCurrency: z.string(),
  /** Minor-unit exponent of the parent currency (2 for USD). */
  exponent: z.number().int(),
  openingMonth: z.string(),
  report: reportStatementsSchema.nullable(),
  comparison: z
    .object({
      kind: z.enum(["prior_period", "prior_year"]),
      period: z.object({ from: z.string(), to: z.string(), label: z.string() }),
      ok: z.boolean(),
      problems: z.array(problemSchema),
      balanceSheet: out.balanceSheet.nullable(),
      incomeStatement: out.incomeStatement.nullable(),
    })
    .nullable(),
  generatedAt: z.string(),
});
export type ConsolidatedReport = z.infer<typeof reportSchema>;
