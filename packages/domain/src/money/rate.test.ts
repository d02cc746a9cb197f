import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divRoundHalfAway, makeFactor, mulDivRound, mulRatioRound, mulRatioRoundWith, parseRate, rateRatio, ratioFactor, subtractRatio, translatedSumRoundedOnce, translationFactor } from "./rate.ts";

describe("exact rates and half-away-from-zero rounding", () => {
  it("parses decimal text exactly", () => {
    expect(parseRate("1.0845")).toMatchObject({ numerator: 10845n, scale: 4 });
    expect(parseRate("9300")).toMatchObject({ numerator: 9300n, scale: 0 });
    expect(() => parseRate("1e-3")).toThrow(/decimal/);
  });

  it("rounds halves away from zero, symmetrically", () => {
    const f = translationFactor(parseRate("0.5"), 2, 2);
    expect(mulDivRound(1, f)).toBe(1); // 0.5 cent → 1 cent
    expect(mulDivRound(-1, f)).toBe(-1);
    expect(mulDivRound(3, f)).toBe(2); // 1.5 → 2
    expect(mulDivRound(-3, f)).toBe(-2);
    expect(divRoundHalfAway(-5n, 10n)).toBe(-1n);
    expect(divRoundHalfAway(4n, 10n)).toBe(0n);
  });

  it("applies ISO exponents: JPY → USD and USD → KWD", () => {
    // ¥1,234 at 0.006735 = $8.31099 → $8.31
    expect(mulDivRound(1234, translationFactor(parseRate("0.006735"), 0, 2))).toBe(831);
    // $10.00 at 0.307 KWD = 3.070 KWD = 3070 fils
    expect(mulDivRound(1000, translationFactor(parseRate("0.307"), 2, 3))).toBe(3070);
  });

  it("the fast double path equals exact BigInt arithmetic for every safe amount", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.maxSafeInteger(), fc.maxSafeNat().map((n) => -n)),
        fc.integer({ min: 1, max: 10 ** 9 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        (x, n, d, le, pe) => {
          const rate = parseRate((n / 10 ** d).toFixed(d));
          const f = translationFactor(rate, le, pe);
          const exact = divRoundHalfAway(BigInt(x) * f.numBig, f.denBig);
          if (exact > BigInt(Number.MAX_SAFE_INTEGER) || exact < -BigInt(Number.MAX_SAFE_INTEGER)) {
            expect(() => mulDivRound(x, f)).toThrow(RangeError);
          } else {
            expect(mulDivRound(x, f)).toBe(Number(exact));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("the double path's signs and ties", () => {
  it("rounds exact ties half away from zero for both signs, and near ties and all small quotients as BigInt does, never −0", () => {
    // Every x × num / den with small operands (a tie whenever 2 × x × num is an odd multiple of den).
    for (let den = 1; den <= 40; den++) {
      for (let num = 0; num <= 12; num++) {
        const f = makeFactor(BigInt(num), BigInt(den));
        for (let x = -120; x <= 120; x++) {
          const got = mulDivRound(x, f);
          expect(got, `${x} × ${num} / ${den}`).toBe(Number(divRoundHalfAway(BigInt(x) * BigInt(num), BigInt(den))));
          expect(Object.is(got, -0), `${x} × ${num} / ${den}`).toBe(false);
        }
      }
    }
  });

  it("rounds large ties and their neighbours (k + 1/2 ± 1 / den) as BigInt does", () => {
    fc.assert(
      // |x| < 2^30 × 2 × 10^6 + 10^6, a safe integer; the products below 2^52 take the double path.
      fc.property(fc.bigInt({ min: -(2n ** 30n), max: 2n ** 30n }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: -1, max: 1 }), (k, e, off) => {
        const den = 2n * 10n ** BigInt(e);
        const x = k * den + den / 2n + BigInt(off);
        const f = makeFactor(1n, den);
        expect(mulDivRound(Number(x), f)).toBe(Number(divRoundHalfAway(x, den)));
        expect(mulDivRound(-Number(x), f)).toBe(Number(divRoundHalfAway(-x, den)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("mulRatioRoundWith: a ratio's rounding through its factor", () => {
  it("equals mulRatioRound (BigInt) for the change between two rates (negative, 0 or positive) through ratioFactor, throwing alike", () => {
    const rate = fc.tuple(fc.integer({ min: 1, max: 10 ** 9 }), fc.integer({ min: 0, max: 9 })).map(([n, d]) => parseRate(d ? `${Math.floor(n / 10 ** d)}.${String(n % 10 ** d).padStart(d, "0")}` : `${n}`));
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.maxSafeInteger(), fc.maxSafeNat().map((n) => -n), fc.constant(-0)),
        rate,
        rate,
        fc.integer({ min: -3, max: 3 }),
        (x, a, b, shift) => {
          const change = subtractRatio(rateRatio(b), rateRatio(a));
          const outcome = (f: () => number) => {
            try {
              return f();
            } catch (e) {
              return String(e);
            }
          };
          expect(outcome(() => mulRatioRoundWith(x, ratioFactor(change, shift), change, shift))).toBe(outcome(() => mulRatioRound(x, change, shift)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("equals mulRatioRound (BigInt) for the closing factor of the same rate, throwing alike", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.maxSafeInteger(), fc.maxSafeNat().map((n) => -n), fc.constant(-0)),
        fc.integer({ min: 1, max: 10 ** 9 }),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        (x, n, d, le, pe) => {
          const rate = parseRate(`${n}${d ? `.${"7".repeat(d)}` : ""}`);
          const f = translationFactor(rate, le, pe);
          let expected: number | string;
          try {
            expected = mulRatioRound(x, rateRatio(rate), pe - le);
          } catch (e) {
            expected = String(e);
          }
          let actual: number | string;
          try {
            actual = mulRatioRoundWith(x, f, rateRatio(rate), pe - le);
          } catch (e) {
            actual = String(e);
          }
          expect(Object.is(actual, expected), `${x} at ${rate.text}, ${le} → ${pe}: ${actual} vs ${expected}`).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("the fast path at its edges (mulDivRound against BigInt arithmetic)", () => {
  const exact = (x: number, f: ReturnType<typeof makeFactor>) => divRoundHalfAway(BigInt(x) * f.numBig, f.denBig);
  const expectExact = (x: number, f: ReturnType<typeof makeFactor>) => {
    const e = exact(x, f);
    if (e > BigInt(Number.MAX_SAFE_INTEGER) || e < -BigInt(Number.MAX_SAFE_INTEGER)) expect(() => mulDivRound(x, f)).toThrow(RangeError);
    else expect(mulDivRound(x, f), `${x} × ${f.numBig}/${f.denBig}`).toBe(Number(e));
  };
  // Rates with 0 to 20 decimals: up to 15 the denominator is at most 2^50 (the double path),
  // beyond that every product takes the BigInt path.
  const factor = fc.tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 20 })).map(([n, d]) => makeFactor(n, 10n ** BigInt(d)));

  it("is exact on exact halves, which round away from zero", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 15 }), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), (d, q) => {
        // x × 5 / 10^d = q + 1/2 exactly when x = (2q + 1) × 10^(d−1).
        const f = makeFactor(5n, 10n ** BigInt(d));
        const x = (2 * q + 1) * 10 ** (d - 1);
        fc.pre(Number.isSafeInteger(x));
        expect(mulDivRound(x, f)).toBe(q >= 0 ? q + 1 : q);
        expectExact(x, f);
      }),
      { numRuns: 3000 },
    );
  });

  it("is exact next to the 2^52 boundary of the product, on both sides of it", () => {
    fc.assert(
      fc.property(factor, fc.integer({ min: -3, max: 3 }), fc.boolean(), (f, delta, negative) => {
        const edge = Math.floor(2 ** 52 / f.num) + delta;
        fc.pre(edge > 0 && Number.isSafeInteger(edge));
        expectExact(negative ? -edge : edge, f);
      }),
      { numRuns: 3000 },
    );
  });

  it("is exact for huge balances and rates with many decimals", () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.maxSafeInteger().map((x) => -x), fc.integer({ min: -(2 ** 31), max: 2 ** 31 })), factor, (x, f) => expectExact(x, f)),
      { numRuns: 5000 },
    );
    expectExact(Number.MAX_SAFE_INTEGER, translationFactor(parseRate("0.000000000000000001"), 2, 2));
    expectExact(-Number.MAX_SAFE_INTEGER, translationFactor(parseRate("0.999999999999999"), 0, 3));
    expectExact(123_456_789_012, translationFactor(parseRate("1.123456789012345"), 2, 2));
  });

  it("gives +0, never −0, for zero and for products that round to zero", () => {
    const f = translationFactor(parseRate("0.4"), 2, 2);
    expect(Object.is(mulDivRound(-0, f), 0)).toBe(true);
    expect(Object.is(mulDivRound(-1, f), 0)).toBe(true); // −0.4 → 0, not −0
    expect(Object.is(mulDivRound(-1, makeFactor(1n, 10n ** 20n)), 0)).toBe(true); // the BigInt path too
  });
});

describe("a sum of translated amounts rounded once", () => {
  const at = (rate: string) => translationFactor(parseRate(rate), 2, 2);

  it("rounds the exact sum, not each term", () => {
    // 0.5 + 0.5 cents: each term alone rounds to 1, the sum is exactly 1.
    expect(translatedSumRoundedOnce([{ amount: 1, factor: at("0.5") }, { amount: 1, factor: at("0.5") }])).toBe(1);
    expect(mulDivRound(1, at("0.5")) + mulDivRound(1, at("0.5"))).toBe(2);
    // Three months of a charge at three averages (different scales), and its opposite side.
    expect(translatedSumRoundedOnce([{ amount: 2_000_001, factor: at("1.27486") }, { amount: 2_100_003, factor: at("1.2") }, { amount: -3, factor: at("1.333") }])).toBe(Math.round(2_000_001 * 1.27486 + 2_100_003 * 1.2 - 3 * 1.333));
    expect(translatedSumRoundedOnce([])).toBe(0);
    expect(translatedSumRoundedOnce([{ amount: -5, factor: at("0.1") }])).toBe(-1);
  });

  it("is exact with unrelated denominators too", () => {
    expect(translatedSumRoundedOnce([{ amount: 1, factor: makeFactor(1n, 3n) }, { amount: 1, factor: makeFactor(1n, 6n) }])).toBe(1); // 1/3 + 1/6 = 0.5 → 1
    expect(translatedSumRoundedOnce([{ amount: 1, factor: makeFactor(1n, 3n) }, { amount: 1, factor: makeFactor(1n, 7n) }])).toBe(0); // 10/21
  });

  it("differs from the per-term rounded sum by at most half a unit per term", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 1, max: 99_999 })), { maxLength: 24 }), (terms) => {
        const parts = terms.map(([amount, r]) => ({ amount, factor: at(`1.${String(r).padStart(5, "0")}`) }));
        const perTerm = parts.reduce((s, p) => s + mulDivRound(p.amount, p.factor), 0);
        expect(Math.abs(translatedSumRoundedOnce(parts) - perTerm)).toBeLessThanOrEqual(parts.length / 2 + 0.5);
      }),
    );
  });
});
