import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { carryInvestmentAt, groupArb } from "../../test/arbitraries.ts";
import { formatMonth, parseMonth } from "../periods/month.ts";

import { quarter } from "../../test/quarter-group.ts";
import { type ConsolidationOutput } from "./output-schema.ts";
import { columnsSumToZero, eliminationsBalance, run, problems } from "../../test/engine.ts";

/**
 * Mid-year acquisitions (IFRS 10.20 and B88, IFRS 3.8, ASC 805-10-25-6, ASC 810-10-45-4): a
 * subsidiary acquired inside the period is consolidated from the month after its acquisition
 * month. The published example (Kaplan's Lobster / Crab) is in published-examples.test.ts; here a
 * hand-checked quarter pins each rule down. Amounts are cents.
 */

const row = (out: ConsolidationOutput, account: string, column = -1) => out.worksheet.rows.find((r) => r.account === account)!.amounts.at(column)!;
const elimination = (out: ConsolidationOutput, kind: string) => out.eliminations.find((e) => e.kind === kind);

describe("mid-year acquisition of a foreign subsidiary (80%, acquired at the end of February)", () => {
  const out = run(quarter());

  it("leaves January's and February's results out of the group's profit, against retained earnings", () => {
    // Pre-acquisition: 2 × (€300 − €100): sales 300 × 1.15 + 300 × 1.25 = $720, costs $240, profit $480.
    const pre = elimination(out, "preAcquisition")!;
    expect(pre.details).toMatchObject({ acquisitionMonth: "2025-02", firstMonthConsolidated: "2025-03", preAcquisitionMonths: 2, preAcquisitionProfitLocal: 400_00, preAcquisitionProfitCreditPositive: 480_00 });
    expect(pre.lines).toEqual(
      expect.arrayContaining([
        { account: "sales", name: "Sales", amount: 720_00 },
        { account: "costs", name: "Costs", amount: -240_00 },
        { account: "re", name: "Retained earnings", amount: -480_00 },
      ]),
    );
    // Group: P's 300 + S's March only (€300 × 1.35 − €100 × 1.35 = $270).
    expect(row(out, "sales")).toBe(-(300_00 + 405_00));
    expect(row(out, "costs")).toBe(135_00);
    expect(out.incomeStatement).toMatchObject({ netIncome: 570_00, attributableToNci: 54_00, attributableToParent: 516_00 });
    columnsSumToZero(out);
  });

  it("measures equity, goodwill and the NCI at the acquisition month's translated figures", () => {
    // Equity at 2025-02: capital $1,100 + RE (230 + 250) $480 + CTA $240 = €1,400 × 1.30 = $1,820.
    // NCI 20% × 1,820 = 364; goodwill 1,600 + 364 − 1,820 = $144 = €110.77 at 1.30, $155.08 at 1.40.
    expect(elimination(out, "investment")!.details).toMatchObject({
      acquisitionMonth: "2025-02",
      netAssetsAtAcquisition: 1_820_00,
      nciAtAcquisition: 364_00,
      goodwillAtAcquisition: 144_00,
      goodwillLocal: 110_77,
      goodwillCarryingAmount: 155_08,
      ctaOnGoodwillCreditPositive: 11_08,
      // Goodwill did not exist at the period's start: all its exchange difference is the period's.
      ctaOnGoodwillInPeriodCreditPositive: 11_08,
    });
    expect(row(out, "goodwill")).toBe(155_08);
    // S's retained earnings and capital leave the worksheet entirely (all pre-acquisition).
    expect(row(out, "capital")).toBe(-10_000_00);
  });

  it("keeps only the CTA that arose after the acquisition, shared with the NCI", () => {
    // CTA(Mar) = €1,600 × 1.40 − 1,100 − 750 = 390; CTA(Feb) = 240: $150 since the acquisition, $120 the parent's.
    expect(out.entities[1]!.cta.closing).toBe(390_00);
    expect(out.nci[0]).toMatchObject({ atAcquisition: 364_00, netIncome: 54_00, cta: 30_00, retainedEarningsSinceAcquisition: 0, closing: 448_00 });
    expect(row(out, "cta")).toBe(-(120_00 + 11_08));
    // The NCI is 20% of S's translated net assets: €1,600 × 1.40 × 20%.
    expect(out.balanceSheet.nonControllingInterests).toBe(448_00);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("gives the same balance sheet as consolidating only the months after the acquisition", () => {
    const later = quarter({ acquisitionMonth: "2025-02" });
    later.period = { month: "2025-03" };
    const after = run(later);
    expect(out.balanceSheet.assets).toEqual(after.balanceSheet.assets);
    expect(out.balanceSheet.totalEquity).toBe(after.balanceSheet.totalEquity);
    expect(out.balanceSheet.nonControllingInterests).toBe(after.balanceSheet.nonControllingInterests);
    expect(out.incomeStatement.attributableToNci).toBe(after.incomeStatement.attributableToNci);
    // The group's profit differs by the parent's own January and February only.
    expect(out.incomeStatement.netIncome - after.incomeStatement.netIncome).toBe(200_00);
    expect(elimination(after, "preAcquisition")).toBeUndefined();
  });
});

describe("mid-year acquisition: dividends, the last month, the temporal method, stated equity", () => {
  it("treats dividends declared before the acquisition as part of the equity acquired", () => {
    const out = run(quarter({ dividends: { "2025-01": 50_00, "2025-03": 100_00 } }));
    const pre = elimination(out, "preAcquisition")!;
    // January's dividend (€50 at January's average 1.15 = $57.50) leaves the dividends row for retained earnings.
    expect(pre.details).toMatchObject({ preAcquisitionDividendsLocal: 50_00, preAcquisitionDividends: 57_50 });
    expect(pre.lines).toContainEqual({ account: "div", name: "Dividends", amount: -57_50 });
    // Only March's €100 × 1.35 stays; the NCI takes 20% of it.
    expect(out.nci[0]).toMatchObject({ dividends: 27_00 });
    expect(row(out, "div")).toBe(135_00 - 27_00);
    columnsSumToZero(out);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("eliminates only the dividends declared after the acquisition against the parent's income", () => {
    const input = quarter({ dividends: { "2025-01": 50_00, "2025-03": 100_00 } });
    input.eliminations!.dividends = [{ id: "div", subsidiary: "s", incomeAccount: "div-income", parentAmount: 108_00 }];
    const out = run(input);
    // 80% of €100 = €80 at 1.35 = $108: no difference.
    expect(out.eliminations.find((e) => e.kind === "dividend")!.details).toMatchObject({ dividendsLocal: 100_00, dividendsTranslated: 135_00, parentShare: 108_00, fxDifferenceCreditPositive: 0 });
  });

  it("consolidates only the balance sheet of a subsidiary acquired in the period's last month", () => {
    const out = run(quarter({ acquisitionMonth: "2025-03", cost: 2_000_00 }));
    expect(elimination(out, "preAcquisition")!.details).toMatchObject({ preAcquisitionMonths: 3, preAcquisitionProfitCreditPositive: 750_00 });
    expect(out.incomeStatement).toMatchObject({ netIncome: 300_00, attributableToNci: 0 });
    // €1,600 × 1.40 = $2,240 acquired; the NCI is its 20% and nothing since.
    expect(elimination(out, "investment")!.details).toMatchObject({ netAssetsAtAcquisition: 2_240_00, goodwillAtAcquisition: 208_00, ctaOnGoodwillCreditPositive: 0 });
    expect(out.nci[0]).toMatchObject({ atAcquisition: 448_00, closing: 448_00, cta: 0, netIncome: 0 });
    expect(row(out, "cta")).toBe(0);
    columnsSumToZero(out);
  });

  it("leaves out a temporal subsidiary's pre-acquisition remeasurement result with its other results", () => {
    const out = run(quarter({ method: "temporal" }));
    // Temporal: cash is monetary, capital historical. The remeasurement of each month lands on fx.
    const pre = elimination(out, "preAcquisition")!;
    const fxLine = pre.lines.find((l) => l.account === "fx");
    expect(fxLine).toBeDefined();
    // What stays on fx is March's remeasurement only.
    const march = run({ ...quarter({ method: "temporal" }), period: { month: "2025-03" } });
    expect(row(out, "fx")).toBe(row(march, "fx"));
    expect(out.incomeStatement.attributableToNci).toBe(march.incomeStatement.attributableToNci);
    columnsSumToZero(out);
  });

  it("takes a stated equity at acquisition as given, the rest of retained earnings at acquisition being the NCI's and the group's", () => {
    const input = quarter({ currency: "USD", cost: 1_200_00 });
    // S (USD) at February: capital 1,000 + RE 400 = 1,400; stated: 1,000 + 300.
    input.eliminations!.investments![0]!.equityAtAcquisition = [{ account: "capital", amount: -1_000_00 }, { account: "re", amount: -300_00 }];
    const out = run(input);
    expect(elimination(out, "investment")!.details).toMatchObject({ netAssetsAtAcquisition: 1_300_00, nciAtAcquisition: 260_00, goodwillAtAcquisition: 160_00 });
    // The 100 between the stated and the books' retained earnings at acquisition is treated as post-acquisition.
    expect(out.nci[0]).toMatchObject({ retainedEarningsSinceAcquisition: 20_00, netIncome: 40_00 });
    expect(out.balanceSheet.balanced).toBe(true);
    columnsSumToZero(out);
  });

  it("refuses an acquisition after the period and books nothing extra for one before it", () => {
    expect(problems(quarter({ acquisitionMonth: "2025-04" }))).toEqual(["$.eliminations.investments[0].acquisitionMonth: the acquisition must not be after the period's last month (2025-03)"]);
    const before = run(quarter({ acquisitionMonth: "2024-12", cost: 2_000_00 }));
    expect(elimination(before, "preAcquisition")).toBeUndefined();
    // P's 300 and all three of S's months: (345 − 115) + (375 − 125) + (405 − 135).
    expect(before.incomeStatement.netIncome).toBe(300_00 + 230_00 + 250_00 + 270_00);
  });
});

describe("mid-year acquisition properties (random groups)", () => {
  it("every column sums to zero and the balance sheet equals that of consolidating only the months after the acquisition", () => {
    fc.assert(
      fc.property(
        groupArb({ maxSubsidiaries: 2 }).filter(({ months }) => months >= 3),
        fc.nat(),
        ({ input, months }, pick) => {
          const k = 1 + (pick % (months - 2)); // acquired at month k: 1 … months − 2, so at least one month follows it
          const acquisitionMonth = formatMonth(parseMonth("2023-12") + k);
          const base = structuredClone(input);
          base.eliminations!.intercompany = [];
          base.eliminations!.investments = base.entities
            .filter((e) => e.role === "subsidiary")
            .map((e, i) => ({ id: `inv${i}`, subsidiary: e.id, investmentAccount: "investment", cost: 10_000_000_000, acquisitionMonth, goodwillTranslation: i % 2 ? "historical" : "closing" }));
          const total = base.eliminations!.investments.length * 10_000_000_000;
          carryInvestmentAt(base, total);
          const full = run(base);
          columnsSumToZero(full);
          eliminationsBalance(full);
          const later = run({ ...base, period: { from: formatMonth(parseMonth(acquisitionMonth) + 1), to: full.period.to } });
          expect(full.balanceSheet.assets).toEqual(later.balanceSheet.assets);
          expect(full.balanceSheet.liabilities).toEqual(later.balanceSheet.liabilities);
          expect(full.balanceSheet.totalEquity).toBe(later.balanceSheet.totalEquity);
          expect(full.balanceSheet.nonControllingInterests).toBe(later.balanceSheet.nonControllingInterests);
          expect(full.nci).toEqual(later.nci);
          expect(full.incomeStatement.attributableToNci).toBe(later.incomeStatement.attributableToNci);
          expect(full.balanceSheet.balanced).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
