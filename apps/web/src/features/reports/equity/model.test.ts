import { describe, expect, it } from "vitest";
import { equityFixture } from "./equityFixtures.ts";
import { reconciliation, visibleColumns, yearToDate } from "./model.ts";

describe("the statement of changes in equity's presentation", () => {
  it("leaves out Other reserves when no row holds any, and shows it when one does", () => {
    const s = equityFixture().statement!;
    expect(visibleColumns(s).map((c) => c.id)).toEqual(["shareCapital", "retainedEarnings", "translationReserve", "parent", "nci", "total"]);
    const withReserve = equityFixture({ difference: { otherReserves: 5, parent: 5, total: 5 } }).statement!;
    expect(visibleColumns(withReserve).map((c) => c.id)).toContain("otherReserves");
  });

  it("says it reconciles, or names each column that differs with its amount", () => {
    expect(reconciliation(equityFixture().statement!, "USD", "2026-12")).toEqual({
      ok: true,
      text: "Reconciles to the consolidated balance sheet at the end of December 2026: every column's closing balance equals its figure there.",
    });
    const off = reconciliation(equityFixture({ difference: { retainedEarnings: 1, nci: -1 } }).statement!, "USD", "2026-12");
    expect(off.ok).toBe(false);
    expect(off.text).toBe(
      "Does not reconcile to the consolidated balance sheet at the end of December 2026: Retained earnings $0.01, Non-controlling interests ($0.01) (balance sheet − statement) is not explained by the period's movements.",
    );
  });

  it("opens on the fiscal year to date", () => {
    expect(yearToDate("2026-10", 1)).toEqual({ from: "2026-01", to: "2026-10" });
    expect(yearToDate("2026-02", 4)).toEqual({ from: "2025-04", to: "2026-02" });
  });
});
