import { z } from "zod";
import { CASH_FLOW_CLASSES } from "@groupledger/domain";
import { GET, PUT } from "./endpoint.ts";
import { statementHeader } from "./reports.ts";

/** Consolidated statement of cash flows (issue 23): the statement for a period and the cash-flow class of each parent account. */

const month = (field: string) => z.string({ error: `${field} is required: a month like 2026-03.` }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use a month like 2026-03.");
const amount = z.number().int();

export const cashFlowQuerySchema = z.object({ from: month("from"), to: month("to") });
export type CashFlowQuery = z.infer<typeof cashFlowQuerySchema>;

export const cashFlowClassSchema = z.enum(CASH_FLOW_CLASSES, { error: `class is one of ${CASH_FLOW_CLASSES.join(", ")}, or null for the default.` });

const lineSchema = z.object({ account: z.string(), name: z.string(), amount: amount.describe("Cash effect: inflow positive, outflow negative") });

export const cashFlowStatementSchema = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  currency: z.string(),
  exponent: z.number().int(),
  operating: z.object({ profit: amount, adjustments: z.array(lineSchema), workingCapital: z.array(lineSchema), total: amount }),
  investing: z.object({ lines: z.array(lineSchema), total: amount }),
  financing: z.object({ lines: z.array(lineSchema), total: amount }),
  netCashFlow: amount,
  exchangeEffect: z.object({
    total: amount,
    entities: z.array(
      z.object({
        entity: z.string(),
        name: z.string(),
        currency: z.string(),
        openingCashLocal: amount,
        closingCashLocal: amount,
        openingRate: z.string(),
        closingRate: z.string(),
        openingCash: amount,
        closingCash: amount,
        netCashFlow: amount,
        onOpeningCash: amount,
        onCashFlows: amount,
        total: amount,
      }),
    ),
  }),
  openingCash: amount,
  closingCash: amount,
  cashAccounts: z.array(z.object({ account: z.string(), name: z.string(), opening: amount, closing: amount })),
  reconciliation: z.object({ computedClosingCash: amount, difference: amount, reconciles: z.boolean() }),
});

export const cashFlowReportSchema = z.object({
  // `ok` is false when either consolidation it needs (the period's, or the month-end before it) cannot be made.
  ...statementHeader,
  statement: cashFlowStatementSchema.nullable(),
});
export type CashFlowReport = z.infer<typeof cashFlowReportSchema>;

export const cashFlowAccountSchema = z.object({
  account: z.string().describe("The parent's QuickBooks account id"),
  name: z.string(),
  accountNumber: z.string().nullable(),
  classification: z.string(),
  accountType: z.string(),
  accountSubType: z.string().nullable(),
  defaultClass: cashFlowClassSchema,
  /** The user's choice; null: the default. */
  chosenClass: cashFlowClassSchema.nullable(),
  cashFlowClass: cashFlowClassSchema,
});

export const cashFlowClassesSchema = z.object({
  accounts: z.array(cashFlowAccountSchema),
  /** Balance-sheet accounts whose place is fixed by their nature, with why. */
  fixed: z.array(z.object({ account: z.string(), name: z.string(), reason: z.string() })),
});
export type CashFlowClasses = z.infer<typeof cashFlowClassesSchema>;

export const putCashFlowClassesBodySchema = z.object({
  classes: z
    .array(z.object({ account: z.string().trim().min(1, "account is required: the parent's QuickBooks account id.").max(64), cashFlowClass: cashFlowClassSchema.nullable() }))
    .min(1, "Give at least one account and its class.")
    .max(1000),
});
export type PutCashFlowClassesBody = z.infer<typeof putCashFlowClassesBodySchema>;

export const getCashFlow = GET("/consolidation/cash-flow", { 200: cashFlowReportSchema }, { query: cashFlowQuerySchema });
export const getCashFlowClasses = GET("/consolidation/cash-flow/classes", { 200: cashFlowClassesSchema });
export const putCashFlowClasses = PUT("/consolidation/cash-flow/classes", { 200: cashFlowClassesSchema }, { body: putCashFlowClassesBodySchema });
