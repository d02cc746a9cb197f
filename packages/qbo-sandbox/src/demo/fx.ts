/**
 * The demo group's monthly FX history: USD per one unit of GBP, CAD and EUR, average and month-end
 * rates, from a seeded mean-reverting walk around each pair's real 2023-2026 range. Same numbers
 * on every run; exact six-decimal rates.
 */
import { formatRate, RATE_SCALE } from "../money.ts";
import { seededRandom, seedOf } from "../rng.ts";
import { monthRange } from "../calendar.ts";

export const DEMO_FIRST_MONTH = "2023-01";
export const DEMO_LAST_MONTH = "2026-10";

export type DemoCurrency = "GBP" | "CAD" | "EUR";
export const DEMO_FOREIGN_CURRENCIES: readonly DemoCurrency[] = ["GBP", "CAD", "EUR"];

export interface DemoFxRate {
  readonly currency: DemoCurrency;
  /** "YYYY-MM" */
  readonly month: string;
  /** USD per one unit of `currency`, six decimals. */
  readonly average: string;
  readonly closing: string;
}

interface Pair {
  readonly opening: number; // the close of Dec 2022
  readonly centre: number;
  readonly monthlyVol: number;
}

const PAIRS: Record<DemoCurrency, Pair> = {
  GBP: { opening: 1.2083, centre: 1.27, monthlyVol: 0.018 },
  CAD: { opening: 0.7383, centre: 0.735, monthlyVol: 0.011 },
  EUR: { opening: 1.0705, centre: 1.09, monthlyVol: 0.015 },
};

/** Month-end rates of December 2022: the historical rates of the subsidiaries' share capital. */
export const OPENING_RATES: Readonly<Record<string, bigint>> = {
  USD: RATE_SCALE,
  GBP: toMicros(PAIRS.GBP.opening),
  CAD: toMicros(PAIRS.CAD.opening),
  EUR: toMicros(PAIRS.EUR.opening),
};

function toMicros(x: number): bigint {
  return BigInt(Math.round(x * Number(RATE_SCALE)));
}

function buildHistory(): DemoFxRate[] {
  const months = monthRange(DEMO_FIRST_MONTH, DEMO_LAST_MONTH);
  const out: DemoFxRate[] = [];
  for (const currency of DEMO_FOREIGN_CURRENCIES) {
    const pair = PAIRS[currency];
    const rnd = seededRandom(seedOf(`fx:${currency}`));
    let prevClose = pair.opening;
    for (const month of months) {
      const shock = (rnd() + rnd() + rnd() - 1.5) * 2 * pair.monthlyVol; // roughly normal
      const close = prevClose + 0.15 * (pair.centre - prevClose) + shock * prevClose;
      // A month's average sits between the two closes, pulled a little by the path in between.
      const average = (prevClose + close) / 2 + (rnd() - 0.5) * pair.monthlyVol * 0.3 * prevClose;
      out.push({ currency, month, average: formatRate(toMicros(average)), closing: formatRate(toMicros(close)) });
      prevClose = close;
    }
  }
  return out;
}

let cached: readonly DemoFxRate[] | undefined;

/** Every (currency, month) of the demo period, GBP then CAD then EUR, months ascending. */
export function demoFxRates(): DemoFxRate[] {
  cached ??= Object.freeze(buildHistory());
  return cached.map((r) => ({ ...r }));
}

/** Lookup by currency and month, as micros. USD is 1. */
export class FxTable {
  private readonly byKey = new Map<string, { average: bigint; closing: bigint }>();

  constructor(rates: readonly DemoFxRate[]) {
    for (const r of rates) {
      this.byKey.set(`${r.currency}:${r.month}`, {
        average: BigInt(r.average.replace(".", "")),
        closing: BigInt(r.closing.replace(".", "")),
      });
    }
  }

  average(currency: string, month: string): bigint {
    return this.get(currency, month).average;
  }

  closing(currency: string, month: string): bigint {
    return this.get(currency, month).closing;
  }

  private get(currency: string, month: string): { average: bigint; closing: bigint } {
    if (currency === "USD") return { average: RATE_SCALE, closing: RATE_SCALE };
    const r = this.byKey.get(`${currency}:${month}`);
    if (r === undefined) throw new RangeError(`no demo rate for ${currency} ${month}`);
    return r;
  }
}
