/**
 * Each side of an intercompany pair is eliminated in full, so the same amounts in two pairs would
 * be eliminated twice: a new pair may not cover what an existing one already takes.
 */

/** One side of a pair: a company's account, whole or limited to what it holds against one customer or vendor. */
export interface PairSideRef {
  readonly realmId: string;
  readonly accountId: string;
  /** Null or absent: the whole account. */
  readonly name?: { readonly kind: string; readonly id: string } | null | undefined;
}

export interface PairOverlap<P> {
  readonly pair: P;
  /** The new pair's side that clashes: 0 the first (left), 1 the second. */
  readonly side: 0 | 1;
  /** The existing pair has exactly the new pair's two sides, in the same order. */
  readonly twin: boolean;
}

const sameName = (a: PairSideRef["name"], b: PairSideRef["name"]) => (!a || !b ? !a && !b : a.kind === b.kind && a.id === b.id);
const sameSide = (a: PairSideRef, b: PairSideRef) => a.realmId === b.realmId && a.accountId === b.accountId && sameName(a.name, b.name);
/** Both take amounts of the same account: either is the whole account, or both are the same customer or vendor. */
const covers = (a: PairSideRef, b: PairSideRef) => a.realmId === b.realmId && a.accountId === b.accountId && (!a.name || !b.name || sameName(a.name, b.name));

/**
 * The first existing pair whose side covers amounts a new side would also take: the same account,
 * and either side on the whole account or both on the same customer or vendor. A twin (the same
 * two sides) is found first, whichever pair it is; then the new pair's first side, then its second.
 */
export function overlappingPair<P>(
  existing: readonly P[],
  sidesOf: (pair: P) => readonly [PairSideRef, PairSideRef],
  sides: readonly [PairSideRef, PairSideRef],
): PairOverlap<P> | undefined {
  const twin = existing.find((p) => sidesOf(p).every((o, i) => sameSide(o, sides[i]!)));
  if (twin !== undefined) return { pair: twin, side: 0, twin: true };
  for (const side of [0, 1] as const) {
    const pair = existing.find((p) => sidesOf(p).some((o) => covers(o, sides[side])));
    if (pair !== undefined) return { pair, side, twin: false };
  }
  return undefined;
}

/** Whether a side would take amounts a side of an existing pair already takes (the same account, and either one whole or both the same name). */
export const sideTaken = (existing: readonly PairSideRef[], side: PairSideRef): boolean => existing.some((o) => covers(o, side));

/**
 * How the sides of existing pairs take an account: "whole" when one is the whole account, "part"
 * when they take only what it holds with some customers or vendors (another may still take the rest
 * by another name), null when none does.
 */
export function accountTaken(existing: readonly PairSideRef[], realmId: string, accountId: string): "whole" | "part" | null {
  const on = existing.filter((o) => o.realmId === realmId && o.accountId === accountId);
  return on.length === 0 ? null : on.some((o) => !o.name) ? "whole" : "part";
}
