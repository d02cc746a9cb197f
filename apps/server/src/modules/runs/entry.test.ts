import { describe, expect, it } from "vitest";
import { companyRow, thrown } from "../../testing/fixtures.ts";
import { resolvePeriod } from "./entry.ts";

describe("resolvePeriod", () => {
  const parent = companyRow("100", { isParent: true, fiscalYearStartMonth: 4 });

  it("names a period of the parent's fiscal calendar by its last month", () => {
    expect(resolvePeriod(parent, { kind: "month", year: 2026, month: 2 })).toEqual({ kind: "month", from: "2026-02", to: "2026-02", label: "2026-02", code: "202602" });
    expect(resolvePeriod(parent, { kind: "quarter", year: 2026, month: 6 })).toEqual({ kind: "quarter", from: "2026-04", to: "2026-06", label: "FY2027 Q1", code: "2027Q1" });
    expect(resolvePeriod(parent, { kind: "year", year: 2026, month: 3 })).toEqual({ kind: "year", from: "2025-04", to: "2026-03", label: "FY2026", code: "FY2026" });
  });

  it("answers a month that ends no quarter or year of the parent with 400 invalid_period, in the domain's words", () => {
    expect(thrown(() => resolvePeriod(parent, { kind: "quarter", year: 2026, month: 5 }))).toEqual({
      status: 400,
      code: "invalid_period",
      message: "Fiscal quarters of the parent end in 2026-06, 2026-09, 2026-12, 2027-03; 2026-05 is not a quarter-end.",
    });
    expect(thrown(() => resolvePeriod(parent, { kind: "year", year: 2026, month: 12 }))).toMatchObject({ status: 400, code: "invalid_period", message: expect.stringContaining("ends in 2027-03, not 2026-12") });
    expect(thrown(() => resolvePeriod(parent, { kind: "month", year: 2026, month: 13 }))).toEqual({ status: 400, code: "invalid_period", message: "2026-13 is not a month." });
  });
});
