import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { carryInvestmentAt, groupArb } from "../../test/arbitraries.ts";
import { quarter, type QuarterOptions } from "../../test/quarter-group.ts";
import { formatMonth, parseMonth } from "../periods/month.ts";

import type { ConsolidationInputJson } from "./input-schema.ts";
import { type ConsolidationOutput } from "./output-schema.ts";
import { columnsSumToZero, eliminationsBalance, run, problems, consolidatedAmount as row } from "../../test/engine.ts";

/**
 * Disposal of a whole subsidiary (IFRS 10.25 and B97-B99, ASC 810-10-40-4/40-5) with the CTA
 * recycled (IAS 21.48, ASC 830-30-40-1). Published examples (Kaplan's Paul / Simenon, the
 * German parent's Swiss subsidiary) are in published-examples.test.ts; here the quarter of
 * test/quarter-group.ts (P owns 80% of S, a euro subsidiary) is sold and every figure hand-checked.
 * Amounts are cents.
 */

const byId = (out: ConsolidationOutput, id: string) => out.eliminations.find((e) => e.id === id);

type Disposal = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["disposals"]>[number];
/** The quarter, S acquired at the opening month-end (December, $1,600 for 80%) unless said, sold for $2,000 at the end of `month`. */
function sold(month: string, booking: "gain" | "investment" | "removed" = "gain", o: QuarterOptions = {}, rule: Partial<Disposal> = {}): ConsolidationInputJson {
  const input = quarter({ acquisitionMonth: "2024-12", ...o, sale: { month, proceeds: 2_000_00, booking } });
  input.eliminations!.disposals = [
    {
      id: "sale",
      subsidiary: "s",
      month,
      proceeds: 2_000_00,
      gainAccount: "disposal-gain",
      ...(booking === "investment" ? { proceedsAccount: "investment" } : {}),
      ...(booking === "removed" ? { investmentRemovedByParent: true } : {}),
      ...rule,
    },
  ];
  return input;
}

describe("disposal of a foreign subsidiary during the period (80%, sold at the end of February)", () => {
  const out = run(sold("2025-02"));
  const sale = byId(out, "sale")!;

  it("consolidates its results up to the disposal month only", () => {
    // March's €300 − €100 at 1.35 leaves with the balances after the disposal.
    expect(byId(out, "after-disposal:s")!.details).toMatchObject({ disposalMonth: "2025-02", postDisposalProfitCreditPositive: 270_00 });
    // P's 300 + S's January and February (345 − 115 + 375 − 125) + the gain of 16 (below).
    expect(row(out, "sales")).toBe(-(300_00 + 345_00 + 375_00));
    expect(row(out, "costs")).toBe(115_00 + 125_00);
    expect(out.incomeStatement).toMatchObject({ netIncome: 796_00, attributableToNci: 96_00 });
    columnsSumToZero(out);
  });

  it("measures the gain as proceeds + NCI − net assets − goodwill at the disposal date, then recycles the parent's CTA", () => {
    // Net assets €1,400 × 1.30 = $1,820; goodwill 1,600 + 20% × 1,100 − 1,100 = $720 = €654.55,
    // $850.92 at 1.30; NCI 20% × 1,820 = $364: 2,000 + 364 − 1,820 − 850.92 = −306.92.
    // CTA recycled: 80% of S's $240 since the acquisition + goodwill's 130.92 = 322.92: a gain of $16.
    expect(sale.details).toMatchObject({
      disposalMonth: "2025-02",
      proceeds: 2_000_00,
      netAssetsAtDisposal: 1_820_00,
      goodwillAtDisposal: 850_92,
      nciAtDisposal: 364_00,
      gainBeforeRecyclingCreditPositive: -306_92,
      ctaRecycledCreditPositive: 322_92,
      ctaNciShareDerecognised: 48_00,
      gainCreditPositive: 16_00,
    });
    expect(row(out, "disposal-gain")).toBe(-16_00);
    // Over its life the investment made 2,000 − 1,600 = 400: 80% of S's profit to the disposal (384) + 16.
    expect(0.8 * 480_00 + 16_00).toBe(400_00);
  });

  it("leaves nothing of S on the balance sheet: no net assets, goodwill, NCI or translation reserve", () => {
    expect(out.balanceSheet.assets).toEqual([{ account: "cash", name: "Cash", amount: 10_300_00 - 1_600_00 + 2_000_00 }]);
    expect(out.balanceSheet.nonControllingInterests).toBe(0);
    expect(row(out, "goodwill")).toBe(0);
    expect(row(out, "cta")).toBe(0);
    expect(row(out, "nci")).toBe(0);
    expect(out.nci[0]).toMatchObject({ closing: 0, derecognisedOnDisposal: 364_00, netIncome: 96_00, cta: 48_00 });
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("gives the same group however the parent booked the sale", () => {
    for (const booking of ["investment", "removed"] as const) {
      const other = run(sold("2025-02", booking));
      expect(other.balanceSheet).toEqual(out.balanceSheet);
      expect(other.incomeStatement).toEqual(out.incomeStatement);
      columnsSumToZero(other);
    }
  });
});

describe("disposal: at the period's end, after a mid-year acquisition, with reserves, wholly owned", () => {
  it("books no post-disposal entry for a sale at the period's end and measures everything at its closing rate", () => {
    const out = run(sold("2025-03"));
    expect(byId(out, "after-disposal:s")).toBeUndefined();
    // €1,600 × 1.40 = 2,240; goodwill €654.55 × 1.40 = 916.37; NCI 20% × 2,240 = 448; CTA since acquisition 390.
    // 2,000 + 448 − 2,240 − 916.37 = −708.37; recycled 80% × 390 + (916.37 − 720) = 508.37; gain −200.
    expect(byId(out, "sale")!.details).toMatchObject({ netAssetsAtDisposal: 2_240_00, goodwillAtDisposal: 916_37, nciAtDisposal: 448_00, gainBeforeRecyclingCreditPositive: -708_37, ctaRecycledCreditPositive: 508_37, gainCreditPositive: -200_00 });
    // 80% of the quarter's 750 and the loss: 400 over the life of the investment.
    expect(out.incomeStatement.attributableToParent - 300_00).toBe(600_00 - 200_00);
    expect(out.balanceSheet.balanced).toBe(true);
    columnsSumToZero(out);
  });

  it("consolidates a subsidiary acquired and sold in the same period for the months between", () => {
    const out = run(sold("2025-03", "gain", { acquisitionMonth: "2025-02" }));
    // Acquired at February ($1,820 of net assets, NCI 364, goodwill 144 = €110.77), sold at March.
    expect(byId(out, "pre-acquisition:s")).toBeDefined();
    expect(byId(out, "sale")!.details).toMatchObject({ netAssetsAtDisposal: 2_240_00, goodwillAtDisposal: 155_08, nciAtDisposal: 448_00, gainBeforeRecyclingCreditPositive: 52_92, ctaRecycledCreditPositive: 131_08, gainCreditPositive: 184_00 });
    // Only March's results: 270, of which the NCI 54; 80% × 270 + 184 = 400.
    expect(out.incomeStatement).toMatchObject({ netIncome: 300_00 + 270_00 + 184_00, attributableToNci: 54_00 });
    expect(out.balanceSheet.nonControllingInterests).toBe(0);
    columnsSumToZero(out);
  });

  it("transfers the parent's share of other reserves since the acquisition to retained earnings", () => {
    const out = run(sold("2025-02", "gain", { reserve: { month: "2025-01", amount: 100_00 } }));
    // €100 at January's average 1.15 = $115: the NCI's 23 goes with the NCI, the parent's 92 to retained earnings.
    expect(byId(out, "sale")!.details).toMatchObject({ reservesToRetainedEarningsCreditPositive: 92_00, netAssetsAtDisposal: 1_950_00 });
    expect(row(out, "reserve")).toBe(0);
    expect(byId(out, "sale")!.lines).toContainEqual({ account: "re", name: "Retained earnings", amount: -92_00 });
    expect(out.balanceSheet.balanced).toBe(true);
    columnsSumToZero(out);
  });

  it("has no NCI to derecognise for a wholly owned subsidiary, and recycles all its CTA", () => {
    const out = run(sold("2025-02", "gain", { ownership: "1" }));
    // Goodwill 1,600 − 1,100 = 500 = €454.55, $590.92 at 1.30; 2,000 − 1,820 − 590.92 = −410.92; CTA 240 + 90.92.
    expect(byId(out, "sale")!.details).toMatchObject({ nciAtDisposal: 0, goodwillAtDisposal: 590_92, gainBeforeRecyclingCreditPositive: -410_92, ctaRecycledCreditPositive: 330_92, gainCreditPositive: -80_00 });
    expect(out.nci).toEqual([]);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("derecognises a fair-value NCI with its share of goodwill and of goodwill's exchange difference, leaving no CTA, NCI or goodwill", () => {
    const input = sold("2025-02");
    Object.assign(input.eliminations!.investments![0]!, { nciMeasurement: "fairValue", nciFairValue: 300_00, goodwillImpairments: [{ month: "2025-01", amount: 50_00 }] });
    input.entities[0]!.accounts.push({ id: "impairment", name: "Impairment", classification: "Expense" });
    input.designatedAccounts.goodwillImpairment = "impairment";
    const out = run(input);
    const d = byId(out, "sale")!.details as Record<string, number>;
    // Goodwill 1,600 + 300 − 1,100 = 800 = €727.27, less €50 impaired: €677.27 × 1.30 = 880.45.
    expect(d.goodwillAtDisposal).toBe(880_45);
    expect(d.gainBeforeRecyclingCreditPositive).toBe(2_000_00 + d.nciAtDisposal! - 1_820_00 - 880_45);
    expect(d.ctaNciShareDerecognised).toBe(out.nci[0]!.cta + out.nci[0]!.goodwillCta);
    for (const account of ["cta", "nci", "goodwill"]) expect(row(out, account), account).toBe(0);
    expect(out.nci[0]!.closing).toBe(0);
    expect(out.balanceSheet.balanced).toBe(true);
    columnsSumToZero(out);
  });

  it("derecognises a temporal subsidiary, its remeasurement up to the disposal in profit and nothing to recycle", () => {
    const out = run(sold("2025-02", "gain", { method: "temporal" }));
    // A temporal subsidiary has no CTA of its own: only goodwill's exchange difference is recycled.
    expect(byId(out, "sale")!.details).toMatchObject({ ctaRecycledCreditPositive: byId(out, "inv")!.details.ctaOnGoodwillCreditPositive as number });
    expect(out.entities[1]!.cta.closing).toBe(0);
    expect(row(out, "cta")).toBe(0);
    expect(out.balanceSheet.balanced).toBe(true);
    columnsSumToZero(out);
  });

  it("derecognises a domestic subsidiary with nothing to recycle", () => {
    const out = run(sold("2025-02", "gain", { currency: "USD", cost: 1_000_00 }));
    // USD: net assets 1,400; goodwill 1,000 + 200 − 1,000 = 200; NCI 200 + 20% × 400 = 280: 2,000 + 280 − 1,400 − 200 = 680.
    expect(byId(out, "sale")!.details).toMatchObject({ netAssetsAtDisposal: 1_400_00, goodwillAtDisposal: 200_00, nciAtDisposal: 280_00, ctaRecycledCreditPositive: 0, gainCreditPositive: 680_00 });
    expect(0.8 * 400_00 + 680_00).toBe(2_000_00 - 1_000_00);
  });
});

describe("disposal input errors", () => {
  it("refuses a disposal month outside the period, before the acquisition, or twice", () => {
    expect(problems(sold("2025-04"))).toEqual([expect.stringContaining("$.eliminations.disposals[0].month: the disposal month must be inside the period (2025-01 to 2025-03)")]);
    expect(problems(sold("2025-02", "gain", { acquisitionMonth: "2025-02" }))).toEqual(["$.eliminations.disposals[0].month: S is disposed of (2025-02) before the month after its acquisition (2025-02)"]);
    const twice = sold("2025-02");
    twice.eliminations!.disposals!.push({ ...twice.eliminations!.disposals![0]!, id: "again" });
    expect(problems(twice)).toEqual(["$.eliminations.disposals[1].subsidiary: S is disposed of more than once"]);
  });

  it("refuses what is not built: a subsidiary with fair-value adjustments, or carried at equity", () => {
    const uplifted = sold("2025-03");
    uplifted.entities[0]!.accounts.push({ id: "brand", name: "Brand", classification: "Asset" }, { id: "amort", name: "Amortisation", classification: "Expense" });
    uplifted.eliminations!.investments![0]!.fairValueAdjustments = [{ id: "b", kind: "intangible", assetAccount: "brand", amount: 100_00, usefulLifeMonths: 12, expenseAccount: "amort" }];
    expect(problems(uplifted)).toEqual(["$.eliminations.disposals[0].subsidiary: the disposal of S is not built when its acquisition has fair-value adjustments or the parent carries it at equity"]);
  });

  it("needs an investment elimination, a profit-or-loss gain account, a parent proceeds account and a subsidiary", () => {
    const noInvestment = sold("2025-02");
    noInvestment.eliminations!.investments = [];
    expect(problems(noInvestment)).toEqual(["$.eliminations.disposals[0].subsidiary: S has no investment elimination: its goodwill and equity at acquisition are needed to measure the gain on its disposal"]);
    expect(problems(sold("2025-02", "gain", {}, { gainAccount: "cash" }))).toEqual([expect.stringContaining("$.eliminations.disposals[0].gainAccount: \"cash\" cannot hold the gain or loss on disposal")]);
    expect(problems(sold("2025-02", "gain", {}, { proceedsAccount: "nowhere" }))).toEqual(["$.eliminations.disposals[0].proceedsAccount: \"nowhere\" is not an account of the parent P"]);
    expect(problems(sold("2025-02", "gain", {}, { subsidiary: "p" }))).toEqual(["$.eliminations.disposals[0].subsidiary: \"p\" is not a subsidiary"]);
    expect(problems(sold("2025-02", "gain", {}, { proceeds: -1 }))).toEqual(["$.eliminations.disposals[0].proceeds: must not be negative"]);
  });
});

describe("disposal properties (random groups)", () => {
  it("columns sum to zero, the group balances, the sold subsidiary leaves no NCI and its gain adds up", () => {
    fc.assert(
      fc.property(groupArb({ maxSubsidiaries: 2 }), fc.nat(), fc.integer({ min: 0, max: 20_000_000_000 }), ({ input, months }, pick, proceeds) => {
        const base = structuredClone(input);
        const subs = base.entities.filter((e) => e.role === "subsidiary");
        base.eliminations!.investments = subs.map((e, i) => ({ id: `inv${i}`, subsidiary: e.id, investmentAccount: "investment", cost: 10_000_000_000, goodwillTranslation: i % 2 ? "historical" : "closing" }));
        const total = subs.length * 10_000_000_000;
        carryInvestmentAt(base, total);
        base.entities[0]!.accounts.push({ id: "disposal-gain", name: "Gain on disposal", classification: "Revenue" });
        const month = formatMonth(parseMonth("2023-12") + 1 + (pick % (months - 1)));
        base.eliminations!.disposals = [{ id: "sale", subsidiary: subs[0]!.id, month, proceeds, gainAccount: "disposal-gain" }];
        const out = run(base);
        columnsSumToZero(out);
        eliminationsBalance(out);
        const bs = out.balanceSheet;
        expect(bs.balanced).toBe(true);
        expect(bs.nonControllingInterests).toBe(out.nci.reduce((s, n) => s + n.closing, 0));
        const n = out.nci.find((x) => x.entity === subs[0]!.id);
        if (n) expect(n.closing).toBe(0);
        const d = out.eliminations.find((e) => e.id === "sale")!.details as Record<string, number>;
        expect(d.gainBeforeRecyclingCreditPositive).toBe(proceeds + d.nciAtDisposal! - d.netAssetsAtDisposal! - d.goodwillAtDisposal!);
        expect(d.gainCreditPositive).toBe(d.gainBeforeRecyclingCreditPositive! + d.ctaRecycledCreditPositive!);
      }),
      { numRuns: 100 },
    );
  });
});
