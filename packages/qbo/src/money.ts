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
 */

/** ISO 4217 currencies whose minor unit is not 1/100. */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
  CLF: 4, UYW: 4,
};

/** Decimal places of a currency's minor unit (JPY 0, KWD 3, most others 2). */
export function currencyExponent(currency: string | undefined): number {
  if (currency === undefined) return 2;
  return EXPONENTS[currency.trim().toUpperCase()] ?? 2;
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

/** 123456 (exponent 2) -> "1234.56"; -5 -> "-0.05"; 7 (exponent 0) -> "7". */
export function formatAmount(minor: number, exponent: number): string {
  if (!Number.isSafeInteger(minor)) throw new AmountError(`Minor units must be a safe integer: ${minor}`);
  const negative = minor < 0;
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0");
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? "-" : ""}${whole}${exponent > 0 ? `.${fraction}` : ""}`;
}

/**
 * Minor units as the JSON number QBO expects in a request body. Exact while the amount has at
 * most 15 significant digits (a float holds any such decimal and prints it back unchanged);
 * larger amounts are refused rather than silently altered.
 */
export function amountToJsonNumber(minor: number, exponent: number): number {
  const text = formatAmount(minor, exponent);
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
