import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";
import { consolidate, parseConsolidationInput } from "../consolidation/consolidate.ts";
import type { ConsolidationOutput } from "../consolidation/output-schema.ts";
import { changesInEquity, type ChangesInEquity, type EquityRowKind } from "./changes-in-equity.ts";
import { investmentCosts, openingBalanceInput } from "./changes-in-equity-opening.ts";

/**
 * The consolidated statement of changes in equity through the engine (IAS 1.106, IFRS 10 B94,
 * IAS 21.39/41; ASC 810-10-50-1A, ASC 220). Worked examples: docs/engine.md, "Statement of
 * changes in equity". Amounts in cents, credit positive.
 */
function statementOf(name: string, tamper?: (closing: ConsolidationOutput) => void, period?: { from: string; to: string }): ChangesInEquity {
  const input = parseConsolidationInput({ ...loadExample(name), ...(period ? { period } : {}) });
  const closing = consolidate(input);
  const opening = consolidate(parseConsolidationInput(openingBalanceInput(input, closing.period.from, investmentCosts(closing))));
  tamper?.(closing);
  return changesInEquity(input, opening, closing);
}
const row = (s: ChangesInEquity, kind: EquityRowKind) => s.rows.find((r) => r.kind === kind)!.amounts;

describe("Kaplan CIMA F2 Examples 18.1/18.2 'Basil' / 'Manuel' (80% foreign subsidiary, NCI at fair value): the year 20X8", () => {
  const s = statementOf("kaplan-f2-basil-manuel-foreign-nci");

  it("attributes the year's profit as published: $6,400, of which NCI $160 (W2) and owners $6,240", () => {
    expect(row(s, "profit")).toMatchObject({ retainedEarnings: 6_240_00, nci: 160_00, total: 6_400_00 });
  });

  it("shows the year's exchange differences, $4,467 (W3: 3,680 on net assets + 787 on goodwill), in the translation reserve and the NCI", () => {
    const t = row(s, "translation");
    // The book rounds goodwill at the opening rate to whole dollars; the engine keeps cents: $4,466.67.
    expect(Math.round(t.total / 100)).toBe(4_467);
    expect(t.total).toBe(4_466_67);
    // Derived: the NCI's 20% of 3,680 (736) and of the goodwill difference 786.67 (157.33).
    expect(t.nci).toBe(893_33);
    expect(t.translationReserve).toBe(3_573_34);
    // Published: total comprehensive income 10,867 (page 446), to the dollar.
    expect(Math.round(row(s, "comprehensiveIncome").total / 100)).toBe(10_867);
  });

  it("closes at the published NCI $2,664 (W4) and parent reserves $23,776 (W5), equal to the balance sheet", () => {
    const closing = row(s, "closing");
    expect(closing.nci).toBe(2_664_00);
    // Basil's share capital is not in the pages read, so the parent's equity is its reserves.
    expect(closing.parent).toBe(23_776_00);
    expect(closing.retainedEarnings + closing.translationReserve).toBe(23_776_00);
    expect(s.balanceSheet.amounts).toEqual(closing);
    expect(s.reconciles).toBe(true);
    expect(Object.values(s.difference.amounts).every((v) => v === 0)).toBe(true);
  });

  it("opens at the consolidated balance sheet of 31 December 20X7 (derived: not in the pages read)", () => {
    // Reserves 10,400 + 80% of Manuel's post-acquisition retained earnings and the translation
    // reserve at the end of 20X7; the NCI 2,664 − 160 − 893.33.
    expect(row(s, "opening")).toMatchObject({ retainedEarnings: 11_440_00, translationReserve: 2_522_66, nci: 1_610_67 });
    expect(s.openingMonth).toBe("2017-12");
  });
});

describe("Kaplan ACCA FR Example 1 'Prince' / 'Sheena' (75% acquired 1 April 20X3, NCI at fair value): the year to 31 March 20X4", () => {
  const s = statementOf("kaplan-fr-prince-sheena");

  it("attributes total comprehensive income as published: owners $135,150, NCI $13,750, total $148,900", () => {
    // lgqf page401: "Owners of parent (balancing figure) 135,150; Non-controlling interest (W4)
    // 13,750; 148,900"; W4: "NCI share of profit: $54,000 × 25% 13,500; NCI share of TCI: $55,000 × 25% 13,750".
    expect(row(s, "comprehensiveIncome")).toMatchObject({ parent: 135_150_00, nci: 13_750_00, total: 148_900_00 });
    expect(row(s, "profit")).toMatchObject({ retainedEarnings: 131_900_00, nci: 13_500_00 });
    // Sheena's revaluation gain of $1,000, 25% to the NCI; Prince's own $2,500.
    expect(row(s, "otherComprehensiveIncome")).toMatchObject({ otherReserves: 3_250_00, nci: 250_00 });
  });

  it("recognises the NCI at acquisition in the year (1 April 20X3) and its dividend, and reconciles", () => {
    // Derived: the NCI's fair value $30,000 and dividend 25% × $4,000 are encoded, not in the pages read.
    expect(row(s, "acquisitions").nci).toBe(30_000_00);
    expect(row(s, "dividends").nci).toBe(-1_000_00);
    expect(row(s, "closing").nci).toBe(42_750_00);
    expect(s.reconciles).toBe(true);
  });
});

describe("A / B (B$, 80%, NCI at fair value, other comprehensive income): the year to 30 September 2010", () => {
  // Answer published at expertsmind.com/questions/consolidated-statement-of-comprehensive-income-30172622.aspx
  // (A$000): W2 goodwill B$400 (2,600 + 600 − 1,000 − 1,800) at A$/B$0.50, 0.71 and 0.63; W4 "FOREX
  // gain on translation of subsidiary's net assets 731" (7,143 − 5,535 − 877), "Plus FOREX gain on
  // translation of goodwill 72", "Total 803"; W5 "Subsidiary's PFY/TCI 692 / 877; 20% share 138 /
  // 175; FOREX gain (20% × A$803,000) 161; 138 / 336"; W7 "NCI on acquisition 1,200; share of
  // post-acquisition reserves (20% × 1,543) 309; share of net FOREX losses on goodwill
  // (20% × (237 − 72)) (33); NCI at 30 September 2010 1,476". Encoding: docs/engine.md.
  const s = statementOf("acca-a-b-foreign-nci-comprehensive-income");
  const toUnit = (cents: number) => Math.round(cents / 100);

  it("the year's exchange differences: 731 on net assets and 72 on goodwill (W4)", () => {
    const input = parseConsolidationInput(loadExample("acca-a-b-foreign-nci-comprehensive-income"));
    const out = consolidate(input);
    expect(toUnit(out.entities.find((e) => e.id === "b")!.cta.change)).toBe(731);
    expect(toUnit(Number(out.eliminations[0]!.details.ctaOnGoodwillInPeriodCreditPositive))).toBe(72);
    // The book's total, 803, adds its two rounded parts; the engine's is 802.26.
    expect(row(s, "translation").total).toBe(802_26);
  });

  it("the NCI's share of profit 138 and of total comprehensive income 336 (W5), its balance 1,476 (W7)", () => {
    expect(toUnit(row(s, "profit").nci)).toBe(138);
    expect(toUnit(row(s, "comprehensiveIncome").nci)).toBe(336);
    // 20% of B's own total comprehensive income (877): 175.
    expect(toUnit(row(s, "profit").nci + row(s, "otherComprehensiveIncome").nci)).toBe(175);
    // 20% of the exchange differences: the book's 161 is 20% of its rounded 803; the engine's 20% of 802.26.
    expect(row(s, "translation").nci).toBe(160_45);
    expect(toUnit(row(s, "closing").nci)).toBe(1_476);
    expect(s.reconciles).toBe(true);
  });
});

describe("periods that share a roll-forward anchor", () => {
  it.each(["kaplan-f2-basil-manuel-foreign-nci", "nci-80-intercompany", "two-year-rollforward"])("%s: a half-year's closing is the next half-year's opening, and the two add up to the year", (name) => {
    const year = statementOf(name);
    const { from, to } = year.period;
    const mid = `${from.slice(0, 4)}-06`;
    const first = statementOf(name, undefined, { from, to: mid });
    const second = statementOf(name, undefined, { from: `${from.slice(0, 4)}-07`, to });
    expect(first.reconciles && second.reconciles).toBe(true);
    // The second half opens from the previous month's consolidation itself (no shifted opening).
    expect(row(second, "opening")).toEqual(row(first, "closing"));
    expect(row(first, "opening")).toEqual(row(year, "opening"));
    expect(row(second, "closing")).toEqual(row(year, "closing"));
  });
});

describe("every worked example", () => {
  // The engine's examples: the JSON files of docs/examples itself (its folders hold other statements' examples).
  const names = readdirSync(new URL("../../../../docs/examples/", import.meta.url))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.replace(/\.json$/, ""));

  it.each(names.filter((n) => n !== "hamlen-starfruit-fair-value-nci"))("%s: the closing row equals the balance sheet in every column", (name) => {
    const s = statementOf(name);
    expect(s.difference.amounts).toEqual({ shareCapital: 0, retainedEarnings: 0, translationReserve: 0, otherReserves: 0, parent: 0, nci: 0, total: 0 });
    expect(s.reconciles).toBe(true);
  });

  it("Starfruit: shows, not absorbs, the cent the NCI's share of fair-value releases rounds to differently at the opening", () => {
    // The engine rounds the NCI's share of the releases before a period once; the opening
    // consolidation rounds the months before December 2016 and December itself apart.
    const s = statementOf("hamlen-starfruit-fair-value-nci");
    expect(s.difference.amounts).toMatchObject({ retainedEarnings: 1, nci: -1, total: 0 });
    expect(s.reconciles).toBe(false);
  });

  it("a movement the engine did not give shows as a difference (nothing is plugged)", () => {
    // Drop the NCI's share of the year's exchange differences from the period's figures.
    const s = statementOf("kaplan-f2-basil-manuel-foreign-nci", (closing) => {
      closing.nci[0]!.cta -= 100;
    });
    expect(s.reconciles).toBe(false);
    // The whole exchange difference then goes to the owners: both columns show the dollar.
    expect(s.difference.amounts).toMatchObject({ translationReserve: -100, nci: 100, total: 0 });
  });
});
