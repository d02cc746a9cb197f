/** Dispatches `GET reports/{name}` to the report builders. */
import { dateIn } from "../calendar.ts";
import { cashBasisBooks } from "../cashBasis.ts";
import type { Json } from "../entities.ts";
import { INTUIT_TIME_ZONE } from "../faults.ts";
import type { CompanyLedger, JournalLine } from "../ledger.ts";
import { unsupportedProperty, validationFault } from "../qboFault.ts";
import { balanceSheet } from "./balanceSheet.ts";
import type { ReportParams } from "./params.ts";
import { parseReportParams } from "./params.ts";
import { profitAndLoss } from "./profitAndLoss.ts";
import { GENERAL_LEDGER_COLUMNS, generalLedger, transactionList } from "./transactions.ts";
import { trialBalance } from "./trialBalance.ts";

type Builder = (ledger: CompanyLedger, params: ReturnType<typeof parseReportParams>, now: Date) => Json;

interface ReportSpec {
  readonly build: Builder;
  readonly defaultMacro: string;
  readonly summarize: boolean;
  readonly nameFilters?: boolean;
  readonly dimensions?: boolean;
  readonly accountFilter?: boolean;
  readonly columns?: readonly string[];
  /** Whether `accounting_method=Cash` changes its figures (cashBasis.ts); TransactionList lists every transaction whatever the basis. */
  readonly byBasis?: boolean;
}

const REPORTS: Record<string, ReportSpec> = {
  TrialBalance: { build: trialBalance, defaultMacro: "this month-to-date", summarize: false, byBasis: true },
  BalanceSheet: { build: balanceSheet, defaultMacro: "this calendar year-to-date", summarize: true, nameFilters: true, dimensions: true, byBasis: true },
  ProfitAndLoss: { build: profitAndLoss, defaultMacro: "this calendar year-to-date", summarize: true, nameFilters: true, dimensions: true, byBasis: true },
  GeneralLedger: { build: generalLedger, defaultMacro: "this month-to-date", summarize: false, accountFilter: true, columns: GENERAL_LEDGER_COLUMNS, byBasis: true },
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
    allowNameFilters: spec.nameFilters === true,
    allowDimensions: spec.dimensions === true,
    allowAccountFilter: spec.accountFilter === true,
    columnKeys: spec.columns,
  });
  const books = params.basis === "Cash" && spec.byBasis === true ? cashBasisBooks(ledger) : ledger;
  return spec.build(filteredBooks(books, params), params, now);
}

/**
 * With `customer` and/or `vendor`, the report is built from the lines naming one of those ids
 * (both given: a line must satisfy both, so nothing counts); with `class`, from the lines
 * carrying one of those classes, with `department` (a location) from the lines carrying one of those
 * departments (every filter given must hold). An id that is not a customer (vendor, class,
 * department) of the company is refused, naming the parameter; inactive ones are fine.
 */
function filteredBooks(ledger: CompanyLedger, params: ReportParams): CompanyLedger {
  const { customer, vendor, class: classes, department: departments } = params;
  if (customer === undefined && vendor === undefined && classes === undefined && departments === undefined) return ledger;
  for (const id of classes ?? []) {
    if (!ledger.classes.some((c) => c.id === id)) throw unsupportedProperty("class", `value ${id} is not the id of a class of this company`);
  }
  for (const id of departments ?? []) {
    if (!ledger.departments.some((d) => d.id === id)) throw unsupportedProperty("department", `value ${id} is not the id of a department (location) of this company`);
  }
  for (const [param, kind, ids] of [["customer", "Customer", customer], ["vendor", "Vendor", vendor]] as const) {
    for (const id of ids ?? []) {
      if (ledger.party(id)?.kind !== kind) throw unsupportedProperty(param, `value ${id} is not the id of a ${kind.toLowerCase()} of this company`);
    }
  }
  const names = (line: JournalLine, kind: "Customer" | "Vendor", ids: readonly string[] | undefined): boolean =>
    ids === undefined || (line.entity?.type === kind && ids.includes(line.entity.id));
  const classed = (line: JournalLine) => classes === undefined || (line.classId !== undefined && classes.includes(line.classId));
  const located = (line: JournalLine) => departments === undefined || (line.departmentId !== undefined && departments.includes(line.departmentId));
  return ledger.filtered((l) => names(l, "Customer", customer) && names(l, "Vendor", vendor) && classed(l) && located(l));
}
