/**
 * The granularity of a budget (issue 23): QuickBooks keeps a budget Monthly, Quarterly or Annually
 * (the Budget entity's BudgetEntryType), one amount per account per period, each BudgetDetail
 * dated in its period. A quarter's or a year's amount is never spread over months here: each
 * budget line covers `months` months from `month`, and a statement compares it only over a period
 * made of whole spans. A period that cuts one is refused for the statement, naming the company,
 * the budget and the period to choose instead (docs/engine.md "Budget vs actual").
 */

import { monthCount, shiftMonth } from "../periods/month.ts";

/** What one budget line covers: `months` months from `month` (YYYY-MM). */
export interface BudgetSpan {
  readonly month: string;
  readonly months: number;
}

export const BUDGET_ENTRY_TYPES = ["Monthly", "Quarterly", "Annually"] as const;
export type BudgetEntryType = (typeof BUDGET_ENTRY_TYPES)[number];
export const isBudgetEntryType = (t: string): t is BudgetEntryType => (BUDGET_ENTRY_TYPES as readonly string[]).includes(t);

/**
 * The span a QuickBooks budget's detail line dated `budgetDate` (YYYY-MM-DD) covers, for a budget
 * running `start` to `end` (months). Monthly: its month. Quarterly: the quarter of the budget's
 * own year it falls in (quarters counted from the budget's first month, as QuickBooks counts them
 * from the fiscal year's start), cut at the budget's end. Annually: the whole budget. Null when the
 * date lies outside the budget.
 */
export function budgetDetailSpan(entryType: BudgetEntryType, start: string, end: string, budgetDate: string): BudgetSpan | null {
  const month = budgetDate.slice(0, 7);
  if (month < start || month > end) return null;
  if (entryType === "Monthly") return { month, months: 1 };
  if (entryType === "Annually") return { month: start, months: monthCount(start, end) };
  const first = shiftMonth(start, Math.floor((monthCount(start, month) - 1) / 3) * 3);
  return { month: first, months: Math.min(3, monthCount(first, end)) };
}

/** The last month a span covers. */
export const spanEnd = (s: BudgetSpan): string => shiftMonth(s.month, s.months - 1);

/** The months a span covers, in order. */
export function spanMonths(s: BudgetSpan): string[] {
  return Array.from({ length: s.months }, (_, i) => shiftMonth(s.month, i));
}

/** Whether a span lies inside the period, outside it, or is cut by it (some of its months in, some out). */
export function spanFit(s: BudgetSpan, from: string, to: string): "inside" | "outside" | "cut" {
  const last = spanEnd(s);
  if (last < from || s.month > to) return "outside";
  return s.month >= from && last <= to ? "inside" : "cut";
}

/** How a person names a span's length: "quarterly", "annually", "monthly", or "for 5 months". */
export function spanCadence(months: number): string {
  return months === 1 ? "monthly" : months === 3 ? "quarterly" : months === 12 ? "annually" : `for ${months} months`;
}

/** The smallest period holding `from`–`to` and every span given whole. */
export function periodAround(from: string, to: string, spans: readonly BudgetSpan[]): { from: string; to: string } {
  let a = from;
  let b = to;
  for (const s of spans) {
    if (s.month < a) a = s.month;
    const last = spanEnd(s);
    if (last > b) b = last;
  }
  return { from: a, to: b };
}

/**
 * What the statement says when the period cuts a company's budget spans: which budget, how it is
 * entered, the span cut, and the period to choose (`within` says whether that period lies in one of
 * the parent's fiscal years; if not, no period of the statement can hold the span whole).
 */
export function budgetCutMessage(args: {
  readonly company: string;
  readonly budget: string;
  readonly from: string;
  readonly to: string;
  readonly cut: readonly BudgetSpan[];
  readonly suggestion: { readonly from: string; readonly to: string };
  readonly suggestionWithinFiscalYear: boolean;
}): string {
  const { company, budget, from, to, cut, suggestion } = args;
  const first = cut[0]!;
  const cadence = spanCadence(first.months);
  const unit = first.months === 3 ? "quarter" : first.months === 12 ? "year" : "period";
  const spans = cut.map((s) => `${s.month} to ${spanEnd(s)}`).join(" and ");
  const period = from === to ? from : `${from} to ${to}`;
  const head = `${company}'s budget "${budget}" is entered ${cadence} in QuickBooks: ${period} cuts its ${unit}${cut.length > 1 ? "s" : ""} ${spans}, and its amounts are not spread over months.`;
  return args.suggestionWithinFiscalYear
    ? `${head} Choose ${suggestion.from} to ${suggestion.to}, or a period of whole ${unit}s.`
    : `${head} Its ${unit} runs over two of the parent's fiscal years, so no statement period holds it whole: enter ${company}'s budget monthly in QuickBooks, or import it as CSV.`;
}
