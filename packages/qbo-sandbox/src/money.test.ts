import { describe, expect, it } from "vitest";
import { convert, convertCross, formatCents, formatRate, parseAmount, parseRate } from "./money.ts";

describe("money", () => {
  it("formats cents like the report samples", () => {
    expect(formatCents(123456)).toBe("1234.56");
    expect(formatCents(-1000)).toBe("-10.00");
    expect(formatCents(5)).toBe("0.05");
    expect(formatCents(-5)).toBe("-0.05");
    expect(formatCents(0)).toBe("0.00");
    expect(() => formatCents(1.5)).toThrow(RangeError);
  });

  it("parses wire amounts exactly and refuses more than two decimals", () => {
    expect(parseAmount(90.0)).toBe(9000);
    expect(parseAmount(0.1)).toBe(10);
    expect(parseAmount(1234.56)).toBe(123456);
    expect(parseAmount("1234.5")).toBe(123450);
    expect(parseAmount("-0.01")).toBe(-1);
    expect(parseAmount(1.005)).toBeUndefined();
    expect(parseAmount("12,00")).toBeUndefined();
    expect(parseAmount(Number.NaN)).toBeUndefined();
    expect(parseAmount(null)).toBeUndefined();
  });

  it("converts with six-decimal rates, rounding half away from zero", () => {
    const rate = parseRate("1.274310") as bigint;
    expect(formatRate(rate)).toBe("1.274310");
    expect(convert(100_00, rate)).toBe(127_43);
    expect(convert(-100_00, rate)).toBe(-127_43);
    expect(convert(50, parseRate("0.01") as bigint)).toBe(1); // 0.5 cent rounds up
    expect(convert(-50, parseRate("0.01") as bigint)).toBe(-1);
    expect(convertCross(100_00, parseRate("1.1") as bigint, parseRate("1.3") as bigint)).toBe(84_62);
    expect(parseRate("1.1234567")).toBeUndefined();
  });
});
