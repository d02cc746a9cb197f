import { describe, expect, it } from "vitest";
import { comparisonPeriod } from "./report.ts";

describe("comparison periods", () => {
  it("prior period is the same number of months just before; prior year is twelve months back", () => {
    expect(comparisonPeriod("prior_period", "2026-01", "2026-03")).toEqual({ from: "2025-10", to: "2025-12", label: "2025-10 to 2025-12" });
    expect(comparisonPeriod("prior_period", "2026-03", "2026-03")).toEqual({ from: "2026-02", to: "2026-02", label: "2026-02" });
    expect(comparisonPeriod("prior_year", "2026-01", "2026-03")).toEqual({ from: "2025-01", to: "2025-03", label: "2025-01 to 2025-03" });
  });
});

describe("comparison periods across a year-end", () => {
  it("a prior period of a year is the year before; of a quarter spanning the year-end, the quarter before", () => {
    expect(comparisonPeriod("prior_period", "2025-07", "2026-06")).toEqual({ from: "2024-07", to: "2025-06", label: "2024-07 to 2025-06" });
    expect(comparisonPeriod("prior_period", "2025-12", "2026-02")).toEqual({ from: "2025-09", to: "2025-11", label: "2025-09 to 2025-11" });
    expect(comparisonPeriod("prior_year", "2026-01", "2026-01")).toEqual({ from: "2025-01", to: "2025-01", label: "2025-01" });
  });
});
