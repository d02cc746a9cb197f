import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";

import { cumulativeRelease } from "./fair-value.ts";
import type { ConsolidationInputJson } from "./input-schema.ts";
import { type ConsolidationOutput } from "./output-schema.ts";
import { nciSumOfParts, run, problems, consolidatedAmount as row } from "../../test/engine.ts";

/**
 * Fair-value adjustments at acquisition. Figures are hand-computed on the two Kaplan examples in
 * docs/examples (P/S, domestic, 80%; Basil/Manuel, € subsidiary, 80%, NCI at fair value) with an
 * adjustment added; the published examples are in published-examples.test.ts. Amounts are cents.
 */
const investment = (out: ConsolidationOutput) => out.eliminations.find((e) => e.kind === "investment")!;
type Investment = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["investments"]>[number];
const rule = (input: ConsolidationInputJson): Investment => input.eliminations!.investments![0]!;

/** P (USD) owns 80% of S: S's net assets 1,030,000 at acquisition (2019-12); the period is December 2020. */
function domestic(adjustment: Partial<NonNullable<Investment["fairValueAdjustments"]>[number]> = {}): ConsolidationInputJson {
  const input = loadExample("kaplan-f1-nci-proportionate");
  input.entities[0]!.accounts.push({ id: "depreciation", name: "Depreciation", classification: "Expense" });
  rule(input).fairValueAdjustments = [{ id: "plant", kind: "ppe", assetAccount: "ppe", amount: 120_000_00, usefulLifeMonths: 60, expenseAccount: "depreciation", ...adjustment }];
  return input;
}

describe("cumulative release", () => {
  it("is straight-line by month, rounded once half away from zero, and adds up to exactly the amount", () => {
    expect([0, 1, 2, 3].map((k) => cumulativeRelease(100, 3, k))).toEqual([0, 33, 67, 100]);
    expect([1, 2, 3].map((k) => cumulativeRelease(-100, 3, k))).toEqual([-33, -67, -100]);
    // 5 × 1/2 = 2.5 → 3; −2.5 → −3.
    expect(cumulativeRelease(5, 2, 1)).toBe(3);
    expect(cumulativeRelease(-5, 2, 1)).toBe(-3);
    expect(cumulativeRelease(100, 3, 40)).toBe(100);
    expect(cumulativeRelease(100, "indefinite", 40)).toBe(0);
    for (const [amount, life] of [[1_000_001, 7], [-333, 120], [9_007_199_254_740_991, 37]] as const) {
      let sum = 0;
      for (let k = 1; k <= life; k++) sum += cumulativeRelease(amount, life, k) - cumulativeRelease(amount, life, k - 1);
      expect(sum).toBe(amount);
    }
  });
});

describe("fair-value adjustments of a subsidiary in the reporting currency", () => {
  it("are part of the net assets acquired: goodwill and a proportionate NCI move with them", () => {
    const out = run(domestic());
    // Net assets 1,030,000 + 120,000; NCI 20% = 230,000; goodwill 1,540,000 + 230,000 − 1,150,000.
    expect(investment(out).details).toMatchObject({ bookNetAssetsAtAcquisition: 1_030_000_00, fairValueAdjustmentsAtAcquisition: 120_000_00, netAssetsAtAcquisition: 1_150_000_00, nciAtAcquisition: 230_000_00, goodwillAtAcquisition: 620_000_00 });
  });

  it("release month by month after the acquisition: earlier months out of opening retained earnings and the NCI, the period's as an expense shared through the NCI's profit", () => {
    const out = run(domestic());
    // 120,000 over 60 months = 2,000 a month; January to November 2020 before the period.
    expect(investment(out).details).toMatchObject({ fairValueReleasedBeforePeriod: 22_000_00, fairValueReleasedInPeriod: 2_000_00, fairValueReleasedNciShareBeforePeriod: 4_400_00, fairValueCarryingAmount: 96_000_00 });
    expect(row(out, "depreciation")).toBe(2_000_00);
    expect(row(out, "ppe")).toBe((3_880_000 + 96_000) * 100);
    expect(investment(out).lines).toEqual(expect.arrayContaining([{ account: "re", name: "Retained earnings", amount: 22_000_00 - 4_400_00 }, { account: "nci", name: "Non-controlling interest", amount: 4_400_00 }]));
    // The NCI: 230,000 + 20% × 80,000 − 4,400 + 20% × (0 − 2,000).
    expect(out.nci[0]).toMatchObject({ atAcquisition: 230_000_00, retainedEarningsSinceAcquisition: 16_000_00, fairValueReleasedBeforePeriod: 4_400_00, netIncome: -400_00, fairValueCta: 0, closing: 241_200_00 });
    expect(out.incomeStatement).toMatchObject({ netIncome: -2_000_00, attributableToNci: -400_00, attributableToParent: -1_600_00 });
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("a write-down (negative amount) works the other way round", () => {
    const out = run(domestic({ amount: -60_000_00 }));
    expect(investment(out).details).toMatchObject({ netAssetsAtAcquisition: 970_000_00, goodwillAtAcquisition: 1_540_000_00 + 194_000_00 - 970_000_00, fairValueReleasedBeforePeriod: -11_000_00, fairValueReleasedInPeriod: -1_000_00 });
    expect(row(out, "depreciation")).toBe(-1_000_00);
    expect(out.nci[0]!.netIncome).toBe(200_00);
  });

  it("inventory sold over one month is wholly released in the month after the acquisition", () => {
    const out = run(domestic({ kind: "inventory", assetAccount: "ca", usefulLifeMonths: 1 }));
    expect(investment(out).details).toMatchObject({ fairValueReleasedBeforePeriod: 120_000_00, fairValueReleasedInPeriod: 0, fairValueCarryingAmount: 0 });
    expect(row(out, "ca")).toBe(1_690_000_00);
  });

  it("land (indefinite) is never released", () => {
    const out = run(domestic({ usefulLifeMonths: "indefinite" }));
    expect(investment(out).details).toMatchObject({ fairValueReleasedBeforePeriod: 0, fairValueReleasedInPeriod: 0, fairValueCarryingAmount: 120_000_00 });
    expect(row(out, "depreciation")).toBe(0);
  });

  it("several adjustments are shown one by one and in total", () => {
    const input = domestic();
    rule(input).fairValueAdjustments!.push({ id: "brand", description: "Brand", kind: "intangible", assetAccount: "ppe", amount: 36_000_00, usefulLifeMonths: 36, expenseAccount: "depreciation" });
    const d = investment(run(input)).details;
    expect(d).toMatchObject({ fairValueAdjustmentsAtAcquisition: 156_000_00, fairValueReleasedInPeriod: 3_000_00, "fairValue[plant].releasedInPeriod": 2_000_00, "fairValue[brand].releasedInPeriod": 1_000_00, "fairValue[brand].carryingAmount": 24_000_00 });
  });

  it("cost nothing when there are none: the details and figures are those of the rule without them", () => {
    const without = loadExample("kaplan-f1-nci-proportionate");
    const withEmpty = structuredClone(without);
    rule(withEmpty).fairValueAdjustments = [];
    expect(run(withEmpty)).toEqual(run(without));
    expect(Object.keys(investment(run(without)).details).some((k) => k.startsWith("fairValue"))).toBe(false);
  });
});

describe("fair-value adjustments of a foreign operation (IAS 21.47, ASC 830-30-45-11)", () => {
  /** Basil ($) owns 80% of Manuel (€), acquired 2016-12 at $0.20; the books open 2017-12 at 1/3; 2018's average 0.4, closing 0.5. */
  function foreign(life: number): ConsolidationInputJson {
    const input = loadExample("kaplan-f2-basil-manuel-foreign-nci");
    input.entities[0]!.accounts.push({ id: "ppe-fv", name: "Property (fair-value uplift)", classification: "Asset" });
    // The months between the acquisition and the books' opening month need their rates too.
    for (let m = 1; m <= 11; m++) input.rates!.EUR![`2017-${String(m).padStart(2, "0")}`] = { average: "0.25", closing: "0.25" };
    rule(input).fairValueAdjustments = [{ id: "property", kind: "ppe", assetAccount: "ppe-fv", amount: 2_400_00, usefulLifeMonths: life, expenseAccount: "opex" }];
    return input;
  }

  it("is carried in euros: each month's release at that month's average rate, what remains at the closing rate, the difference in the CTA shared with the NCI", () => {
    const out = run(foreign(24));
    const d = investment(out).details;
    // €2,400 at 0.2 = $480; €100 a month: 11 × €100 at 0.25 + €100 at 1/3 = 275 + 33.33 before 2018;
    // in 2018 11 × 33.33 + €100 at 0.4 = 406.63. Nothing remains at the end of 2018, so the CTA is
    // 0 − (480 − 308.33 − 406.63) = 234.96; at the end of 2017 €1,200 at 1/3 = 400 − 171.67 = 228.33.
    expect(d).toMatchObject({
      fairValueAdjustmentsAtAcquisition: 480_00,
      fairValueReleasedBeforePeriod: 308_33,
      fairValueReleasedInPeriod: 406_63,
      fairValueCarryingAmount: 0,
      ctaOnFairValueAdjustmentsCreditPositive: 234_96,
      ctaOnFairValueAdjustmentsInPeriodCreditPositive: 6_63,
      ctaOnFairValueAdjustmentsNciShare: 46_99,
      "fairValue[property].carryingAmountLocal": 0,
    });
    // Goodwill (NCI at fair value $720): 3,360 + 720 − (3,040 + 480) = $560 = €2,800.
    expect(d).toMatchObject({ netAssetsAtAcquisition: 3_520_00, goodwillAtAcquisition: 560_00, goodwillLocal: 2_800_00 });
    expect(row(out, "ppe-fv")).toBe(0);
    // The NCI: 20% of the earlier releases (61.67) and of the CTA (46.99); its profit share
    // 20% × (1,120 − 320 − 406.63) = 78.67.
    expect(out.nci[0]).toMatchObject({ fairValueReleasedBeforePeriod: 61_67, fairValueCta: 46_99, netIncome: 78_67 });
    const n = out.nci[0]!;
    expect(n.closing).toBe(nciSumOfParts(n));
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("what remains is the local remainder at the closing rate", () => {
    const out = run(foreign(120));
    // €20 a month; 24 months released by the end of 2018: €1,920 remain at 0.5.
    expect(investment(out).details).toMatchObject({ "fairValue[property].carryingAmountLocal": 1_920_00, fairValueCarryingAmount: 960_00 });
    expect(row(out, "ppe-fv")).toBe(960_00);
  });

  it("needs the rates of the months released before the books open", () => {
    const input = foreign(24);
    delete input.rates!.EUR!["2017-05"];
    expect(problems(input)).toEqual(['$.rates.EUR["2017-05"]: give the average rate of EUR for 2017-05: Manuel\'s fair-value adjustment "property" is translated at it']);
  });

  it("under the temporal method stays at the acquisition rate, with no exchange difference", () => {
    const input = foreign(24);
    const manuel = input.entities[1]!;
    manuel.method = "temporal";
    manuel.accounts.find((a) => a.id === "net")!.monetary = true;
    const d = investment(run(input)).details;
    // Every month at 0.2: 12 × 20 before, 12 × 20 in the period.
    expect(d).toMatchObject({ fairValueReleasedBeforePeriod: 240_00, fairValueReleasedInPeriod: 240_00, fairValueCarryingAmount: 0 });
    expect(d.ctaOnFairValueAdjustmentsCreditPositive).toBeUndefined();
  });
});

describe("fair-value adjustments: bad input names the field", () => {
  it("refuses an adjustment with no life, a zero life, a fractional life, or a zero amount", () => {
    const input = domestic();
    delete (rule(input).fairValueAdjustments![0] as { usefulLifeMonths?: unknown }).usefulLifeMonths;
    expect(problems(input)).toEqual(['$.eliminations.investments[0].fairValueAdjustments[0].usefulLifeMonths: give the months over which the adjustment is depreciated, amortised or (inventory) sold: a whole number of at least 1, or "indefinite" for land or an indefinite-lived intangible']);
    expect(problems(domestic({ usefulLifeMonths: 0 }))).toEqual(['$.eliminations.investments[0].fairValueAdjustments[0].usefulLifeMonths: must be at least 1 month: an adjustment is released from the month after the acquisition (or say "indefinite")']);
    expect(problems(domestic({ usefulLifeMonths: 1.5 }))[0]).toMatch(/usefulLifeMonths: must be a whole number of months/);
    expect(problems(domestic({ amount: 0 }))).toEqual(["$.eliminations.investments[0].fairValueAdjustments[0].amount: must not be zero (an adjustment of nothing has nothing to book)"]);
  });

  it("refuses an asset account that is not a parent Asset and an expense account that is not a parent Expense", () => {
    expect(problems(domestic({ assetAccount: "depreciation", expenseAccount: "ppe" }))).toEqual([
      '$.eliminations.investments[0].fairValueAdjustments[0].assetAccount: "depreciation" is a Expense account of the parent: the adjustment must show on a parent Asset account',
      '$.eliminations.investments[0].fairValueAdjustments[0].expenseAccount: "ppe" is a Asset account of the parent: its depreciation, amortisation or release must go to a parent Expense account',
    ]);
    expect(problems(domestic({ assetAccount: "nope" }))).toEqual(['$.eliminations.investments[0].fairValueAdjustments[0].assetAccount: "nope" is not an account of the parent: the adjustment must show on a parent Asset account']);
  });

  it("refuses an id used twice", () => {
    const input = domestic();
    rule(input).fairValueAdjustments!.push({ ...rule(input).fairValueAdjustments![0]! });
    expect(problems(input)).toEqual(['$.eliminations.investments[0].fairValueAdjustments[1].id: adjustment id "plant" is used twice']);
  });
});
