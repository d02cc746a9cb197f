import { describe, expect, it } from "vitest";
import { accountTaken, overlappingPair, sideTaken, type PairSideRef } from "./pair-overlap.ts";

type Pair = { name: string; sides: readonly [PairSideRef, PairSideRef] };
const sidesOf = (p: Pair) => p.sides;
const whole = (realmId: string, accountId: string): PairSideRef => ({ realmId, accountId, name: null });
const named = (realmId: string, accountId: string, kind: string, id: string): PairSideRef => ({ realmId, accountId, name: { kind, id } });

const loan: Pair = { name: "loan", sides: [whole("p", "1200"), whole("uk", "2100")] };
const feesUk: Pair = { name: "UK fees", sides: [named("p", "4100", "Customer", "7"), whole("uk", "6100")] };

describe("a new pair overlapping an existing one", () => {
  it("the same two sides are a twin, whichever pair holds them", () => {
    expect(overlappingPair([feesUk, loan], sidesOf, [whole("p", "1200"), whole("uk", "2100")])).toEqual({ pair: loan, side: 0, twin: true });
    expect(overlappingPair([feesUk], sidesOf, [named("p", "4100", "Customer", "7"), whole("uk", "6100")])).toEqual({ pair: feesUk, side: 0, twin: true });
  });

  it("a side on an account a pair already takes in full clashes, and says which side", () => {
    expect(overlappingPair([loan], sidesOf, [whole("p", "1200"), whole("de", "2100")])).toEqual({ pair: loan, side: 0, twin: false });
    expect(overlappingPair([loan], sidesOf, [whole("de", "1200"), whole("uk", "2100")])).toEqual({ pair: loan, side: 1, twin: false });
    // Either way round: an existing pair's second side meets a new first side.
    expect(overlappingPair([loan], sidesOf, [whole("uk", "2100"), whole("de", "1200")])).toEqual({ pair: loan, side: 0, twin: false });
  });

  it("the whole account clashes with a customer of it, and a customer with the whole account", () => {
    expect(overlappingPair([feesUk], sidesOf, [whole("p", "4100"), whole("de", "6100")])).toEqual({ pair: feesUk, side: 0, twin: false });
    expect(overlappingPair([loan], sidesOf, [named("p", "1200", "Customer", "9"), whole("de", "2100")])).toEqual({ pair: loan, side: 0, twin: false });
  });

  it("pairs limited to different customers or vendors of one account do not clash", () => {
    expect(overlappingPair([feesUk], sidesOf, [named("p", "4100", "Customer", "8"), whole("de", "6100")])).toBeUndefined();
    expect(overlappingPair([feesUk], sidesOf, [named("p", "4100", "Vendor", "7"), whole("de", "6100")])).toBeUndefined();
    expect(overlappingPair([feesUk], sidesOf, [named("p", "4100", "Customer", "7"), whole("de", "6100")])).toEqual({ pair: feesUk, side: 0, twin: false });
  });

  it("other accounts, or the same account number in another company, do not clash", () => {
    expect(overlappingPair([loan, feesUk], sidesOf, [whole("p", "1300"), whole("de", "1200")])).toBeUndefined();
    expect(overlappingPair([], sidesOf, [whole("p", "1200"), whole("uk", "2100")])).toBeUndefined();
  });
});

describe("a side or an account the existing pairs already take", () => {
  const sides = [...loan.sides, ...feesUk.sides];
  it("a side is taken when an existing side covers it: the same account, whole on either side or the same name", () => {
    expect(sideTaken(sides, whole("p", "1200"))).toBe(true);
    expect(sideTaken(sides, named("p", "1200", "Customer", "9"))).toBe(true);
    expect(sideTaken(sides, whole("p", "4100"))).toBe(true);
    expect(sideTaken(sides, named("p", "4100", "Customer", "7"))).toBe(true);
    expect(sideTaken(sides, named("p", "4100", "Customer", "8"))).toBe(false);
    expect(sideTaken(sides, whole("de", "1200"))).toBe(false);
    expect(sideTaken([], whole("p", "1200"))).toBe(false);
  });
  it("an account is taken whole, in part (by customer or vendor), or not at all", () => {
    expect(accountTaken(sides, "p", "1200")).toBe("whole");
    expect(accountTaken(sides, "p", "4100")).toBe("part");
    expect(accountTaken([...sides, whole("p", "4100")], "p", "4100")).toBe("whole");
    expect(accountTaken(sides, "uk", "1200")).toBeNull();
  });
});
