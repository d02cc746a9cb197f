/** FX rates as people type them: parent-currency units per one local unit, exact decimal text. */

export const RATE_MAX_DECIMALS = 10;
export const RATE_MESSAGE = `A rate must be a positive number with at most ${RATE_MAX_DECIMALS} decimal places, such as 1.2745.`;

/**
 * The canonical text of a valid rate ("01.2500" → "1.25"), or null. No exponents, no signs, no
 * thousands separators: a rate is copied from a bank statement, and guessing at a format is how
 * a consolidation ends up 1,000 times off.
 */
export function normalizeRate(input: string): string | null {
  const text = input.trim();
  const match = /^(\d{1,12})(?:\.(\d{1,10}))?$/.exec(text);
  if (!match) return null;
  const whole = match[1]!.replace(/^0+(?=\d)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (/^0*$/.test(whole + fraction)) return null;
  return fraction ? `${whole}.${fraction}` : whole;
}

export interface RateNeed {
  currency: string;
  month: string;
  kind: "average" | "closing";
}

/**
 * The rates a consolidation needs that are not there, named so a person can fill them in; a
 * missing rate is never treated as zero.
 */
export function missingRates(
  needs: readonly RateNeed[],
  available: ReadonlyMap<string, { average: string | null; closing: string | null }>,
): RateNeed[] {
  return needs.filter((n) => {
    const entry = available.get(`${n.currency}:${n.month}`);
    return !(n.kind === "average" ? entry?.average : entry?.closing);
  });
}

export const describeMissingRate = (n: RateNeed) => `${n.kind === "average" ? "Average" : "Month-end"} rate for ${n.currency} in ${n.month} is missing.`;
