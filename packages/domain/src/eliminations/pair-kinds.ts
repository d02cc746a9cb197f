import type { Classification } from "../consolidation/input-schema.ts";

/**
 * The kinds of intercompany pair and the accounts each joins: the one rule the engine
 * (consolidation/eliminations.ts), the server (refusing a pair) and the web (the pair form's
 * choices and messages) read. A receivable/payable pair joins an asset and a liability (a balance
 * between companies); a revenue/expense pair joins revenue and an expense (a flow). The messages
 * stay with each caller: they say it in their own place's words.
 */

export const INTERCOMPANY_PAIR_KINDS = ["receivablePayable", "revenueExpense"] as const;
export type IntercompanyPairKind = (typeof INTERCOMPANY_PAIR_KINDS)[number];

/** The two classifications a pair of each kind joins: the first side's (receivable, revenue), then the second's. */
export const PAIR_KIND_CLASSIFICATIONS: { readonly [K in IntercompanyPairKind]: readonly [Classification, Classification] } = {
  receivablePayable: ["Asset", "Liability"],
  revenueExpense: ["Revenue", "Expense"],
};

/** Whether an account of this classification may be a side of a pair of this kind. */
export const pairKindTakes = (kind: IntercompanyPairKind, classification: string): boolean => (PAIR_KIND_CLASSIFICATIONS[kind] as readonly string[]).includes(classification);

/** What is wrong with a pair's sides, by their accounts' classifications. */
export interface PairSidesCheck {
  /** The side's account is of a classification the kind does not take. */
  readonly left: boolean;
  readonly right: boolean;
  /** Both sides take the kind's classifications but the same one (an asset against an asset). */
  readonly same: boolean;
}

/**
 * Checks a pair's sides against its kind. A side not chosen yet (undefined, in the form) is not
 * wrong; `same` needs both. Either side may be given first: the kind's two classifications go
 * one to each side, in either order.
 */
export function checkPairSides(kind: IntercompanyPairKind, sides: { left?: string | undefined; right?: string | undefined }): PairSidesCheck {
  const left = sides.left !== undefined && !pairKindTakes(kind, sides.left);
  const right = sides.right !== undefined && !pairKindTakes(kind, sides.right);
  return { left, right, same: !left && !right && sides.left !== undefined && sides.left === sides.right };
}

/** Whether the sides' classifications fit the kind: each one it takes, and not both the same. */
export const pairSidesFit = (kind: IntercompanyPairKind, left: string, right: string): boolean => {
  const check = checkPairSides(kind, { left, right });
  return !check.left && !check.right && !check.same;
};
