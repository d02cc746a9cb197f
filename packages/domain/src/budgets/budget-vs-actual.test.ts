import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { budgetFiscalYear, budgetVsActual, missingBudgetRates, percentOf, type BudgetEntity, type BudgetVsActualInput } from "./budget-vs-actual.ts";

const m = (entries: Record<string, number>) => new Map(Object.entries(entries));

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
  it("Choi & Meek, International Accounting (7th ed.), ch. 10 (Exhibit 10-6 method): Sully Ltée's Korean affiliate, budget at the forecast rate", () => {
    // Published: budget KRW 8,000,000k sales and 6,400,000k expenses at the forecast rate CAD 0.00032 =
    // CAD 2,560k / 2,048k / 512k; actual translated at the year-end spot 0.00024 = CAD 2,160k / 1,680k / 480k.
    // The local actuals (9,000,000k / 7,000,000k) and the variances are derived from those figures.
    // Amounts in thousands of won (exponent 0) and thousands of dollars in cents (exponent 2).
    const statement = budgetVsActual(
      single(
        {
          currency: "KRW",
          budget: m({ sales: 8_000_000, expenses: 6_400_000 }),
          actualLocal: m({ sales: 9_000_000, expenses: 7_000_000 }),
          actualTranslated: m({ sales: 216_000, expenses: 168_000 }),
        },
        "0.00032",
        { sales: 216_000, expenses: 168_000 },
      ),
    );
    const [sales] = statement.revenue.lines;
    const [expenses] = statement.expenses.lines;
    expect(sales).toMatchObject({ budget: 256_000, actual: 216_000, actualAtBudgetRate: 288_000, variance: -40_000, constantCurrencyVariance: 32_000, fxEffect: -72_000, favourable: false, variancePercent: "-15.6" });
    expect(expenses).toMatchObject({ budget: 204_800, actual: 168_000, actualAtBudgetRate: 224_000, variance: -36_800, constantCurrencyVariance: 19_200, fxEffect: -56_000, favourable: true });
    // The manager beat the budget by CAD 128k at the budget rate; the won's fall took 160k: −32k in all.
    expect(statement.netIncome).toMatchObject({ budget: 51_200, actual: 48_000, actualAtBudgetRate: 64_000, variance: -3_200, constantCurrencyVariance: 12_800, fxEffect: -16_000, favourable: false, variancePercent: "-6.3" });
    expect(statement.entities).toEqual([{ id: "k", name: "Korean affiliate", currency: "KRW", budgetRate: "0.00032", budgetLocal: 1_600_000, budget: 51_200, actualLocal: 2_000_000, actualAtBudgetRate: 64_000 }]);
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
