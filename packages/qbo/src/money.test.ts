import { describe, expect, it } from "vitest";
import { minorToDecimal } from "@groupledger/domain";
import { AmountError, amountFromJsonNumber, amountToJsonNumber, parseAmount, wireExponent } from "./money.ts";

describe("wireExponent: the domain's ISO 4217 exponents for a currency as QuickBooks names it", () => {
  it("knows the ISO 4217 exceptions and defaults to 2", () => {
    expect([wireExponent("USD"), wireExponent("gbp"), wireExponent("EUR"), wireExponent("CAD")]).toEqual([2, 2, 2, 2]);
    expect([wireExponent("JPY"), wireExponent("KWD"), wireExponent("BHD"), wireExponent(undefined)]).toEqual([0, 3, 3, 2]);
  });
  it("reads QuickBooks' spelling: any case, surrounding spaces; an unknown code is 2", () => {
    expect([wireExponent("jpy"), wireExponent(" KWD "), wireExponent("bhd")]).toEqual([0, 3, 3]);
    expect([wireExponent("XX"), wireExponent(""), wireExponent("ZZZ"), wireExponent("US Dollar")]).toEqual([2, 2, 2, 2]);
  });
});

describe("parseAmount", () => {
  it.each([
    ["1234.56", 2, 123456],
    ["-9337.50", 2, -933750],
    ["0.44", 2, 44],
    ["46", 2, 4600],
    ["46.", 2, 4600],
    [".5", 2, 50],
    ["+3.1", 2, 310],
    ["-0.00", 2, 0],
    ["90.000", 2, 9000],
    ["15000", 0, 15000],
    ["1.234", 3, 1234],
    ["90071992547409.91", 2, 9007199254740991],
  ] as const)("%s (exponent %i) -> %i", (text, exponent, minor) => {
    expect(parseAmount(text, exponent)).toBe(minor);
    expect(Object.is(parseAmount(text, exponent), -0)).toBe(false);
  });

  it.each([
    ["1.234", 2],
    ["150.5", 0],
    ["", 2],
    ["1,234.56", 2],
    ["1e3", 2],
    ["abc", 2],
    ["--1", 2],
    ["90071992547409.92", 2],
  ] as const)("rejects %j (exponent %i)", (text, exponent) => {
    expect(() => parseAmount(text, exponent)).toThrow(AmountError);
  });

  it("is exact where floats are not", () => {
    // 0.1 + 0.2 and 1.005 * 100 are the classic float traps.
    expect(parseAmount("0.10", 2) + parseAmount("0.20", 2)).toBe(parseAmount("0.30", 2));
    expect(parseAmount("1.005", 3)).toBe(1005);
    expect(parseAmount("1.15", 2)).toBe(115); // 1.15 * 100 = 114.99999999999999
  });
});

describe("JSON numbers", () => {
  it("reads QBO's JSON amounts exactly", () => {
    expect(amountFromJsonNumber(1.15, 2)).toBe(115);
    expect(amountFromJsonNumber(315.0, 2)).toBe(31500);
    expect(amountFromJsonNumber(-0.07, 2)).toBe(-7);
    expect(() => amountFromJsonNumber(0.001, 2)).toThrow(AmountError);
    expect(() => amountFromJsonNumber(1e21, 2)).toThrow(AmountError);
    expect(() => amountFromJsonNumber(Number.NaN, 2)).toThrow(AmountError);
  });

  it("writes minor units as numbers that print back as the same decimal", () => {
    expect(amountToJsonNumber(115, 2)).toBe(1.15);
    expect(JSON.stringify(amountToJsonNumber(123456, 2))).toBe("1234.56");
    expect(amountToJsonNumber(15000, 0)).toBe(15000);
    expect(amountToJsonNumber(1234, 3)).toBe(1.234);
    expect(() => amountToJsonNumber(9007199254740991, 2)).toThrow(AmountError);
    expect(() => amountToJsonNumber(1.5, 2)).toThrow(AmountError);
  });

  it("round-trips every cent amount up to 10^6 through text and JSON", () => {
    const wrong: number[] = [];
    for (let minor = -100_000; minor <= 1_000_000; minor += 7) {
      if (parseAmount(minorToDecimal(minor, 2), 2) !== minor || amountFromJsonNumber(amountToJsonNumber(minor, 2), 2) !== minor) wrong.push(minor);
    }
    expect(wrong).toEqual([]);
  });
});
