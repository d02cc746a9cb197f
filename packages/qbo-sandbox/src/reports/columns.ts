/**
 * The money columns of BalanceSheet and ProfitAndLoss, each with the books it is computed from.
 *
 * Periods (Total/Month/Quarter/Year): every column reads the whole (filtered) ledger over its own
 * dates. Dimensions (`summarize_column_by=Classes|Departments|Customers`): every column covers the
 * report's dates and reads only the lines of one class, department (location) or customer; lines
 * carrying none fall in a "Not Specified" column (Intuit's label for them, as in its
 * DepartmentSales example); a last column "TOTAL" (ColKey "total", as recorded in
 * reports/ProfitAndLoss_2020_sandbox_byCustomers__minimul-qbo_api.json) reads every line. Only
 * values with lines in the report appear, ordered by name, so with nothing to show the report has
 * the recorded layout: the account column and TOTAL.
 */
import { isBalanceSheet } from "../accountTypes.ts";
import type { Json } from "../entities.ts";
import type { CompanyLedger, JournalLine } from "../ledger.ts";
import type { Dimension, ReportParams } from "./params.ts";
import { isDimension } from "./params.ts";
import { moneyColumns } from "./rows.ts";

export interface BookColumn {
  readonly start: string;
  readonly end: string;
  readonly ledger: CompanyLedger;
}

export interface ReportColumns {
  /** Money columns in order (the Total column included when the layout has one). */
  readonly columns: readonly BookColumn[];
  /** `Columns.Column`: the account column first. */
  readonly json: Json[];
}

const ACCOUNT_COLUMN: Json = { ColTitle: "", ColType: "Account", MetaData: [{ Name: "ColKey", Value: "account" }] };

function keyOf(dimension: Dimension, line: JournalLine): string | undefined {
  switch (dimension) {
    case "Classes":
      return line.classId;
    case "Departments":
      return line.departmentId;
    case "Customers":
      return line.entity?.type === "Customer" ? line.entity.id : undefined;
  }
}

function nameOf(ledger: CompanyLedger, dimension: Dimension, id: string): string {
  switch (dimension) {
    case "Classes":
      return ledger.classes.find((c) => c.id === id)?.name ?? id;
    case "Departments":
      return ledger.departments.find((d) => d.id === id)?.name ?? id;
    case "Customers":
      return ledger.party(id)?.displayName ?? id;
  }
}

/**
 * `kind` decides which lines make a dimension value appear: a ProfitAndLoss shows the values with
 * income or expense lines dated in the period, a BalanceSheet those with any line up to its end.
 */
export function reportColumns(ledger: CompanyLedger, params: ReportParams, kind: "ProfitAndLoss" | "BalanceSheet"): ReportColumns {
  const summarize = params.summarize;
  if (!isDimension(summarize)) {
    const withTotal = kind === "ProfitAndLoss" && summarize !== "Total";
    const periods = params.columns.map((c) => ({ start: c.start, end: c.end, ledger }));
    return {
      columns: withTotal ? [...periods, { start: params.start, end: params.end, ledger }] : periods,
      json: moneyColumns(params, withTotal),
    };
  }
  const from = kind === "ProfitAndLoss" ? params.start : "0000-01-01";
  const counts = (line: JournalLine, txnDate: string): boolean => {
    if (txnDate < from || txnDate > params.end) return false;
    const account = ledger.account(line.accountId);
    return kind === "BalanceSheet" || (account !== undefined && !isBalanceSheet(account.type));
  };
  const keys = new Set<string>();
  let unspecified = false;
  for (const e of ledger.entries) {
    if (e.deletedTime !== undefined) continue;
    for (const l of e.lines) {
      if (!counts(l, e.txnDate)) continue;
      const key = keyOf(summarize, l);
      if (key === undefined) unspecified = true;
      else keys.add(key);
    }
  }
  const named = [...keys].map((id) => ({ id, name: nameOf(ledger, summarize, id) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const segments: { title: string; colKey: string; keep: (l: JournalLine) => boolean }[] = named.map(({ id, name }) => ({
    title: name,
    colKey: id,
    keep: (l) => keyOf(summarize, l) === id,
  }));
  // Lines without the dimension: shown beside the named values, never dropped from TOTAL.
  if (unspecified) segments.push({ title: "Not Specified", colKey: "NotSpecified", keep: (l) => keyOf(summarize, l) === undefined });
  const columns: BookColumn[] = segments.map((s) => ({ start: params.start, end: params.end, ledger: ledger.filtered(s.keep) }));
  columns.push({ start: params.start, end: params.end, ledger });
  const json: Json[] = [
    ACCOUNT_COLUMN,
    ...segments.map((s) => ({ ColTitle: s.title, ColType: "Money", MetaData: [{ Name: "ColKey", Value: s.colKey }] })),
    { ColTitle: "TOTAL", ColType: "Money", MetaData: [{ Name: "ColKey", Value: "total" }] },
  ];
  return { columns, json };
}
