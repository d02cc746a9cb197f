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

/*
 * Months as "YYYY-MM" text, the way the API, the database and the screens carry them (text that
 * sorts and compares as months). These are the product's one home for month arithmetic on text;
 * the ones that read month text parse it with `parseMonth`, so text that is not a month throws
 * rather than computing garbage.
 */

/** "YYYY-MM" of a calendar year and month (1-12). */
export function monthFromParts(year: number, month: number): string {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) throw new RangeError(`${year}-${month} is not a year and month 1-12`);
  return formatMonth(year * 12 + month - 1);
}

/** A "YYYY-MM" month as its year and month (1-12) numbers. */
export function monthParts(month: string): { year: number; month: number } {
  const index = parseMonth(month);
  const year = Math.floor(index / 12);
  return { year, month: index - year * 12 + 1 };
}

/** The month `n` months after `month` (before it when `n` is negative): shiftMonth("2025-12", 1) is "2026-01". */
export function shiftMonth(month: string, n: number): string {
  return formatMonth(addMonths(parseMonth(month), n));
}

/**
 * How many months `from` … `to` spans, both included: monthCount("2025-11", "2026-02") is 4. A range
 * that ends before it starts counts 0 or less (to − from + 1), which callers refuse as they see fit.
 */
export function monthCount(from: string, to: string): number {
  return parseMonth(to) - parseMonth(from) + 1;
}

/** Every month from `from` to `to`, both included, in order; none when `to` is before `from`. */
export function monthList(from: string, to: string): string[] {
  const out: string[] = [];
  const last = parseMonth(to);
  for (let m = parseMonth(from); m <= last; m++) out.push(formatMonth(m));
  return out;
}

/** The last day of a "YYYY-MM" month as a date, "YYYY-MM-DD": "2024-02" → "2024-02-29". */
export function lastDayOfMonth(month: string): string {
  const { year, month: m } = monthParts(month);
  // Day 0 of the next month is this month's last day; UTC, so no time zone can move it.
  const day = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${month}-${String(day).padStart(2, "0")}`;
}

/**
 * The month of a date or timestamp written "YYYY-MM-DD…" (its first seven characters), or of an
 * instant in UTC (the server's calendar).
 */
export function monthOf(date: string | Date): string {
  return typeof date === "string" ? date.slice(0, 7) : monthFromParts(date.getUTCFullYear(), date.getUTCMonth() + 1);
}

/** The month of an instant in the runtime's own time zone: in a browser the user's, the month they are closing. */
export function localMonthOf(instant: Date): string {
  return monthFromParts(instant.getFullYear(), instant.getMonth() + 1);
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
