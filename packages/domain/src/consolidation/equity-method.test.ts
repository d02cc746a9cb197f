import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";

import type { ConsolidationInputJson } from "./input-schema.ts";

import { run, problems } from "../../test/engine.ts";

/**
 * A parent carrying its investment at equity is restated to cost before consolidation, so the
 * consolidated statements are exactly those of the same group at cost. Built on the Kaplan P/S
 * example (P owns 80% of S; S's net assets 1,030,000 at acquisition, 1,110,000 now). Cents.
 */
type Investment = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["investments"]>[number];
const rule = (input: ConsolidationInputJson): Investment => input.eliminations!.investments![0]!;
const series = (input: ConsolidationInputJson, entity: number, account: string) => input.entities[entity]!.balances.find((b) => b.account === account)!;

/**
 * The same group twice: at cost (investment 1,540,000; S's December profit 50,000 and a 25,000
 * dividend, P's share 20,000 as dividend income) and at equity (the investment grew by 80% of the
 * 80,000 earned before December, by 80% of December's 50,000 and fell by the 20,000 dividend).
 */
function pair(): { cost: ConsolidationInputJson; equity: ConsolidationInputJson } {
  const cost = loadExample("kaplan-f1-nci-proportionate");
  const p = cost.entities[0]!;
  p.accounts.push(
    { id: "equity-income", name: "Share of S's profit", classification: "Revenue" },
    { id: "dividend-income", name: "Dividend income from S", classification: "Revenue" },
    { id: "s-sales", name: "Sales", classification: "Revenue" },
    { id: "dividends", name: "Dividends", classification: "Equity", equityKind: "dividends" },
  );
  const s = cost.entities[1]!;
  s.accounts.push({ id: "sales", name: "Sales", classification: "Revenue" }, { id: "div", name: "Dividends", classification: "Equity", equityKind: "dividends" });
  // S earns 50,000 in December and declares 25,000.
  series(cost, 1, "ca").amounts = [660_000_00, 685_000_00];
  series(cost, 1, "re").amounts = [-610_000_00, -660_000_00];
  s.balances.push({ account: "sales", from: "2020-11", amounts: [0, -50_000_00] }, { account: "div", from: "2020-11", amounts: [0, 25_000_00] });
  s.dividends = [{ month: "2020-12", amount: 25_000_00 }];
  cost.maps![0]!.lines = { ...cost.maps![0]!.lines, sales: "s-sales", div: "dividends" };
  // P receives its 20,000 in cash: dividend income at cost.
  series(cost, 0, "ca").amounts = [1_030_000_00, 1_050_000_00];
  series(cost, 0, "re").amounts = [-3_000_000_00, -3_020_000_00];
  p.balances.push({ account: "dividend-income", from: "2020-11", amounts: [0, -20_000_00] });

  const equity = structuredClone(cost);
  const accrued = 64_000_00; // 80% × (1,110,000 − 1,030,000)
  series(equity, 0, "investment").amounts = [1_540_000_00 + accrued, 1_540_000_00 + accrued + 40_000_00 - 20_000_00];
  series(equity, 0, "re").amounts = [-3_000_000_00 - accrued, -3_000_000_00 - accrued - 40_000_00];
  series(equity, 0, "dividend-income").amounts = [0, 0];
  equity.entities[0]!.balances.push({ account: "equity-income", from: "2020-11", amounts: [0, -40_000_00] });
  Object.assign(rule(equity), { parentMethod: "equity", cost: 1_540_000_00, equityIncomeAccount: "equity-income", dividendIncomeAccount: "dividend-income" });
  return { cost, equity };
}

describe("a parent at equity", () => {
  it("gives exactly the statements of the same group at cost", () => {
    const { cost, equity } = pair();
    const a = run(cost);
    const b = run(equity);
    expect(b.balanceSheet).toEqual(a.balanceSheet);
    expect(b.incomeStatement).toEqual(a.incomeStatement);
    expect(b.nci).toEqual(a.nci);
    expect(b.balanceSheet.balanced).toBe(true);
  });

  it("reverses the period's income out of profit, earlier accruals out of opening retained earnings, and moves the dividends received to dividend income", () => {
    const out = run(pair().equity);
    const restated = out.eliminations.find((e) => e.id === "inv-s:equity-method")!;
    expect(restated.details).toEqual({
      parentMethod: "equity",
      cost: 1_540_000_00,
      investmentAtPeriodStart: 1_604_000_00,
      investmentAtPeriodEnd: 1_624_000_00,
      equityMethodIncomeInPeriod: 40_000_00,
      accrualsBeforePeriod: 64_000_00,
      equityReserveReversedCreditPositive: 0,
      dividendsReceivedInPeriod: 20_000_00,
    });
    expect(restated.lines).toEqual([
      { account: "investment", name: "Investment in S", amount: -84_000_00 },
      { account: "equity-income", name: "Share of S's profit", amount: 40_000_00 },
      { account: "re", name: "Retained earnings", amount: 64_000_00 },
      { account: "dividend-income", name: "Dividend income from S", amount: -20_000_00 },
    ]);
    // The restatement comes first, then the elimination against equity at acquisition at cost.
    expect(out.eliminations.map((e) => e.id)).toEqual(["inv-s:equity-method", "inv-s"]);
  });

  it("needs no dividend account when nothing was received in the period", () => {
    const { equity } = pair();
    // The dividend was not paid to P: no cash, and the investment grew by the whole income.
    series(equity, 0, "investment").amounts = [1_604_000_00, 1_644_000_00];
    series(equity, 0, "ca").amounts = [1_030_000_00, 1_030_000_00];
    delete rule(equity).dividendIncomeAccount;
    expect(run(equity).eliminations[0]!.details.dividendsReceivedInPeriod).toBe(0);
  });

  it("reverses the parent's share of a foreign operation's translation differences out of its equity reserve", () => {
    const input = loadExample("kaplan-f2-basil-manuel-foreign-nci");
    const basil = input.entities[0]!;
    basil.accounts.push({ id: "equity-income", name: "Share of Manuel's profit", classification: "Revenue" }, { id: "equity-reserve", name: "Share of Manuel's OCI", classification: "Equity", equityKind: "other" });
    const atCost = run(input);
    // At equity: +1,000 of accruals before 2018 and +500 of translation differences (in the reserve),
    // 2018: +640 of profit share and +2,000 of translation differences; no dividend.
    const inv = series(input, 0, "investment");
    inv.amounts = inv.amounts.map((x, t, all) => x + 1_500_00 + (t === all.length - 1 ? 2_640_00 : 0));
    const re = series(input, 0, "re");
    re.amounts = re.amounts.map((x, t, all) => x - 1_000_00 - (t === all.length - 1 ? 640_00 : 0));
    basil.balances.push(
      { account: "equity-reserve", from: "2017-12", amounts: inv.amounts.map((_, t, all) => (t === all.length - 1 ? -2_500_00 : -500_00)) },
      { account: "equity-income", from: "2017-12", amounts: inv.amounts.map((_, t, all) => (t === all.length - 1 ? -640_00 : 0)) },
    );
    Object.assign(rule(input), { parentMethod: "equity", cost: 3_360_00, equityIncomeAccount: "equity-income", equityReserveAccount: "equity-reserve" });
    const atEquity = run(input);
    expect(atEquity.eliminations[0]!.details).toMatchObject({ accrualsBeforePeriod: 1_000_00, equityMethodIncomeInPeriod: 640_00, equityReserveReversedCreditPositive: 2_500_00, dividendsReceivedInPeriod: 0 });
    expect(atEquity.balanceSheet).toEqual(atCost.balanceSheet);
    expect(atEquity.incomeStatement).toEqual(atCost.incomeStatement);
  });
});

describe("a parent at equity: bad input names the field", () => {
  it("needs the cost and the equity-income account", () => {
    const input = loadExample("kaplan-f1-nci-proportionate");
    rule(input).parentMethod = "equity";
    expect(problems(input)).toEqual([
      "$.eliminations.investments[0].cost: parentMethod equity needs the investment's cost at acquisition: the investment account holds cost plus the equity-method accruals",
      "$.eliminations.investments[0].equityIncomeAccount: parentMethod equity needs the parent's Revenue account holding its share of the subsidiary's result, so that it can be reversed",
    ]);
  });

  it("uses the equity-method accounts only with parentMethod equity", () => {
    const input = loadExample("kaplan-f1-nci-proportionate");
    rule(input).equityIncomeAccount = "re";
    expect(problems(input)).toEqual(["$.eliminations.investments[0].equityIncomeAccount: only used with parentMethod equity"]);
  });

  it("refuses accounts of the wrong kind", () => {
    const { equity } = pair();
    Object.assign(rule(equity), { equityIncomeAccount: "ca", dividendIncomeAccount: "nope", equityReserveAccount: "re" });
    expect(problems(equity)).toEqual([
      '$.eliminations.investments[0].equityIncomeAccount: "ca" is a Asset account of the parent: it must be a parent Revenue account holding the equity-method income',
      '$.eliminations.investments[0].dividendIncomeAccount: "nope" is not an account of the parent: it must be a parent Revenue account',
      '$.eliminations.investments[0].equityReserveAccount: "re" is a Equity account of the parent: it must be a parent Equity account with equityKind other',
    ]);
  });

  it("needs the dividend account when the investment fell by more than the income, and refuses an unexplained rise", () => {
    const { equity } = pair();
    delete rule(equity).dividendIncomeAccount;
    expect(problems(equity)).toEqual(["$.eliminations.investments[0].dividendIncomeAccount: investment fell by 20000.00 USD in the period beyond the equity-method income (dividends received from S): name the parent's Revenue account on which they are income at cost"]);
    const rise = pair().equity;
    series(rise, 0, "investment").amounts = [1_604_000_00, 1_700_000_00];
    series(rise, 0, "ca").amounts = [1_030_000_00, 974_000_00];
    expect(problems(rise)).toEqual(["$.eliminations.investments[0].investmentAccount: investment rose by 96000.00 USD in the period, 56000.00 USD more than the equity-method income explain: the engine cannot tell what else was booked on it"]);
  });

  it("needs the reserve account for a subsidiary translated at the current rate", () => {
    const input = loadExample("kaplan-f2-basil-manuel-foreign-nci");
    input.entities[0]!.accounts.push({ id: "equity-income", name: "Share of Manuel's profit", classification: "Revenue" });
    Object.assign(rule(input), { parentMethod: "equity", cost: 3_360_00, equityIncomeAccount: "equity-income" });
    expect(problems(input)).toEqual(["$.eliminations.investments[0].equityReserveAccount: Manuel is translated at the current rate: name the parent's Equity (other) account holding its share of Manuel's translation differences under the equity method"]);
  });
});
