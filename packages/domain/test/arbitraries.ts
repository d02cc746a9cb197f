import fc from "fast-check";
import { formatMonth, parseMonth, type ConsolidationInputJson } from "../src/index.ts";

/**
 * Random but internally consistent groups: every entity's month-end balance sheet balances and
 * its retained earnings move by exactly the month's result and dividends, as real books do.
 */
type Cls = "Asset" | "Liability" | "Equity" | "Revenue" | "Expense";
const CHART: { id: string; classification: Cls; equityKind?: "contributedCapital" | "retainedEarnings" | "dividends" | "other"; monetary?: boolean }[] = [
  { id: "cash", classification: "Asset", monetary: true },
  { id: "ic-receivable", classification: "Asset", monetary: true },
  { id: "stock", classification: "Asset", monetary: false },
  { id: "ic-payable", classification: "Liability" },
  { id: "loan", classification: "Liability" },
  { id: "capital", classification: "Equity", equityKind: "contributedCapital" },
  { id: "re", classification: "Equity", equityKind: "retainedEarnings" },
  { id: "div", classification: "Equity", equityKind: "dividends" },
  { id: "sales", classification: "Revenue" },
  { id: "ic-sales", classification: "Revenue" },
  { id: "costs", classification: "Expense" },
  { id: "ic-costs", classification: "Expense" },
];
const PARENT_EXTRA = [
  { id: "investment", classification: "Asset" as const },
  { id: "goodwill", classification: "Asset" as const },
  { id: "cta", classification: "Equity" as const, equityKind: "other" as const },
  { id: "nci", classification: "Equity" as const, equityKind: "other" as const },
  { id: "fx", classification: "Expense" as const },
];

const amount = (max: number) => fc.integer({ min: 0, max });
// Rates between 0.01 and 100 with 2-6 decimals: wide enough for JPY→USD and KWD→USD, narrow
// enough that goodwill retranslation stays far inside ±2^53 minor units.
const rateText = fc.integer({ min: 2, max: 6 }).chain((d) => fc.integer({ min: 10 ** (d - 2), max: 10 ** (d + 2) }).map((n) => (n / 10 ** d).toFixed(d)));

/** A yen is worth about a hundredth of the others (and has no minor unit): scale its rates. */
function yenScaled(currency: string, rate: string): string {
  if (currency !== "JPY") return rate;
  const decimals = (rate.split(".")[1] ?? "").length + 2;
  return (Number(rate) / 100).toFixed(decimals);
}

interface EntityBooks {
  series: Record<string, number[]>;
  dividends: { month: string; amount: number; rate?: string }[];
}

const OPENING = parseMonth("2023-12");

function booksArb(months: number): fc.Arbitrary<EntityBooks> {
  const month = fc.record({
    receivable: amount(500_000),
    stock: amount(2_000_000),
    payable: amount(400_000),
    loan: amount(1_000_000),
    sales: amount(900_000),
    icSales: amount(200_000),
    costs: amount(800_000),
    icCosts: amount(100_000),
    capitalIncrease: fc.oneof(fc.constant(0), amount(300_000)),
    dividend: fc.oneof(fc.constant(0), fc.constant(0), amount(100_000)),
  });
  return fc.tuple(amount(1_000_000), fc.array(month, { minLength: months, maxLength: months }), fc.array(rateText, { minLength: months, maxLength: months })).map(([capital0, ms, divRates]) => {
    const s: Record<string, number[]> = Object.fromEntries(CHART.map((a) => [a.id, new Array<number>(months).fill(0)]));
    const dividends: EntityBooks["dividends"] = [];
    let capital = -(capital0 + 1000);
    let retained = 0;
    let divBalance = 0;
    ms.forEach((m, t) => {
      if (t > 0) {
        capital -= m.capitalIncrease;
        s.sales![t] = -m.sales;
        s["ic-sales"]![t] = -m.icSales;
        s.costs![t] = m.costs;
        s["ic-costs"]![t] = m.icCosts;
        retained += -m.sales - m.icSales + m.costs + m.icCosts;
        if (m.dividend > 0) {
          divBalance += m.dividend;
          dividends.push({ month: formatMonth(OPENING + t), amount: m.dividend, ...(t % 2 ? { rate: divRates[t]! } : {}) });
        }
      }
      s["ic-receivable"]![t] = m.receivable;
      s.stock![t] = m.stock;
      s["ic-payable"]![t] = -m.payable;
      s.loan![t] = -m.loan;
      s.capital![t] = capital;
      s.re![t] = retained;
      s.div![t] = divBalance;
      s.cash![t] = -(m.receivable + m.stock - m.payable - m.loan + capital + retained + divBalance);
    });
    return { series: s, dividends };
  });
}

export interface GroupShape {
  input: ConsolidationInputJson;
  months: number;
}

export function groupArb(options: { maxMonths?: number; maxSubsidiaries?: number } = {}): fc.Arbitrary<GroupShape> {
  const maxMonths = options.maxMonths ?? 4;
  return fc.integer({ min: 2, max: maxMonths + 1 }).chain((months) =>
    fc
      .record({
        parent: booksArb(months),
        subs: fc.array(
          fc.record({
            books: booksArb(months),
            currency: fc.constantFrom("EUR", "JPY", "KWD", "GBP", "USD"),
            ownership: fc.constantFrom("1", "0.8", "0.75", "0.6", "0.51"),
            method: fc.constantFrom("currentRate", "currentRate", "temporal"),
            capitalRate: rateText,
            stockRate: rateText,
            openingRe: fc.integer({ min: -500_000, max: 500_000 }),
            investment: fc.boolean(),
          }),
          { minLength: 1, maxLength: options.maxSubsidiaries ?? 3 },
        ),
        rates: fc.dictionary(fc.constantFrom("EUR", "JPY", "KWD", "GBP"), fc.array(fc.tuple(rateText, rateText), { minLength: months, maxLength: months })),
        pairs: fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.constantFrom("fx", "cta")), { maxLength: 3 }),
      })
      .map(({ parent, subs, rates, pairs }) => {
        const monthKeys = Array.from({ length: months }, (_, t) => formatMonth(OPENING + t));
        const rateTable: ConsolidationInputJson["rates"] = {};
        for (const c of ["EUR", "JPY", "KWD", "GBP"]) {
          const list = rates[c] ?? monthKeys.map(() => ["1.1", "1.2"] as [string, string]);
          rateTable[c] = Object.fromEntries(monthKeys.map((k, t) => [k, { average: yenScaled(c, list[t]![0]), closing: yenScaled(c, list[t]![1]) }]));
        }
        const parentSeries: Record<string, number[]> = { ...parent.series, investment: new Array<number>(months).fill(0) };
        // The investment is carried at cost: large enough that goodwill is never negative.
        const investments: NonNullable<ConsolidationInputJson["eliminations"]>["investments"] = [];
        subs.forEach((s, i) => {
          if (!s.investment) return;
          investments!.push({ id: `inv${i}`, subsidiary: `s${i}`, investmentAccount: "investment", cost: 10_000_000_000, goodwillTranslation: i % 2 ? "historical" : "closing" });
        });
        const investmentTotal = investments!.length * 10_000_000_000;
        parentSeries.investment = parentSeries.investment!.map(() => investmentTotal);
        parentSeries.capital = parentSeries.capital!.map((x) => x - investmentTotal);
        const input: ConsolidationInputJson = {
          reportingCurrency: "USD",
          period: { from: monthKeys[1]!, to: monthKeys[months - 1]! },
          entities: [
            {
              id: "p",
              name: "Parent",
              role: "parent",
              currency: "USD",
              accounts: [...CHART, ...PARENT_EXTRA].map((a) => ({ ...a, name: a.id })),
              opening: { month: monthKeys[0]! },
              balances: Object.entries(parentSeries).map(([account, amounts]) => ({ account, from: monthKeys[0]!, amounts })),
              dividends: parent.dividends.map(({ month, amount }) => ({ month, amount })),
            },
            ...subs.map((s, i) => ({
              id: `s${i}`,
              name: `Sub ${i}`,
              role: "subsidiary" as const,
              currency: s.currency,
              ownership: s.ownership,
              method: s.method as "currentRate" | "temporal",
              accounts: CHART.map((a) => ({ ...a, name: a.id })),
              opening: { month: monthKeys[0]!, ...(s.currency === "USD" ? {} : { retainedEarnings: s.openingRe }) },
              historical: [
                { account: "capital", rate: yenScaled(s.currency, s.capitalRate) },
                ...(s.method === "temporal" ? [{ account: "stock", rate: yenScaled(s.currency, s.stockRate) }] : []),
              ],
              balances: Object.entries(s.books.series).map(([account, amounts]) => ({ account, from: monthKeys[0]!, amounts })),
              dividends: s.books.dividends,
            })),
          ],
          rates: rateTable,
          maps: subs.map((_, i) => ({ entity: `s${i}`, lines: Object.fromEntries(CHART.map((a) => [a.id, a.id])) })),
          designatedAccounts: { cta: "cta", fxDifference: "fx", goodwill: "goodwill", nci: "nci" },
          eliminations: {
            intercompany: pairs.map(([n, balance, to], k) => {
              const sub = `s${n % subs.length}`;
              return balance
                ? { id: `pair${k}`, kind: "receivablePayable" as const, left: { entity: sub, account: "ic-receivable" }, right: { entity: "p", account: "ic-payable" }, differenceTo: to }
                : { id: `pair${k}`, kind: "revenueExpense" as const, left: { entity: sub, account: "ic-sales" }, right: { entity: "p", account: "ic-costs" }, differenceTo: to };
            }),
            investments,
          },
        };
        return { input, months };
      }),
  );
}

/**
 * Carries the parent's investment at `total` on its "investment" account in every month, against
 * its capital, so its books still balance (for tests that choose their own investments).
 */
export function carryInvestmentAt(input: ConsolidationInputJson, total: number): void {
  const parent = input.entities[0]!;
  const investment = parent.balances.find((b) => b.account === "investment")!;
  const capital = parent.balances.find((b) => b.account === "capital")!;
  capital.amounts = capital.amounts.map((x, t) => x + investment.amounts[t]! - total);
  investment.amounts = investment.amounts.map(() => total);
}
