import { describe, expect, it } from "vitest";
import { currencyExponent, DEFAULT_EXPONENT, isCurrencyCode } from "./currency.ts";
import { addMoney, money, subtractMoney } from "./money.ts";

describe("money in minor units", () => {
  it("knows ISO 4217 exponents", () => {
    expect(currencyExponent("USD")).toBe(2);
    expect(currencyExponent("JPY")).toBe(0);
    expect(currencyExponent("KWD")).toBe(3);
    expect(currencyExponent("CLF")).toBe(4);
    expect(() => currencyExponent("usd")).toThrow(/ISO 4217/);
  });

  it("gives every ISO 4217 exception its exponent and every other code 2", () => {
    for (const code of ["JPY", "KRW", "VND", "CLP", "ISK", "XAF", "XOF", "XPF"]) expect(currencyExponent(code), code).toBe(0);
    for (const code of ["USD", "EUR", "GBP", "CAD", "AUD", "CHF", "INR"]) expect(currencyExponent(code), code).toBe(2);
    for (const code of ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]) expect(currencyExponent(code), code).toBe(3);
    expect(currencyExponent("UYW")).toBe(4);
    // A well-formed code ISO does not list (yet) is taken to have the usual 2.
    expect(currencyExponent("ZZZ")).toBe(2);
    expect(DEFAULT_EXPONENT).toBe(2);
  });

  it("knows a currency code when it sees one", () => {
    expect(["USD", "JPY", "BHD"].every(isCurrencyCode)).toBe(true);
    expect(["usd", "US", "USDX", " USD", ""].some(isCurrencyCode)).toBe(false);
    for (const bad of ["gbp", "US", "", " JPY"]) expect(() => currencyExponent(bad), bad).toThrow(/ISO 4217/);
  });

  it("refuses to add different currencies", () => {
    expect(() => addMoney(money("USD", 1), money("EUR", 1))).toThrow(/USD with EUR/);
    expect(subtractMoney(money("EUR", 500), money("EUR", 125))).toEqual({ currency: "EUR", minor: 375 });
  });

  it("refuses amounts that are not safe integers", () => {
    expect(() => money("USD", 0.5)).toThrow(RangeError);
    expect(() => addMoney(money("USD", Number.MAX_SAFE_INTEGER), money("USD", 1))).toThrow(RangeError);
  });
});
