import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";
import { DECEMBER, dec } from "../../test/segment-examples.ts";
import { consolidate, parseConsolidationInput } from "../consolidation/consolidate.ts";
import type { ConsolidationInputJson } from "../consolidation/input-schema.ts";
import { monthList } from "../periods/month.ts";
import type { CashFlowClass } from "./cash-flow-classes.ts";
import { consolidatedCashFlow } from "./cash-flow.ts";
import { changesInEquity } from "./changes-in-equity.ts";
import { investmentCosts, openingBalanceInput } from "./changes-in-equity-opening.ts";
import { type SegmentActivity, segmentBalanceSheet, segmentStatement } from "./segments.ts";
import {
  SEGMENT_TRANSFERS,
  type SegmentCashAmounts,
  type SegmentCashFlow,
  type SegmentChangesInEquity,
  type SegmentMonthEnd,
  segmentCashFlow,
  segmentChangesInEquity,
  segmentMovements,
  withoutIntraGroupEliminations,
} from "./segments-cash-flow.ts";

/**
 * The statement of cash flows and the changes in equity by segment (IAS 7.50(d); IFRS 8.23, 8.28;
 * ASC 280-10-50-30) over the documented example nci-80-intercompany for December 2024 (US parent,
 * 80 % UK subsidiary in GBP: closing 1.25 at November's end, 1.30 at December's, December's
 * average 1.28), with the classes of the P&L and balance-sheet-by-segment examples
 * (segments.test.ts, segments-balance-sheet.test.ts). The segment figures are derived by hand
 * from the example's figures and rates, not published (docs/engine.md, "Segments"). Amounts in cents.
 */
const CLASSES: Record<string, CashFlowClass> = { cash: "cash" };

function build(json: ConsolidationInputJson, activity: readonly SegmentActivity[], balances: readonly SegmentMonthEnd[], classes: Record<string, CashFlowClass> = CLASSES) {
  const classOf = (a: string) => classes[a];
  const statement = (j: ConsolidationInputJson) => {
    const input = parseConsolidationInput({ ...j, period: { month: "2024-12" } });
    const closing = consolidate(input);
    const opening = consolidate(parseConsolidationInput({ ...j, period: { month: "2024-11" } }));
    return { input, closing, opening, cf: consolidatedCashFlow({ input, opening, closing, classOf }) };
  };
  const total = statement(json);
  const companies = statement(withoutIntraGroupEliminations(json));
  const profit = segmentStatement({ output: total.closing, rates: total.input.rates, activity });
  const movements = segmentMovements({ input: total.input, opening: total.opening, closing: total.closing, balances, activity, classOf });
  const cashFlow = segmentCashFlow({ movements, profit, total: total.cf, companies: companies.cf, closing: total.closing });
  // The statement of changes in equity's own opening consolidation (changes-in-equity.ts).
  const start = consolidate(parseConsolidationInput(openingBalanceInput(total.input, "2024-12", investmentCosts(total.closing))));
  const soce = changesInEquity(total.input, start, total.closing);
  const at = (month: string) => balances.filter((b) => b.month === month);
  const openingSheet = segmentBalanceSheet({ output: start, balances: at("2024-11") });
  const closingSheet = segmentBalanceSheet({ output: total.closing, balances: at("2024-12") });
  const equity = segmentChangesInEquity({ statement: soce, movements, profit, openingSheet, closingSheet });
  return { total, companies, movements, cashFlow, soce, equity, openingSheet, closingSheet };
}
const ends = (entity: string, account: string, segment: string, from: string, to: string, amount: number): SegmentMonthEnd[] =>
  monthList(from, to).map((month) => ({ entity, account, segment, month, amount }));
const added = (a: SegmentCashAmounts): number => a.segments.reduce((s, v) => s + v, 0) + a.unallocated + a.eliminations;
const rowsOf = (s: SegmentCashFlow) => [s.operating.profit, ...s.operating.adjustments, ...s.operating.workingCapital, s.operating.total, ...s.investing.lines, s.investing.total, ...s.financing.lines, s.financing.total, s.netCashFlow, s.exchangeEffect, s.openingCash, s.closingCash];
const lineOf = (s: SegmentCashFlow, account: string) => [...s.operating.adjustments, ...s.operating.workingCapital, ...s.investing.lines, ...s.financing.lines].find((l) => l.account === account)!;
const equityRow = (s: SegmentChangesInEquity, kind: string) => s.rows.find((r) => r.kind === kind)!;

// The balance sheet example's December month-end (segments-balance-sheet.test.ts), and November's:
// £200,000 of the UK's £500,000 bank Wholesale.
const MONTH_ENDS: SegmentMonthEnd[] = [
  ...ends("uk", "1000", "Wholesale", "2024-11", "2024-11", 200_000_00),
  ...ends("uk", "1000", "Wholesale", "2024-12", "2024-12", 300_000_33),
  ...ends("uk", "1000", "Retail", "2024-12", "2024-12", 100_000_00),
  ...ends("uk", "1200", "Wholesale", "2024-12", "2024-12", 40_000_00),
  ...ends("p", "cash", "wholesale", "2024-12", "2024-12", 200_000_00),
  ...ends("p", "due-to", "Wholesale", "2024-12", "2024-12", -52_000_00),
  // A class on equity: not split.
  ...ends("uk", "3000", "Retail", "2024-11", "2024-12", -400_000_00),
];

describe("the statement of cash flows by segment (derived example)", () => {
  const { cashFlow: s, total } = build(loadExample("nci-80-intercompany"), DECEMBER, MONTH_ENDS);

  it("has the consolidated statement as its total column, to the cent", () => {
    expect(s.segments.map((c) => c.name)).toEqual(["Retail", "wholesale"]);
    expect(s.operating.profit.total).toBe(total.cf.operating.profit);
    expect(s.operating.total.total).toBe(total.cf.operating.total);
    expect(s.investing.total.total).toBe(total.cf.investing.total);
    expect(s.financing.total.total).toBe(total.cf.financing.total);
    expect(s.netCashFlow.total).toBe(total.cf.netCashFlow);
    expect(s.exchangeEffect.total).toBe(total.cf.exchangeEffect.total);
    expect(s.openingCash.total).toBe(total.cf.openingCash);
    expect(s.closingCash.total).toBe(total.cf.closingCash);
    for (const l of [...total.cf.operating.adjustments, ...total.cf.operating.workingCapital, ...total.cf.investing.lines, ...total.cf.financing.lines]) expect(lineOf(s, l.account).total).toBe(l.amount);
  });

  it("starts each segment from its profit and moves it by its own balances at the months' average rates", () => {
    expect(s.operating.profit.segments).toEqual([-25_600_42, 262_500_00]);
    // The UK's £40,000 receivable from the parent, Wholesale: £40,000 × 1.28 = $51,200 out; the parent's $52,000 payable in.
    expect(lineOf(s, "due-from")).toMatchObject({ segments: [0, -51_200_00], unallocated: 0, eliminations: 51_200_00, total: 0 });
    expect(lineOf(s, "due-to")).toMatchObject({ segments: [0, 52_000_00], unallocated: 0, eliminations: -52_000_00, total: 0 });
    // The pair's exchange difference is the consolidation's: in the Eliminations column.
    expect(lineOf(s, "(intra-group differences)")).toMatchObject({ segments: [0, 0], unallocated: 0, eliminations: 800_00, total: 800_00 });
  });

  it("computes the IAS 7.28 effect on each segment's cash from its cash at its company's rates, by the consolidated statement's rule", () => {
    // Wholesale: the UK's £200,000 → £300,000.33: (200,000 × (1.30 − 1.25) = 10,000) + (100,000.33 × (1.30 − 1.28) = 2,000.0066 → 2,000.01
    // as 390,000.43 − 250,000 − 128,000.42); the parent's dollars none. Retail: £100,000 × (1.30 − 1.28) = $2,000.
    expect(s.exchangeEffect.segments).toEqual([2_000_00, 12_000_01]);
    expect(s.openingCash.segments).toEqual([0, 250_000_00]);
    expect(s.closingCash.segments).toEqual([130_000_00, 590_000_43]);
  });

  it("moves what the segment's profit and balances do not explain of its cash to 'net transfers', carried back in the unallocated column", () => {
    // Wholesale: 590,000.43 − 250,000 − 12,000.01 − (262,500 − 51,200 + 52,000) = 64,700.42; Retail: 130,000 − 2,000 + 25,600.42.
    const transfers = lineOf(s, SEGMENT_TRANSFERS);
    expect(transfers).toMatchObject({ segments: [153_600_42, 64_700_42], unallocated: -218_300_84, eliminations: 0, total: 0 });
  });

  it("adds up every row across and reconciles every column's opening to closing cash", () => {
    for (const r of rowsOf(s)) expect(added(r)).toBe(r.total);
    expect(s.difference).toEqual({ segments: [0, 0], unallocated: 0, eliminations: 0, total: 0 });
    // No class: $815,000 + ($291,900.42) + $12,199.99 = $535,299.57 (the balance sheet by segment's No class cash).
    expect(s.openingCash.unallocated + s.netCashFlow.unallocated + s.exchangeEffect.unallocated).toBe(s.closingCash.unallocated);
    expect(s.closingCash.unallocated).toBe(535_299_57);
    // The eliminations move no cash: every flow they take out is put back on another row.
    expect([s.netCashFlow.eliminations, s.exchangeEffect.eliminations, s.openingCash.eliminations, s.closingCash.eliminations]).toEqual([0, 0, 0, 0]);
    expect(s.reconciles).toBe(true);
    expect(s.warnings).toEqual([]);
  });

  it("gives each segment the cash of the balance sheet by segment at both ends", () => {
    const { openingSheet, closingSheet } = build(loadExample("nci-80-intercompany"), DECEMBER, MONTH_ENDS);
    const cashOf = (sheet: typeof closingSheet) => sheet.assets.find((r) => r.account === "cash")!.segments;
    expect(s.openingCash.segments).toEqual(cashOf(openingSheet));
    expect(s.closingCash.segments).toEqual(cashOf(closingSheet));
  });
});

describe("segment balances the consolidation has no line for", () => {
  it("are named in a warning and left in the unallocated column; equity tagged with a class is not split", () => {
    const stray = [...MONTH_ENDS, ...ends("uk", "9999", "Retail", "2024-12", "2024-12", 5_000_00)];
    const { cashFlow, movements } = build(loadExample("nci-80-intercompany"), DECEMBER, stray);
    expect(cashFlow.warnings).toEqual(["Segment balances on account 9999 of UK Sub Ltd are not on a translated balance-sheet line of the consolidation; they are in the unallocated column."]);
    expect(cashFlow.reconciles).toBe(true);
    // The UK's share capital carries Retail in the books: no flow, no net assets of Retail's.
    expect(movements.openingNetAssets).toEqual([0, 250_000_00]);
  });
});

describe("the statement of changes in equity by segment (derived example)", () => {
  const { equity: e, soce, closingSheet, openingSheet } = build(loadExample("nci-80-intercompany"), DECEMBER, MONTH_ENDS);

  it("has the consolidated statement's total equity in its total column, to the cent", () => {
    const total = (kind: string) => soce.rows.find((r) => r.kind === kind)?.amounts.total ?? 0;
    expect(equityRow(e, "opening").total).toBe(total("opening"));
    expect(equityRow(e, "profit").total).toBe(total("profit"));
    expect(equityRow(e, "otherComprehensiveIncome").total).toBe(total("translation") + total("otherComprehensiveIncome"));
    expect(equityRow(e, "closing").total).toBe(total("closing"));
    expect(equityRow(e, "transfers").total).toBe(0);
  });

  it("rolls each segment's net assets by its profit, the translation of its net assets and its net transfers", () => {
    // Wholesale: 250,000 + 262,500 + (12,000.01 on cash + 800 on the receivable) + 64,700.42 = 590,000.43.
    expect(equityRow(e, "opening").segments).toEqual([0, 250_000_00]);
    expect(equityRow(e, "profit").segments).toEqual([-25_600_42, 262_500_00]);
    expect(equityRow(e, "otherComprehensiveIncome").segments).toEqual([2_000_00, 12_800_01]);
    expect(equityRow(e, "transactionsWithOwners").segments).toEqual([0, 0]);
    expect(equityRow(e, "transfers").segments).toEqual([153_600_42, 64_700_42]);
    expect(equityRow(e, "closing").segments).toEqual([130_000_00, 590_000_43]);
  });

  it("has as net assets the balance sheet by segment's assets less liabilities, and the same net transfers as the cash flow", () => {
    const net = (sheet: typeof closingSheet) => sheet.totalAssets.segments.map((a, i) => a - sheet.totalLiabilities.segments[i]!);
    expect(equityRow(e, "opening").segments).toEqual(net(openingSheet));
    expect(equityRow(e, "closing").segments).toEqual(net(closingSheet));
    expect(equityRow(e, "closing").eliminations).toBe(closingSheet.totalAssets.eliminations - closingSheet.totalLiabilities.eliminations);
  });

  it("adds up every row and reconciles every column", () => {
    for (const r of e.rows) expect(added(r)).toBe(r.total);
    expect(e.reconciles).toBe(true);
    expect(e.balanceSheetDifference).toBe(0);
  });
});

describe("any split of the books into segments", () => {
  // Each company's month-end balances and December activity split among three classes at random
  // (any sign, any part), the rest untagged: the columns add up to the consolidated statements.
  const entries: [string, string, number][] = [
    ["uk", "1000", 0],
    ["uk", "1200", 0],
    ["p", "cash", 0],
    ["p", "due-to", 0],
  ];
  const plLines: [string, string][] = [
    ["uk", "4000"],
    ["uk", "5000"],
    ["uk", "4100"],
    ["p", "sales"],
    ["p", "ic-purchases"],
  ];
  const names = ["North", "south", "East "];
  const amount = fc.integer({ min: -100_000_000, max: 100_000_000 });
  const split = fc.record({ nov: fc.array(fc.tuple(fc.nat(2), amount), { maxLength: 3 }), dec: fc.array(fc.tuple(fc.nat(2), amount), { maxLength: 3 }) });
  it("adds up row by row to the consolidated cash flow and changes in equity, and every column reconciles", () => {
    fc.assert(
      fc.property(fc.array(split, { minLength: entries.length, maxLength: entries.length }), fc.array(fc.array(fc.tuple(fc.nat(2), amount), { maxLength: 2 }), { minLength: plLines.length, maxLength: plLines.length }), (splits, pl) => {
        const balances: SegmentMonthEnd[] = entries.flatMap(([entity, account], k) => [
          ...splits[k]!.nov.map(([i, v]) => ({ entity, account, segment: names[i]!, month: "2024-11", amount: v })),
          ...splits[k]!.dec.map(([i, v]) => ({ entity, account, segment: names[i]!, month: "2024-12", amount: v })),
        ]);
        const activity = plLines.flatMap(([entity, account], k) => pl[k]!.map(([i, v]) => dec(entity, account, names[i]!, v)));
        const { cashFlow, equity, total, soce } = build(loadExample("nci-80-intercompany"), activity, balances);
        for (const r of [...rowsOf(cashFlow), ...equity.rows]) expect(added(r)).toBe(r.total);
        expect(cashFlow.netCashFlow.total).toBe(total.cf.netCashFlow);
        expect(cashFlow.closingCash.total).toBe(total.cf.closingCash);
        expect(equityRow(equity, "closing").total).toBe(soce.rows.find((r) => r.kind === "closing")!.amounts.total);
        expect(cashFlow.reconciles).toBe(true);
        expect(equity.reconciles).toBe(true);
        // The two statements agree on each segment's net transfers.
        const transfers = cashFlow.financing.lines.find((l) => l.account === SEGMENT_TRANSFERS)?.segments ?? cashFlow.segments.map(() => 0);
        expect(equityRow(equity, "transfers").segments).toEqual(transfers);
      }),
      { numRuns: 25 },
    );
  });
});
