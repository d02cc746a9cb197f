/**
 * Budget vs actual for a group (issue 23): budgets kept per company account in the company's own
 * currency, mapped onto the parent's chart, translated at one budget rate per currency for the
 * fiscal year, and set against the consolidated profit and loss.
 *
 * The three columns of the management-accounting analysis of a foreign operation's results
 * (CIMA P2 / ACCA APM "constant-currency" or "budget-rate" variance analysis; docs/engine.md
 * "Budget vs actual"):
 *
 *   budget at the budget rate            B  = Σ budget (local) × budget rate
 *   actual at the budget rate            AB = Σ actual (local) × budget rate
 *   actual at the actual rates           A  = the consolidated P&L (average rate of each month)
 *
 *   variance in the parent currency      A − B
 *   constant-currency variance           AB − B  (the operating performance)
 *   effect of exchange rates (FX)        A − AB  (= (A − B) − (AB − B))
 *
 * Amounts are integer minor units in each line's natural sign: revenue credit positive, expenses
 * debit positive. Each company's total for a parent account is translated once (one rounding per
 * company and account, half away from zero, as the engine's), then summed, so every column is
 * exact and the three variances add up to the cent.
 *
 * What stays at the actual rates in AB: the consolidation's own lines (eliminations, group
 * adjustments, a temporal subsidiary's remeasurement) are in the parent's currency already and
 * are not re-translated; only each subsidiary's own translated P&L lines are replaced by their
 * local amounts at the budget rate.
 */

import { mulDivRound, parseRate, translationFactor } from "../money/rate.ts";
import { fiscalYearOf, parseMonth } from "../periods/month.ts";

/**
 * The parent's fiscal year a period lies in (named by the calendar year it ends in), whose budget
 * rates translate it; null when the period runs over two fiscal years, which have two sets of rates.
 */
export function budgetFiscalYear(from: string, to: string, fiscalYearStartMonth: number): number | null {
  const year = fiscalYearOf(parseMonth(from), fiscalYearStartMonth);
  return fiscalYearOf(parseMonth(to), fiscalYearStartMonth) === year ? year : null;
}

export type BudgetSection = "revenue" | "expenses";

/** A parent P&L account the statement shows. */
export interface BudgetStatementAccount {
  readonly account: string;
  readonly name: string;
  readonly section: BudgetSection;
}

/** One member of the group for the period. */
export interface BudgetEntity {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly exponent: number;
  /** Budget per parent account, local minor units, natural sign. */
  readonly budget: ReadonlyMap<string, number>;
  /** Actual per parent account, local minor units, natural sign: the company's own P&L lines in the consolidation. */
  readonly actualLocal: ReadonlyMap<string, number>;
  /** The same lines as the consolidation translated them (actual rates), parent minor units, natural sign. */
  readonly actualTranslated: ReadonlyMap<string, number>;
}

export interface BudgetVsActualInput {
  readonly parentCurrency: string;
  readonly exponent: number;
  /** Parent P&L accounts, in the order the statement shows them. */
  readonly accounts: readonly BudgetStatementAccount[];
  /** The consolidated P&L at the actual rates, per parent account, natural sign. */
  readonly actual: ReadonlyMap<string, number>;
  readonly entities: readonly BudgetEntity[];
  /** Budget rate per foreign currency: parent units per one unit of it (exact decimal text). */
  readonly budgetRates: ReadonlyMap<string, string>;
}

export interface BudgetColumns {
  readonly actual: number;
  readonly budget: number;
  readonly actualAtBudgetRate: number;
  /** actual − budget, in the parent currency. */
  readonly variance: number;
  /** variance ÷ |budget| × 100, one decimal, half away from zero; null when the budget is 0. */
  readonly variancePercent: string | null;
  /** actualAtBudgetRate − budget. */
  readonly constantCurrencyVariance: number;
  /** actual − actualAtBudgetRate = variance − constantCurrencyVariance. */
  readonly fxEffect: number;
  /** Whether the variance helps profit: more revenue, or less expense, than budgeted; null when nil. */
  readonly favourable: boolean | null;
}

export interface BudgetLine extends BudgetColumns {
  readonly account: string;
  readonly name: string;
  readonly section: BudgetSection;
}

export interface BudgetVsActualStatement {
  readonly currency: string;
  readonly exponent: number;
  readonly revenue: { readonly lines: BudgetLine[]; readonly total: BudgetColumns };
  readonly expenses: { readonly lines: BudgetLine[]; readonly total: BudgetColumns };
  readonly netIncome: BudgetColumns;
  /** Each member's budgeted and actual profit (revenue − expenses): local, and at the budget rate (parent currency), with the rate used. */
  readonly entities: {
    readonly id: string;
    readonly name: string;
    readonly currency: string;
    readonly budgetRate: string;
    readonly budgetLocal: number;
    readonly budget: number;
    readonly actualLocal: number;
    readonly actualAtBudgetRate: number;
  }[];
}

/** The currencies among the members that need a budget rate and have none (never taken as 1 or 0). */
export function missingBudgetRates(parentCurrency: string, currencies: Iterable<string>, rates: ReadonlyMap<string, string>): string[] {
  return [...new Set(currencies)].filter((c) => c !== parentCurrency && !rates.has(c)).sort();
}

/** variance ÷ |base| × 100 with one decimal, half away from zero, exact; null when base is 0. */
export function percentOf(variance: number, base: number): string | null {
  if (base === 0) return null;
  const num = BigInt(variance) * 1000n;
  const den = BigInt(Math.abs(base));
  const q = num / den;
  const r = num % den;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  const tenths = abs(r) * 2n >= den ? (num < 0n ? q - 1n : q + 1n) : q;
  const sign = tenths < 0n ? "-" : "";
  const t = abs(tenths);
  return `${sign}${t / 10n}.${t % 10n}`;
}

/** +1 for revenue, −1 for expenses: what a line adds to profit. */
const profitSign = (section: BudgetSection): number => (section === "revenue" ? 1 : -1);

function columns(section: BudgetSection | "netIncome", actual: number, budget: number, actualAtBudgetRate: number): BudgetColumns {
  const variance = actual - budget;
  const sign = section === "expenses" ? -1 : 1;
  return {
    actual,
    budget,
    actualAtBudgetRate,
    variance,
    variancePercent: percentOf(variance, budget),
    constantCurrencyVariance: actualAtBudgetRate - budget,
    fxEffect: actual - actualAtBudgetRate,
    favourable: variance === 0 ? null : variance * sign > 0,
  };
}

function sumColumns(section: BudgetSection | "netIncome", parts: readonly BudgetColumns[]): BudgetColumns {
  const total = (k: "actual" | "budget" | "actualAtBudgetRate") => parts.reduce((s, p) => s + p[k], 0);
  return columns(section, total("actual"), total("budget"), total("actualAtBudgetRate"));
}

/**
 * The statement. Throws when a member's currency has no budget rate (the caller checks
 * `missingBudgetRates` first and answers with the currency named) or when a member's budget or
 * actual sits on an account the statement does not show.
 */
export function budgetVsActual(input: BudgetVsActualInput): BudgetVsActualStatement {
  const { parentCurrency, exponent } = input;
  const missing = missingBudgetRates(parentCurrency, input.entities.map((e) => e.currency), input.budgetRates);
  if (missing.length) throw new Error(`no budget rate for ${missing.join(", ")}`);
  const known = new Map(input.accounts.map((a) => [a.account, a.section]));
  for (const account of input.actual.keys()) if (!known.has(account)) throw new Error(`the consolidated actual is on account ${account}, not a profit and loss account of the statement`);
  const budget = new Map<string, number>();
  const atBudget = new Map<string, number>(input.actual);
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const entities: BudgetVsActualStatement["entities"] = [];
  for (const e of input.entities) {
    const rateText = e.currency === parentCurrency ? "1" : input.budgetRates.get(e.currency)!;
    const factor = translationFactor(parseRate(rateText), e.exponent, exponent);
    const row = { id: e.id, name: e.name, currency: e.currency, budgetRate: rateText, budgetLocal: 0, budget: 0, actualLocal: 0, actualAtBudgetRate: 0 };
    for (const [account, local] of e.budget) {
      const s = known.get(account);
      if (!s) throw new Error(`${e.name}'s budget is on account ${account}, not a profit and loss account of the statement`);
      const translated = mulDivRound(local, factor);
      add(budget, account, translated);
      row.budgetLocal += profitSign(s) * local;
      row.budget += profitSign(s) * translated;
    }
    for (const [account, local] of e.actualLocal) {
      const s = known.get(account);
      if (!s) throw new Error(`${e.name}'s actual is on account ${account}, not a profit and loss account of the statement`);
      const translated = mulDivRound(local, factor);
      // Replace the member's lines at the actual rates by the same lines at the budget rate.
      add(atBudget, account, translated - (e.actualTranslated.get(account) ?? 0));
      row.actualLocal += profitSign(s) * local;
      row.actualAtBudgetRate += profitSign(s) * translated;
    }
    for (const account of e.actualTranslated.keys()) {
      if (!e.actualLocal.has(account)) throw new Error(`${e.name}'s translated actual on ${account} has no local amount`);
    }
    entities.push(row);
  }
  const section = (s: BudgetSection) => {
    const lines: BudgetLine[] = input.accounts
      .filter((a) => a.section === s)
      .map((a) => ({ account: a.account, name: a.name, section: s, ...columns(s, input.actual.get(a.account) ?? 0, budget.get(a.account) ?? 0, atBudget.get(a.account) ?? 0) }))
      .filter((l) => l.actual !== 0 || l.budget !== 0 || l.actualAtBudgetRate !== 0);
    return { lines, total: sumColumns(s, lines) };
  };
  const revenue = section("revenue");
  const expenses = section("expenses");
  const r = revenue.total;
  const x = expenses.total;
  const netIncome = columns("netIncome", r.actual - x.actual, r.budget - x.budget, r.actualAtBudgetRate - x.actualAtBudgetRate);
  return { currency: parentCurrency, exponent, revenue, expenses, netIncome, entities };
}
