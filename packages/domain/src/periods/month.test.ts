import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fiscalQuarterRange,
  fiscalYearOf,
  fiscalYearRange,
  formatMonth,
  lastDayOfMonth,
  localMonthOf,
  monthCount,
  monthFromParts,
  monthList,
  monthOf,
  monthParts,
  parseMonth,
  shiftMonth,
} from "./month.ts";

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

describe("months as YYYY-MM text", () => {
  const month = fc.integer({ min: 1900 * 12, max: 2200 * 12 }).map(formatMonth);

  it("builds and splits a month from its year and month numbers", () => {
    expect(monthFromParts(2026, 3)).toBe("2026-03");
    expect(monthFromParts(2025, 12)).toBe("2025-12");
    expect(monthParts("2026-03")).toEqual({ year: 2026, month: 3 });
    expect(monthParts("1999-12")).toEqual({ year: 1999, month: 12 });
    for (const [y, m] of [[2026, 0], [2026, 13], [2026.5, 1], [2026, 1.5], [Number.NaN, 1]] as const) expect(() => monthFromParts(y, m)).toThrow(RangeError);
    expect(() => monthParts("2026-3")).toThrow(/not a month/);
  });

  it("shifts across year ends, both ways", () => {
    expect(shiftMonth("2025-12", 1)).toBe("2026-01");
    expect(shiftMonth("2026-01", -1)).toBe("2025-12");
    expect(shiftMonth("2026-03", 0)).toBe("2026-03");
    expect(shiftMonth("2026-03", 12)).toBe("2027-03");
    expect(shiftMonth("2026-03", -12)).toBe("2025-03");
    expect(shiftMonth("2026-03", -15)).toBe("2024-12");
    expect(shiftMonth("2026-11", 14)).toBe("2028-01");
    expect(shiftMonth("2026-01", -36)).toBe("2023-01");
    expect(shiftMonth("2026-01", -25)).toBe("2023-12");
  });

  it("shifting there and back is the identity, and a shift of n is n shifts of 1", () => {
    fc.assert(
      fc.property(month, fc.integer({ min: -600, max: 600 }), (m, n) => {
        expect(shiftMonth(shiftMonth(m, n), -n)).toBe(m);
        expect(monthCount(m, shiftMonth(m, n))).toBe(n + 1);
      }),
    );
    expect(shiftMonth(shiftMonth("2024-11", 1), 1)).toBe(shiftMonth("2024-11", 2));
  });

  it("counts the months of a range, both ends included", () => {
    expect(monthCount("2026-03", "2026-03")).toBe(1);
    expect(monthCount("2025-11", "2026-02")).toBe(4);
    expect(monthCount("2025-01", "2025-12")).toBe(12);
    expect(monthCount("2016-01", "2025-12")).toBe(120);
    expect(monthCount("2021-01", "2025-12")).toBe(60);
    // A range that ends before it starts counts zero or less; callers refuse it.
    expect(monthCount("2026-02", "2026-01")).toBe(0);
    expect(monthCount("2026-03", "2025-03")).toBe(-11);
  });

  it("lists the months of a range in order, both ends included", () => {
    expect(monthList("2025-11", "2026-02")).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
    expect(monthList("2026-03", "2026-03")).toEqual(["2026-03"]);
    expect(monthList("2026-02", "2026-01")).toEqual([]);
    fc.assert(
      fc.property(month, fc.integer({ min: 0, max: 150 }), (from, n) => {
        const list = monthList(from, shiftMonth(from, n));
        expect(list).toHaveLength(monthCount(from, shiftMonth(from, n)));
        expect(list.every((m, i) => m === shiftMonth(from, i))).toBe(true);
        expect([...list].sort()).toEqual(list);
      }),
    );
  });

  it("refuses text that is not a month instead of computing with it", () => {
    for (const junk of ["", "junk", "2026-13", "2026-00", "2026-1", "26-01", "2026-01-31"]) {
      expect(() => shiftMonth(junk, 1), junk).toThrow(/not a month/);
      expect(() => monthCount(junk, "2026-01"), junk).toThrow(/not a month/);
      expect(() => monthList("2026-01", junk), junk).toThrow(/not a month/);
      expect(() => lastDayOfMonth(junk), junk).toThrow(/not a month/);
    }
  });

  it("knows the last day of every month, leap Februaries included", () => {
    expect(lastDayOfMonth("2023-01")).toBe("2023-01-31");
    expect(lastDayOfMonth("2023-02")).toBe("2023-02-28");
    expect(lastDayOfMonth("2024-02")).toBe("2024-02-29");
    expect(lastDayOfMonth("2000-02")).toBe("2000-02-29"); // divisible by 400: leap
    expect(lastDayOfMonth("2100-02")).toBe("2100-02-28"); // divisible by 100 only: not leap
    expect(lastDayOfMonth("2023-04")).toBe("2023-04-30");
    expect(lastDayOfMonth("2023-11")).toBe("2023-11-30");
    expect(lastDayOfMonth("2025-12")).toBe("2025-12-31");
    const lengths = monthList("2025-01", "2025-12").map((m) => Number(lastDayOfMonth(m).slice(8)));
    expect(lengths).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
  });

  it("the day after a month's last day is the first of the next month", () => {
    fc.assert(
      fc.property(month, (m) => {
        const next = new Date(`${lastDayOfMonth(m)}T00:00:00Z`);
        next.setUTCDate(next.getUTCDate() + 1);
        expect(next.toISOString().slice(0, 10)).toBe(`${shiftMonth(m, 1)}-01`);
      }),
    );
  });

  it("the month of a date text, of an instant in UTC, and of an instant in local time", () => {
    expect(monthOf("2026-03-31")).toBe("2026-03");
    expect(monthOf("2026-03-31T23:30:00.000Z")).toBe("2026-03");
    expect(monthOf(new Date("2025-12-31T23:59:59.999Z"))).toBe("2025-12");
    expect(monthOf(new Date("2026-01-01T00:00:00.000Z"))).toBe("2026-01");
    // Local time: the Date is built from local fields, so the answer holds in any time zone.
    expect(localMonthOf(new Date(2026, 0, 1, 0, 0))).toBe("2026-01");
    expect(localMonthOf(new Date(2025, 11, 31, 23, 59))).toBe("2025-12");
    expect(localMonthOf(new Date(2024, 1, 29, 12))).toBe("2024-02");
  });
});
