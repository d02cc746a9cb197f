import { z } from "zod";
import { EQUITY_COLUMNS } from "@groupledger/domain";
import { GET } from "./endpoint.ts";
import { reportQuerySchema, statementHeader } from "./reports.ts";

/** The consolidated statement of changes in equity for a month or a range of months (inclusive). */
export const changesInEquityQuerySchema = reportQuerySchema.pick({ from: true, to: true });
export type ChangesInEquityQuery = z.infer<typeof changesInEquityQuerySchema>;

const amount = z.number().int();
/** Credit positive (an increase in equity), minor units of the parent currency. */
const equityAmountsSchema = z.object({
  shareCapital: amount,
  retainedEarnings: amount,
  translationReserve: amount,
  otherReserves: amount,
  parent: amount,
  nci: amount,
  total: amount,
});

const equityRowSchema = z.object({
  kind: z.enum([
    "opening",
    "profit",
    "translation",
    "otherComprehensiveIncome",
    "comprehensiveIncome",
    "dividends",
    "shareIssues",
    "acquisitions",
    "ownershipChanges",
    "disposals",
    "closing",
    "balanceSheet",
    "difference",
  ]),
  label: z.string(),
  amounts: equityAmountsSchema,
});

export const changesInEquitySchema = z.object({
  // `ok` is false when either consolidation it needs (the period's, or the month-end before it) cannot be made.
  ...statementHeader,
  statement: z
    .object({
      /** The month-end of the opening balance (the month before the period). */
      openingMonth: z.string(),
      columns: z.array(z.object({ id: z.enum(EQUITY_COLUMNS), label: z.string() })),
      /** Opening, the movements (the comprehensive-income subtotal is kind comprehensiveIncome), closing. */
      rows: z.array(equityRowSchema),
      /** The consolidated balance sheet at the period's end, by the same columns. */
      balanceSheet: equityRowSchema,
      /** Balance sheet − closing, per column; all zero when `reconciles`. */
      difference: equityRowSchema,
      reconciles: z.boolean(),
    })
    .nullable(),
});
export type ChangesInEquityReport = z.infer<typeof changesInEquitySchema>;

export const getChangesInEquity = GET("/consolidation/report/changes-in-equity", { 200: changesInEquitySchema }, { query: changesInEquityQuerySchema });
