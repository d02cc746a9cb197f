/** Dispatches `GET reports/{name}` to the report builders. */
import { dateIn } from "../calendar.ts";
import type { Json } from "../entities.ts";
import { INTUIT_TIME_ZONE } from "../faults.ts";
import type { CompanyLedger } from "../ledger.ts";
import { validationFault } from "../qboFault.ts";
import { balanceSheet } from "./balanceSheet.ts";
import { parseReportParams } from "./params.ts";
import { profitAndLoss } from "./profitAndLoss.ts";
import { generalLedger, transactionList } from "./transactions.ts";
import { trialBalance } from "./trialBalance.ts";

type Builder = (ledger: CompanyLedger, params: ReturnType<typeof parseReportParams>, now: Date) => Json;

const REPORTS: Record<string, { build: Builder; defaultMacro: string; summarize: boolean }> = {
  TrialBalance: { build: trialBalance, defaultMacro: "this month-to-date", summarize: false },
  BalanceSheet: { build: balanceSheet, defaultMacro: "this calendar year-to-date", summarize: true },
  ProfitAndLoss: { build: profitAndLoss, defaultMacro: "this calendar year-to-date", summarize: true },
  GeneralLedger: { build: generalLedger, defaultMacro: "this month-to-date", summarize: false },
  TransactionList: { build: transactionList, defaultMacro: "this month-to-date", summarize: false },
};

export const REPORT_NAMES = Object.keys(REPORTS);

export function runReport(ledger: CompanyLedger, name: string, query: Readonly<Record<string, string | undefined>>, now: Date): Json {
  const key = Object.keys(REPORTS).find((k) => k.toLowerCase() === name.toLowerCase());
  const spec = key === undefined ? undefined : REPORTS[key];
  if (spec === undefined) {
    throw validationFault("500", "Unsupported Operation", `Operation Could not find resource for relative : /reports/${name} is not supported.`);
  }
  const params = parseReportParams({
    query,
    today: dateIn(now, INTUIT_TIME_ZONE),
    fiscalYearStartMonth: ledger.profile.fiscalYearStartMonth,
    defaultMacro: spec.defaultMacro,
    allowSummarize: spec.summarize,
  });
  return spec.build(ledger, params, now);
}
