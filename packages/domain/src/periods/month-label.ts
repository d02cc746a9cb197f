import { monthList } from "./month.ts";

/**
 * Months in words, as an accountant reads them ("March 2026", "December 2024 to December 2025"):
 * one home for the server's messages and the web's labels.
 */

export const MONTH_NAMES = [
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
] as const;

export const monthName = (month: number): string => MONTH_NAMES[month - 1] ?? `Month ${month}`;

/** "March 2026": the month-end a calendar year and month mean. */
export const calendarLabel = (year: number, month: number): string => `${monthName(month)} ${year}`;

/** "2026-03" (as the server sends months) → "March 2026"; anything else is shown as it came. */
export function monthTextLabel(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  return m ? calendarLabel(Number(m[1]), Number(m[2])) : month;
}

/** The months' span in words: "December 2025", "December 2024 to December 2025", or "3 months between … and …". Months sorted, each once. */
export function monthSpan(months: readonly string[]): string {
  const first = months[0]!;
  const last = months.at(-1)!;
  if (first === last) return monthTextLabel(first);
  const contiguous = monthList(first, last).length === months.length;
  return contiguous
    ? `${monthTextLabel(first)} to ${monthTextLabel(last)}`
    : `${months.length} months between ${monthTextLabel(first)} and ${monthTextLabel(last)}`;
}
