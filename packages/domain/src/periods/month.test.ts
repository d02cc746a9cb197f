import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fiscalQuarterRange, fiscalYearOf, fiscalYearRange, formatMonth, parseMonth } from "./month.ts";

const fmt = (r: { from: number; to: number }) => [formatMonth(r.from), formatMonth(r.to)];

describe("months, quarters and fiscal years", () => {
  it("round-trips months", () => {
    expect(formatMonth(parseMonth("2024-02"))).toBe("2024-02");
    expect(() => parseMonth("2024-13")).toThrow();
  });

  it("names a fiscal year by the calendar year it ends in", () => {
    expect(fmt(fiscalYearRange(2024, 1))).toEqual(["2024-01", "2024-12"]);
    expect(fmt(fiscalYearRange(2024, 7))).toEqual(["2023-07", "2024-06"]);
    expect(fmt(fiscalYearRange(2024, 4))).toEqual(["2023-04", "2024-03"]);
    expect(fmt(fiscalQuarterRange(2024, 2, 7))).toEqual(["2023-10", "2023-12"]);
  });

  it("puts every month in exactly the fiscal year whose range contains it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1990 * 12, max: 2100 * 12 }), fc.integer({ min: 1, max: 12 }), (m, start) => {
        const fy = fiscalYearRange(fiscalYearOf(m, start), start);
        expect(m >= fy.from && m <= fy.to).toBe(true);
        expect(fy.to - fy.from).toBe(11);
        expect((fy.from % 12) + 1).toBe(start);
      }),
    );
  });
});
