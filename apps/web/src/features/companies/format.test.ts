import { describe, expect, it } from "vitest";
import { countryName, formatDate, formatMonth, todayIsoDate } from "./format.ts";

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
