import { BUDGET_DIFFERENCE_ACCOUNT } from "@groupledger/domain";
import type { BudgetVsActualReport } from "@groupledger/contract";

type Statement = NonNullable<BudgetVsActualReport["statement"]>;
type Columns = Statement["netIncome"];

/** One row of the statement as shown: a section heading, an account line, a section total or the net income. */
export interface BudgetRow {
  key: string;
  label: string;
  kind: "heading" | "line" | "total";
  columns: Columns | null;
  /**
   * The line the intra-group pairs' budget disagreements go to: it has no actual, so its variance is
   * the disagreement itself, neither favourable nor adverse performance.
   */
  disagreement: boolean;
}

/** Revenue lines and their total, expense lines and theirs, then net income: the P&L's order, each with its budget columns. */
export function budgetRows(s: Statement): BudgetRow[] {
  const rows: BudgetRow[] = [];
  const section = (key: "revenue" | "expenses", heading: string, total: string) => {
    rows.push({ key, label: heading, kind: "heading", columns: null, disagreement: false });
    for (const l of s[key].lines) rows.push({ key: `${key}:${l.account}`, label: l.name, kind: "line", columns: l, disagreement: l.account === BUDGET_DIFFERENCE_ACCOUNT });
    rows.push({ key: `${key}-total`, label: total, kind: "total", columns: s[key].total, disagreement: false });
  };
  section("revenue", "Revenue", "Total revenue");
  section("expenses", "Expenses", "Total expenses");
  rows.push({ key: "net-income", label: "Net income", kind: "total", columns: s.netIncome, disagreement: false });
  return rows;
}

/** "F" favourable (more revenue or less expense than budgeted), "A" adverse, "" on budget. */
export const varianceMark = (c: Columns): "F" | "A" | "" => (c.favourable === null ? "" : c.favourable ? "F" : "A");

/** "12.5%", or "n/a" where there was no budget to measure against. */
export const percentText = (c: Columns): string => (c.variancePercent === null ? "n/a" : `${c.variancePercent}%`);

type PairElimination = Statement["eliminations"][number];

/** Whether the statement shows the budget's eliminations: the companies' budgets and the eliminations each in a column, once any pair has a budget. */
export const showsEliminations = (s: Statement): boolean => s.eliminations.length > 0;

/** How a pair's two budgets compare at the budget rates, in words: they agree, or differ within the group's tolerance, or disagree by how much. */
export function pairAgreement(e: PairElimination, money: (n: number) => string): { text: string; color: "teal" | "orange" | "red" } {
  if (e.match === "matched") return { text: "Agree", color: "teal" };
  const by = money(Math.abs(e.difference));
  // difference = expense side − revenue side: positive when the buyer budgets more than the seller.
  const more = e.difference > 0 ? e.expense.entityName : e.revenue.entityName;
  return e.match === "withinTolerance" ? { text: `Within tolerance (${by})`, color: "orange" } : { text: `Disagree by ${by}: ${more} budgets more`, color: "red" };
}
