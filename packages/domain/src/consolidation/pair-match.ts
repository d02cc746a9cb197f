/**
 * Whether an intercompany pair's two sides cancel: the one rule the engine (eliminations.ts), the
 * eliminations screen's server view and, through it, the web read a pair's status from.
 *
 * The sides are the pair's two amounts in the reporting (parent) currency, debit positive, as the
 * elimination reverses them; the difference is what is left when both are reversed in full, and
 * it is always posted (to the pair's difference account, FX or CTA) and shown: the tolerance only
 * decides whether that difference is a mismatch to investigate or rounding-sized noise.
 *
 * - `matched`: the sides cancel to the minor unit.
 * - `withinTolerance`: they differ by no more than the group's tolerance (|difference| ≤ tolerance).
 * - `unmatched`: they differ by more (a tolerance of 0 is exact matching).
 */

export const PAIR_MATCHES = ["matched", "withinTolerance", "unmatched"] as const;
export type PairMatch = (typeof PAIR_MATCHES)[number];

/**
 * The group's default tolerance, in the parent currency's minor units: 100, i.e. $1.00 (1.00 of
 * any two-decimal currency; ¥100 for a JPY parent, 0.100 for a three-decimal one). Translation
 * rounds each side, and a flow pair each month, on its own: a quarter of a flow pair can differ by
 * a few cents from rounding alone, and a parent converting at its bank's rate rather than the
 * group's differs by cents more. A dollar covers that noise on ordinary balances while any real
 * missing or mis-posted charge (dollars and up) is still flagged.
 */
export const ELIMINATION_TOLERANCE_DEFAULT = 100;
/**
 * The largest tolerance a group may set: 100,000 minor units ($1,000.00). Beyond that a difference
 * is a mismatch to investigate (a charge in transit, a missing entry), not rounding.
 */
export const ELIMINATION_TOLERANCE_MAX = 100_000;

export interface PairClassification {
  /** Reporting-currency minor units, debit positive: left + right, what goes to the difference account. */
  readonly difference: number;
  readonly match: PairMatch;
}

/** Classifies a pair from its two translated sides (minor units, debit positive) and a tolerance (minor units, ≥ 0). */
export function classifyIntercompanyPair(sides: { readonly left: number; readonly right: number }, tolerance: number): PairClassification {
  for (const [what, n] of [["left side", sides.left], ["right side", sides.right], ["tolerance", tolerance]] as const) {
    if (!Number.isSafeInteger(n)) throw new RangeError(`the ${what} must be a whole number of minor units, got ${n}`);
  }
  if (tolerance < 0) throw new RangeError(`the tolerance must not be negative, got ${tolerance}`);
  const difference = sides.left + sides.right;
  if (!Number.isSafeInteger(difference)) throw new RangeError(`the difference of ${sides.left} and ${sides.right} is beyond safe integers`);
  const match: PairMatch = difference === 0 ? "matched" : Math.abs(difference) <= tolerance ? "withinTolerance" : "unmatched";
  return { difference, match };
}

/** Whether a pair counts as matched: exactly, or within the tolerance. */
export const countsAsMatched = (match: PairMatch): boolean => match !== "unmatched";
