import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";
import { consolidate, parseConsolidationInput } from "../consolidation/consolidate.ts";
import { type SegmentBalanceAmounts, type SegmentBalanceSheet, type SegmentClosingBalance, segmentBalanceSheet } from "./segments.ts";

/**
 * The balance sheet by segment (IFRS 8.23, 8.28(c)-(d); ASC 280-10-50-25, 50-30(c)-(d)) over the
 * documented example nci-80-intercompany (US parent, 80 % UK subsidiary in GBP, closing rate 1.30
 * at 31 December 2024; the UK's receivable of £40,000 from the parent, which owes $52,000). The
 * segment figures are derived here from the example's own balances and rates, not published.
 * Amounts in cents.
 */
function sheetOf(balances: SegmentClosingBalance[]): SegmentBalanceSheet {
  const input = parseConsolidationInput(loadExample("nci-80-intercompany"));
  return segmentBalanceSheet({ output: consolidate(input), balances });
}
const bal = (entity: string, account: string, segment: string, amount: number): SegmentClosingBalance => ({ entity, account, segment, amount });
const sum = (a: SegmentBalanceAmounts): number => a.segments.reduce((s, v) => s + v, 0) + a.unallocated + a.eliminations + a.group;
const rowOf = (s: SegmentBalanceSheet, account: string) => [...s.assets, ...s.liabilities, ...s.equity].find((r) => r.account === account)!;

const CLOSING: SegmentClosingBalance[] = [
  // The parent's cash: $200,000 wholesale (lower case), the rest untagged; its payable to the UK Wholesale.
  bal("p", "cash", "wholesale", 200_000_00),
  bal("p", "due-to", "Wholesale", -52_000_00),
  // The UK's bank: £300,000.33 Wholesale (× 1.30 = 390,000.429: rounds to 390,000.43), £100,000 Retail.
  bal("uk", "1000", "Wholesale", 300_000_33),
  bal("uk", "1000", "Retail", 100_000_00),
  // Its receivable from the parent: Wholesale.
  bal("uk", "1200", "Wholesale", 40_000_00),
  // A class on equity (QuickBooks' class-filtered balance sheet has one): not split.
  bal("uk", "3000", "Retail", -400_000_00),
];

describe("the balance sheet by segment", () => {
  const s = sheetOf(CLOSING);
  const output = consolidate(parseConsolidationInput(loadExample("nci-80-intercompany")));
  const bs = output.balanceSheet;

  it("is as at the period's last month, with the segments matched by name across companies", () => {
    expect(s.asAt).toBe(output.period.to);
    expect(s.segments.map((c) => c.name)).toEqual(["Retail", "wholesale"]);
    expect(s.warnings).toEqual([]);
  });

  it("translates each company's segment balances at the closing rate; No class holds the rest and the rounding", () => {
    const cash = rowOf(s, "cash");
    // Parent $527,300 ($200,000 wholesale) + UK £560,000 × 1.30 = $728,000.
    expect(cash.segments).toEqual([130_000_00, 200_000_00 + 390_000_43]);
    expect(cash.unallocated).toBe(327_300_00 + 728_000_00 - 130_000_00 - 390_000_43);
    expect(cash.eliminations).toBe(0);
    expect(cash.total).toBe(bs.assets.find((l) => l.account === "cash")!.amount);
  });

  it("shows the intra-group balances in their segments and their elimination in its own column", () => {
    const receivable = rowOf(s, "due-from");
    expect(receivable.segments).toEqual([0, 52_000_00]);
    expect(receivable.eliminations).toBe(-52_000_00);
    expect(receivable.total).toBe(0);
    const payable = rowOf(s, "due-to");
    expect(payable.segments).toEqual([0, 52_000_00]);
    expect(payable.eliminations).toBe(-52_000_00);
    expect(payable.total).toBe(0);
  });

  it("leaves equity wholly in No class (a class on share capital included), the investment's elimination, goodwill and NCI in Group", () => {
    for (const r of s.equity) expect(r.segments.every((v) => v === 0)).toBe(true);
    expect(rowOf(s, "investment").group).toBe(-rowOf(s, "investment").unallocated);
    expect(rowOf(s, "investment").total).toBe(0);
    const nci = rowOf(s, "nci");
    expect(nci.group).toBe(bs.nonControllingInterests);
    expect(nci.total).toBe(bs.nonControllingInterests);
    // Goodwill $60,000 at acquisition and its $2,400 exchange difference (IAS 21.47): the investment entry's.
    expect(rowOf(s, "goodwill")).toMatchObject({ unallocated: 0, eliminations: 0, group: 62_400_00, total: 62_400_00 });
  });

  it("adds up to the consolidated balance sheet to the cent, row by row and in total, and balances", () => {
    expect(s.reconciles).toBe(true);
    for (const r of [...s.assets, ...s.liabilities, ...s.equity]) expect(sum(r)).toBe(r.total);
    for (const l of bs.assets) expect(rowOf(s, l.account).total).toBe(l.amount);
    for (const l of bs.liabilities) expect(rowOf(s, l.account).total).toBe(l.amount);
    for (const l of bs.equity) expect(rowOf(s, l.account).total).toBe(l.amount);
    expect(s.totalAssets.total).toBe(bs.totalAssets);
    expect(s.totalLiabilities.total).toBe(bs.totalLiabilities);
    expect(s.totalEquity.total).toBe(bs.totalEquity + bs.nonControllingInterests);
    expect(s.totalLiabilitiesAndEquity.total).toBe(s.totalAssets.total);
    for (const t of [s.totalAssets, s.totalLiabilities, s.totalEquity, s.totalLiabilitiesAndEquity]) expect(sum(t)).toBe(t.total);
    expect(s.totalAssets.segments).toEqual([130_000_00, 200_000_00 + 390_000_43 + 52_000_00]);
    expect(s.totalLiabilities.segments).toEqual([0, 52_000_00]);
  });

  it("with no segment balances: one No class column equal to the consolidated one, less eliminations and group", () => {
    const empty = sheetOf([]);
    expect(empty.segments).toEqual([]);
    expect(empty.reconciles).toBe(true);
    expect(rowOf(empty, "cash").unallocated).toBe(rowOf(empty, "cash").total);
  });

  it("says so, and leaves out, balances on an account the consolidation has no line for", () => {
    const odd = sheetOf([bal("uk", "9999", "Retail", 1_00)]);
    expect(odd.warnings).toEqual([expect.stringContaining("account 9999 of UK Sub Ltd")]);
    expect(odd.reconciles).toBe(true);
  });
});

describe("the balance sheet by segment under the temporal method", () => {
  it("translates a segment's non-monetary balance at the line's historical rate (IAS 21.23(b); Beams E14-4: Singa's buildings)", () => {
    const output = consolidate(parseConsolidationInput(loadExample("beams-e14-4-temporal")));
    const line = output.entities.find((e) => e.id === "singa")!.lines.find((l) => l.account === "bldg")!;
    expect(line.basis).toBe("historical");
    // A third of the buildings' local balance in one class: a third of the translated line.
    const s = segmentBalanceSheet({ output, balances: [bal("singa", "bldg", "Plant", line.local / 3)] });
    const row = rowOf(s, line.parentAccount);
    expect(row.segments).toEqual([line.translated / 3]);
    expect(row.unallocated + row.segments[0]!).toBe(line.translated);
    expect(s.reconciles).toBe(true);
    expect(s.warnings).toEqual([]);
  });
});

describe("every documented example's balance sheet by segment reconciles to the cent", () => {
  const dir = new URL("../../../../docs/examples/", import.meta.url);
  const names = readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5));
  it.each(names)("%s: each entity's asset and liability lines split in half by one class", (name) => {
    const output = consolidate(parseConsolidationInput(loadExample(name)));
    const balances = output.entities.flatMap((e) =>
      e.lines.filter((l) => l.account !== null && l.special === null && (l.classification === "Asset" || l.classification === "Liability")).map((l) => bal(e.id, l.account!, "Half", Math.trunc(l.local / 2))),
    );
    const s = segmentBalanceSheet({ output, balances });
    expect(s.reconciles, name).toBe(true);
    for (const r of [...s.assets, ...s.liabilities, ...s.equity]) expect(sum(r), `${name} ${r.name}`).toBe(r.total);
    expect(s.totalLiabilitiesAndEquity.total).toBe(s.totalAssets.total);
  });
});
