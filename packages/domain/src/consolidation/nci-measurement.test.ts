import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";

import type { ConsolidationInputJson } from "./input-schema.ts";
import { type ConsolidationOutput } from "./output-schema.ts";
import { run, problems, consolidatedAmount as row } from "../../test/engine.ts";

/**
 * NCI measured at fair value (full goodwill), goodwill impairment and acquisitions before the
 * books given to the engine open. Figures are hand-checked on the two Kaplan examples in
 * docs/examples (whose published answers are asserted in published-examples.test.ts); here the
 * inputs are varied to pin each rule down. Amounts are cents.
 */

const investment = (out: ConsolidationOutput) => out.eliminations.find((e) => e.kind === "investment")!;
type Investment = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["investments"]>[number];
const rule = (input: ConsolidationInputJson): Investment => input.eliminations!.investments![0]!;

/** P owns 80% of S (both USD): S's net assets 1,030 at acquisition, 1,110 now; cost 1,540 ($000). */
const domestic = () => loadExample("kaplan-f1-nci-proportionate");
/** Basil ($) owns 80% of Manuel (€), NCI at fair value, goodwill impaired €800 in the period. */
const foreign = () => loadExample("kaplan-f2-basil-manuel-foreign-nci");

describe("NCI at fair value (full goodwill)", () => {
  it("adds the NCI's fair value to goodwill and starts the NCI at it", () => {
    const input = domestic();
    Object.assign(rule(input), { nciMeasurement: "fairValue", nciFairValue: 220_000_00 });
    const out = run(input);
    // Goodwill 1,540 + 220 − 1,030 = 730, instead of 1,540 + 20% × 1,030 − 1,030 = 716.
    expect(investment(out).details).toMatchObject({ nciMeasurement: "fairValue", nciAtAcquisition: 220_000_00, goodwillAtAcquisition: 730_000_00 });
    expect(row(out, "goodwill")).toBe(730_000_00);
    // 220 + 20% × (1,110 − 1,030).
    expect(out.nci[0]).toMatchObject({ atAcquisition: 220_000_00, retainedEarningsSinceAcquisition: 16_000_00, closing: 236_000_00 });
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("books a cost plus NCI below the net assets acquired as the parent's gain on a bargain purchase (bargain-purchase.test.ts has the rest)", () => {
    const input = domestic();
    Object.assign(rule(input), { nciMeasurement: "fairValue", nciFairValue: 1_00, cost: 800_000_00 });
    const out = run(input);
    // 1,030,000 − (800,000 + 1) = 229,999 of gain, acquired before the period: in opening retained earnings.
    expect(investment(out).details).toMatchObject({ goodwillAtAcquisition: 0, bargainPurchaseGain: 229_999_00, bargainPurchaseGainRecognisedIn: "openingRetainedEarnings" });
    expect(row(out, "goodwill")).toBe(0);
    expect(out.nci[0]!.atAcquisition).toBe(1_00);
  });

  it("allows an NCI fair value below its proportionate share as long as total goodwill is not negative", () => {
    const input = domestic();
    Object.assign(rule(input), { nciMeasurement: "fairValue", nciFairValue: 150_000_00 });
    const out = run(input);
    expect(investment(out).details.goodwillAtAcquisition).toBe(660_000_00);
    expect(out.nci[0]!.closing).toBe(166_000_00);
  });
});

describe("goodwill impairment", () => {
  it("in the period, proportionate NCI: an expense borne by the parent alone", () => {
    const input = domestic();
    rule(input).goodwillImpairments = [{ month: "2020-12", amount: 120_000_00 }];
    const out = run(input);
    expect(row(out, "impairment")).toBe(120_000_00);
    expect(row(out, "goodwill")).toBe(596_000_00);
    expect(out.incomeStatement).toMatchObject({ netIncome: -120_000_00, attributableToNci: 0, attributableToParent: -120_000_00 });
    expect(out.nci[0]!.closing).toBe(222_000_00);
  });

  it("in the period, NCI at fair value: the NCI's share of profit bears its ownership share (IAS 36.C6)", () => {
    const input = loadExample("kaplan-f1-nci-fair-value");
    const out = run(input);
    expect(out.incomeStatement).toMatchObject({ netIncome: -120_000_00, attributableToNci: -24_000_00, attributableToParent: -96_000_00 });
    expect(out.nci[0]).toMatchObject({ netIncome: -24_000_00, goodwillImpairmentBeforePeriod: 0, closing: 212_000_00 });
  });

  it("before the period: charged to opening retained earnings and, at fair value, to the NCI, with no expense in the period", () => {
    for (const [measurement, nciShare] of [["fairValue", 24_000_00], ["proportionateShare", 0]] as const) {
      const input = domestic();
      Object.assign(rule(input), {
        nciMeasurement: measurement,
        ...(measurement === "fairValue" ? { nciFairValue: 220_000_00 } : {}),
        goodwillImpairments: [{ month: "2020-06", amount: 120_000_00 }],
      });
      const out = run(input);
      const inv = investment(out);
      expect(inv.details).toMatchObject({ goodwillImpairmentBeforePeriod: 120_000_00, goodwillImpairmentInPeriod: 0, goodwillImpairmentNciShareBeforePeriod: nciShare });
      expect(inv.lines).toEqual(expect.arrayContaining([{ account: "re", name: "Retained earnings", amount: 120_000_00 - nciShare }, { account: "goodwill", name: "Goodwill", amount: -120_000_00 }]));
      expect(row(out, "impairment")).toBe(0);
      expect(out.incomeStatement.netIncome).toBe(0);
      expect(out.nci[0]!.goodwillImpairmentBeforePeriod).toBe(nciShare);
      // No designated impairment account is needed when nothing falls in the period.
      const without = structuredClone(input);
      delete without.designatedAccounts.goodwillImpairment;
      expect(run(without).balanceSheet).toEqual(out.balanceSheet);
    }
  });

  it("of a foreign operation's goodwill: in its currency, the expense at the month's average rate, the rest at the closing rate", () => {
    const out = run(foreign());
    // €800 at 0.4 = $320; (€5,200 − €800) at 0.5 = $2,200; $2,200 − ($1,040 − $320) = $1,480 to CTA.
    expect(investment(out).details).toMatchObject({ goodwillLocal: 5_200_00, goodwillImpairedLocal: 800_00, goodwillImpairmentInPeriod: 320_00, goodwillCarryingAmount: 2_200_00, ctaOnGoodwillCreditPositive: 1_480_00, ctaOnGoodwillNciShare: 296_00 });
    expect(row(out, "impairment")).toBe(320_00);
    expect(row(out, "goodwill")).toBe(2_200_00);
  });

  it("refuses impairments at or before the acquisition, and losses above the goodwill", () => {
    const input = domestic();
    rule(input).goodwillImpairments = [{ month: "2019-12", amount: 1_00 }];
    expect(problems(input)).toEqual(["$.eliminations.investments[0].goodwillImpairments[0].month: an impairment must be recognised after the acquisition (2019-12)"]);
    rule(input).goodwillImpairments = [{ month: "2020-06", amount: 700_000_00 }, { month: "2020-12", amount: 16_000_01 }];
    expect(problems(input)).toEqual(["$.eliminations.investments[0].goodwillImpairments: the impairment losses (71600001) exceed the goodwill (71600000)"]);
  });

  it("compares losses with a foreign operation's goodwill in its own currency", () => {
    const input = foreign();
    rule(input).goodwillImpairments = [{ month: "2018-12", amount: 5_200_01 }];
    expect(problems(input)).toEqual(["$.eliminations.investments[0].goodwillImpairments: the impairment losses (520001) exceed the goodwill (520000 EUR minor units)"]);
  });

  it("needs an Expense account of the parent for a loss in the period", () => {
    const input = loadExample("kaplan-f1-nci-fair-value");
    delete input.designatedAccounts.goodwillImpairment;
    expect(problems(input)).toEqual(["$.designatedAccounts.goodwillImpairment: a goodwill impairment falls in the period: name the parent's Expense account for it"]);
    input.designatedAccounts.goodwillImpairment = "goodwill";
    expect(problems(input)).toContain('$.designatedAccounts.goodwillImpairment: "goodwill" cannot hold goodwill impairment losses (it must be an Expense): it is Asset');
  });

  it("leaves out, with a warning, a loss recognised after the period", () => {
    const input = domestic();
    rule(input).goodwillImpairments = [{ month: "2021-03", amount: 120_000_00 }];
    const out = run(input);
    expect(row(out, "goodwill")).toBe(716_000_00);
    expect(out.warnings).toEqual([
      "S: no cost was given for the investment, so the balance of investment at 2020-12, 1540000.00 USD, is taken as its cost",
      "S: the goodwill impairment of 2021-03 falls after the period and is not included",
    ]);
  });
});

describe("exchange differences on a foreign operation's goodwill", () => {
  it("are shared with the NCI by ownership when it owns part of the goodwill (fair value)", () => {
    const out = run(foreign());
    // 80% of $1,480 = $1,184 in the group's CTA, 20% = $296 in the NCI.
    const lines = investment(out).lines;
    expect(lines).toEqual(expect.arrayContaining([{ account: "goodwill", name: "Goodwill", amount: 1_480_00 }, { account: "cta", name: "Translation reserve", amount: -1_184_00 }, { account: "nci", name: "Non-controlling interest", amount: -296_00 }]));
    expect(out.nci[0]!.goodwillCta).toBe(296_00);
  });

  it("are all the parent's when the NCI is measured at its share of net assets", () => {
    const input = foreign();
    Object.assign(rule(input), { nciMeasurement: "proportionateShare", nciFairValue: undefined });
    const out = run(input);
    const d = investment(out).details;
    // Goodwill $3,360 − 80% × $3,040 = $928 = €4,640; (€4,640 − €800) at 0.5 = $1,920.
    expect(d).toMatchObject({ nciAtAcquisition: 608_00, goodwillAtAcquisition: 928_00, goodwillLocal: 4_640_00, goodwillCarryingAmount: 1_920_00, ctaOnGoodwillNciShare: 0 });
    expect(d.ctaOnGoodwillCreditPositive).toBe(1_920_00 - (928_00 - 320_00));
    expect(out.nci[0]).toMatchObject({ goodwillCta: 0, netIncome: 224_00 });
    expect(out.balanceSheet.balanced).toBe(true);
  });
});

describe("acquisition before the books open", () => {
  it("needs the equity at acquisition", () => {
    const input = domestic();
    delete rule(input).equityAtAcquisition;
    expect(problems(input)).toEqual(["$.eliminations.investments[0].equityAtAcquisition: the acquisition (2019-12) is before S's opening month 2020-11: give its equity at acquisition"]);
  });

  it("needs the acquisition month's closing rate for a foreign operation's goodwill", () => {
    const input = foreign();
    delete input.rates!.EUR!["2016-12"];
    expect(problems(input)).toEqual(['$.rates.EUR["2016-12"]: give the closing rate of EUR for 2016-12: Manuel\'s goodwill is translated at it']);
  });

  it("translates a loss recognised before the books open at that month's average rate from the rate table", () => {
    const input = foreign();
    rule(input).goodwillImpairments = [{ month: "2017-06", amount: 800_00 }];
    input.rates!.EUR!["2017-06"] = { average: "0.25", closing: "0.25" };
    const out = run(input);
    // €800 at 0.25 = $200, before the period: $160 from retained earnings, $40 from the NCI.
    expect(investment(out).details).toMatchObject({ goodwillImpairmentBeforePeriod: 200_00, goodwillImpairmentNciShareBeforePeriod: 40_00, goodwillImpairmentInPeriod: 0, goodwillCarryingAmount: 2_200_00 });
    expect(out.incomeStatement.attributableToNci).toBe(224_00);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("must not be after the period (one inside it is a mid-year acquisition, mid-year.test.ts)", () => {
    const input = domestic();
    rule(input).acquisitionMonth = "2021-01";
    expect(problems(input)).toEqual(["$.eliminations.investments[0].acquisitionMonth: the acquisition must not be after the period's last month (2020-12)"]);
  });
});

describe("input contract", () => {
  it("asks for the fair value when the NCI is measured at it, and only then", () => {
    const input = domestic();
    rule(input).nciMeasurement = "fairValue";
    expect(problems(input)).toEqual(["$.eliminations.investments[0].nciFairValue: nciMeasurement fairValue needs the NCI's fair value at acquisition"]);
    Object.assign(rule(input), { nciMeasurement: "proportionateShare", nciFairValue: 220_000_00 });
    expect(problems(input)).toEqual(["$.eliminations.investments[0].nciFairValue: a fair value is only used with nciMeasurement fairValue"]);
  });

  it("refuses a fair-value NCI for a wholly owned subsidiary", () => {
    const input = domestic();
    input.entities[1]!.ownership = "1";
    Object.assign(rule(input), { nciMeasurement: "fairValue", nciFairValue: 220_000_00 });
    expect(problems(input)).toEqual(["$.eliminations.investments[0].nciMeasurement: S is wholly owned: there is no NCI to measure at fair value"]);
  });

  it("refuses non-positive fair values and impairment amounts", () => {
    const input = domestic();
    Object.assign(rule(input), { nciMeasurement: "fairValue", nciFairValue: 0, goodwillImpairments: [{ month: "2020-12", amount: -5 }] });
    expect(problems(input)).toEqual([
      "$.eliminations.investments[0].nciFairValue: must be positive",
      "$.eliminations.investments[0].goodwillImpairments[0].amount: must be positive",
    ]);
  });
});
