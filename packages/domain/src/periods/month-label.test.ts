import { describe, expect, it } from "vitest";
import { calendarLabel, monthName, monthSpan, monthTextLabel } from "./month-label.ts";

describe("months in words", () => {
  it("names a month, and a YYYY-MM month, as an accountant reads them", () => {
    expect(monthName(1)).toBe("January");
    expect(monthName(13)).toBe("Month 13");
    expect(calendarLabel(2026, 3)).toBe("March 2026");
    expect(monthTextLabel("2025-12")).toBe("December 2025");
    expect(monthTextLabel("FY2026 Q1")).toBe("FY2026 Q1");
  });
  it("says a span of months: one, a run, or how many between two", () => {
    expect(monthSpan(["2026-02"])).toBe("February 2026");
    expect(monthSpan(["2025-12", "2026-01", "2026-02"])).toBe("December 2025 to February 2026");
    expect(monthSpan(["2026-02", "2026-04"])).toBe("2 months between February 2026 and April 2026");
  });
});
