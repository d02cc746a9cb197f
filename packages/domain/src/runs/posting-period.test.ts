import { describe, expect, it } from "vitest";
import { overlapsOpening, PostingPeriodError, resolvePostingPeriod } from "./posting-period.ts";

describe("resolvePostingPeriod", () => {
  it("a month is itself", () => {
    expect(resolvePostingPeriod("month", 2026, 3, 1)).toEqual({ kind: "month", from: "2026-03", to: "2026-03", label: "2026-03", code: "202603" });
  });

  it("calendar-year quarters and years", () => {
    expect(resolvePostingPeriod("quarter", 2026, 3, 1)).toMatchObject({ from: "2026-01", to: "2026-03", label: "FY2026 Q1", code: "2026Q1" });
    expect(resolvePostingPeriod("quarter", 2026, 12, 1)).toMatchObject({ from: "2026-10", to: "2026-12", label: "FY2026 Q4" });
    expect(resolvePostingPeriod("year", 2026, 12, 1)).toMatchObject({ from: "2026-01", to: "2026-12", label: "FY2026", code: "FY2026" });
  });

  it("an April fiscal year is named by the calendar year it ends in", () => {
    expect(resolvePostingPeriod("year", 2026, 3, 4)).toMatchObject({ from: "2025-04", to: "2026-03", label: "FY2026" });
    expect(resolvePostingPeriod("quarter", 2025, 6, 4)).toMatchObject({ from: "2025-04", to: "2025-06", label: "FY2026 Q1" });
    expect(resolvePostingPeriod("quarter", 2026, 3, 4)).toMatchObject({ from: "2026-01", to: "2026-03", label: "FY2026 Q4" });
  });

  it("refuses a quarter or year that does not end on a fiscal boundary, naming the right months", () => {
    expect(() => resolvePostingPeriod("quarter", 2026, 2, 1)).toThrow(PostingPeriodError);
    expect(() => resolvePostingPeriod("quarter", 2026, 2, 1)).toThrow("Fiscal quarters of the parent end in 2026-03, 2026-06, 2026-09, 2026-12; 2026-02 is not a quarter-end.");
    expect(() => resolvePostingPeriod("year", 2026, 6, 1)).toThrow("A fiscal year of the parent ends in 2026-12, not 2026-06; choose a year-end month.");
  });

  it("refuses something that is not a month", () => {
    expect(() => resolvePostingPeriod("month", 2026, 13, 1)).toThrow(PostingPeriodError);
    expect(() => resolvePostingPeriod("month", 2026.5, 1, 1)).toThrow(PostingPeriodError);
  });
});

describe("overlapsOpening", () => {
  it("a period starting in or before the opening month overlaps it", () => {
    expect(overlapsOpening({ from: "2025-12" }, "2025-12")).toBe(true);
    expect(overlapsOpening({ from: "2026-01" }, "2025-12")).toBe(false);
  });
});
