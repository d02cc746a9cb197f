import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { budgetFiscalYear, budgetVsActual, missingBudgetRates, percentOf, type BudgetEntity, type BudgetVsActualInput } from "./budget-vs-actual.ts";

const m = <T>(entries: Record<string, T>) => new Map(Object.entries(entries));

/** A one-subsidiary group with nothing in the parent: the three-column analysis of the subsidiary alone. */
function single(sub: Omit<BudgetEntity, "id" | "name" | "exponent"> & { exponent?: number }, rate: string, actualAtActual: Record<string, number>): BudgetVsActualInput {
  return {
    parentCurrency: "CAD",
    exponent: 2,
    accounts: [
      { account: "sales", name: "Sales", section: "revenue" },
      { account: "expenses", name: "Expenses", section: "expenses" },
    ],
    actual: m(actualAtActual),
    entities: [{ id: "k", name: "Korean affiliate", exponent: 0, ...sub }],
    budgetRates: new Map([[sub.currency, rate]]),
  };
}

describe("budget vs actual: the three-column analysis", () => {
  it("Choi & Meek, International Accounting (7th ed.), ch. 10 (Exhibit 10-6 method): Sully Ltée's Korean affiliate, budget at the forecast rate (docs/examples/budgets/choi-meek-budget-rate-variance.json)", () => {
    // Published: the budget at the forecast rate (CAD 2,560k / 2,048k / 512k) and the actual at the year-end
    // spot (CAD 2,160k / 1,680k / 480k); the local actuals and every variance are derived (see the file's comment).
    type Example = {
      input: Omit<BudgetVsActualInput, "actual" | "entities" | "budgetRates"> & {
        actual: Record<string, number>;
        entities: (Omit<BudgetEntity, "budget" | "actualLocal" | "actualTranslated"> & Record<"budget" | "actualLocal" | "actualTranslated", Record<string, number>>)[];
        budgetRates: Record<string, string>;
      };
      expected: Record<"sales" | "expenses" | "netIncome", object> & { entities: object[] };
    };
    const example = JSON.parse(readFileSync(new URL("../../../../docs/examples/budgets/choi-meek-budget-rate-variance.json", import.meta.url), "utf8")) as Example;
    const { input, expected } = example;
    const statement = budgetVsActual({
      ...input,
      actual: m(input.actual),
      entities: input.entities.map((e) => ({ ...e, budget: m(e.budget), actualLocal: m(e.actualLocal), actualTranslated: m(e.actualTranslated) })),
      budgetRates: m(input.budgetRates) as Map<string, string>,
    });
    expect(statement.revenue.lines[0]).toMatchObject(expected.sales);
    expect(statement.expenses.lines[0]).toMatchObject(expected.expenses);
    // The manager beat the budget by CAD 128k at the budget rate; the won's fall took 160k: −32k in all.
    expect(statement.netIncome).toMatchObject(expected.netIncome);
    expect(statement.entities).toEqual(expected.entities);
  });

  it("a published total and constant-currency variance: budget FC 7,400, actual FC 8,200, budget rate 0.62, actual rate 0.69 → USD 1,070 F in all, 496 F at the budget rate (FX 574 F, derived)", () => {
    const input: BudgetVsActualInput = {
      parentCurrency: "USD",
      exponent: 2,
      accounts: [{ account: "profit", name: "Profit", section: "revenue" }],
      actual: m({ profit: 565_800 }),
      entities: [{ id: "s", name: "Sub", currency: "EUR", exponent: 2, budget: m({ profit: 740_000 }), actualLocal: m({ profit: 820_000 }), actualTranslated: m({ profit: 565_800 }) }],
      budgetRates: new Map([["EUR", "0.62"]]),
    };
    const { netIncome } = budgetVsActual(input);
    expect(netIncome).toMatchObject({ budget: 458_800, actual: 565_800, variance: 107_000, constantCurrencyVariance: 49_600, fxEffect: 57_400, favourable: true });
  });

  it("the parent's own lines and eliminations stay at the actual rates; only each subsidiary's lines are re-translated", () => {
    const input: BudgetVsActualInput = {
      parentCurrency: "USD",
      exponent: 2,
      accounts: [
        { account: "4000", name: "Sales", section: "revenue" },
        { account: "6000", name: "Wages", section: "expenses" },
        { account: "6500", name: "Travel", section: "expenses" },
      ],
      // Parent 1,000.00 sales, UK £500.00 at 1.25 = 625.00, less a 100.00 elimination: 1,525.00.
      actual: m({ "4000": 152_500, "6000": 80_000 }),
      entities: [
        { id: "p", name: "Parent", currency: "USD", exponent: 2, budget: m({ "4000": 110_000, "6000": 50_000 }), actualLocal: m({ "4000": 100_000, "6000": 50_000 }), actualTranslated: m({ "4000": 100_000, "6000": 50_000 }) },
        { id: "uk", name: "UK", currency: "GBP", exponent: 2, budget: m({ "4000": 40_000, "6000": 20_000, "6500": 1_001 }), actualLocal: m({ "4000": 50_000, "6000": 25_000 }), actualTranslated: m({ "4000": 62_500, "6000": 30_000 }) },
      ],
      budgetRates: new Map([["GBP", "1.3"]]),
    };
    const s = budgetVsActual(input);
    const line = (a: string) => [...s.revenue.lines, ...s.expenses.lines].find((l) => l.account === a)!;
    expect(line("4000")).toMatchObject({ budget: 110_000 + 52_000, actual: 152_500, actualAtBudgetRate: 152_500 - 62_500 + 65_000 });
    expect(line("6000")).toMatchObject({ budget: 50_000 + 26_000, actual: 80_000, actualAtBudgetRate: 80_000 - 30_000 + 32_500 });
    // 10.01 × 1.3 = 13.013 → 13.01: one rounding per company and account, half away from zero.
    expect(line("6500")).toMatchObject({ budget: 1_301, actual: 0, variance: -1_301, favourable: true, variancePercent: "-100.0" });
    expect(s.expenses.total.budget).toBe(76_000 + 1_301);
    expect(s.netIncome.budget).toBe(162_000 - 77_301);
  });

  it("a line with neither actual nor budget is left out; one with only a budget is shown", () => {
    const s = budgetVsActual({
      parentCurrency: "USD",
      exponent: 2,
      accounts: [
        { account: "a", name: "A", section: "revenue" },
        { account: "b", name: "B", section: "revenue" },
      ],
      actual: new Map(),
      entities: [{ id: "p", name: "P", currency: "USD", exponent: 2, budget: m({ b: 5 }), actualLocal: new Map(), actualTranslated: new Map() }],
      budgetRates: new Map(),
    });
    expect(s.revenue.lines.map((l) => l.account)).toEqual(["b"]);
    expect(s.revenue.lines[0]!.variancePercent).toBe("-100.0");
  });

  it("refuses to compute without a budget rate, or with amounts on an account it does not show", () => {
    const base = single({ currency: "KRW", budget: m({ sales: 1 }), actualLocal: new Map(), actualTranslated: new Map() }, "0.00032", {});
    expect(() => budgetVsActual({ ...base, budgetRates: new Map() })).toThrow(/no budget rate for KRW/);
    expect(() => budgetVsActual({ ...base, entities: [{ ...base.entities[0]!, budget: m({ bank: 1 }) }] })).toThrow(/account bank/);
    expect(() => budgetVsActual({ ...base, actual: m({ bank: 1 }) })).toThrow(/account bank/);
  });

  it("every column is exact and the variances add up: variance = constant-currency variance + FX effect, lines sum to totals (property)", () => {
    const amount = fc.integer({ min: -10_000_000_00, max: 10_000_000_00 });
    const rate = fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 0, max: 6 })).map(([n, s]) => (s === 0 ? String(n) : `${Math.floor(n / 10 ** s)}.${String(n % 10 ** s).padStart(s, "0")}`)).filter((r) => !/^0(\.0*)?$/.test(r));
    fc.assert(
      fc.property(fc.array(fc.tuple(amount, amount, amount, amount), { minLength: 1, maxLength: 6 }), rate, (rows, r) => {
        const accounts = rows.map((_, i) => ({ account: `a${i}`, name: `A${i}`, section: (i % 2 ? "expenses" : "revenue") as "revenue" | "expenses" }));
        const s = budgetVsActual({
          parentCurrency: "USD",
          exponent: 2,
          accounts,
          actual: new Map(rows.map(([, , , t], i) => [`a${i}`, t])),
          entities: [{ id: "x", name: "X", currency: "EUR", exponent: 2, budget: new Map(rows.map(([b], i) => [`a${i}`, b])), actualLocal: new Map(rows.map(([, l], i) => [`a${i}`, l])), actualTranslated: new Map(rows.map(([, , , t], i) => [`a${i}`, t])) }],
          budgetRates: new Map([["EUR", r]]),
        });
        for (const l of [...s.revenue.lines, ...s.expenses.lines, s.revenue.total, s.expenses.total, s.netIncome]) {
          expect(Number.isSafeInteger(l.budget) && Number.isSafeInteger(l.actualAtBudgetRate)).toBe(true);
          expect(l.variance).toBe(l.constantCurrencyVariance + l.fxEffect);
        }
        expect(s.revenue.total.budget).toBe(s.revenue.lines.reduce((a, l) => a + l.budget, 0));
        expect(s.netIncome.actualAtBudgetRate).toBe(s.revenue.total.actualAtBudgetRate - s.expenses.total.actualAtBudgetRate);
        // One member: its budgeted and actual profit at the budget rate are the statement's.
        expect(s.entities[0]!.budget).toBe(s.netIncome.budget);
        // Its lines are all of the consolidated actual here, so re-translating them replaces all of it.
        expect(s.entities[0]!.actualAtBudgetRate).toBe(s.netIncome.actualAtBudgetRate);
      }),
    );
  });
});

describe("budget rates and periods", () => {
  it("names each foreign currency without a rate once, sorted; the parent's own currency needs none", () => {
    expect(missingBudgetRates("USD", ["USD", "GBP", "EUR", "GBP", "CAD"], new Map([["CAD", "0.73"]]))).toEqual(["EUR", "GBP"]);
    expect(missingBudgetRates("USD", ["USD"], new Map())).toEqual([]);
  });

  it("a period is in one fiscal year of the parent (named by the year it ends in), or null", () => {
    expect(budgetFiscalYear("2026-01", "2026-12", 1)).toBe(2026);
    expect(budgetFiscalYear("2025-12", "2026-01", 1)).toBeNull();
    expect(budgetFiscalYear("2025-04", "2026-03", 4)).toBe(2026);
    expect(budgetFiscalYear("2026-03", "2026-04", 4)).toBeNull();
  });

  it("variance % to one decimal, half away from zero, of the budget's size; none on a nil budget", () => {
    expect(percentOf(1, 3)).toBe("33.3");
    expect(percentOf(2, 3)).toBe("66.7");
    expect(percentOf(-2, 3)).toBe("-66.7");
    expect(percentOf(1, 2000)).toBe("0.1"); // 0.05 → 0.1
    expect(percentOf(-1, 2000)).toBe("-0.1");
    expect(percentOf(1, 2001)).toBe("0.0");
    expect(percentOf(5, -10)).toBe("50.0");
    expect(percentOf(0, 7)).toBe("0.0");
    expect(percentOf(7, 0)).toBeNull();
    expect(percentOf(Number.MAX_SAFE_INTEGER, 1)).toBe(`${Number.MAX_SAFE_INTEGER}00.0`);
  });
});
