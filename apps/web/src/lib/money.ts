import { currencyExponent } from "@groupledger/domain";

/**
 * An amount in minor units as money of its currency: the currency's exponent (ISO 4217: JPY 0,
 * USD 2, KWD 3) decides where the decimal point goes, Intl the symbol and grouping.
 */
export function formatMinor(amountMinor: number, currency: string, locale?: string): string {
  let exponent = 2;
  try {
    exponent = currencyExponent(currency);
  } catch {
    // Not an ISO code: show the number with the usual two decimals and the code as QuickBooks gave it.
    return `${(amountMinor / 100).toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
  }
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    // Accountants read credits in parentheses: (£96,830.65) rather than -£96,830.65.
    currencySign: "accounting",
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  }).format(amountMinor / 10 ** exponent);
}
