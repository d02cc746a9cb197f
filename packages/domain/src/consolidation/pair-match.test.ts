import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyIntercompanyPair, countsAsMatched, ELIMINATION_TOLERANCE_DEFAULT, ELIMINATION_TOLERANCE_MAX, PAIR_MATCHES } from "./pair-match.ts";

describe("classifyIntercompanyPair", () => {
  it("sides that cancel to the cent are matched, whatever the tolerance", () => {
    expect(classifyIntercompanyPair({ left: 1_229_730_00, right: -1_229_730_00 }, 0)).toEqual({ difference: 0, match: "matched" });
    expect(classifyIntercompanyPair({ left: 1_229_730_00, right: -1_229_730_00 }, 100)).toEqual({ difference: 0, match: "matched" });
    expect(classifyIntercompanyPair({ left: 0, right: 0 }, 0)).toEqual({ difference: 0, match: "matched" });
  });

  it("the issue's $0.05 and $0.23 count as matched within the default $1.00, either sign", () => {
    expect(classifyIntercompanyPair({ left: -20_000_00, right: 19_999_95 }, ELIMINATION_TOLERANCE_DEFAULT)).toEqual({ difference: -5, match: "withinTolerance" });
    expect(classifyIntercompanyPair({ left: 45_000_23, right: -45_000_00 }, ELIMINATION_TOLERANCE_DEFAULT)).toEqual({ difference: 23, match: "withinTolerance" });
  });

  it("the tolerance is inclusive: a difference equal to it is within, one cent more is not", () => {
    expect(classifyIntercompanyPair({ left: 100, right: 0 }, 100).match).toBe("withinTolerance");
    expect(classifyIntercompanyPair({ left: -100, right: 0 }, 100).match).toBe("withinTolerance");
    expect(classifyIntercompanyPair({ left: 101, right: 0 }, 100)).toEqual({ difference: 101, match: "unmatched" });
    expect(classifyIntercompanyPair({ left: 0, right: -101 }, 100)).toEqual({ difference: -101, match: "unmatched" });
  });

  it("a tolerance of 0 is exact matching: a single cent is unmatched", () => {
    expect(classifyIntercompanyPair({ left: 1, right: 0 }, 0)).toEqual({ difference: 1, match: "unmatched" });
    expect(classifyIntercompanyPair({ left: -99_200_00, right: 99_176_30 }, 0)).toEqual({ difference: -23_70, match: "unmatched" });
  });

  it("a real mismatch stays unmatched at the largest tolerance", () => {
    expect(classifyIntercompanyPair({ left: -99_200_00, right: 50_000_00 }, ELIMINATION_TOLERANCE_MAX)).toEqual({ difference: -49_200_00, match: "unmatched" });
  });

  it("refuses amounts and tolerances that are not whole minor units, and a negative tolerance", () => {
    expect(() => classifyIntercompanyPair({ left: 0.5, right: 0 }, 0)).toThrow(/left side must be a whole number of minor units/);
    expect(() => classifyIntercompanyPair({ left: 0, right: Number.NaN }, 0)).toThrow(/right side/);
    expect(() => classifyIntercompanyPair({ left: 0, right: 0 }, 1.5)).toThrow(/tolerance must be a whole number/);
    expect(() => classifyIntercompanyPair({ left: 0, right: 0 }, -1)).toThrow(/tolerance must not be negative/);
    expect(() => classifyIntercompanyPair({ left: Number.MAX_SAFE_INTEGER, right: 1 }, 0)).toThrow(/beyond safe integers/);
  });

  it("exhaustively on small amounts: the difference is left + right, and the status follows |difference| against the tolerance", () => {
    for (let left = -6; left <= 6; left++) {
      for (let right = -6; right <= 6; right++) {
        for (let tolerance = 0; tolerance <= 6; tolerance++) {
          const { difference, match } = classifyIntercompanyPair({ left, right }, tolerance);
          expect(difference).toBe(left + right);
          const d = Math.abs(left + right);
          expect(match).toBe(d === 0 ? "matched" : d <= tolerance ? "withinTolerance" : "unmatched");
        }
      }
    }
  });

  it("properties: symmetric in its sides and in sign; a larger tolerance never unmatches a pair", () => {
    const amount = fc.integer({ min: -1_000_000_000_00, max: 1_000_000_000_00 });
    const tolerance = fc.integer({ min: 0, max: ELIMINATION_TOLERANCE_MAX });
    fc.assert(
      fc.property(amount, amount, tolerance, fc.integer({ min: 0, max: 1000 }), (left, right, t, more) => {
        const c = classifyIntercompanyPair({ left, right }, t);
        expect(classifyIntercompanyPair({ left: right, right: left }, t)).toEqual(c);
        expect(classifyIntercompanyPair({ left: -left, right: -right }, t).match).toBe(c.match);
        if (countsAsMatched(c.match)) expect(countsAsMatched(classifyIntercompanyPair({ left, right }, t + more).match)).toBe(true);
      }),
    );
  });

  it("counts matched and within tolerance as matched, nothing else", () => {
    expect(PAIR_MATCHES.filter(countsAsMatched)).toEqual(["matched", "withinTolerance"]);
  });
});
