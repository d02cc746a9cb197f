import { describe, expect, it } from "vitest";
import { reportFixture } from "./components/reportFixtures.ts";
import {
  balanceSheetView,
  change,
  columnTotals,
  drillableAccounts,
  drillHref,
  entityRows,
  fileNameFrom,
  fixLink,
  incomeStatementView,
  sharePercent,
  withComparison,
  worksheetRows,
} from "./model.ts";

describe("problems link to where they are fixed", () => {
  it.each([
    ["missing_rate", "/consolidation/fx_rates"],
    ["unmapped_account", "/setup/coa"],
    ["invalid_map", "/setup/coa"],
    ["missing_cta_account", "/setup/cta"],
    ["missing_historical_equity", "/setup/cta"],
    ["invalid_pair", "/consolidation/elimination"],
    ["invalid_acquisition", "/setup/acquisitions"],
    ["acquired_after_period", "/setup/acquisitions"],
    ["invalid_intragroup", "/consolidation/elimination"],
  ])("%s → %s", (code, href) => {
    expect(fixLink(code)?.href).toBe(href);
  });

  it("has no link for a problem no screen fixes", () => {
    expect(fixLink("engine_refused")).toBeNull();
  });
});

describe("drill-down", () => {
  it("links a parent account over the report's months, and one company's part when given", () => {
    expect(drillHref({ account: "35", from: "2026-01", to: "2026-03" })).toBe("/consolidation/transaction-detail?account=35&from=2026-01&to=2026-03");
    expect(drillHref({ account: "35", from: "2026-01", to: "2026-03", realmId: "9341453172384023" })).toBe(
      "/consolidation/transaction-detail?account=35&from=2026-01&to=2026-03&realmId=9341453172384023",
    );
  });

  it("only parent accounts have transactions: not unmapped rows, not the NCI share of profit", () => {
    const r = reportFixture();
    const accounts = drillableAccounts(r.report!.worksheet);
    expect(accounts.has("1")).toBe(true);
    expect(accounts.has("unmapped:9341453172384023:77")).toBe(false);
    expect(accounts.has("(nci share of profit)")).toBe(false);
    expect(accounts.has("(period profit)")).toBe(false);
  });
});

describe("statements beside their comparison", () => {
  it("keeps the current lines' order and adds lines only the comparison period has", () => {
    const rows = withComparison(
      [
        { account: "1", name: "Cash", amount: 500 },
        { account: "2", name: "Receivables", amount: 300 },
      ],
      [
        { account: "2", name: "Receivables", amount: 250 },
        { account: "9", name: "Old deposit", amount: 40 },
      ],
    );
    expect(rows).toEqual([
      { account: "1", name: "Cash", amount: 500, prior: 0 },
      { account: "2", name: "Receivables", amount: 300, prior: 250 },
      { account: "9", name: "Old deposit", amount: 0, prior: 40 },
    ]);
    expect(withComparison([{ account: "1", name: "Cash", amount: 5 }], null)).toEqual([{ account: "1", name: "Cash", amount: 5, prior: null }]);
  });

  it("changes as amounts and percentages of the comparison; none from zero or across a sign change", () => {
    expect(change(1200, 1000)).toEqual({ amount: 200, percent: "+20.0%" });
    expect(change(900, 1000)).toEqual({ amount: -100, percent: "-10.0%" });
    expect(change(-1100, -1000)).toEqual({ amount: -100, percent: "-10.0%" });
    expect(change(1000, 0)).toEqual({ amount: 1000, percent: null });
    expect(change(500, -1000)).toEqual({ amount: 1500, percent: null });
    expect(change(0, 1000)).toEqual({ amount: -1000, percent: "-100.0%" });
    expect(change(1000, null)).toBeNull();
  });

  it("balance sheet totals: liabilities, equity and NCI together equal assets when balanced", () => {
    const r = reportFixture();
    const b = r.report!.balanceSheet;
    const v = balanceSheetView(b, r.comparison!.balanceSheet);
    expect(v.totalAssets.amount).toBe(b.totalAssets);
    expect(v.totalLiabilitiesAndEquity.amount).toBe(b.totalAssets);
    expect(v.totalLiabilitiesAndEquity.prior).toBe(r.comparison!.balanceSheet!.totalAssets);
    expect(v.nci).toEqual({ amount: b.nonControllingInterests, prior: r.comparison!.balanceSheet!.nonControllingInterests });
  });

  it("income statement totals add the lines; net income and its attribution are the server's", () => {
    const r = reportFixture();
    const p = r.report!.incomeStatement;
    const v = incomeStatementView(p, null);
    expect(v.totalRevenue).toEqual({ amount: p.revenue.reduce((s, l) => s + l.amount, 0), prior: null });
    expect(v.totalRevenue.amount - v.totalExpenses.amount).toBe(p.netIncome);
    expect(v.attributableToParent.amount).toBe(p.attributableToParent);
  });
});

describe("the worksheet", () => {
  it("totals each column's debits and credits and checks they agree", () => {
    const ws = {
      columns: [
        { id: "a", label: "A" },
        { id: "consolidated", label: "Consolidated" },
      ],
      rows: [
        { account: "1", name: "Cash", classification: "Asset", role: "account" as const, amounts: [700, 700] },
        { account: "2", name: "Sales", classification: "Revenue", role: "account" as const, amounts: [-500, -499] },
        { account: "3", name: "Capital", classification: "Equity", role: "account" as const, amounts: [-200, -200] },
      ],
    };
    expect(columnTotals(ws)).toEqual({ debits: [700, 700], credits: [-700, -699], balanced: [true, false] });
  });

  it("hides rows with nothing in any column unless asked", () => {
    const r = reportFixture();
    const all = r.report!.worksheet.rows.length;
    expect(worksheetRows(r.report!.worksheet, true)).toHaveLength(all);
    expect(worksheetRows(r.report!.worksheet, false).every((row) => row.amounts.some((a) => a !== 0))).toBe(true);
    expect(worksheetRows(r.report!.worksheet, false).length).toBeLessThan(all);
  });
});

describe("entities", () => {
  it("joins each subsidiary's NCI to its row; a wholly owned one has none", () => {
    const rows = entityRows(reportFixture().report!);
    expect(rows.find((e) => e.id === "9341453172384015")?.nci).toBeNull();
    expect(rows.find((e) => e.id === "9341453172384023")?.nci).toEqual({ share: "20%", closing: 840_000, netIncome: 260_000 });
  });

  it("shows the NCI share as an exact percentage", () => {
    expect(sharePercent("0.2")).toBe("20%");
    expect(sharePercent("0.125")).toBe("12.5%");
    expect(sharePercent("0.3333")).toBe("33.33%");
    expect(sharePercent("1")).toBe("100%");
    expect(sharePercent("0.05")).toBe("5%");
  });
});

describe("file names", () => {
  it("uses the server's name", () => {
    expect(fileNameFrom('attachment; filename="consolidation-2026-01to2026-03.xlsx"', "x.xlsx")).toBe("consolidation-2026-01to2026-03.xlsx");
    expect(fileNameFrom("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.csv", "x.csv")).toBe("résumé.csv");
    expect(fileNameFrom("attachment; filename=plain.csv", "x.csv")).toBe("plain.csv");
  });

  it("falls back when there is none or it is a path", () => {
    expect(fileNameFrom(null, "x.csv")).toBe("x.csv");
    expect(fileNameFrom('attachment; filename="../etc/passwd"', "x.csv")).toBe("x.csv");
  });
});
