import { describe, expect, it } from "vitest";
import { calendarMonthOfFiscal, fiscalYearOf, parseMonth } from "./month.ts";

describe("calendarMonthOfFiscal (fiscal years named by the calendar year they end in)", () => {
  it.each([
    [2025, 1, 1, { year: 2025, month: 1 }],
    [2025, 12, 1, { year: 2025, month: 12 }],
    [2026, 1, 4, { year: 2025, month: 4 }],
    [2026, 9, 4, { year: 2025, month: 12 }],
    [2026, 10, 4, { year: 2026, month: 1 }],
    [2026, 12, 4, { year: 2026, month: 3 }],
    [2026, 1, 12, { year: 2025, month: 12 }],
    [2026, 2, 12, { year: 2026, month: 1 }],
  ])("fiscal %i month %i with a year starting in month %i is %j", (year, month, start, expected) => {
    expect(calendarMonthOfFiscal(year, month, start)).toEqual(expected);
  });

  it("agrees with fiscalYearOf for every start month and fiscal month", () => {
    for (let start = 1; start <= 12; start++) {
      for (let m = 1; m <= 12; m++) {
        const { year, month } = calendarMonthOfFiscal(2026, m, start);
        expect(fiscalYearOf(parseMonth(`${year}-${String(month).padStart(2, "0")}`), start)).toBe(2026);
      }
    }
  });

  it("refuses a fiscal month outside 1-12", () => {
    expect(() => calendarMonthOfFiscal(2026, 13, 4)).toThrow("fiscal month must be 1-12, got 13");
  });
});
