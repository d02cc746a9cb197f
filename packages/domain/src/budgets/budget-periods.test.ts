import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { budgetCutMessage, budgetDetailSpan, periodAround, spanCadence, spanEnd, spanFit, spanMonths } from "./budget-periods.ts";
import { monthList, shiftMonth } from "../periods/month.ts";

describe("budget granularity: what a QuickBooks budget line covers", () => {
  it("monthly: its month; quarterly: the budget's own quarter it is dated in; annually: the whole budget", () => {
    expect(budgetDetailSpan("Monthly", "2026-01", "2026-12", "2026-05-01")).toEqual({ month: "2026-05", months: 1 });
    expect(budgetDetailSpan("Quarterly", "2026-01", "2026-12", "2026-04-01")).toEqual({ month: "2026-04", months: 3 });
    // Dated inside the quarter: still that quarter, counted from the budget's start (a UK year from April).
    expect(budgetDetailSpan("Quarterly", "2025-04", "2026-03", "2026-02-01")).toEqual({ month: "2026-01", months: 3 });
    expect(budgetDetailSpan("Quarterly", "2025-04", "2026-03", "2025-07-01")).toEqual({ month: "2025-07", months: 3 });
    expect(budgetDetailSpan("Annually", "2025-04", "2026-03", "2025-04-01")).toEqual({ month: "2025-04", months: 12 });
    // A short budget's last quarter stops at its end.
    expect(budgetDetailSpan("Quarterly", "2026-01", "2026-08", "2026-07-01")).toEqual({ month: "2026-07", months: 2 });
    expect(budgetDetailSpan("Monthly", "2026-01", "2026-12", "2027-01-01")).toBeNull();
    expect(budgetDetailSpan("Annually", "2026-01", "2026-12", "2025-12-01")).toBeNull();
  });

  it("a span lies inside a period, outside it, or is cut by it", () => {
    const q2 = { month: "2026-04", months: 3 };
    expect(spanEnd(q2)).toBe("2026-06");
    expect(spanMonths(q2)).toEqual(["2026-04", "2026-05", "2026-06"]);
    expect(spanFit(q2, "2026-01", "2026-06")).toBe("inside");
    expect(spanFit(q2, "2026-04", "2026-06")).toBe("inside");
    expect(spanFit(q2, "2026-07", "2026-12")).toBe("outside");
    expect(spanFit(q2, "2026-01", "2026-03")).toBe("outside");
    expect(spanFit(q2, "2026-05", "2026-05")).toBe("cut");
    expect(spanFit(q2, "2026-01", "2026-04")).toBe("cut");
    expect(spanFit(q2, "2026-06", "2026-09")).toBe("cut");
  });

  it("the period to choose holds the period asked and every span it cuts whole", () => {
    expect(periodAround("2026-02", "2026-05", [{ month: "2026-01", months: 3 }, { month: "2026-04", months: 3 }])).toEqual({ from: "2026-01", to: "2026-06" });
    expect(periodAround("2026-02", "2026-02", [])).toEqual({ from: "2026-02", to: "2026-02" });
  });

  it("the message names the company, the budget, how it is entered, the span cut and the period to choose", () => {
    const cut = [{ month: "2026-01", months: 3 }];
    expect(budgetCutMessage({ company: "Northwind Canada Inc.", budget: "FY2026 Budget", from: "2026-02", to: "2026-02", cut, suggestion: { from: "2026-01", to: "2026-03" }, suggestionWithinFiscalYear: true })).toBe(
      'Northwind Canada Inc.\'s budget "FY2026 Budget" is entered quarterly in QuickBooks: 2026-02 cuts its quarter 2026-01 to 2026-03, and its amounts are not spread over months. Choose 2026-01 to 2026-03, or a period of whole quarters.',
    );
    expect(
      budgetCutMessage({ company: "Northwind UK Ltd", budget: "FY2026", from: "2026-01", to: "2026-06", cut: [{ month: "2025-04", months: 12 }], suggestion: { from: "2025-04", to: "2026-06" }, suggestionWithinFiscalYear: false }),
    ).toBe(
      'Northwind UK Ltd\'s budget "FY2026" is entered annually in QuickBooks: 2026-01 to 2026-06 cuts its year 2025-04 to 2026-03, and its amounts are not spread over months. Its year runs over two of the parent\'s fiscal years, so no statement period holds it whole: enter Northwind UK Ltd\'s budget monthly in QuickBooks, or import it as CSV.',
    );
    expect(budgetCutMessage({ company: "C", budget: "B", from: "2026-02", to: "2026-05", cut: [{ month: "2026-01", months: 3 }, { month: "2026-04", months: 3 }], suggestion: { from: "2026-01", to: "2026-06" }, suggestionWithinFiscalYear: true })).toMatch(
      /cuts its quarters 2026-01 to 2026-03 and 2026-04 to 2026-06,/,
    );
    expect(spanCadence(1)).toBe("monthly");
    expect(spanCadence(5)).toBe("for 5 months");
  });

  it("a quarterly budget's lines cover its months once each, and a period made of whole quarters cuts none (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2020 * 12, max: 2030 * 12 }), fc.integer({ min: 1, max: 24 }), fc.nat(23), fc.nat(23), (startIndex, length, i, j) => {
        const start = shiftMonth("2020-01", startIndex - 2020 * 12);
        const end = shiftMonth(start, length - 1);
        const months = monthList(start, end);
        const spans = new Map(months.map((mm) => [mm, budgetDetailSpan("Quarterly", start, end, `${mm}-15`)!]));
        const covered = [...new Set([...spans.values()].map((s) => JSON.stringify(s)))].flatMap((t) => spanMonths(JSON.parse(t) as { month: string; months: number }));
        expect(covered).toEqual(months);
        const a = spans.get(months[Math.min(i, months.length - 1)]!)!;
        const b = spans.get(months[Math.min(j, months.length - 1)]!)!;
        const [first, last] = a.month <= b.month ? [a, b] : [b, a];
        for (const s of spans.values()) expect(spanFit(s, first.month, spanEnd(last))).not.toBe("cut");
      }),
    );
  });
});
