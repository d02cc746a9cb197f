import { z } from "zod";
import { consolidationOutputSchema, VERIFY_CAUSE_CODES, VERIFY_FIXES } from "@groupledger/domain";
import { GET, POST } from "./endpoint.ts";
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
      /** How the period's CTA change came about, month by month (current-rate method; empty otherwise): the board pack's CTA page. */
      ctaExplanation: out.entities.element.shape.ctaExplanation,
    }),
  ),
});

/**
 * What every consolidated statement answers first (the report, the cash flow, the changes in
 * equity): `ok` false when something stops a consolidation it needs, `problems` naming what (by
 * company, account, currency and month), `warnings` for what moves no number but should be read
 * with it, the period, and the parent currency with its minor-unit exponent (2 for USD).
 */
export const statementHeader = {
  ok: z.boolean(),
  problems: z.array(problemSchema),
  warnings: z.array(z.string()),
  period: z.object({ from: z.string(), to: z.string(), label: z.string() }),
  parentCurrency: z.string(),
  exponent: z.number().int(),
};

export const reportSchema = z.object({
  ...statementHeader,
  /**
   * The month-end whose balances the report opens with, as the user knows it: the locked opening
   * month (Opening Balance Sheet) when the period follows it, else the month the translation
   * starts from afresh (the month before the period, or the fiscal-year start the opening balances roll from).
   */
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

export const transactionDetailQuerySchema = z.object({
  account: z.string({ error: "account is required: the parent account's QuickBooks id." }).trim().min(1).max(64),
  from: month("from"),
  to: month("to"),
  /** One company only (the parent or a subsidiary); all when absent. */
  realmId: z.string().trim().min(1).max(32).optional(),
});

export const transactionDetailSchema = z.object({
  account: z.object({ id: z.string(), name: z.string(), classification: z.string() }),
  period: z.object({ from: z.string(), to: z.string() }),
  parentCurrency: z.string(),
  problems: z.array(problemSchema),
  companies: z.array(
    z.object({
      realmId: z.string(),
      companyName: z.string(),
      currency: z.string(),
      /** The company's accounts that map onto the parent account (the account itself for the parent). */
      accounts: z.array(z.object({ id: z.string(), name: z.string() })),
      transactions: z.array(
        z.object({
          date: z.string(),
          type: z.string(),
          txnId: z.string().nullable(),
          docNumber: z.string().nullable(),
          name: z.string().nullable(),
          memo: z.string().nullable(),
          accountId: z.string(),
          accountName: z.string(),
          /** Company currency, minor units, debit positive. */
          local: z.number().int(),
          /** Average rate of the transaction's month (parent units per local unit); null when missing. */
          rate: z.string().nullable(),
          translated: z.number().int().nullable(),
          url: z.string().nullable(),
        }),
      ),
      totalLocal: z.number().int(),
      /** As the consolidation translates it: each account-month at once (the transactions' own amounts may round a cent apart). */
      totalTranslated: z.number().int().nullable(),
    }),
  ),
});
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;

export const verifyQuerySchema = z.object({
  year: z.coerce.number({ error: "year is a number such as 2026." }).int().min(2000).max(2100),
  month: z.coerce.number({ error: "month is a number from 1 to 12." }).int().min(1).max(12),
});

const differenceSchema = z.object({
  account: z.string(),
  name: z.string(),
  /** Parent-currency minor units, debit positive. */
  expected: z.number().int(),
  actual: z.number().int(),
  difference: z.number().int(),
});

/** Why the month does not reconcile, as the domain tells it (runs/verify-causes.ts), with where it is fixed. */
export const verifyCauseSchema = z.object({
  code: z.enum(VERIFY_CAUSE_CODES),
  message: z.string(),
  /** obal: Opening Balance Sheet; multiPeriod: Multi Period / Company (realmId and months); singlePeriod: Single Period / Company; eliminations: Interco Eliminations; quickbooks: the entry (url). */
  fix: z.enum(VERIFY_FIXES),
  realmId: z.string().nullable(),
  months: z.array(z.string()),
  /** The entries concerned, by DocNumber. */
  docNumbers: z.array(z.string()),
  url: z.string().nullable(),
});
export type VerifyCause = z.infer<typeof verifyCauseSchema>;

export const verifyResultSchema = z.object({
  month: z.string(),
  openingMonth: z.string(),
  parentCurrency: z.string(),
  /** True when every posted subsidiary and the group reconcile with zero differences. */
  ok: z.boolean(),
  subsidiaries: z.array(
    z.object({
      realmId: z.string(),
      companyName: z.string(),
      status: z.enum(["ok", "differences", "not_posted", "not_computable"]),
      message: z.string(),
      /** Months after the opening month up to the month checked that no posted entry covers. */
      missingMonths: z.array(z.string()),
      /** Entries GroupLedger posted that QuickBooks no longer has, by DocNumber. */
      missingEntries: z.array(z.string()),
      /** How many parent accounts were compared. */
      accounts: z.number().int(),
      differences: z.array(differenceSchema),
    }),
  ),
  group: z.object({ status: z.enum(["ok", "differences", "not_computable"]), message: z.string(), accounts: z.number().int(), differences: z.array(differenceSchema) }),
  /** What explains the differences that GroupLedger can tell (months not posted, entries changed in QuickBooks), in the order to fix them. */
  causes: z.array(verifyCauseSchema),
});
export type VerifyResult = z.infer<typeof verifyResultSchema>;

/** A report workbook mailed (POST /consolidation/report/email): to whom, under which file name. */
export const reportEmailedSchema = z.object({ sentTo: z.string(), filename: z.string() });

// --- Endpoints ----------------------------------------------------------------------------

export const getConsolidationReport = GET("/consolidation/report", { 200: reportSchema }, { query: reportQuerySchema });
export const getConsolidationReportXlsx = GET("/consolidation/report.xlsx", { 200: "file" }, { query: reportQuerySchema });
export const getConsolidationReportCsv = GET("/consolidation/report.csv", { 200: "file" }, { query: reportQuerySchema });
export const postConsolidationReportEmail = POST("/consolidation/report/email", { 200: reportEmailedSchema }, { body: reportQuerySchema });
export const getTransactionDetail = GET("/consolidation/transactions", { 200: transactionDetailSchema }, { query: transactionDetailQuerySchema });
export const getVerify = GET("/consolidation/verify", { 200: verifyResultSchema }, { query: verifyQuerySchema });
