import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";
import { consolidate, parseConsolidationInput } from "../consolidation/consolidate.ts";
import type { ConsolidationOutput } from "../consolidation/output-schema.ts";
import { formatAmount } from "../money/format.ts";
import { boardPackLayout, cleanLabel, LABEL_MAX, type BoardPack, type BoardPackInput, type BoardPackSectionId } from "./board-pack.ts";
import type { ConsolidatedCashFlow } from "./cash-flow.ts";
import { changesInEquity } from "./changes-in-equity.ts";
import { investmentCosts, openingBalanceInput } from "./changes-in-equity-opening.ts";

/** The board pack's pages (issue 23): what goes on each, from the engine's statements, as the PDF and the printable page show it. */

const input = parseConsolidationInput(loadExample("kaplan-f2-basil-manuel-foreign-nci"));
const closing = consolidate(input);
const opening = consolidate(parseConsolidationInput(openingBalanceInput(input, closing.period.from, investmentCosts(closing))));
const equity = changesInEquity(input, opening, closing);
const $ = (minor: number) => formatAmount(minor, closing.reportingCurrency, { locale: "en-US" });

const cashFlow: ConsolidatedCashFlow = {
  period: { from: "2026-03", to: "2026-03" },
  currency: "USD",
  exponent: 2,
  operating: { profit: 1_000_00, adjustments: [{ account: "dep", name: "Depreciation", amount: 200_00 }], workingCapital: [{ account: "ar", name: "Accounts receivable", amount: -300_00 }], total: 900_00 },
  investing: { lines: [{ account: "ppe", name: "Equipment", amount: -400_00 }], total: -400_00 },
  financing: { lines: [], total: 0 },
  netCashFlow: 500_00,
  exchangeEffect: { total: 12_34, entities: [] },
  openingCash: 2_000_00,
  closingCash: 2_512_34,
  cashAccounts: [],
  reconciliation: { computedClosingCash: 2_512_34, difference: 0, reconciles: true },
};

function packOf(over: Partial<BoardPackInput> = {}): BoardPack {
  return boardPackLayout({
    groupName: "Basil Group",
    period: { from: "2026-01", to: "2026-03" },
    currency: closing.reportingCurrency,
    balanceSheet: closing.balanceSheet,
    incomeStatement: closing.incomeStatement,
    comparison: null,
    cashFlow,
    equity,
    rates: [],
    cta: [],
    generatedAt: "2026-04-01T08:00:00.000Z",
    ...over,
  });
}
const section = (p: BoardPack, id: BoardPackSectionId) => p.sections.find((s) => s.id === id)!;
const rowOf = (p: BoardPack, id: BoardPackSectionId, label: string) => section(p, id).tables[0]!.rows.find((r) => r.label === label)!;

describe("the board pack's layout", () => {
  it("has the cover's facts and the sections in the order of the pages", () => {
    const p = packOf();
    expect(p).toMatchObject({ groupName: "Basil Group", currency: closing.reportingCurrency, period: { from: "2026-01", to: "2026-03", label: "January 2026 to March 2026" } });
    expect(p.sections.map((s) => s.id)).toEqual(["balance-sheet", "income-statement", "chart", "cash-flow", "equity", "fx-rates", "cta"]);
  });

  it("puts the engine's balance sheet on its page: every line, the totals formatted from the same minor units, balanced", () => {
    const p = packOf();
    const b = closing.balanceSheet;
    const rows = section(p, "balance-sheet").tables[0]!.rows;
    expect(rows.filter((r) => r.kind === "heading").map((r) => r.label)).toEqual(["Assets", "Liabilities", "Equity"]);
    expect(rows.filter((r) => r.kind === "line").length).toBe(b.assets.length + b.liabilities.length + b.equity.length + 1);
    expect(rowOf(p, "balance-sheet", "Total assets").cells).toEqual([$(b.totalAssets)]);
    expect(rowOf(p, "balance-sheet", "Total equity").cells).toEqual([$(b.totalEquity)]);
    expect(rowOf(p, "balance-sheet", "Non-controlling interests").cells).toEqual([$(b.nonControllingInterests)]);
    expect(rowOf(p, "balance-sheet", "Total liabilities, equity and non-controlling interests").cells).toEqual([$(b.totalLiabilities + b.totalEquity + b.nonControllingInterests)]);
    expect(b.balanced).toBe(true);
    expect(section(p, "balance-sheet").notes).toEqual(["Balanced: total assets equal total liabilities, equity and non-controlling interests."]);
  });

  it("adds the comparison column, named in words, with lines only the comparison has at zero now", () => {
    const prior: ConsolidationOutput["balanceSheet"] = { ...closing.balanceSheet, assets: [...closing.balanceSheet.assets.slice(1), { account: "gone", name: "Sold building", amount: 5_00 }], totalAssets: 77_00 };
    const p = packOf({ comparison: { period: { from: "2025-10", to: "2025-12" }, balanceSheet: prior, incomeStatement: closing.incomeStatement } });
    const t = section(p, "balance-sheet").tables[0]!;
    expect(t.columns).toEqual(["", "January 2026 to March 2026", "October 2025 to December 2025"]);
    expect(rowOf(p, "balance-sheet", "Total assets").cells).toEqual([$(closing.balanceSheet.totalAssets), $(77_00)]);
    const first = closing.balanceSheet.assets[0]!;
    expect(rowOf(p, "balance-sheet", first.name).cells).toEqual([$(first.amount), $(0)]);
    expect(rowOf(p, "balance-sheet", "Sold building").cells).toEqual([$(0), $(5_00)]);
    expect(section(p, "chart").chart!.series).toEqual(["January 2026 to March 2026", "October 2025 to December 2025"]);
    expect(section(p, "chart").chart!.groups.find((g) => g.label === "Total assets")).toEqual({ label: "Total assets", values: [closing.balanceSheet.totalAssets, 77_00], texts: [$(closing.balanceSheet.totalAssets), $(77_00)] });
  });

  it("totals the income statement from its lines and gives the engine's profit and its attribution", () => {
    const p = packOf();
    const i = closing.incomeStatement;
    const sum = (ls: { amount: number }[]) => ls.reduce((s, l) => s + l.amount, 0);
    expect(rowOf(p, "income-statement", "Total revenue").cells).toEqual([$(sum(i.revenue))]);
    expect(rowOf(p, "income-statement", "Total expenses").cells).toEqual([$(sum(i.expenses))]);
    expect(rowOf(p, "income-statement", "Net income").cells).toEqual([$(i.netIncome)]);
    expect(rowOf(p, "income-statement", "Attributable to non-controlling interests").cells).toEqual([$(i.attributableToNci)]);
    expect(rowOf(p, "income-statement", "Attributable to owners of the parent").cells).toEqual([$(i.attributableToParent)]);
    expect(section(p, "chart").chart!.series).toEqual(["January 2026 to March 2026"]);
  });

  it("lays the cash flow out by activity and says it reconciles; a statement that cannot be computed is a sentence saying why", () => {
    const p = packOf();
    const labels = section(p, "cash-flow").tables[0]!.rows.map((r) => r.label);
    expect(labels).toEqual([
      "Operating activities",
      "Profit for the period",
      "Depreciation",
      "Accounts receivable",
      "Net cash from operating activities",
      "Investing activities",
      "Equipment",
      "Net cash from investing activities",
      "Financing activities",
      "Net cash from financing activities",
      "Net change in cash",
      "Effect of exchange-rate changes on cash",
      "Cash at the start of the period",
      "Cash at the end of the period",
    ]);
    expect(rowOf(p, "cash-flow", "Cash at the end of the period").cells).toEqual(["$2,512.34"]);
    expect(rowOf(p, "cash-flow", "Accounts receivable").cells).toEqual(["($300.00)"]);
    expect(section(p, "cash-flow").notes).toEqual(["Reconciles: opening cash $2,000.00 + net change $500.00 + exchange effect $12.34 = closing cash $2,512.34."]);
    const missing = packOf({ cashFlow: { missing: "The statement of cash flows cannot be computed for this period: no rate for GBP 2026-03." } });
    expect(section(missing, "cash-flow")).toMatchObject({ tables: [], notes: ["The statement of cash flows cannot be computed for this period: no rate for GBP 2026-03."] });
  });

  it("shows the changes in equity in the columns that hold an amount, with the balance sheet and the difference under them", () => {
    const p = packOf();
    const t = section(p, "equity").tables[0]!;
    expect(t.columns[0]).toBe("");
    expect(t.columns.at(-1)).toBe("Total equity");
    expect(t.columns).toContain("Non-controlling interests");
    expect(t.columns).not.toContain("Share capital"); // the example's group holds none outside the parent's: zero throughout
    expect(t.rows.map((r) => r.label)).toEqual([...equity.rows, equity.balanceSheet, equity.difference].map((r) => r.label));
    expect(t.rows.at(-1)!.cells.every((c) => c === "$0.00")).toBe(true);
    expect(section(p, "equity").notes).toEqual(["Reconciles: the closing balances equal the balance sheet's equity in every column."]);
  });

  it("lists the rates used by currency and month, and explains each subsidiary's CTA month by month", () => {
    const e = closing.entities.find((x) => x.method === "currentRate")!;
    const p = packOf({
      rates: [
        { currency: "GBP", month: "2026-02", average: "1.26", closing: "1.27" },
        { currency: "EUR", month: "2026-02", average: "1.08", closing: "1.09" },
        { currency: "GBP", month: "2026-01", average: "1.25", closing: "1.26" },
      ],
      cta: [{ name: e.name, currency: e.currency, months: e.ctaExplanation.months, total: e.ctaExplanation.total }],
    });
    expect(section(p, "fx-rates").tables[0]!.rows.map((r) => [r.label, ...r.cells])).toEqual([
      ["EUR February 2026", "1.08", "1.09"],
      ["GBP January 2026", "1.25", "1.26"],
      ["GBP February 2026", "1.26", "1.27"],
    ]);
    const cta = section(p, "cta").tables[0]!;
    expect(cta.caption).toBe(`${e.name} (${e.currency})`);
    expect(cta.rows).toHaveLength(e.ctaExplanation.months.length + 1);
    const total = cta.rows.at(-1)!;
    expect(total).toMatchObject({ kind: "total", label: "Period" });
    expect(total.cells.at(-1)).toBe($(e.ctaExplanation.total.change));
    expect(total.cells.at(-1)).toBe($(e.cta.change));
    const none = packOf();
    expect(section(none, "fx-rates").notes).toEqual(["Every company of the group reports in the parent's currency: no rates were needed."]);
    expect(section(none, "cta").notes[0]).toMatch(/^No subsidiary is translated with the current-rate method/);
  });

  it("takes QuickBooks names as text: control characters become spaces, a long name is cut with an ellipsis, formula-like text stays text", () => {
    expect(cleanLabel("Cash\r\n\t(Main)\u0000")).toBe("Cash (Main)");
    const long = "A".repeat(150);
    expect(cleanLabel(long)).toHaveLength(LABEL_MAX);
    expect(cleanLabel(long).endsWith("…")).toBe(true);
    expect(cleanLabel("=HYPERLINK(\"http://x\")")).toBe("=HYPERLINK(\"http://x\")");
    expect(cleanLabel("Ünïcødé – 東京")).toBe("Ünïcødé – 東京");
    const b = { ...closing.balanceSheet, assets: [{ account: "x", name: `Bank\n${long}`, amount: 1 }, ...closing.balanceSheet.assets] };
    const p = packOf({ groupName: "Basil\u0007 Group", balanceSheet: b });
    expect(p.groupName).toBe("Basil Group");
    expect(section(p, "balance-sheet").tables[0]!.rows[1]!.label).toBe(`Bank ${"A".repeat(LABEL_MAX - 6)}…`);
  });
});
