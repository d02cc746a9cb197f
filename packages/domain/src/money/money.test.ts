import { describe, expect, it } from "vitest";
import { currencyExponent } from "./currency.ts";
import { addMoney, formatMinor, money, subtractMoney } from "./money.ts";

describe("money in minor units", () => {
  it("knows ISO 4217 exponents", () => {
    expect(currencyExponent("USD")).toBe(2);
    expect(currencyExponent("JPY")).toBe(0);
    expect(currencyExponent("KWD")).toBe(3);
    expect(currencyExponent("CLF")).toBe(4);
    expect(() => currencyExponent("usd")).toThrow(/ISO 4217/);
  });

  it("refuses to add different currencies", () => {
    expect(() => addMoney(money("USD", 1), money("EUR", 1))).toThrow(/USD with EUR/);
    expect(subtractMoney(money("EUR", 500), money("EUR", 125))).toEqual({ currency: "EUR", minor: 375 });
  });

  it("refuses amounts that are not safe integers", () => {
    expect(() => money("USD", 0.5)).toThrow(RangeError);
    expect(() => addMoney(money("USD", Number.MAX_SAFE_INTEGER), money("USD", 1))).toThrow(RangeError);
  });

  it("formats with the currency's exponent", () => {
    expect(formatMinor(-123456, 2)).toBe("-1234.56");
    expect(formatMinor(5, 3)).toBe("0.005");
    expect(formatMinor(1234, 0)).toBe("1234");
  });
});
