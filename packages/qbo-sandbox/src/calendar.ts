/**
 * Plain calendar dates ("YYYY-MM-DD") and months ("YYYY-MM"). Books are kept by date, never by
 * instant, so everything here is UTC arithmetic on dates with no time zone involved.
 *
 * The emulator keeps its own calendar on purpose, apart from GroupLedger's (packages/domain
 * periods/month.ts): it stands in for QuickBooks, whose rules (dates, day-clipped month steps,
 * fiscal years named by their first day) it must follow on its own, so its source never imports
 * @groupledger/domain (only its tests do, to measure the demo against our rules; a test in
 * faults.test.ts checks it). Within the emulator this file is the one home for date and month
 * arithmetic.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(text: string): boolean {
  const m = DATE.exec(text);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

export function ymd(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

export function parts(date: string): { year: number; month: number; day: number } {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8, 10)) };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export function monthEnd(date: string): string {
  const { year, month } = parts(date);
  return ymd(year, month, daysInMonth(year, month));
}

export function addDays(date: string, days: number): string {
  const { year, month, day } = parts(date);
  return ymd(year, month, day + days);
}

/** Same day-of-month clipped to the target month's length. */
export function addMonths(date: string, months: number): string {
  const { year, month, day } = parts(date);
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const y = first.getUTCFullYear();
  const m = first.getUTCMonth() + 1;
  return ymd(y, m, Math.min(day, daysInMonth(y, m)));
}

/** "2023-01" .. "2026-10" inclusive. */
export function monthRange(from: string, to: string): string[] {
  const out: string[] = [];
  let cur = `${from}-01`;
  const last = `${to}-01`;
  while (cur <= last) {
    out.push(cur.slice(0, 7));
    cur = addMonths(cur, 1);
  }
  return out;
}

/** The first day of the fiscal year that contains `date`. */
export function fiscalYearStart(date: string, firstMonth: number): string {
  const { year, month } = parts(date);
  return ymd(month >= firstMonth ? year : year - 1, firstMonth, 1);
}

export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

export function monthName(month: number): string {
  const name = MONTH_NAMES[month - 1];
  if (name === undefined) throw new RangeError(`month ${month}`);
  return name;
}

export function shortMonth(month: number): string {
  return monthName(month).slice(0, 3);
}

/** The calendar date of an instant in a time zone (QBO's "today" is the company's, taken as Pacific). */
export function dateIn(instant: Date, timeZone: string): string {
  const p = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
  return p;
}
