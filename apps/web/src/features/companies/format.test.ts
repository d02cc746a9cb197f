import { describe, expect, it } from "vitest";
import { formatMinor } from "../../lib/money.ts";
import { countryName, formatDate, formatMonth, todayIsoDate } from "./format.ts";

describe("formatMinor: minor units with the currency's exponent", () => {
  it("places the decimal point by ISO 4217 exponent", () => {
    expect(formatMinor(123456, "USD", "en-US")).toBe("$1,234.56");
    expect(formatMinor(123456, "GBP", "en-GB")).toBe("£1,234.56");
    expect(formatMinor(123456, "JPY", "en-US")).toBe("¥123,456");
    // Intl puts a no-break space between a code and the number.
    expect(formatMinor(123456, "KWD", "en-US")).toBe("KWD\u00a0123.456");
    expect(formatMinor(5, "EUR", "en-US")).toBe("€0.05");
  });

  it("writes credits (negative amounts) in parentheses, as accountants read them", () => {
    expect(formatMinor(-9683065, "GBP", "en-GB")).toBe("(£96,830.65)");
    expect(formatMinor(0, "CAD", "en-US")).toBe("CA$0.00");
  });

  it("keeps a code it does not know as a code", () => {
    expect(formatMinor(123456, "XX", "en-US")).toBe("1,234.56 XX");
  });
});

describe("dates and names", () => {
  it("names countries and keeps unknown codes", () => {
    expect(countryName("GB", "en")).toBe("United Kingdom");
    expect(countryName("not a code", "en")).toBe("not a code");
  });

  it("formats calendar dates and months without shifting a day", () => {
    expect(formatDate("2026-03-31", "en-US")).toBe("Mar 31, 2026");
    expect(formatMonth("2026-11", "en-US")).toBe("Nov 2026");
    expect(formatMonth("2026-01-31", "en-US")).toBe("Jan 2026");
    expect(formatDate("soon", "en-US")).toBe("soon");
  });

  it("today is the local calendar day", () => {
    expect(todayIsoDate(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
  });
});
