import { describe, expect, it } from "vitest";
import { overlappingPair, type PairSideRef } from "./pair-overlap.ts";

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
