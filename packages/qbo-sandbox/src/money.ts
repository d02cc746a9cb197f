/**
 * Money in the emulator is integer cents (minor units); it only becomes a decimal at the wire.
 * Rates are exact decimals with six places, held as integer millionths, so conversions never
 * touch binary floating point.
 */

/** "1234.56", "-10.00", "0.00". */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** QBO entity JSON carries amounts as numbers (`"Amount": 90.0`); the cents survive the float exactly. */
export function centsToNumber(cents: number): number {
  return Number(formatCents(cents));
}

/**
 * Parses a wire amount (number or decimal string) into cents. Anything with more than two decimals,
 * or not a finite decimal at all, is refused rather than rounded: a ledger never guesses.
 */
export function parseAmount(value: unknown): number | undefined {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    // Shortest round-trip representation; 90 -> "90", 90.1 -> "90.1", 1e21 -> rejected below.
    text = String(value);
  } else if (typeof value === "string") {
    text = value.trim();
  } else {
    return undefined;
  }
  const m = /^(-?)(\d+)(?:\.(\d{1,2})0*)?$/.exec(text);
  if (m === null) return undefined;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) return undefined;
  return m[1] === "-" ? -cents : cents;
}

export const RATE_SCALE = 1_000_000n;

/** "1.274310" -> 1274310n (millionths). Up to six decimals. */
export function parseRate(text: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d{1,6})0*)?$/.exec(text.trim());
  if (m === null) return undefined;
  return BigInt(m[1] ?? "0") * RATE_SCALE + BigInt((m[2] ?? "").padEnd(6, "0"));
}

export function formatRate(micros: bigint): string {
  const whole = micros / RATE_SCALE;
  const frac = micros % RATE_SCALE;
  return `${whole}.${frac.toString().padStart(6, "0")}`;
}

/** Divides, rounding half away from zero. */
function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (2n * (r < 0n ? -r : r) >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/** cents x rate, rounded half away from zero to the cent. */
export function convert(cents: number, rateMicros: bigint): number {
  return Number(divRound(BigInt(cents) * rateMicros, RATE_SCALE));
}

/** cents x (numerator / denominator), one rounding: cross rates between two non-home currencies. */
export function convertCross(cents: number, numeratorMicros: bigint, denominatorMicros: bigint): number {
  return Number(divRound(BigInt(cents) * numeratorMicros, denominatorMicros));
}
