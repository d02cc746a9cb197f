import { z } from "zod";
import { PAIR_MATCHES } from "@groupledger/domain";
import { GET, POST, PUT } from "./endpoint.ts";
import { statementHeader } from "./reports.ts";

/** Budget vs actual (issue 23): budgets per company, budget rates per currency and fiscal year, and the statement. */

const month = (field: string) => z.string({ error: `${field} is required: a month like 2026-03.` }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use a month like 2026-03.");
const amount = z.number().int();
const fiscalYear = z.coerce
  .number({ error: "fiscalYear is required: the parent's fiscal year, named by the calendar year it ends in (e.g. 2026)." })
  .int("fiscalYear is a year such as 2026.")
  .min(2000, "fiscalYear is a year such as 2026.")
  .max(2100, "fiscalYear is a year such as 2026.");

export const budgetVsActualQuerySchema = z.object({ from: month("from"), to: month("to") });
export type BudgetVsActualQuery = z.infer<typeof budgetVsActualQuerySchema>;

const columns = {
  actual: amount.describe("At the actual rates: the consolidated P&L"),
  budgetCompanies: amount.describe("The companies' budgets at the budget rate, summed, before eliminations"),
  budgetEliminations: amount.describe("What the group's intra-group pairs eliminate from them: budget = budgetCompanies − budgetEliminations"),
  budget: amount.describe("The consolidated budget, at the budget rate"),
  actualAtBudgetRate: amount,
  variance: amount.describe("actual − budget"),
  variancePercent: z.string().nullable().describe("variance ÷ |budget| × 100, one decimal; null on a nil budget"),
  constantCurrencyVariance: amount.describe("actualAtBudgetRate − budget"),
  fxEffect: amount.describe("actual − actualAtBudgetRate"),
  favourable: z.boolean().nullable(),
};
const columnsSchema = z.object(columns);
const pairSide = z.object({ entity: z.string(), entityName: z.string(), currency: z.string(), account: z.string(), accountName: z.string(), local: amount, translated: amount });
const lineSchema = z.object({ account: z.string(), name: z.string(), section: z.enum(["revenue", "expenses"]), ...columns });

export const budgetVsActualStatementSchema = z.object({
  currency: z.string(),
  exponent: z.number().int(),
  revenue: z.object({ lines: z.array(lineSchema), total: columnsSchema }),
  expenses: z.object({ lines: z.array(lineSchema), total: columnsSchema }),
  netIncome: columnsSchema,
  /** Each intra-group revenue/expense pair's budgets, both sides eliminated; difference (expense − revenue side at the budget rate) on the line "Intra-group budgets that disagree". */
  eliminations: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      revenue: pairSide,
      expense: pairSide,
      difference: amount,
      match: z.enum(PAIR_MATCHES),
    }),
  ),
  entities: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      currency: z.string(),
      budgetRate: z.string(),
      budgetLocal: amount,
      budget: amount,
      actualLocal: amount,
      actualAtBudgetRate: amount,
    }),
  ),
});

export const budgetVsActualReportSchema = z.object({
  ...statementHeader,
  fiscalYear: z.number().int(),
  statement: budgetVsActualStatementSchema.nullable(),
});
export type BudgetVsActualReport = z.infer<typeof budgetVsActualReportSchema>;

export const budgetOverviewQuerySchema = z.object({ fiscalYear });

export const budgetOverviewSchema = z.object({
  fiscalYear: z.number().int(),
  /** The parent's fiscal year: its first and last month. */
  months: z.object({ from: z.string(), to: z.string() }),
  parentCurrency: z.string(),
  /** One per foreign currency of the group's companies; rate null: not set. */
  rates: z.array(z.object({ currency: z.string(), rate: z.string().nullable() })),
  companies: z.array(
    z.object({
      realmId: z.string(),
      companyName: z.string(),
      currency: z.string(),
      isParent: z.boolean(),
      /** Where the company's budget for the year's months comes from: each source, the months it covers and its total. */
      sources: z.array(
        z.object({
          source: z.enum(["quickbooks", "csv"]),
          name: z.string(),
          from: z.string(),
          to: z.string(),
          months: z.number().int(),
          /** How its amounts are kept: "monthly", "quarterly", "annually" (never spread over months). */
          entered: z.string(),
          lines: z.number().int(),
          total: amount,
        }),
      ),
      /** Months of the fiscal year without any budget line. */
      missingMonths: z.array(z.string()),
    }),
  ),
});
export type BudgetOverview = z.infer<typeof budgetOverviewSchema>;

export const putBudgetRatesBodySchema = z.object({
  fiscalYear,
  rates: z
    .array(z.object({ currency: z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, "currency is a three-letter code such as GBP."), rate: z.string().max(40) }))
    .min(1, "Give at least one currency and its rate.")
    .max(200),
});
export type PutBudgetRatesBody = z.infer<typeof putBudgetRatesBodySchema>;

export const readQuickBooksBudgetsBodySchema = z.object({
  fiscalYear,
  /** One company; omitted: every company of the group. */
  realmId: z.string().trim().min(1).max(64).optional(),
});

export const budgetImportResultSchema = z.object({
  imported: z.array(z.object({ realmId: z.string(), companyName: z.string(), name: z.string(), entered: z.string().describe("monthly, quarterly or annually"), lines: z.number().int(), from: z.string(), to: z.string() })),
  /** Budgets read and not used, with why (another year, not monthly, a balance sheet budget), and companies that keep none. */
  skipped: z.array(z.object({ realmId: z.string(), companyName: z.string(), name: z.string().nullable(), reason: z.string() })),
  overview: budgetOverviewSchema,
});
export type BudgetImportResult = z.infer<typeof budgetImportResultSchema>;

/** The CSV import's body: the file's text, sent as text/csv (header account,month,amount). */
export const budgetCsvSchema = z.string({ error: "Send the file as text/csv." });

export const getBudgetVsActual = GET("/consolidation/budget-vs-actual", { 200: budgetVsActualReportSchema }, { query: budgetVsActualQuerySchema });
export const getBudgets = GET("/budgets", { 200: budgetOverviewSchema }, { query: budgetOverviewQuerySchema });
export const putBudgetRates = PUT("/budgets/rates", { 200: budgetOverviewSchema }, { body: putBudgetRatesBodySchema });
export const postQuickBooksBudgets = POST("/budgets/quickbooks", { 200: budgetImportResultSchema }, { body: readQuickBooksBudgetsBodySchema });
/** fiscalYear: the year of the overview answered; name: what the import is called (the file's name). */
export const budgetCsvQuerySchema = z.object({ fiscalYear, name: z.string().trim().min(1).max(120).optional() });

export const postBudgetCsv = POST(
  "/budgets/:realmId/csv",
  { 200: budgetImportResultSchema },
  { params: z.object({ realmId: z.string().min(1).max(64) }), query: budgetCsvQuerySchema, body: budgetCsvSchema, bodyType: "text/csv" },
);
export const getBudgetTemplate = GET("/budgets/:realmId/template.csv", { 200: "file" }, { params: z.object({ realmId: z.string().min(1).max(64) }), query: budgetOverviewQuerySchema });
