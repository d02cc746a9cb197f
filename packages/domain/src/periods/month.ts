/**
 * Months as integers (year × 12 + month − 1) so ranges are plain arithmetic, plus quarters and
 * fiscal years. A fiscal year is named by the calendar year in which it ends (the usual US/QBO
 * convention): with a July start, FY2024 runs 2023-07 … 2024-06. With a January start the fiscal
 * year is the calendar year.
 */

export type MonthIndex = number;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonthText(text: string): boolean {
  return MONTH.test(text);
}

export function parseMonth(text: string): MonthIndex {
  const match = MONTH.exec(text);
  if (!match) throw new Error(`"${text}" is not a month like 2024-01`);
  return Number(match[1]) * 12 + Number(match[2]) - 1;
}

export function formatMonth(index: MonthIndex): string {
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}`;
}

export function addMonths(index: MonthIndex, count: number): MonthIndex {
  return index + count;
}

export interface MonthRange {
  readonly from: MonthIndex;
  readonly to: MonthIndex;
}

export function monthRange(from: MonthIndex, to: MonthIndex): MonthRange {
  if (to < from) throw new Error(`range ends (${formatMonth(to)}) before it starts (${formatMonth(from)})`);
  return { from, to };
}

export function monthsIn(range: MonthRange): MonthIndex[] {
  const out: MonthIndex[] = [];
  for (let m = range.from; m <= range.to; m++) out.push(m);
  return out;
}

export function rangeLength(range: MonthRange): number {
  return range.to - range.from + 1;
}

function assertStartMonth(fiscalYearStartMonth: number): void {
  if (!Number.isInteger(fiscalYearStartMonth) || fiscalYearStartMonth < 1 || fiscalYearStartMonth > 12) {
    throw new RangeError(`fiscal year start month must be 1-12, got ${fiscalYearStartMonth}`);
  }
}

/** The twelve months of fiscal year `year` (named by the calendar year it ends in). */
export function fiscalYearRange(year: number, fiscalYearStartMonth: number): MonthRange {
  assertStartMonth(fiscalYearStartMonth);
  const endMonthIndex = year * 12 + ((fiscalYearStartMonth + 10) % 12);
  const end = fiscalYearStartMonth === 1 ? year * 12 + 11 : endMonthIndex;
  return { from: end - 11, to: end };
}

/** The fiscal year a month belongs to. */
export function fiscalYearOf(month: MonthIndex, fiscalYearStartMonth: number): number {
  assertStartMonth(fiscalYearStartMonth);
  const shifted = month - (fiscalYearStartMonth - 1);
  const startYear = Math.floor(shifted / 12);
  return fiscalYearStartMonth === 1 ? startYear : startYear + 1;
}

/** Quarter 1-4 of a fiscal year. */
export function fiscalQuarterRange(year: number, quarter: number, fiscalYearStartMonth: number): MonthRange {
  if (!Number.isInteger(quarter) || quarter < 1 || quarter > 4) throw new RangeError(`quarter must be 1-4, got ${quarter}`);
  const fy = fiscalYearRange(year, fiscalYearStartMonth);
  const from = fy.from + (quarter - 1) * 3;
  return { from, to: from + 2 };
}

/** First month of the fiscal year containing `month`. */
export function fiscalYearStart(month: MonthIndex, fiscalYearStartMonth: number): MonthIndex {
  return fiscalYearRange(fiscalYearOf(month, fiscalYearStartMonth), fiscalYearStartMonth).from;
}

/**
 * The calendar month of fiscal month `fiscalMonth` (1 = the fiscal year's first month) of fiscal
 * year `fiscalYear`, named like every fiscal year here by the calendar year it ends in: with an
 * April start, fiscal month 1 of 2026 is April 2025 and fiscal month 12 is March 2026.
 */
export function calendarMonthOfFiscal(fiscalYear: number, fiscalMonth: number, fiscalYearStartMonth: number): { year: number; month: number } {
  if (!Number.isInteger(fiscalMonth) || fiscalMonth < 1 || fiscalMonth > 12) throw new RangeError(`fiscal month must be 1-12, got ${fiscalMonth}`);
  const index = fiscalYearRange(fiscalYear, fiscalYearStartMonth).from + fiscalMonth - 1;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}
