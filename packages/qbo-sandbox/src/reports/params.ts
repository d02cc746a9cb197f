/**
 * Report parameters as Intuit takes them: start_date/end_date, or date_macro, accounting_method,
 * summarize_column_by, and on the reports that take them the name filters `customer` and
 * `vendor` (comma-separated ids). Unknown values are refused with a ValidationFault naming the
 * parameter, rather than silently answering for a different period or a different name.
 */
import { addDays, addMonths, fiscalYearStart, isIsoDate, monthEnd, monthStart, parts, shortMonth } from "../calendar.ts";
import { unsupportedProperty } from "../qboFault.ts";

export type Period = "Total" | "Month" | "Quarter" | "Year";
/** Column per class, department (location) or customer, then TOTAL (BalanceSheet and ProfitAndLoss). */
export type Dimension = "Classes" | "Departments" | "Customers";
export type Summarize = Period | Dimension;
export const DIMENSIONS: readonly Dimension[] = ["Classes", "Departments", "Customers"];

export function isDimension(s: Summarize): s is Dimension {
  return (DIMENSIONS as readonly string[]).includes(s);
}

export interface Column {
  readonly start: string;
  readonly end: string;
  readonly title: string;
}

export interface ReportParams {
  readonly start: string;
  readonly end: string;
  /** Lower-case as Intuit echoes it ("this month-to-date"); undefined when explicit dates were given. */
  readonly dateMacro: string | undefined;
  readonly basis: "Accrual" | "Cash";
  readonly summarize: Summarize;
  /** One per period for Month/Quarter/Year; a single column for Total and for the dimensions. */
  readonly columns: readonly Column[];
  /** `customer=1,2`: only lines naming one of these customers count (ids as sent, deduplicated). */
  readonly customer?: readonly string[] | undefined;
  /** `vendor=...`: likewise for vendors. */
  readonly vendor?: readonly string[] | undefined;
  /** `class=3,4`: only lines carrying one of these classes count. */
  readonly class?: readonly string[] | undefined;
  /** `department=1,2` (a location): only lines carrying one of these departments count. */
  readonly department?: readonly string[] | undefined;
  /** `account=1,2` (GeneralLedger): only these accounts' sections. */
  readonly account?: readonly string[] | undefined;
  /** `columns=tx_date,nat_foreign_amount,...` (GeneralLedger): the columns asked for, in order. */
  readonly columnKeys?: readonly string[] | undefined;
}

export const NAME_FILTERS = ["customer", "vendor", "class", "department"] as const;

/**
 * Filters Intuit documents on its reports that the emulator does not implement (journal lines
 * carry no item, employee Names are not supported, ...). They are refused (2010, naming the
 * parameter) rather than ignored, so a filtered request never gets unfiltered figures.
 */
export const UNSUPPORTED_FILTERS = [
  "item",
  "employee",
  "account_type",
  "source_account",
  "source_account_type",
  "payment_method",
  "term",
  "sales_rep",
  "transaction_type",
  "name",
  "memo",
  "doc_num",
  "cleared",
  "printed",
  "agency_id",
  "customer_type",
  "vendor_type",
] as const;
export type NameFilter = (typeof NAME_FILTERS)[number];

/** `1,2, 3` → ["1","2","3"]; anything but a list of ids is refused, naming the parameter. */
function idList(name: NameFilter | "account", value: string): string[] {
  const ids = value.split(",").map((v) => v.trim());
  if (ids.some((id) => !/^\d+$/.test(id))) {
    throw unsupportedProperty(name, `value "${value}" must be one or more ${name} ids separated by commas`);
  }
  return [...new Set(ids)];
}

type Range = { start: string; end: string };

function quarterStart(date: string, firstMonth: number): string {
  const fy = fiscalYearStart(date, firstMonth);
  const { year, month } = parts(date);
  const { year: fyYear, month: fyMonth } = parts(fy);
  const monthsIn = (year - fyYear) * 12 + (month - fyMonth);
  return addMonths(fy, monthsIn - (monthsIn % 3));
}

/** Intuit's date macros, relative to the company's today. */
export function macroRange(macro: string, today: string, fyFirstMonth: number): Range | undefined {
  const fy = fiscalYearStart(today, fyFirstMonth);
  const lastFy = addMonths(fy, -12);
  const calYear = `${today.slice(0, 4)}-01-01`;
  const q = quarterStart(today, fyFirstMonth);
  const calQ = quarterStart(today, 1);
  const end = (start: string, months: number): string => addDays(addMonths(start, months), -1);
  const table: Record<string, Range> = {
    today: { start: today, end: today },
    yesterday: { start: addDays(today, -1), end: addDays(today, -1) },
    "this month": { start: monthStart(today), end: monthEnd(today) },
    "this month-to-date": { start: monthStart(today), end: today },
    "last month": { start: addMonths(monthStart(today), -1), end: addDays(monthStart(today), -1) },
    "this fiscal quarter": { start: q, end: end(q, 3) },
    "this fiscal quarter-to-date": { start: q, end: today },
    "last fiscal quarter": { start: addMonths(q, -3), end: addDays(q, -1) },
    "this calendar quarter": { start: calQ, end: end(calQ, 3) },
    "last calendar quarter": { start: addMonths(calQ, -3), end: addDays(calQ, -1) },
    "this fiscal year": { start: fy, end: end(fy, 12) },
    "this fiscal year-to-date": { start: fy, end: today },
    "last fiscal year": { start: lastFy, end: addDays(fy, -1) },
    "this calendar year": { start: calYear, end: end(calYear, 12) },
    "this calendar year-to-date": { start: calYear, end: today },
    "last calendar year": { start: addMonths(calYear, -12), end: addDays(calYear, -1) },
  };
  return table[macro.trim().toLowerCase()];
}

export const SUPPORTED_MACROS = [
  "Today", "Yesterday", "This Month", "This Month-to-date", "Last Month", "This Fiscal Quarter",
  "This Fiscal Quarter-to-date", "Last Fiscal Quarter", "This Calendar Quarter", "Last Calendar Quarter",
  "This Fiscal Year", "This Fiscal Year-to-date", "Last Fiscal Year", "This Calendar Year",
  "This Calendar Year-to-date", "Last Calendar Year",
];

function periodTitle(start: string, end: string): string {
  const s = parts(start);
  const e = parts(end);
  if (start.slice(0, 7) === end.slice(0, 7)) {
    const full = start === monthStart(start) && end === monthEnd(end);
    return full ? `${shortMonth(s.month)} ${s.year}` : `${shortMonth(s.month)} ${s.day} - ${e.day}, ${s.year}`;
  }
  if (s.year === e.year) return `${shortMonth(s.month)} - ${shortMonth(e.month)}, ${e.year}`;
  return `${shortMonth(s.month)} ${s.year} - ${shortMonth(e.month)} ${e.year}`;
}

function periods(range: Range, months: number, anchor: (d: string) => string): Column[] {
  const out: Column[] = [];
  let cur = range.start;
  while (cur <= range.end) {
    const periodEnd = addDays(addMonths(anchor(cur), months), -1);
    const end = periodEnd < range.end ? periodEnd : range.end;
    out.push({ start: cur, end, title: periodTitle(cur, end) });
    cur = addDays(end, 1);
  }
  return out;
}

export interface ParamInput {
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly today: string;
  readonly fiscalYearStartMonth: number;
  /** The macro Intuit applies when the request names no period. */
  readonly defaultMacro: string;
  readonly allowSummarize: boolean;
  /** Whether the report takes summarize_column_by Classes/Departments/Customers. */
  readonly allowDimensions?: boolean | undefined;
  /** Whether the report takes `customer` and `vendor`; elsewhere they are refused, not ignored. */
  readonly allowNameFilters?: boolean | undefined;
  /**
   * Whether the report takes `account` (Intuit documents it on GeneralLedger: "one or more comma
   * separated account IDs"); elsewhere it is refused, not ignored.
   */
  readonly allowAccountFilter?: boolean | undefined;
  /** The column keys the report serves for `columns=`; absent: the parameter is not read. */
  readonly columnKeys?: readonly string[] | undefined;
}

export function parseReportParams(input: ParamInput): ReportParams {
  const q = input.query;
  const fyMonth = input.fiscalYearStartMonth;
  for (const name of ["start_date", "end_date"] as const) {
    const v = q[name];
    if (v !== undefined && !isIsoDate(v)) throw unsupportedProperty(name, `value ${v} is not a date (YYYY-MM-DD)`);
  }
  let range: Range;
  let dateMacro: string | undefined;
  const startDate = q["start_date"];
  const endDate = q["end_date"];
  if (startDate !== undefined || endDate !== undefined) {
    const end = endDate ?? input.today;
    const start = startDate ?? (input.defaultMacro.includes("month") ? monthStart(end) : fiscalYearStart(end, fyMonth));
    if (start > end) throw unsupportedProperty("start_date", `${start} is after end_date ${end}`);
    range = { start, end };
  } else {
    const macro = q["date_macro"] ?? input.defaultMacro;
    const r = macroRange(macro, input.today, fyMonth);
    if (r === undefined) throw unsupportedProperty("date_macro", `value "${macro}" is not supported; use one of: ${SUPPORTED_MACROS.join(", ")}`);
    range = r;
    dateMacro = macro.trim().toLowerCase();
  }

  const method = (q["accounting_method"] ?? "Accrual").toLowerCase();
  if (method !== "accrual" && method !== "cash") throw unsupportedProperty("accounting_method", `value "${q["accounting_method"]}" must be Accrual or Cash`);
  const basis = method === "cash" ? "Cash" : "Accrual";

  const rawSummarize = q["summarize_column_by"];
  let summarize: Summarize = "Total";
  if (rawSummarize !== undefined) {
    const offered: Summarize[] = ["Total", ...(input.allowSummarize ? (["Month", "Quarter", "Year"] as const) : []), ...(input.allowDimensions === true ? DIMENSIONS : [])];
    const found = offered.find((s) => s.toLowerCase() === rawSummarize.toLowerCase());
    if (found === undefined) {
      throw unsupportedProperty("summarize_column_by", `value "${rawSummarize}" is not supported by the sandbox on this report; use ${offered.join(", ")}`);
    }
    summarize = found;
  }

  let columns: Column[];
  switch (summarize) {
    case "Total":
      columns = [{ start: range.start, end: range.end, title: "Total" }];
      break;
    case "Classes":
    case "Departments":
    case "Customers":
      columns = [{ start: range.start, end: range.end, title: "TOTAL" }];
      break;
    case "Month":
      columns = periods(range, 1, monthStart);
      break;
    case "Quarter":
      columns = periods(range, 3, (d) => quarterStart(d, fyMonth));
      break;
    case "Year":
      columns = periods(range, 12, (d) => fiscalYearStart(d, fyMonth));
      break;
  }
  for (const name of [...UNSUPPORTED_FILTERS, ...(input.allowAccountFilter === true ? [] : ["account"])]) {
    if (q[name] !== undefined) throw unsupportedProperty(name, "is a report filter the sandbox does not implement; it is refused rather than ignored");
  }
  const account = input.allowAccountFilter === true && q["account"] !== undefined ? idList("account", q["account"]) : undefined;
  const filters: { customer?: string[]; vendor?: string[]; class?: string[]; department?: string[] } = {};
  for (const name of NAME_FILTERS) {
    const raw = q[name];
    if (raw === undefined) continue;
    if (input.allowNameFilters !== true) throw unsupportedProperty(name, "is not supported by the sandbox on this report (only BalanceSheet and ProfitAndLoss)");
    filters[name] = idList(name, raw);
  }
  const columnKeys = input.columnKeys === undefined ? undefined : columnList(q["columns"], input.columnKeys);
  return { start: range.start, end: range.end, dateMacro, basis, summarize, columns, ...filters, ...(account === undefined ? {} : { account }), ...(columnKeys === undefined ? {} : { columnKeys }) };
}

/** `columns=a,b`: known keys only (refused, naming the parameter, rather than left out). */
function columnList(raw: string | undefined, known: readonly string[]): string[] | undefined {
  if (raw === undefined) return undefined;
  const keys = raw.split(",").map((k) => k.trim().toLowerCase());
  const unknown = keys.find((k) => !known.includes(k));
  if (unknown !== undefined) throw unsupportedProperty("columns", `value "${unknown}" is not a column the sandbox serves on this report; use ${known.join(", ")}`);
  return [...new Set(keys)];
}
