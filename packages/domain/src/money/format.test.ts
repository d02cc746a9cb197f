import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatAmount, minorToDecimal } from "./format.ts";

describe("minorToDecimal: the plain decimal machines read", () => {
  it("places the decimal point by the exponent", () => {
    expect(minorToDecimal(-123456, 2)).toBe("-1234.56");
    expect(minorToDecimal(123456, 2)).toBe("1234.56");
    expect(minorToDecimal(12_650_050, 2)).toBe("126500.50");
    expect(minorToDecimal(5, 3)).toBe("0.005");
    expect(minorToDecimal(1234, 0)).toBe("1234");
    expect(minorToDecimal(7, 0)).toBe("7");
    expect(minorToDecimal(-5, 2)).toBe("-0.05");
    expect(minorToDecimal(-7, 2)).toBe("-0.07");
    expect(minorToDecimal(0, 3)).toBe("0.000");
    expect(minorToDecimal(-1234, 3)).toBe("-1.234");
    expect(minorToDecimal(500, 0)).toBe("500");
    expect(minorToDecimal(12345, 4)).toBe("1.2345");
  });

  it("writes zero and -0 without a sign", () => {
    expect(minorToDecimal(0, 2)).toBe("0.00");
    expect(minorToDecimal(-0, 2)).toBe("0.00");
    expect(minorToDecimal(-0, 0)).toBe("0");
  });

  it("is exact up to the largest safe integer and refuses anything else", () => {
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER, 2)).toBe("90071992547409.91");
    expect(minorToDecimal(-Number.MAX_SAFE_INTEGER, 0)).toBe("-9007199254740991");
    expect(() => minorToDecimal(1.5, 2)).toThrow(RangeError);
    expect(() => minorToDecimal(Number.MAX_SAFE_INTEGER + 1, 2)).toThrow(RangeError);
    expect(() => minorToDecimal(Number.NaN, 2)).toThrow(RangeError);
  });

  it("round-trips through the digits for any safe amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(0, 2, 3, 4), (minor, exponent) => {
        const text = minorToDecimal(minor, exponent);
        expect(BigInt(text.replace(".", ""))).toBe(BigInt(minor));
        expect(text.includes(".") ? text.split(".")[1]!.length : 0).toBe(exponent);
      }),
    );
  });
});

describe("formatAmount: minor units and a currency as people read them", () => {
  describe("with the currency's symbol (the default, as on every screen)", () => {
    it("places the decimal point by ISO 4217 exponent", () => {
      expect(formatAmount(123456, "USD", { locale: "en-US" })).toBe("$1,234.56");
      expect(formatAmount(123456, "GBP", { locale: "en-GB" })).toBe("£1,234.56");
      expect(formatAmount(123456, "JPY", { locale: "en-US" })).toBe("¥123,456");
      // Intl puts a no-break space between a code and the number.
      expect(formatAmount(123456, "KWD", { locale: "en-US" })).toBe("KWD\u00a0123.456");
      expect(formatAmount(123456, "BHD", { locale: "en-US" })).toBe("BHD\u00a0123.456");
      expect(formatAmount(5, "EUR", { locale: "en-US" })).toBe("€0.05");
    });

    it("writes credits (negative amounts) in parentheses, as accountants read them", () => {
      expect(formatAmount(-9683065, "GBP", { locale: "en-GB" })).toBe("(£96,830.65)");
      expect(formatAmount(-5, "USD", { locale: "en-US" })).toBe("($0.05)");
      expect(formatAmount(-123456, "JPY", { locale: "en-US" })).toBe("(¥123,456)");
      expect(formatAmount(-1, "BHD", { locale: "en-US" })).toBe("(BHD\u00a00.001)");
    });

    it("with a minus sign when asked", () => {
      expect(formatAmount(-9683065, "GBP", { locale: "en-GB", negative: "minus" })).toBe("-£96,830.65");
      expect(formatAmount(-123456, "JPY", { locale: "en-US", negative: "minus" })).toBe("-¥123,456");
    });

    it("zero is never a credit, whichever sign it carries", () => {
      expect(formatAmount(0, "CAD", { locale: "en-US" })).toBe("CA$0.00");
      expect(formatAmount(-0, "USD", { locale: "en-US" })).toBe("$0.00");
      expect(formatAmount(-0, "JPY", { locale: "en-US" })).toBe("¥0");
    });

    it("never rounds a large amount through floating point", () => {
      // (2^53 - 1) / 100 as a float is 90071992547409.90: the last cent would be wrong.
      expect(formatAmount(Number.MAX_SAFE_INTEGER, "USD", { locale: "en-US" })).toBe("$90,071,992,547,409.91");
      expect(formatAmount(-Number.MAX_SAFE_INTEGER, "USD", { locale: "en-US" })).toBe("($90,071,992,547,409.91)");
      expect(formatAmount(Number.MAX_SAFE_INTEGER, "JPY", { locale: "en-US" })).toBe("¥9,007,199,254,740,991");
      expect(formatAmount(Number.MAX_SAFE_INTEGER, "BHD", { locale: "en-US" })).toBe("BHD\u00a09,007,199,254,740.991");
    });

    it("follows the locale's grouping and decimal mark", () => {
      expect(formatAmount(123456789, "EUR", { locale: "de-DE" })).toBe("1.234.567,89\u00a0€");
      expect(formatAmount(-123456789, "EUR", { locale: "de-DE", negative: "minus" })).toBe("-1.234.567,89\u00a0€");
    });

    it("keeps a code that is not ISO 4217 as a code, with two decimals and a minus sign", () => {
      expect(formatAmount(123456, "XX", { locale: "en-US" })).toBe("1,234.56 XX");
      expect(formatAmount(-123456, "usd", { locale: "en-US" })).toBe("-1,234.56 usd");
    });
  });

  describe("without a currency (the trial balance's columns)", () => {
    const plain = (minor: number, currency: string, negative?: "minus") => formatAmount(minor, currency, { currency: "none", locale: "en-US", ...(negative ? { negative } : {}) });

    it("uses the currency's exponent, grouping, and parentheses for credits", () => {
      expect(plain(123_456_789, "USD")).toBe("1,234,567.89");
      expect(plain(-500_000, "GBP")).toBe("(5,000.00)");
      expect(plain(-5, "USD")).toBe("(0.05)");
      expect(plain(1_234_567, "JPY")).toBe("1,234,567");
      expect(plain(-1_234_567, "JPY")).toBe("(1,234,567)");
      expect(plain(1_234_567, "KWD")).toBe("1,234.567");
      expect(plain(-1_234_567, "BHD")).toBe("(1,234.567)");
      expect(plain(0, "USD")).toBe("0.00");
      expect(plain(-0, "USD")).toBe("0.00");
      expect(plain(0, "JPY")).toBe("0");
      expect(plain(0, "BHD")).toBe("0.000");
    });

    it("shows a minus sign instead when asked (credit-positive explanations)", () => {
      expect(plain(-30_000, "USD", "minus")).toBe("-300.00");
      expect(plain(-1, "BHD", "minus")).toBe("-0.001");
    });

    it("never rounds a large amount through floating point", () => {
      expect(plain(9_007_199_254_740_991, "USD")).toBe("90,071,992,547,409.91");
      expect(plain(-9_007_199_254_740_991, "USD")).toBe("(90,071,992,547,409.91)");
    });
  });

  describe("with the code after the number (sentences: problems and messages)", () => {
    const inText = (minor: number, currency: string) => formatAmount(minor, currency, { currency: "code", negative: "minus", locale: "en-US" });

    it("groups thousands and writes the code after the number", () => {
      expect(inText(-123_456, "GBP")).toBe("-1,234.56 GBP");
      expect(inText(123_456_789, "USD")).toBe("1,234,567.89 USD");
      expect(inText(5, "JPY")).toBe("5 JPY");
      expect(inText(-1_234_567, "JPY")).toBe("-1,234,567 JPY");
      expect(inText(1, "KWD")).toBe("0.001 KWD");
      expect(inText(1_234_567, "BHD")).toBe("1,234.567 BHD");
      expect(inText(0, "EUR")).toBe("0.00 EUR");
      expect(inText(Number.MAX_SAFE_INTEGER, "USD")).toBe("90,071,992,547,409.91 USD");
    });

    it("matches the digit-by-digit grouping it replaced, for any amount", () => {
      const byHand = (minor: number, exponent: number, currency: string) => {
        const digits = String(Math.abs(minor)).padStart(exponent + 1, "0");
        const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
        return `${minor < 0 ? "-" : ""}${whole}${exponent > 0 ? `.${digits.slice(-exponent)}` : ""} ${currency}`;
      };
      fc.assert(
        fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom(["JPY", 0], ["USD", 2], ["BHD", 3], ["CLF", 4]), (minor, [currency, exponent]) => {
          expect(inText(minor, currency as string)).toBe(byHand(minor, exponent as number, currency as string));
        }),
      );
    });

    it("can also put a credit in parentheses", () => {
      expect(formatAmount(-123_456, "GBP", { currency: "code", locale: "en-US" })).toBe("(1,234.56) GBP");
    });
  });

  it("refuses amounts that are not whole minor units", () => {
    expect(() => formatAmount(1.5, "USD")).toThrow(RangeError);
    expect(() => formatAmount(Number.NaN, "USD", { currency: "none" })).toThrow(RangeError);
  });
});
