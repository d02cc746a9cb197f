import { currencyExponent } from "./currency.ts";

/**
 * An amount in integer minor units of one currency.
 * We use `number`, not `bigint`: the engine adds millions of these per consolidation and V8 adds
 * doubles an order of magnitude faster than BigInts. Every operation asserts the result stays a
 * safe integer (|x| < 2^53, i.e. 90 trillion dollars in cents), so precision can never be lost
 * silently; the one place where products can exceed that bound (amount × rate) goes through
 * `mulDivRound`, which falls back to BigInt.
 */
export interface Money {
  readonly currency: string;
  readonly minor: number;
}

export function assertSafeMinor(value: number, what = "amount"): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} ${value} is not a whole number of minor units within ±2^53`);
  return value;
}

export function money(currency: string, minor: number): Money {
  currencyExponent(currency);
  return { currency, minor: assertSafeMinor(minor) };
}

function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency) throw new Error(`cannot combine ${a.currency} with ${b.currency}: translate first`);
}

export function addMoney(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return { currency: a.currency, minor: assertSafeMinor(a.minor + b.minor) };
}

export function subtractMoney(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return { currency: a.currency, minor: assertSafeMinor(a.minor - b.minor) };
}

export function negateMoney(a: Money): Money {
  return { currency: a.currency, minor: a.minor === 0 ? 0 : -a.minor };
}

export function sumMoney(currency: string, items: readonly Money[]): Money {
  let total = money(currency, 0);
  for (const item of items) total = addMoney(total, item);
  return total;
}
