import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";

import type { ConsolidationInputJson } from "./input-schema.ts";
import { type ConsolidationOutput } from "./output-schema.ts";
import { run, problems, consolidatedAmount as row } from "../../test/engine.ts";

/**
 * Bargain purchases (IFRS 3.34-36, ASC 805-30-25-2) and the warnings for numbers the engine
 * assumed (a cost taken from the investment account, a derived opening CTA). Built on the Kaplan
 * P/S example: S's net assets 1,030,000 at acquisition (2019-12), 80% owned; the period is December
 * 2020. Cents. Hoyle 2-19 (published-examples.test.ts) is the published case.
 */
const investment = (out: ConsolidationOutput) => out.eliminations.find((e) => e.kind === "investment")!;
type Investment = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["investments"]>[number];
const rule = (input: ConsolidationInputJson): Investment => input.eliminations!.investments![0]!;

/** Cost 700,000 for 80% of net assets of 1,030,000 (NCI 206,000): a gain of 120,000. */
function bargain(acquisitionInPeriod: boolean): ConsolidationInputJson {
  const input = loadExample("kaplan-f1-nci-proportionate");
  input.entities[0]!.accounts.push({ id: "gain", name: "Gain on bargain purchase", classification: "Revenue" });
  input.designatedAccounts.bargainPurchaseGain = "gain";
  Object.assign(rule(input), { cost: 700_000_00, ...(acquisitionInPeriod ? { acquisitionMonth: "2020-11" } : {}) });
  // The parent's books at cost: the investment account holds 700,000, the rest in current assets.
  const p = input.entities[0]!;
  p.balances.find((b) => b.account === "investment")!.amounts = [700_000_00, 700_000_00];
  p.balances.find((b) => b.account === "ca")!.amounts = [1_870_000_00, 1_870_000_00];
  if (acquisitionInPeriod) rule(input).equityAtAcquisition = [{ account: "sc", amount: -500_000_00 }, { account: "re", amount: -610_000_00 }];
  return input;
}

describe("a bargain purchase", () => {
  it("acquired at the period's opening date: the gain is the period's profit, the parent's alone; no goodwill", () => {
    const out = run(bargain(true));
    // Net assets 1,110,000 at 2020-11; NCI 222,000; gain 1,110,000 − 700,000 − 222,000.
    expect(investment(out).details).toMatchObject({ netAssetsAtAcquisition: 1_110_000_00, nciAtAcquisition: 222_000_00, goodwillAtAcquisition: 0, bargainPurchaseGain: 188_000_00, bargainPurchaseGainRecognisedIn: "period" });
    expect(row(out, "gain")).toBe(-188_000_00);
    expect(row(out, "goodwill")).toBe(0);
    expect(out.incomeStatement).toMatchObject({ netIncome: 188_000_00, attributableToNci: 0, attributableToParent: 188_000_00 });
    expect(out.nci[0]!.closing).toBe(222_000_00);
    expect(out.warnings).toEqual([
      "S: the net assets acquired (1110000.00 USD) exceed the cost plus the NCI (922000.00 USD); the 188000.00 USD gain on a bargain purchase is the parent's profit of the period. IFRS 3.36 and ASC 805-30-25-4 ask that the assets, liabilities and consideration be reviewed before it is recognised",
    ]);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("acquired before the period: the gain is in the parent's opening retained earnings, not the period's profit", () => {
    const out = run(bargain(false));
    const inv = investment(out);
    expect(inv.details).toMatchObject({ bargainPurchaseGain: 124_000_00, bargainPurchaseGainRecognisedIn: "openingRetainedEarnings" });
    expect(inv.lines).toContainEqual({ account: "re", name: "Retained earnings", amount: -124_000_00 });
    expect(row(out, "gain")).toBe(0);
    expect(out.incomeStatement.netIncome).toBe(0);
    // The NCI is untouched by the gain: 206,000 + 20% × 80,000.
    expect(out.nci[0]!.closing).toBe(222_000_00);
    // No gain account is needed for a gain outside the period.
    const without = bargain(false);
    delete without.designatedAccounts.bargainPurchaseGain;
    expect(run(without).balanceSheet).toEqual(out.balanceSheet);
  });

  it("with the NCI at fair value the gain is what the net assets exceed the cost and that fair value by", () => {
    const input = bargain(false);
    Object.assign(rule(input), { nciMeasurement: "fairValue", nciFairValue: 150_000_00 });
    expect(investment(run(input)).details).toMatchObject({ nciAtAcquisition: 150_000_00, bargainPurchaseGain: 180_000_00 });
  });

  it("needs a Revenue account of the parent for a gain in the period", () => {
    const input = bargain(true);
    delete input.designatedAccounts.bargainPurchaseGain;
    expect(problems(input)).toEqual(["$.designatedAccounts.bargainPurchaseGain: the acquisition of S is a bargain purchase with a gain of 188000.00 USD in the period: name the parent's Revenue account for it"]);
    input.designatedAccounts.bargainPurchaseGain = "ca";
    expect(problems(input)).toContain('$.designatedAccounts.bargainPurchaseGain: "ca" cannot hold a gain on a bargain purchase (it must be Revenue): it is Asset');
  });

  it("leaves no goodwill to impair", () => {
    const input = bargain(false);
    rule(input).goodwillImpairments = [{ month: "2020-12", amount: 1_00 }];
    expect(problems(input)).toEqual(["$.eliminations.investments[0].goodwillImpairments: the impairment losses (100) exceed the goodwill (0)"]);
  });
});

describe("no silent defaults", () => {
  it("says when the cost is taken from the investment account's balance, and not when it is given", () => {
    const input = loadExample("kaplan-f1-nci-proportionate");
    expect(run(input).warnings).toEqual(["S: no cost was given for the investment, so the balance of investment at 2020-12, 1540000.00 USD, is taken as its cost"]);
    rule(input).cost = 1_540_000_00;
    expect(run(input).warnings).toEqual([]);
  });

  it("states an opening CTA derived as a non-zero balancing figure, and is silent when it is given or zero", () => {
    const input = loadExample("kaplan-f2-basil-manuel-foreign-nci");
    rule(input).cost = 3_360_00;
    expect(run(input).warnings).toEqual([
      "Manuel: opening.cta was not given, so the CTA at 2017-12 is derived as the balancing figure of its translated opening balances: a credit of 2460.00 USD. Give opening.cta to confirm it (a wrong opening retained earnings would otherwise sit in the CTA)",
    ]);
    input.entities[1]!.opening.cta = -2_460_00;
    expect(run(input).warnings).toEqual([]);
    // Opening retained earnings that leave nothing to balance: no CTA, no warning.
    delete input.entities[1]!.opening.cta;
    input.entities[1]!.opening.retainedEarnings = -194_000 - 2_460_00;
    expect(run(input).warnings).toEqual([]);
  });
});
