import Decimal from "decimal.js";
import { RATE_MAX_DECIMALS, normalizeRate } from "./rate-text.ts";

export interface DailyRate {
  /** YYYY-MM-DD */
  date: string;
  /** Decimal text as published. */
  rate: string;
}

export interface MonthlyRate {
  month: string;
  /** Mean of the month's daily rates, rounded half-up to 10 decimals. */
  average: string;
  /** The last rate published in the month. */
  closing: string;
  days: number;
}

/**
 * Monthly average and month-end rates from daily reference rates. Exact decimal arithmetic: a
 * mean of 23 rates is not something to trust to binary floating point. Days are taken in date
 * order whatever order they arrive in; an invalid daily rate throws with its date.
 */
export function monthlyFromDaily(daily: readonly DailyRate[]): MonthlyRate[] {
  const byMonth = new Map<string, DailyRate[]>();
  for (const d of [...daily].sort((a, b) => a.date.localeCompare(b.date))) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d.date)) throw new Error(`not a date: ${d.date}`);
    if (normalizeRate(d.rate) === null) throw new Error(`the rate published for ${d.date} is not a positive decimal: ${d.rate}`);
    const month = d.date.slice(0, 7);
    (byMonth.get(month) ?? byMonth.set(month, []).get(month)!).push(d);
  }
  return [...byMonth].map(([month, days]) => {
    const sum = days.reduce((s, d) => s.plus(d.rate), new Decimal(0));
    const average = sum.dividedBy(days.length).toDecimalPlaces(RATE_MAX_DECIMALS, Decimal.ROUND_HALF_UP);
    return { month, average: normalizeRate(average.toFixed(RATE_MAX_DECIMALS))!, closing: normalizeRate(days.at(-1)!.rate)!, days: days.length };
  });
}
