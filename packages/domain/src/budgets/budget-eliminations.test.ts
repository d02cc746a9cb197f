import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { BUDGET_DIFFERENCE_ACCOUNT, budgetVsActual, type BudgetEntity, type BudgetPair, type BudgetVsActualInput } from "./budget-vs-actual.ts";

const m = <T>(entries: Record<string, T>) => new Map(Object.entries(entries));

type Example = {
  input: Omit<BudgetVsActualInput, "actual" | "entities" | "budgetRates"> & {
    actual: Record<string, number>;
    entities: (Omit<BudgetEntity, "budget" | "actualLocal" | "actualTranslated"> & Record<"budget" | "actualLocal" | "actualTranslated", Record<string, number>>)[];
    budgetRates: Record<string, string>;
  };
  expected: { lines: Record<string, object>; revenue: object; expenses: object; netIncome: object; elimination: object };
};

const example = JSON.parse(readFileSync(new URL("../../../../docs/examples/budgets/intragroup-budget-elimination.json", import.meta.url), "utf8")) as Example;
const exampleInput = (): BudgetVsActualInput => ({
  ...example.input,
  actual: m(example.input.actual),
  entities: example.input.entities.map((e) => ({ ...e, budget: m(e.budget), actualLocal: m(e.actualLocal), actualTranslated: m(e.actualTranslated) })),
  budgetRates: m(example.input.budgetRates) as Map<string, string>,
});

describe("budget vs actual: intra-group budgets eliminated", () => {
  it("the worked example (docs/examples/budgets/intragroup-budget-elimination.json): Germany's intra-group sales and the UK's purchases eliminated at the budget rates, their USD 180.00 disagreement on its own line", () => {
    const s = budgetVsActual(exampleInput());
    const lines = new Map([...s.revenue.lines, ...s.expenses.lines].map((l) => [l.account, l]));
    for (const [account, want] of Object.entries(example.expected.lines)) expect(lines.get(account), account).toMatchObject(want);
    expect(s.expenses.lines.at(-1)).toMatchObject({ account: BUDGET_DIFFERENCE_ACCOUNT, name: "Intra-group budgets that disagree", actual: 0 });
    expect(s.revenue.total).toMatchObject(example.expected.revenue);
    expect(s.expenses.total).toMatchObject(example.expected.expenses);
    expect(s.netIncome).toMatchObject(example.expected.netIncome);
    expect(s.eliminations).toEqual([
      {
        id: "p1",
        name: "Germany to UK goods",
        revenue: { entity: "de", entityName: "Deutschland GmbH", currency: "EUR", account: "4100", accountName: "4125 Intra-group sales", local: 12_000_000, translated: 12_960_000 },
        expense: { entity: "uk", entityName: "UK Ltd", currency: "GBP", account: "5010", accountName: "5010 Purchases - Group Companies", local: 10_300_000, translated: 12_978_000 },
        difference: 18_000,
        match: "unmatched",
      },
    ]);
    // The companies' budgeted profits are the group's: eliminating changes no profit.
    expect(s.entities.reduce((a, e) => a + e.budget, 0)).toBe(s.netIncome.budget);
  });

  it("budgets that agree at the budget rates cancel: no difference line, and the pair is matched (either side may be given first)", () => {
    const input = exampleInput();
    const pair = input.pairs![0]!;
    // £102,857.14 at 1.26 = $129,600.00 (129,599.9964 rounded): the same as Germany's side.
    const agreed: BudgetPair = { ...pair, left: { ...pair.right, local: 10_285_714 }, right: pair.left };
    const uk = input.entities[2]!;
    const s = budgetVsActual({ ...input, pairs: [agreed], entities: [input.entities[0]!, input.entities[1]!, { ...uk, budget: m({ "4000": 40_000_000, "5010": 10_285_714, "6000": 25_000_000 }) }] });
    expect(s.expenses.lines.map((l) => l.account)).not.toContain(BUDGET_DIFFERENCE_ACCOUNT);
    expect(s.eliminations[0]).toMatchObject({ difference: 0, match: "matched", revenue: { entity: "de" }, expense: { entity: "uk" } });
    expect(s.revenue.lines.find((l) => l.account === "4100")).toMatchObject({ budget: 0 });
    expect(s.expenses.lines.find((l) => l.account === "5010")).toMatchObject({ budget: 0 });
  });

  it("a difference within the group's tolerance is still posted and shown, marked within tolerance", () => {
    const input = exampleInput();
    const s = budgetVsActual({ ...input, pairs: [{ ...input.pairs![0]!, tolerance: 20_000 }] });
    expect(s.eliminations[0]).toMatchObject({ difference: 18_000, match: "withinTolerance" });
    expect(s.expenses.lines.at(-1)).toMatchObject({ account: BUDGET_DIFFERENCE_ACCOUNT, budget: 18_000 });
  });

  it("a pair with no budget on either side eliminates nothing and shows no line", () => {
    const input = exampleInput();
    const pair = input.pairs![0]!;
    const s = budgetVsActual({ ...input, pairs: [{ ...pair, left: { ...pair.left, local: 0 }, right: { ...pair.right, local: 0 } }] });
    expect(s.eliminations[0]).toMatchObject({ difference: 0, match: "matched" });
    expect(s.revenue.total.budgetEliminations).toBe(0);
  });

  it("refuses a pair whose side is not a member, is on an account the statement does not show, or whose sides are not one revenue and one expense line", () => {
    const input = exampleInput();
    const pair = input.pairs![0]!;
    expect(() => budgetVsActual({ ...input, pairs: [{ ...pair, left: { ...pair.left, entity: "ca" } }] })).toThrow(/side in ca, not a member/);
    expect(() => budgetVsActual({ ...input, pairs: [{ ...pair, left: { ...pair.left, account: "1200" } }] })).toThrow(/account 1200/);
    expect(() => budgetVsActual({ ...input, pairs: [{ ...pair, right: { ...pair.right, account: "4000" } }] })).toThrow(/one side on a revenue line and one on an expense line/);
  });

  it("consolidated budget = Σ translated budgets − eliminations to the cent on every line, profit unchanged by eliminating, the three variances still add up (property)", () => {
    // Up to 1e8 minor units at a rate up to 99,999 from a 0-decimal currency: within safe integers.
    const amount = fc.integer({ min: -1_000_000_00, max: 1_000_000_00 });
    const rate = fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 0, max: 6 })).map(([n, s]) => (s === 0 ? String(n) : `${Math.floor(n / 10 ** s)}.${String(n % 10 ** s).padStart(s, "0")}`)).filter((r) => !/^0(\.0*)?$/.test(r));
    const accounts = [
      { account: "r1", name: "R1", section: "revenue" as const },
      { account: "r2", name: "R2", section: "revenue" as const },
      { account: "x1", name: "X1", section: "expenses" as const },
      { account: "x2", name: "X2", section: "expenses" as const },
    ];
    const entityArb = fc.record({ currency: fc.constantFrom("USD", "EUR", "JPY", "KWD"), budget: fc.array(amount, { minLength: 4, maxLength: 4 }), actual: fc.array(amount, { minLength: 4, maxLength: 4 }) });
    const pairArb = fc.record({ l: fc.nat(3), r: fc.nat(3), revenue: fc.nat(1), expense: fc.nat(1), a: amount, b: amount, tolerance: fc.nat(1000) });
    fc.assert(
      fc.property(fc.array(entityArb, { minLength: 2, maxLength: 4 }), fc.array(pairArb, { maxLength: 4 }), rate, rate, rate, (members, pairs, eur, jpy, kwd) => {
        const exponentOf = (c: string) => (c === "JPY" ? 0 : c === "KWD" ? 3 : 2);
        const entities: BudgetEntity[] = members.map((e, i) => ({
          id: `e${i}`,
          name: `E${i}`,
          currency: e.currency,
          exponent: exponentOf(e.currency),
          budget: new Map(accounts.map((a, k) => [a.account, e.budget[k]!])),
          actualLocal: new Map(accounts.map((a, k) => [a.account, e.actual[k]!])),
          actualTranslated: new Map(accounts.map((a, k) => [a.account, e.actual[k]!])),
        }));
        const budgetPairs: BudgetPair[] = pairs.map((p, i) => ({
          id: `p${i}`,
          name: `P${i}`,
          tolerance: p.tolerance,
          left: { entity: `e${p.l % entities.length}`, account: `r${p.revenue + 1}`, accountName: "rev", local: p.a },
          right: { entity: `e${p.r % entities.length}`, account: `x${p.expense + 1}`, accountName: "exp", local: p.b },
        }));
        const actual = new Map(accounts.map((a) => [a.account, entities.reduce((s, e) => s + e.actualTranslated.get(a.account)!, 0)]));
        const input: BudgetVsActualInput = { parentCurrency: "USD", exponent: 2, accounts, actual, entities, budgetRates: m({ EUR: eur, JPY: jpy, KWD: kwd }), pairs: budgetPairs };
        const s = budgetVsActual(input);
        const plain = budgetVsActual({ ...input, pairs: [] });
        const lines = [...s.revenue.lines, ...s.expenses.lines];
        const before = new Map([...plain.revenue.lines, ...plain.expenses.lines].map((l) => [l.account, l.budget]));
        const removed = new Map<string, number>();
        for (const e of s.eliminations) {
          removed.set(e.revenue.account, (removed.get(e.revenue.account) ?? 0) + e.revenue.translated);
          removed.set(e.expense.account, (removed.get(e.expense.account) ?? 0) + e.expense.translated);
          expect(e.difference).toBe(e.expense.translated - e.revenue.translated);
        }
        const differences = s.eliminations.reduce((a, e) => a + e.difference, 0);
        removed.set(BUDGET_DIFFERENCE_ACCOUNT, -differences);
        for (const l of lines) {
          // The companies' column is the budgets translated, as without pairs; the budget is it less what the pairs remove.
          expect(l.budgetCompanies).toBe(before.get(l.account) ?? 0);
          expect(l.budgetEliminations).toBe(removed.get(l.account) ?? 0);
          expect(l.budget).toBe(l.budgetCompanies - l.budgetEliminations);
        }
        for (const c of [...lines, s.revenue.total, s.expenses.total, s.netIncome]) {
          expect(Number.isSafeInteger(c.budget)).toBe(true);
          expect(c.variance).toBe(c.constantCurrencyVariance + c.fxEffect);
          expect(c.budget).toBe(c.budgetCompanies - c.budgetEliminations);
        }
        expect(s.revenue.total.budget).toBe(s.revenue.lines.reduce((a, l) => a + l.budget, 0));
        expect(s.expenses.total.budget).toBe(s.expenses.lines.reduce((a, l) => a + l.budget, 0));
        // Eliminating changes no profit: the group's budgeted profit is the companies' summed.
        expect(s.netIncome.budget).toBe(plain.netIncome.budget);
        expect(s.netIncome.budgetEliminations).toBe(0);
        expect(s.netIncome.budget).toBe(s.entities.reduce((a, e) => a + e.budget, 0));
        expect(lines.some((l) => l.account === BUDGET_DIFFERENCE_ACCOUNT)).toBe(differences !== 0);
      }),
      { numRuns: 300 },
    );
  });
});
