/**
 * QBO amounts as exact integer minor units.
 *
 * Minor units are a JS `number`, not a bigint: every value is checked to be a safe integer
 * (|x| <= 2^53 - 1, i.e. ±90 trillion dollars in cents, far beyond QBO's own 11-digit limit
 * on amounts), and the consolidation engine sums millions of them in typed arrays, where
 * bigint would cost a conversion on every read. Anything outside that range is rejected, never
 * rounded.
 *
 * Parsing never goes through a float: the decimal text is split into digits. Amounts that QBO
 * sends as JSON numbers (entity fields such as `CurrentBalance`) are turned back into their
 * shortest round-trip text first, which for up to 15 significant digits is the text QBO wrote.
 * Writing goes through the domain's `minorToDecimal`, the one place minor units become decimal text.
 */

import { currencyExponent, DEFAULT_EXPONENT, isCurrencyCode, minorToDecimal } from "@groupledger/domain";

/**
 * The exponent of a currency as QuickBooks names it (a CurrencyRef value, a report's Currency
 * header). The ISO 4217 exponents are the domain's (`currencyExponent`); this only reads
 * QuickBooks' spelling: no currency at all (a company without multicurrency sends none) and a code
 * it does not know count as 2 decimals, a code in lower case or with spaces as the code.
 */
export function wireExponent(currency: string | undefined): number {
  const code = currency?.trim().toUpperCase();
  return code !== undefined && isCurrencyCode(code) ? currencyExponent(code) : DEFAULT_EXPONENT;
}

export class AmountError extends Error {
  override readonly name = "AmountError";
}

const DECIMAL = /^([+-])?(\d+)(?:\.(\d*))?$|^([+-])?\.(\d+)$/;

/**
 * "1234.56" -> 123456 (exponent 2). Accepts an optional sign, thousands separators are NOT
 * accepted (QBO never sends them in JSON). Rejects more decimals than the exponent allows
 * unless the extra digits are zeros ("90.000" is 9000 cents).
 */
export function parseAmount(text: string, exponent: number): number {
  const m = DECIMAL.exec(text.trim());
  if (m === null) throw new AmountError(`Not a decimal amount: ${JSON.stringify(text)}`);
  const sign = (m[1] ?? m[4]) === "-" ? -1n : 1n;
  const whole = m[2] ?? "0";
  const fraction = (m[3] ?? m[5] ?? "").replace(/0+$/, "");
  if (fraction.length > exponent) {
    throw new AmountError(`${JSON.stringify(text)} has more than ${exponent} decimal place(s)`);
  }
  const minor = sign * (BigInt(whole) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, "0") || "0"));
  return toSafe(minor, text);
}

/** A JSON number QBO sent (e.g. `CurrentBalance: 1234.56`) as minor units. */
export function amountFromJsonNumber(value: number, exponent: number): number {
  if (!Number.isFinite(value)) throw new AmountError(`Not a finite amount: ${value}`);
  const text = String(value);
  // Exponent notation only appears below 1e-6 (more decimals than any currency has) or at 1e21.
  if (/e/i.test(text)) throw new AmountError(`Amount out of range: ${text}`);
  return parseAmount(text, exponent);
}

/**
 * Minor units as the JSON number QBO expects in a request body. Exact while the amount has at
 * most 15 significant digits (a float holds any such decimal and prints it back unchanged);
 * larger amounts are refused rather than silently altered.
 */
export function amountToJsonNumber(minor: number, exponent: number): number {
  if (!Number.isSafeInteger(minor)) throw new AmountError(`Minor units must be a safe integer: ${minor}`);
  const text = minorToDecimal(minor, exponent);
  const value = Number(text);
  if (text.replace(/^-/, "").replace(".", "").replace(/^0+/, "").length > 15 || String(value) !== stripTrailingZeros(text)) {
    throw new AmountError(`Amount ${text} cannot be sent exactly as a JSON number`);
  }
  return value;
}

function stripTrailingZeros(text: string): string {
  if (!text.includes(".")) return text === "-0" ? "0" : text;
  const t = text.replace(/0+$/, "").replace(/\.$/, "");
  return t === "-0" ? "0" : t;
}

function toSafe(minor: bigint, text: string): number {
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new AmountError(`Amount out of range: ${text}`);
  }
  // `-0` would print as "0" but compare oddly in tests and maps; normalise it.
  return Number(minor) + 0;
}
