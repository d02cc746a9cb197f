import { formatMonth, parseMonth } from "@groupledger/domain";
import type { Report } from "./model.ts";
import { sumOf } from "./model.ts";

/**
 * The key lines month by month: one report per month (the server caches each), at most
 * TREND_MONTHS of them, so the chart never asks for more than a year's worth at once.
 */
export const TREND_MONTHS = 12;

export type TrendKey = "revenue" | "expenses" | "netIncome" | "totalAssets";
export const TREND_LINES: readonly { key: TrendKey; label: string; color: string }[] = [
  { key: "revenue", label: "Revenue", color: "#1c7ed6" },
  { key: "expenses", label: "Expenses", color: "#e8590c" },
  { key: "netIncome", label: "Net income", color: "#2b8a3e" },
  { key: "totalAssets", label: "Total assets", color: "#7048e8" },
];

export interface TrendPoint {
  month: string;
  /** Null when the month could not be consolidated (its problems say why). */
  values: Record<TrendKey, number> | null;
}

/** The months the chart shows: the selected range, or its last TREND_MONTHS when it is longer. */
export function trendMonths(from: string, to: string): { months: string[]; truncated: boolean } {
  const start = parseMonth(from);
  const end = parseMonth(to);
  const first = Math.max(start, end - TREND_MONTHS + 1);
  const months: string[] = [];
  for (let m = first; m <= end; m++) months.push(formatMonth(m));
  return { months, truncated: first > start };
}

export function trendValues(r: Report): TrendPoint["values"] {
  if (!r.ok || !r.report) return null;
  const { incomeStatement: p, balanceSheet: b } = r.report;
  return { revenue: sumOf(p.revenue), expenses: sumOf(p.expenses), netIncome: p.netIncome, totalAssets: b.totalAssets };
}

export interface Scale {
  min: number;
  max: number;
  ticks: number[];
}

/**
 * An axis from a round number below the data to one above it, in steps of 1, 2 or 5 × 10^n, so
 * the grid lines read as plain amounts. Zero is on the axis when `includeZero` (profit and loss,
 * where a loss month shows below it); a balance that is large and moves little (total assets) is
 * drawn on an axis around its values, or its movement would be a flat line.
 */
export function niceScale(values: readonly number[], targetTicks = 5, includeZero = true): Scale {
  let lo = Math.min(...(includeZero ? [0] : []), ...values);
  let hi = Math.max(...(includeZero ? [0] : []), ...values);
  if (values.length === 0) return { min: 0, max: 1, ticks: [0, 1] };
  if (lo === hi) {
    if (lo === 0) return { min: 0, max: 1, ticks: [0, 1] };
    // One value: an axis around it, a tenth of it each way.
    const pad = Math.abs(lo) / 10;
    lo -= pad;
    hi += pad;
  }
  const rough = (hi - lo) / Math.max(1, targetTicks - 1);
  const pow = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((f) => f * pow).find((s) => s >= rough) ?? 10 * pow;
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let t = min; t <= max + step / 2; t += step) ticks.push(Math.round(t / step) * step);
  return { min, max, ticks };
}

/** "$1.2M", "$850K", "-$40K": an axis label in the parent currency's major units. */
export function compactMoney(minor: number, currency: string, exponent: number, locale?: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: 1 }).format(minor / 10 ** exponent);
  } catch {
    return `${new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 1 }).format(minor / 10 ** exponent)} ${currency}`;
  }
}
