import { currencyExponent, DEFAULT_EXPONENT, isCurrencyCode } from "./currency.ts";
import { assertSafeMinor } from "./money.ts";

/**
 * Amounts in integer minor units as text. The one home for it: `minorToDecimal` writes the plain
 * decimal machines read (QuickBooks request bodies, CSV cells, form inputs), `formatAmount` what
 * people read (screens, messages). The decimal digits always come from the integer, never from
 * a division in floating point, so no amount is ever shown rounded.
 */

/** "-1234.50" style decimal text of a minor-unit amount: no grouping, no currency, "-" for negatives. */
export function minorToDecimal(minor: number, exponent: number): string {
  assertSafeMinor(minor);
  const negative = minor < 0;
  const digits = Math.abs(minor).toString().padStart(exponent + 1, "0");
  const whole = exponent === 0 ? digits : digits.slice(0, digits.length - exponent);
  const fraction = exponent === 0 ? "" : `.${digits.slice(digits.length - exponent)}`;
  return `${negative ? "-" : ""}${whole}${fraction}`;
}

export interface AmountFormat {
  /**
   * Where the currency shows: "symbol" (the default) as Intl writes it for the locale ("$1,234.56",
   * "£1,234.56", "CA$0.00", "KWD 1.234"); "code" after the number ("1,234.56 GBP"); "none" not at
   * all ("1,234.56").
   */
  currency?: "symbol" | "code" | "none";
  /** A negative amount in parentheses as accountants read credits, "(£96,830.65)" (the default), or with a minus sign. */
  negative?: "parentheses" | "minus";
  /** The locale for grouping, decimal mark and symbol; by default the runtime's (in a browser, the user's). */
  locale?: string;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: string | undefined, exponent: number, currency?: string, accounting?: boolean): Intl.NumberFormat {
  const key = `${locale ?? ""}|${exponent}|${currency ?? ""}|${accounting ? "a" : ""}`;
  let f = formatters.get(key);
  if (f === undefined) {
    f = new Intl.NumberFormat(locale, {
      ...(currency === undefined ? {} : { style: "currency", currency, currencySign: accounting ? "accounting" : "standard" }),
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    formatters.set(key, f);
  }
  return f;
}

/**
 * Minor units of `currency` as people read them, in the currency's own decimals (ISO 4217: JPY 0,
 * USD 2, BHD 3): formatAmount(-9683065, "GBP", { locale: "en-GB" }) is "(£96,830.65)";
 * formatAmount(-123456, "GBP", { currency: "code", negative: "minus", locale: "en-US" }) is
 * "-1,234.56 GBP". Zero (and -0) is never negative.
 *
 * A code that is not an ISO 4217 code ("XX") has no exponent and no symbol: the amount gets two
 * decimals; asked for a symbol, the code is written after the number and a negative amount keeps
 * its minus sign (Intl has no currency to apply an accounting sign to).
 */
export function formatAmount(minor: number, currency: string, options: AmountFormat = {}): string {
  const { locale, currency: show = "symbol", negative = "parentheses" } = options;
  const known = isCurrencyCode(currency);
  const exponent = known ? currencyExponent(currency) : DEFAULT_EXPONENT;
  // Intl reads a decimal string exactly (no float in between): Intl.NumberFormat v3.
  const digits = minorToDecimal(Math.abs(minor), exponent) as `${number}`;
  const isNegative = minor < 0;
  if (show === "symbol") {
    const signed = (isNegative ? `-${digits}` : digits) as `${number}`;
    if (known) return formatter(locale, exponent, currency, negative === "parentheses").format(signed);
    return `${formatter(locale, exponent).format(signed)} ${currency}`;
  }
  const number = formatter(locale, exponent).format(digits);
  const signed = !isNegative ? number : negative === "parentheses" ? `(${number})` : `-${number}`;
  return show === "code" ? `${signed} ${currency}` : signed;
}
