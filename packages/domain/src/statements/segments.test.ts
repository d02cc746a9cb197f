import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";
import { DECEMBER, dec } from "../../test/segment-examples.ts";
import { consolidate, parseConsolidationInput } from "../consolidation/consolidate.ts";
import type { ConsolidationInputJson } from "../consolidation/input-schema.ts";
import { type SegmentActivity, type SegmentAmounts, type SegmentStatement, segmentKey, segmentStatement } from "./segments.ts";

/**
 * The P&L by segment (IFRS 8.28(b), ASC 280-10-50-30(b)) over the documented example
 * nci-80-intercompany (US parent, 80 % UK subsidiary in GBP, intra-group sales of £50,000 the
 * parent booked as $63,500 of purchases; December 2024 at an average of 1.28): the segment
 * figures are derived here from the example's own figures and rates, not published.
 * Amounts in cents.
 */
function statementOf(activity: SegmentActivity[], tweak?: (json: ConsolidationInputJson) => void): { s: SegmentStatement; netIncome: number } {
  const json = structuredClone(loadExample("nci-80-intercompany"));
  tweak?.(json);
  const input = parseConsolidationInput(json);
  const output = consolidate(input);
  return { s: segmentStatement({ output, rates: input.rates, activity }), netIncome: output.incomeStatement.netIncome };
}
const sum = (a: SegmentAmounts): number => a.segments.reduce((s, v) => s + v, 0) + a.unallocated + a.eliminations + a.otherAdjustments;
const rowOf = (s: SegmentStatement, account: string) => [...s.revenue, ...s.expenses].find((r) => r.account === account)!;


describe("segments by name across companies", () => {
  const { s, netIncome } = statementOf(DECEMBER);

  it("matches 'wholesale ' at the parent and 'Wholesale' in the UK into one segment, and says who holds what", () => {
    expect(s.segments.map((c) => c.name)).toEqual(["Retail", "wholesale"]);
    expect(s.segments[1]!.members).toEqual([
      { entity: "p", entityName: "US Parent Inc.", name: "wholesale " },
      { entity: "uk", entityName: "UK Sub Ltd", name: "Wholesale" },
    ]);
    expect(segmentKey("  Retail   Stores ")).toBe(segmentKey("retail stores"));
  });

  it("translates each company's segment at the engine's rate: sales $70,000 + £150,000 × 1.28 wholesale, £60,000 × 1.28 retail, the rest unallocated", () => {
    const sales = rowOf(s, "sales");
    expect(sales.segments).toEqual([76_800_00, 262_000_00]);
    expect(sales.unallocated).toBe(30_000_00 + 51_200_00);
    expect(sales.eliminations).toBe(0);
    expect(sales.total).toBe(420_000_00);
  });

  it("puts the intra-group sales and purchases in the Eliminations column, leaving the consolidated line", () => {
    const icSales = rowOf(s, "ic-sales");
    expect(icSales.segments).toEqual([0, 64_000_00]);
    expect(icSales.eliminations).toBe(-64_000_00);
    expect(icSales.total).toBe(0);
    const icPurchases = rowOf(s, "ic-purchases");
    expect(icPurchases.segments).toEqual([0, 63_500_00]);
    expect(icPurchases.eliminations).toBe(-63_500_00);
    expect(icPurchases.total).toBe(0);
    // The $500 difference the pair leaves goes to the designated FX account: an elimination too.
    expect(rowOf(s, "fx").eliminations).not.toBe(0);
  });

  it("keeps the rounding of a segment's translation in the unallocated column: £80,000.33 × 1.28 = $102,400.42 retail, $153,599.58 unallocated", () => {
    const opex = rowOf(s, "opex");
    expect(opex.segments).toEqual([102_400_42, 0]);
    expect(opex.unallocated).toBe(256_000_00 - 102_400_42);
    expect(opex.total).toBe(256_000_00);
  });

  it("adds up to the consolidated P&L to the cent on every line and in net income, with no other adjustments", () => {
    for (const r of [...s.revenue, ...s.expenses]) expect(sum(r), r.name).toBe(r.total);
    expect(sum(s.netIncome)).toBe(netIncome);
    expect(s.netIncome.total).toBe(netIncome);
    expect(s.hasOtherAdjustments).toBe(false);
    expect(s.reconciles).toBe(true);
    expect(s.warnings).toEqual([]);
  });
});

describe("a period of several months: each month's segment activity at that month's average rate", () => {
  // £100,000 of the UK's sales moved from December into November, whose average rate is 1.20
  // (the cash and the year's profit in retained earnings with it, so November's books balance);
  // all of November's are Wholesale.
  const tweak = (json: ConsolidationInputJson): void => {
    const uk = json.entities.find((e) => e.id === "uk")!;
    const balance = (account: string) => (uk.balances as { account: string; amounts: number[] }[]).find((b) => b.account === account)!;
    balance("4000").amounts[10] = -10_000_000;
    balance("4000").amounts[11] = -15_000_000;
    balance("1000").amounts[11] = 60_000_000;
    balance("3100").amounts[11] = -20_000_000;
    (json.rates as Record<string, Record<string, { average: string; closing: string }>>)["GBP"]!["2024-11"] = { average: "1.20", closing: "1.25" };
  };
  const { s, netIncome } = statementOf(
    [
      { entity: "uk", account: "4000", segment: "Wholesale", month: "2024-11", amount: -100_000_00 },
      dec("uk", "4000", "Wholesale", -50_000_00),
      dec("uk", "4000", "Retail", -60_000_00),
      // Outside the period: ignored.
      { entity: "uk", account: "4000", segment: "Retail", month: "2023-11", amount: -1_000_00 },
    ],
    tweak,
  );

  it("translates November's £100,000 at 1.20 and December's £50,000 at 1.28: $184,000 wholesale", () => {
    const sales = rowOf(s, "sales");
    expect(sales.segments).toEqual([76_800_00, 184_000_00]);
    expect(sales.total).toBe(100_000_00 + 120_000_00 + 150_000_00 * 1.28);
    expect(sum(sales)).toBe(sales.total);
    expect(sum(s.netIncome)).toBe(netIncome);
    expect(s.reconciles).toBe(true);
  });
});

describe("activity the statement cannot place", () => {
  it("warns about segment amounts on an account outside the consolidated P&L, and leaves them out", () => {
    const { s } = statementOf([dec("uk", "1000", "Retail", 5_00)]);
    expect(s.warnings).toEqual([expect.stringContaining("account 1000 of UK Sub Ltd")]);
    expect(s.segments.map((c) => c.name)).toEqual(["Retail"]);
    expect(s.netIncome.segments).toEqual([0]);
    expect(s.reconciles).toBe(true);
  });

  it("with no segments at all: every company's line is unallocated", () => {
    const { s, netIncome } = statementOf([]);
    expect(s.segments).toEqual([]);
    expect(s.netIncome.unallocated + s.netIncome.eliminations).toBe(netIncome);
  });
});

describe("a subsidiary acquired during the period (Kaplan FR Lobster / Crab, mid-year)", () => {
  const input = parseConsolidationInput(loadExample("kaplan-fr-lobster-crab-mid-year"));
  const output = consolidate(input);
  const entry = output.eliminations.find((e) => e.id === "pre-acquisition:crab")!;
  const first = String(entry.details["firstMonthConsolidated"]);
  const before = String(entry.details["acquisitionMonth"]);
  const s = segmentStatement({
    output,
    rates: input.rates,
    activity: [
      { entity: "crab", account: "revenue", segment: "Seafood", month: before, amount: -1_000_00 },
      { entity: "crab", account: "revenue", segment: "Seafood", month: first, amount: -2_000_00 },
    ],
  });

  it("counts its segments for the months of control only, and its months before in none of the columns", () => {
    expect(entry.lines.some((l) => l.account === "revenue")).toBe(true);
    expect(before >= output.period.from && before < first).toBe(true);
    expect(s.revenue.find((r) => r.account === "revenue")!.segments).toEqual([2_000_00]);
  });

  it("keeps the entry leaving out its months before control out of the Eliminations column (it is the company's line for the months of control)", () => {
    const column = output.worksheet.columns.findIndex((c) => c.id === "eliminations");
    for (const row of [...s.revenue, ...s.expenses]) {
      const w = output.worksheet.rows.find((x) => x.account === row.account)!;
      const sign = w.classification === "Revenue" ? -1 : 1;
      const preAcquisition = entry.lines.filter((l) => l.account === row.account).reduce((a, l) => a + l.amount, 0);
      expect(row.eliminations, row.name).toBe(sign * (w.amounts[column]! - preAcquisition) || 0);
      expect(sum(row), row.name).toBe(row.total);
    }
    expect(s.reconciles).toBe(true);
    expect(s.hasOtherAdjustments).toBe(false);
    expect(sum(s.netIncome)).toBe(output.incomeStatement.netIncome);
  });
});
