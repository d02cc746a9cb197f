import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { carryInvestmentAt, groupArb } from "../../test/arbitraries.ts";
import { quarter, type QuarterOptions } from "../../test/quarter-group.ts";
import { formatMonth, parseMonth } from "../periods/month.ts";

import type { ConsolidationInputJson } from "./input-schema.ts";
import { type ConsolidationOutput } from "./output-schema.ts";
import { columnsSumToZero, eliminationsBalance, nciSumOfParts, run, problems, consolidatedAmount as row } from "../../test/engine.ts";

/**
 * Changes in ownership without a loss of control (IFRS 10.23 and B96, ASC 810-10-45-23; the CTA
 * re-attributed, IAS 21.48C). The published Kaplan SBR examples are in
 * published-examples.test.ts; here the quarter of test/quarter-group.ts (P owns 80% of S, a euro
 * subsidiary acquired in December for $1,600) buys or sells 10% at the end of February, every
 * figure hand-checked. Amounts are cents.
 */

const change = (out: ConsolidationOutput) => out.eliminations.find((e) => e.kind === "ownershipChange")!;
type Change = NonNullable<NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["investments"]>[number]["ownershipChanges"]>[number];

/** P buys (ownership > 0.8) or sells shares in S at the end of February, booking the consideration on its investment account. */
function changed(ownership: string, consideration: number, o: QuarterOptions = {}, extra: Partial<Change> = {}): ConsolidationInputJson {
  const input = quarter({ acquisitionMonth: "2024-12", ...o });
  const buying = Number(ownership) > 0.8;
  const p = input.entities[0]!;
  const cash = p.balances.find((b) => b.account === "cash")!;
  const investment = p.balances.find((b) => b.account === "investment")!;
  for (const t of [2, 3]) {
    cash.amounts[t] = cash.amounts[t]! + (buying ? -consideration : consideration);
    investment.amounts[t] = investment.amounts[t]! + (buying ? consideration : -consideration);
  }
  input.eliminations!.investments![0]!.ownershipChanges = [{ month: "2025-02", ownership, consideration, ...extra }];
  return input;
}

describe("buying 10% more of a foreign subsidiary (80% → 90%) for $300 at the end of February", () => {
  const out = run(changed("0.9", 300_00));

  it("takes the NCI down by its carrying amount × 10/20 and puts the difference to the consideration in equity, not profit", () => {
    // NCI at February: 220 at acquisition + 20% × (1,820 − 1,100) = 364; × 10/20 = 182.
    // The NCI's 20% of the CTA so far (24 of 240) returns to the parent's CTA; the rest of the
    // difference, 300 − 182 − 24 = 142, is a debit to the parent's equity (retained earnings by default).
    expect(change(out).details).toMatchObject({
      month: "2025-02",
      direction: "bought",
      ownershipAfter: "0.9",
      consideration: 300_00,
      nciCarryingAmountBefore: 364_00,
      netAssets: 1_820_00,
      nciAdjustmentCreditPositive: -182_00,
      ctaReattributedToNciCreditPositive: -24_00,
      differenceToEquityCreditPositive: -142_00,
    });
    expect(change(out).lines).toEqual(
      expect.arrayContaining([
        { account: "nci", name: "NCI", amount: 182_00 },
        { account: "cta", name: "CTA", amount: -24_00 },
        { account: "investment", name: "Investment in S", amount: -300_00 },
        { account: "re", name: "Retained earnings", amount: 142_00 },
      ]),
    );
    expect(row(out, "investment")).toBe(0);
    // No gain or loss: the group's profit is P's and S's as without the purchase.
    expect(out.incomeStatement.netIncome).toBe(300_00 + 230_00 + 250_00 + 270_00);
    columnsSumToZero(out);
  });

  it("shares each month's profit and CTA at the ownership in force then", () => {
    // January and February at 20% (96 of 480; 48 of the CTA's 240), March at 10% (27 of 270; 15 of 150).
    expect(out.nci[0]).toMatchObject({ share: "0.1", atAcquisition: 220_00, netIncome: 96_00 + 27_00, cta: 48_00 + 15_00, ownershipChanges: -182_00, closing: 224_00 });
    expect(out.incomeStatement.attributableToNci).toBe(123_00);
    // 10% of S's €1,600 × 1.40; the parent's CTA is 90% of S's 390 and goodwill's 196.37.
    expect(out.balanceSheet.nonControllingInterests).toBe(224_00);
    expect(row(out, "cta")).toBe(-(351_00 + 196_37));
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("books the difference on the designated reserve when there is one", () => {
    const input = changed("0.9", 300_00);
    input.designatedAccounts.ownershipChangeReserve = "reserve";
    const again = run(input);
    expect(row(again, "reserve")).toBe(142_00);
    expect(again.balanceSheet.totalEquity).toBe(out.balanceSheet.totalEquity);
  });
});

describe("selling 10% of a foreign subsidiary (80% → 70%) for $500, and other changes", () => {
  it("raises the NCI by 10% of the net assets (a proportionate NCI owns no goodwill) and credits the difference to equity", () => {
    const out = run(changed("0.7", 500_00));
    // 10% × 1,820 = 182 to the NCI, with 10% of the CTA (24); 500 − 182 = 318 more equity: 342 − 24.
    expect(change(out).details).toMatchObject({ direction: "sold", nciAdjustmentCreditPositive: 182_00, ctaReattributedToNciCreditPositive: 24_00, goodwillShared: 0, differenceToEquityCreditPositive: 342_00 });
    // 220 + 96 + 48 + 182 + 30% × (270 + 150) = 672 = 30% of €1,600 × 1.40.
    expect(out.nci[0]).toMatchObject({ share: "0.3", netIncome: 96_00 + 81_00, cta: 48_00 + 45_00, ownershipChanges: 182_00, closing: 672_00 });
    expect(out.balanceSheet.nonControllingInterests).toBe(672_00);
    expect(out.incomeStatement.netIncome).toBe(1_050_00);
    columnsSumToZero(out);
  });

  it("shares a NCI at fair value's goodwill when selling (domestic subsidiary)", () => {
    const input = changed("0.7", 500_00, { currency: "USD", cost: 1_000_00 });
    Object.assign(input.eliminations!.investments![0]!, { nciMeasurement: "fairValue", nciFairValue: 300_00 });
    const out = run(input);
    // Goodwill 1,000 + 300 − 1,000 = 300; net assets at February 1,400: 10% × (1,400 + 300) = 170.
    expect(change(out).details).toMatchObject({ goodwillShared: 300_00, netAssets: 1_400_00, nciAdjustmentCreditPositive: 170_00, differenceToEquityCreditPositive: 330_00 });
    // 300 + 20% × 400 + 170 + 30% × 200.
    expect(out.nci[0]!.closing).toBe(300_00 + 80_00 + 170_00 + 60_00);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("buys out the NCI entirely (→ 100%): the NCI is gone and shares nothing after", () => {
    const out = run(changed("1", 400_00));
    expect(change(out).details).toMatchObject({ nciAdjustmentCreditPositive: -364_00 });
    expect(out.nci[0]).toMatchObject({ share: "0", closing: 0 });
    expect(out.balanceSheet.nonControllingInterests).toBe(0);
    columnsSumToZero(out);
  });

  it("takes dividends at the share in force when each was declared, in the NCI and in the dividend elimination", () => {
    const input = changed("0.9", 300_00, { dividends: { "2025-01": 50_00, "2025-03": 100_00 } });
    input.eliminations!.dividends = [{ id: "div", subsidiary: "s", incomeAccount: "div-income", parentAmount: 167_50 }];
    const out = run(input);
    // January €50 × 1.15 = 57.50 at 20% (11.50); March €100 × 1.35 = 135 at 10% (13.50).
    expect(out.nci[0]!.dividends).toBe(25_00);
    expect(out.eliminations.find((e) => e.kind === "dividend")!.details).toMatchObject({ nciShare: 25_00, parentShare: 167_50, fxDifferenceCreditPositive: 0 });
    expect(row(out, "div")).toBe(0);
    expect(out.balanceSheet.nonControllingInterests).toBe(out.nci[0]!.closing);
    columnsSumToZero(out);
  });

  it("works with a mid-year acquisition: acquired at February, 10% more bought at March", () => {
    const input = changed("0.9", 300_00, { acquisitionMonth: "2025-02", cost: 1_600_00 });
    input.eliminations!.investments![0]!.ownershipChanges![0]!.month = "2025-03";
    const out = run(input);
    // NCI 364 at acquisition (20% × 1,820) + 20% × March's 270 and 150 of CTA = 448; × 10/20 = 224 out.
    expect(change(out).details).toMatchObject({ nciCarryingAmountBefore: 448_00, nciAdjustmentCreditPositive: -224_00 });
    expect(out.nci[0]).toMatchObject({ netIncome: 54_00, cta: 30_00, closing: 224_00 });
    expect(out.balanceSheet.balanced).toBe(true);
    columnsSumToZero(out);
  });

  it("counts two changes in a row from the share each leaves", () => {
    const input = changed("0.9", 300_00);
    input.eliminations!.investments![0]!.ownershipChanges!.push({ month: "2025-03", ownership: "0.85", consideration: 0, account: "cash" });
    const out = run(input);
    const [first, second] = out.eliminations.filter((e) => e.kind === "ownershipChange");
    expect(first!.details.nciAdjustmentCreditPositive).toBe(-182_00);
    // 5% × €1,600 × 1.40 = 112 back to the NCI.
    expect(second!.details).toMatchObject({ direction: "sold", nciAdjustmentCreditPositive: 112_00 });
    expect(out.nci[0]).toMatchObject({ share: "0.15", closing: 336_00 });
  });
});

describe("ownership change input errors", () => {
  it("asks for the acquisition's cost, a change after the acquisition that changes something, and known accounts", () => {
    const noCost = changed("0.9", 300_00);
    delete noCost.eliminations!.investments![0]!.cost;
    expect(problems(noCost)).toEqual(["$.eliminations.investments[0].cost: S's ownership changes: give the cost of the shares bought at acquisition"]);
    const early = changed("0.9", 300_00);
    early.eliminations!.investments![0]!.ownershipChanges![0]!.month = "2024-12";
    expect(problems(early)).toEqual([expect.stringContaining("$.eliminations.investments[0].ownershipChanges[0].month: a change must come after the acquisition (2024-12)")]);
    expect(problems(changed("0.8", 0))).toEqual(["$.eliminations.investments[0].ownershipChanges[0].ownership: the ownership does not change (0.8)"]);
    expect(problems(changed("0.9", 300_00, {}, { account: "nowhere" }))).toEqual(["$.eliminations.investments[0].ownershipChanges[0].account: \"nowhere\" is not an account of the parent P"]);
    const badReserve = changed("0.9", 300_00);
    badReserve.designatedAccounts.ownershipChangeReserve = "cash";
    expect(problems(badReserve)).toEqual(["$.designatedAccounts.ownershipChangeReserve: \"cash\" is not an Equity account of the parent (other than the NCI account)"]);
    expect(problems(changed("1.5", 0))).toEqual(["$.eliminations.investments[0].ownershipChanges[0].ownership: must be at most 1"]);
  });

  it("refuses what is not built: a fair-value NCI with goodwill carried abroad, a change in a disposal's period", () => {
    const fair = changed("0.9", 300_00);
    Object.assign(fair.eliminations!.investments![0]!, { nciMeasurement: "fairValue", nciFairValue: 300_00 });
    expect(problems(fair)).toEqual([expect.stringContaining("are built only when its goodwill is carried in the reporting currency and not impaired")]);
    const sold = changed("0.9", 300_00);
    sold.entities[0]!.accounts.push({ id: "gain", name: "Gain", classification: "Revenue" });
    sold.eliminations!.disposals = [{ id: "sale", subsidiary: "s", month: "2025-03", proceeds: 0, gainAccount: "gain" }];
    expect(problems(sold)).toEqual([expect.stringContaining("is disposed of in the period: its ownership changes before the disposal are not built")]);
    const uplifted = changed("0.9", 300_00);
    uplifted.entities[0]!.accounts.push({ id: "brand", name: "Brand", classification: "Asset" }, { id: "amort", name: "Amortisation", classification: "Expense" });
    uplifted.eliminations!.investments![0]!.fairValueAdjustments = [{ id: "b", kind: "intangible", assetAccount: "brand", amount: 100_00, usefulLifeMonths: 12, expenseAccount: "amort" }];
    expect(problems(uplifted)).toEqual([expect.stringContaining("with fair-value adjustments at acquisition are not built")]);
  });

  it("leaves out, with a warning, a change after the period", () => {
    const later = changed("0.9", 300_00);
    later.eliminations!.investments![0]!.ownershipChanges![0]!.month = "2025-06";
    const out = run(later);
    expect(out.warnings).toContain("S: the ownership change of 2025-06 falls after the period and is not included");
    expect(out.eliminations.some((e) => e.kind === "ownershipChange")).toBe(false);
  });
});

describe("ownership change properties (random groups)", () => {
  it("columns sum to zero, the NCI schedule adds up to the balance sheet's NCI, and no change touches profit", () => {
    fc.assert(
      fc.property(
        groupArb({ maxSubsidiaries: 2 }).filter(({ months }) => months >= 3),
        fc.array(fc.record({ t: fc.nat(), ownership: fc.constantFrom("0.55", "0.6", "0.7", "0.75", "0.9", "1"), consideration: fc.integer({ min: 0, max: 5_000_000 }) }), { minLength: 1, maxLength: 3 }),
        ({ input, months }, picks) => {
          const base = structuredClone(input);
          const subs = base.entities.filter((e) => e.role === "subsidiary");
          base.eliminations!.investments = subs.map((e, i) => ({ id: `inv${i}`, subsidiary: e.id, investmentAccount: "investment", cost: 10_000_000_000, goodwillTranslation: "historical" as const }));
          const total = subs.length * 10_000_000_000;
          carryInvestmentAt(base, total);
          const without = run(base);
          // Distinct months after the acquisition (the opening month), each changing the share; the consideration sits on cash.
          const used = new Set<number>();
          const distinct = picks
            .map((p) => ({ ...p, t: 1 + (p.t % (months - 1)) }))
            .filter((c) => (used.has(c.t) ? false : (used.add(c.t), true)))
            .sort((x, y) => x.t - y.t);
          let before = subs[0]!.ownership ?? "1";
          const changes = distinct.filter((c) => {
            const differs = c.ownership !== before;
            if (differs) before = c.ownership;
            return differs;
          });
          fc.pre(changes.length > 0);
          base.eliminations!.investments[0]!.ownershipChanges = changes.map((c) => ({ month: formatMonth(parseMonth("2023-12") + c.t), ownership: c.ownership, consideration: c.consideration, account: "cash" }));
          const out = run(base);
          columnsSumToZero(out);
          eliminationsBalance(out);
          const bs = out.balanceSheet;
          expect(bs.balanced).toBe(true);
          for (const n of out.nci) {
            expect(n.closing).toBe(nciSumOfParts(n));
          }
          expect(bs.nonControllingInterests).toBe(out.nci.reduce((s, n) => s + n.closing, 0));
          // Equity transactions: the group's profit is unchanged (only its split moves).
          expect(out.incomeStatement.netIncome).toBe(without.incomeStatement.netIncome);
        },
      ),
      { numRuns: 100 },
    );
  });
});
