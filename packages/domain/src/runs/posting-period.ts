import { fiscalQuarterRange, fiscalYearOf, fiscalYearRange, formatMonth, type MonthIndex } from "../periods/month.ts";

/**
 * The period one consolidation entry covers: a month, a fiscal quarter or a fiscal year of the
 * PARENT (the entry lands in its books). A period is named by its kind and its last calendar
 * month, the month-end the entry is dated, as the duplicate check names it.
 */
export type PostingPeriodKind = "month" | "quarter" | "year";

export interface PostingPeriod {
  kind: PostingPeriodKind;
  /** First and last month, inclusive, "YYYY-MM". */
  from: string;
  to: string;
  /** "2026-03", "FY2026 Q1" or "FY2026" (fiscal years named by the calendar year they end in). */
  label: string;
  /** Short code for a QBO DocNumber: "202603", "2026Q1", "FY2026". */
  code: string;
}

export class PostingPeriodError extends Error {
  override name = "PostingPeriodError";
}

const monthIndexOf = (year: number, month: number): MonthIndex => year * 12 + (month - 1);

/**
 * Resolves {kind, year, month} where (year, month) is the period's last calendar month. A quarter
 * or year must end where a fiscal quarter or year of the parent ends; otherwise the error says
 * which months would.
 */
export function resolvePostingPeriod(kind: PostingPeriodKind, year: number, month: number, fiscalYearStartMonth: number): PostingPeriod {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) {
    throw new PostingPeriodError(`${year}-${month} is not a month.`);
  }
  const last = monthIndexOf(year, month);
  if (kind === "month") {
    const text = formatMonth(last);
    return { kind, from: text, to: text, label: text, code: text.replace("-", "") };
  }
  const fy = fiscalYearOf(last, fiscalYearStartMonth);
  if (kind === "year") {
    const range = fiscalYearRange(fy, fiscalYearStartMonth);
    if (range.to !== last) {
      throw new PostingPeriodError(`A fiscal year of the parent ends in ${formatMonth(range.to)}, not ${formatMonth(last)}; choose a year-end month.`);
    }
    return { kind, from: formatMonth(range.from), to: formatMonth(range.to), label: `FY${fy}`, code: `FY${fy}` };
  }
  for (let q = 1; q <= 4; q++) {
    const range = fiscalQuarterRange(fy, q, fiscalYearStartMonth);
    if (range.to === last) return { kind, from: formatMonth(range.from), to: formatMonth(range.to), label: `FY${fy} Q${q}`, code: `${fy}Q${q}` };
  }
  const ends = [1, 2, 3, 4].map((q) => formatMonth(fiscalQuarterRange(fy, q, fiscalYearStartMonth).to));
  throw new PostingPeriodError(`Fiscal quarters of the parent end in ${ends.join(", ")}; ${formatMonth(last)} is not a quarter-end.`);
}

/** The months of `period` that are not after `openingMonth` (already in the opening balances). */
export function overlapsOpening(period: Pick<PostingPeriod, "from">, openingMonth: string): boolean {
  return period.from <= openingMonth;
}
