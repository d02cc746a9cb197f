import { describe, expect, it } from "vitest";
import { smallGroup, type SmallGroupOptions } from "../../test/small-group.ts";
import type { ConsolidationInputJson } from "./input-schema.ts";
import { type ConsolidationOutput } from "./output-schema.ts";
import { profitFraction } from "./unrealised-profit.ts";
import { columnsSumToZero, consolidatedAmount as value, nciSumOfParts, problems, run } from "../../test/engine.ts";

type Rule = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["unrealisedProfit"]>[number];

function withRules(rules: Rule[], options: SmallGroupOptions = {}): ConsolidationInputJson {
  const input = smallGroup(options);
  input.eliminations!.unrealisedProfit = rules;
  return input;
}
const elimination = (out: ConsolidationOutput) => out.eliminations.find((e) => e.kind === "unrealisedProfit")!;
const rule = (over: Partial<Rule>): Rule => ({ id: "urp", seller: "p", buyer: "s", inventoryAccount: "stock", cogsAccount: "cogs", ...over });
const usd: SmallGroupOptions = { subCurrency: "USD" };

/** Checks every total the NCI schedule and the balance sheet must agree on. */
function expectConsistent(out: ConsolidationOutput): void {
  for (const n of out.nci) {
    expect(n.closing).toBe(nciSumOfParts(n));
  }
  expect(out.balanceSheet.nonControllingInterests).toBe(out.nci.reduce((s, n) => s + n.closing, 0));
  expect(out.balanceSheet.balanced).toBe(true);
  columnsSumToZero(out);
}

describe("profit as a fraction of the transfer price", () => {
  it("takes a margin as given and a mark-up m as m / (1 + m), exactly", () => {
    expect(profitFraction({ margin: "0.25" })).toEqual({ num: 25n, den: 100n });
    expect(profitFraction({ markup: "0.25" })).toEqual({ num: 25n, den: 125n });
    expect(profitFraction({ markup: "0.333" })).toEqual({ num: 333n, den: 1333n });
    expect(profitFraction({ margin: "0" })).toEqual({ num: 0n, den: 1n });
  });
});

describe("unrealised profit in closing inventory", () => {
  const base = run(smallGroup(usd));

  it("downstream (the parent sold): Dr cost of sales / Cr inventory, all charged to the parent", () => {
    const out = run(withRules([rule({ closing: { inventory: 1_000_00, margin: "0.25" } })], usd));
    expect(elimination(out).lines).toEqual([
      { account: "cogs", name: "Cost of sales", amount: 250_00 },
      { account: "stock", name: "Inventory", amount: -250_00 },
    ]);
    expect(elimination(out).details).toMatchObject({ seller: "p", buyer: "s", closingUnrealisedLocal: 250_00, closingProfitEliminated: 250_00, closingInventoryReduction: 250_00, closingCtaCreditPositive: 0, sharedWithNci: "no" });
    expect(value(out, "stock")).toBe(value(base, "stock") - 250_00);
    expect(out.incomeStatement.netIncome).toBe(base.incomeStatement.netIncome - 250_00);
    expect(out.incomeStatement.attributableToNci).toBe(base.incomeStatement.attributableToNci);
    expect(out.nci[0]).toMatchObject({ netIncome: 400_00, adjustedProfit: 2_000_00, unrealisedProfitInPeriod: 0 });
    expectConsistent(out);
  });

  it("upstream (a subsidiary with NCI sold): the NCI's share of profit is taken of its profit less the unrealised profit", () => {
    const out = run(withRules([rule({ seller: "s", buyer: "p", closing: { inventory: 1_000_00, margin: "0.25" } })], usd));
    expect(elimination(out).details.sharedWithNci).toBe("yes");
    // 20% × (2,000 − 250) = 350.
    expect(out.nci[0]).toMatchObject({ adjustedProfit: 1_750_00, unrealisedProfitInPeriod: -250_00, netIncome: 350_00, closing: 2_000_00 + 350_00 });
    expect(out.incomeStatement).toMatchObject({ netIncome: base.incomeStatement.netIncome - 250_00, attributableToNci: 350_00 });
    expect(out.incomeStatement.attributableToParent).toBe(base.incomeStatement.attributableToParent - 200_00);
    expectConsistent(out);
  });

  it("takes a mark-up on cost: 25% on cost is a fifth of the price", () => {
    const out = run(withRules([rule({ closing: { inventory: 1_000_00, markup: "0.25" } })], usd));
    expect(elimination(out).details).toMatchObject({ closingMarkup: "0.25", closingUnrealisedLocal: 200_00, closingProfitEliminated: 200_00 });
  });

  it("rounds the unrealised profit once, half away from zero", () => {
    const out = run(withRules([rule({ closing: { inventory: 1_01, margin: "0.5" } })], usd));
    expect(elimination(out).details.closingUnrealisedLocal).toBe(51);
  });

  it("a zero margin or inventory books nothing but still reports", () => {
    const out = run(withRules([rule({ closing: { inventory: 1_000_00, margin: "0" } })], usd));
    expect(elimination(out).lines).toEqual([]);
    expect(out.balanceSheet).toEqual(base.balanceSheet);
  });
});

describe("unrealised profit in opening inventory (eliminated last period, realised in this one)", () => {
  const base = run(smallGroup(usd));

  it("downstream: Dr retained earnings / Cr cost of sales, all the parent's", () => {
    const out = run(withRules([rule({ opening: { inventory: 400_00, margin: "0.25" } })], usd));
    expect(elimination(out).lines).toEqual([
      { account: "re", name: "Retained earnings", amount: 100_00 },
      { account: "cogs", name: "Cost of sales", amount: -100_00 },
    ]);
    expect(elimination(out).details).toMatchObject({ openingUnrealisedLocal: 100_00, openingProfitRealised: 100_00 });
    expect(out.incomeStatement.netIncome).toBe(base.incomeStatement.netIncome + 100_00);
    expect(out.nci[0]).toEqual(base.nci[0]);
    // Equity in total is unchanged: the profit moves from last period's to this one's.
    expect(out.balanceSheet.totalEquity).toBe(base.balanceSheet.totalEquity);
    expectConsistent(out);
  });

  it("upstream: the NCI shares the realised profit and bears its share of the opening amount", () => {
    const out = run(withRules([rule({ seller: "s", buyer: "p", opening: { inventory: 400_00, margin: "0.25" } })], usd));
    // Profit share 20% × (2,000 + 100) = 420; opening share 20% × 100 = 20; NCI 2,000 + 420 − 20.
    expect(out.nci[0]).toMatchObject({ adjustedProfit: 2_100_00, unrealisedProfitInPeriod: 100_00, netIncome: 420_00, unrealisedProfitBeforePeriod: 20_00, closing: 2_400_00 });
    expect(value(out, "re")).toBe(value(base, "re") + 80_00);
    expect(out.balanceSheet.nonControllingInterests).toBe(2_400_00);
    expect(out.balanceSheet.nonControllingInterests).toBe(base.balanceSheet.nonControllingInterests);
    expectConsistent(out);
  });

  it("with both: the NCI's share of profit moves by its share of the change", () => {
    const out = run(withRules([rule({ seller: "s", buyer: "p", opening: { inventory: 400_00, margin: "0.25" }, closing: { inventory: 1_000_00, margin: "0.25" } })], usd));
    // 20% × (2,000 + 100 − 250) = 370; closing 2,000 + 370 − 20 = 2,350 = 20% × (12,000 − 250).
    expect(out.nci[0]).toMatchObject({ unrealisedProfitInPeriod: -150_00, netIncome: 370_00, unrealisedProfitBeforePeriod: 20_00, closing: 2_350_00 });
    expectConsistent(out);
  });
});

describe("unrealised profit held by a translated buyer (ASC 830-30-45-10)", () => {
  // EUR: 1.1 in December, January average 1.2, closing 1.25.
  it("eliminates the profit at the rate of the transfers (default: the average of the month) and the inventory at the closing rate, the difference to CTA", () => {
    const out = run(withRules([rule({ closing: { inventory: 1_000_00, margin: "0.25" } })]));
    // €250 of profit: $300.00 at 1.2 out of cost of sales, $312.50 at 1.25 out of inventory, $12.50 less CTA.
    expect(elimination(out).lines).toEqual([
      { account: "cogs", name: "Cost of sales", amount: 300_00 },
      { account: "stock", name: "Inventory", amount: -312_50 },
      { account: "cta", name: "CTA", amount: 12_50 },
    ]);
    expect(elimination(out).details).toMatchObject({ buyerCurrency: "EUR", closingUnrealisedLocal: 250_00, closingProfitRate: "1.2", closingProfitEliminated: 300_00, closingInventoryReduction: 312_50, closingCtaCreditPositive: -12_50 });
    expectConsistent(out);
  });

  it("takes the rate given for the transfers", () => {
    const out = run(withRules([rule({ closing: { inventory: 1_000_00, margin: "0.25", rate: "1.15" } })]));
    expect(elimination(out).details).toMatchObject({ closingProfitRate: "1.15", closingProfitEliminated: 287_50, closingInventoryReduction: 312_50, closingCtaCreditPositive: -25_00 });
  });

  it("realises opening inventory at the average rate of the month before the period (what the previous period eliminated)", () => {
    const out = run(withRules([rule({ opening: { inventory: 400_00, margin: "0.25" } })]));
    expect(elimination(out).details).toMatchObject({ openingUnrealisedLocal: 100_00, openingProfitRate: "1.1", openingProfitRealised: 110_00 });
    expect(elimination(out).lines).toEqual([
      { account: "re", name: "Retained earnings", amount: 110_00 },
      { account: "cogs", name: "Cost of sales", amount: -110_00 },
    ]);
  });

  it("a temporal buyer carries inventory at historical rates: removed at the profit's rate, no CTA", () => {
    const input = withRules([rule({ closing: { inventory: 1_000_00, margin: "0.25" } })]);
    const sub = input.entities[1]!;
    sub.method = "temporal";
    sub.accounts = sub.accounts.map((a) => (a.id === "cash" ? { ...a, monetary: true } : a.id === "stock" ? { ...a, monetary: false } : a));
    sub.historical = [...sub.historical!, { account: "stock", rate: "1.1" }];
    const out = run(input);
    expect(elimination(out).lines).toEqual([
      { account: "cogs", name: "Cost of sales", amount: 300_00 },
      { account: "stock", name: "Inventory", amount: -300_00 },
    ]);
  });

  it("upstream from a translated seller to the parent: the profit is in the parent's dollars", () => {
    const out = run(withRules([rule({ seller: "s", buyer: "p", closing: { inventory: 300_00, margin: "0.5" } })]));
    expect(elimination(out).lines).toEqual([
      { account: "cogs", name: "Cost of sales", amount: 150_00 },
      { account: "stock", name: "Inventory", amount: -150_00 },
    ]);
    // 20% × (€2,000 at 1.2 − $150) = 20% × 2,250.
    expect(out.nci[0]).toMatchObject({ adjustedProfit: 2_250_00, netIncome: 450_00 });
    expectConsistent(out);
  });
});

describe("unrealised profit: bad input is named by its JSON path", () => {
  it("refuses a buyer that is the seller", () => {
    expect(problems(withRules([rule({ buyer: "p", closing: { inventory: 1, margin: "0.1" } })]))).toContain("$.eliminations.unrealisedProfit[0].buyer: the buyer must be another entity than the seller");
  });

  it("names unknown entities", () => {
    const found = problems(withRules([rule({ seller: "x", buyer: "y", closing: { inventory: 1, margin: "0.1" } })]));
    expect(found).toContain('$.eliminations.unrealisedProfit[0].seller: unknown entity "x"');
    expect(found).toContain('$.eliminations.unrealisedProfit[0].buyer: unknown entity "y"');
  });

  it("refuses a margin outside [0, 1)", () => {
    for (const margin of ["1", "1.5", "-0.1", "25%"]) {
      const found = problems(withRules([rule({ closing: { inventory: 1, margin } })]));
      expect(found.some((p) => p.startsWith("$.eliminations.unrealisedProfit[0].closing.margin: ")), margin).toBe(true);
    }
    expect(problems(withRules([rule({ closing: { inventory: 1, margin: "1" } })]))).toContain(
      '$.eliminations.unrealisedProfit[0].closing.margin: must be at least 0 and below 1: the profit as a fraction of the transfer price, e.g. "0.25"',
    );
  });

  it("wants exactly one of margin or mark-up, and some inventory", () => {
    expect(problems(withRules([rule({ closing: { inventory: 1, margin: "0.1", markup: "0.1" } })]))).toContain("$.eliminations.unrealisedProfit[0].closing.margin: give exactly one of margin or markup");
    expect(problems(withRules([rule({ opening: { inventory: 1 } })]))).toContain("$.eliminations.unrealisedProfit[0].opening.margin: give exactly one of margin or markup");
    expect(problems(withRules([rule({})]))).toContain("$.eliminations.unrealisedProfit[0].closing: give the inventory held at the period's end (closing), at its start (opening), or both");
    expect(problems(withRules([rule({ closing: { inventory: -1, margin: "0.1" } })]))).toContain("$.eliminations.unrealisedProfit[0].closing.inventory: must not be negative");
  });

  it("wants a parent Asset for the inventory and a parent Expense for cost of sales", () => {
    const found = problems(withRules([rule({ inventoryAccount: "cogs", cogsAccount: "stock", closing: { inventory: 1, margin: "0.1" } })]));
    expect(found).toContain('$.eliminations.unrealisedProfit[0].inventoryAccount: "cogs" cannot hold the inventory (it must be an Asset): it is Expense');
    expect(found).toContain('$.eliminations.unrealisedProfit[0].cogsAccount: "stock" cannot hold cost of sales (it must be an Expense): it is Asset');
    expect(problems(withRules([rule({ inventoryAccount: "nope", closing: { inventory: 1, margin: "0.1" } })]))).toContain('$.eliminations.unrealisedProfit[0].inventoryAccount: "nope" is not an account of the parent Parent');
  });

  it("refuses a rate for a buyer in the reporting currency", () => {
    expect(problems(withRules([rule({ closing: { inventory: 1, margin: "0.1", rate: "1.2" } })], usd))).toContain("$.eliminations.unrealisedProfit[0].closing.rate: Sub keeps its books in the reporting currency: no rate applies");
  });
});
