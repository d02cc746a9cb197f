import { describe, expect, it } from "vitest";
import { monthFixture, reportFixture } from "./components/reportFixtures.ts";
import { compactMoney, niceScale, trendMonths, trendValues } from "./trend.ts";

describe("the trend chart's months", () => {
  it("are the selected months", () => {
    expect(trendMonths("2026-01", "2026-03")).toEqual({ months: ["2026-01", "2026-02", "2026-03"], truncated: false });
  });

  it("are at most the last twelve, so the chart never asks for more than a year of reports", () => {
    const { months, truncated } = trendMonths("2024-01", "2026-03");
    expect(months).toHaveLength(12);
    expect(months[0]).toBe("2025-04");
    expect(months.at(-1)).toBe("2026-03");
    expect(truncated).toBe(true);
  });
});

describe("the trend chart's values", () => {
  it("revenue and expenses add the lines; net income and total assets are the report's", () => {
    const r = monthFixture("2026-02");
    const v = trendValues(r)!;
    const p = r.report!.incomeStatement;
    expect(v.revenue).toBe(p.revenue.reduce((s, l) => s + l.amount, 0));
    expect(v.expenses).toBe(p.expenses.reduce((s, l) => s + l.amount, 0));
    expect(v.netIncome).toBe(p.netIncome);
    expect(v.revenue - v.expenses).toBe(v.netIncome);
    expect(v.totalAssets).toBe(r.report!.balanceSheet.totalAssets);
  });

  it("a month that could not be consolidated has no values rather than zeros", () => {
    expect(trendValues(reportFixture({ ok: false, report: null }))).toBeNull();
  });
});

describe("axes", () => {
  it("run between round numbers and always include zero", () => {
    expect(niceScale([120_000, 480_000])).toEqual({ min: 0, max: 600_000, ticks: [0, 200_000, 400_000, 600_000] });
    expect(niceScale([0, 95])).toEqual({ min: 0, max: 100, ticks: [0, 50, 100] });
    const s = niceScale([-30_000, 95_000]);
    expect(s.min).toBeLessThanOrEqual(-30_000);
    expect(s.max).toBeGreaterThanOrEqual(95_000);
    expect(s.ticks).toContain(0);
  });

  it("draw a large balance that moves little on an axis around it, not from zero", () => {
    const s = niceScale([2_810_000_000, 2_905_000_000, 2_872_000_000], 5, false);
    expect(s.min).toBeGreaterThan(2_000_000_000);
    expect(s.min).toBeLessThanOrEqual(2_810_000_000);
    expect(s.max).toBeGreaterThanOrEqual(2_905_000_000);
    expect(s.ticks[0]).toBe(s.min);
    expect(s.ticks.at(-1)).toBe(s.max);
    const one = niceScale([5_000], 5, false);
    expect(one.min).toBeLessThan(5_000);
    expect(one.max).toBeGreaterThan(5_000);
  });

  it("draw a flat line of zeros on a unit axis", () => {
    expect(niceScale([0, 0])).toEqual({ min: 0, max: 1, ticks: [0, 1] });
  });

  it("label amounts compactly in the parent currency", () => {
    expect(compactMoney(123_456_789, "USD", 2, "en-US")).toBe("$1.2M");
    expect(compactMoney(-4_000_000, "USD", 2, "en-US")).toBe("-$40K");
  });
});
