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
 * Intra-group budgets are eliminated as the actuals are (docs/engine.md "Budget vs actual"): for
 * each of the group's revenue/expense pairs, both sides' budgets at the budget rate are reversed in
 * full, and whatever they differ by (the two companies budgeted the trade differently, or the
 * budget rates' cross differs from the rate one side planned at) goes to its own line, "Intra-group
 * budgets that disagree", never dropped: the companies' budgeted profit is unchanged by the
 * elimination, as the consolidated profit is by the actuals' (their difference goes to the pair's
 * difference account). Each line shows the companies' budgets, the eliminations and the budget,
 * with budget = companies − eliminations to the cent.
 *
 * What stays at the actual rates in AB: the consolidation's own lines (eliminations, group
 * adjustments, a temporal subsidiary's remeasurement) are in the parent's currency already and
 * are not re-translated; only each subsidiary's own translated P&L lines are replaced by their
 * local amounts at the budget rate.
 */

import { mulDivRound, parseRate, translationFactor } from "../money/rate.ts";
import { fiscalYearOf, parseMonth } from "../periods/month.ts";
import { classifyIntercompanyPair, type PairMatch } from "../consolidation/pair-match.ts";

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

/** One side of an intra-group revenue/expense pair: the company's budget for the period on the paired account, local minor units, natural sign. */
export interface BudgetPairSide {
  readonly entity: string;
  /** The parent account the company's account is mapped onto. */
  readonly account: string;
  /** The company's own account, as people name it ("5010 Purchases - Group Companies"). */
  readonly accountName: string;
  readonly local: number;
}

/** One of the group's revenue/expense pairs (the eliminations configuration), with each side's budget. */
export interface BudgetPair {
  readonly id: string;
  readonly name: string;
  readonly left: BudgetPairSide;
  readonly right: BudgetPairSide;
  /** The group's tolerance, parent minor units: whether a difference is a disagreement or rounding-sized (pair-match.ts). */
  readonly tolerance: number;
}

/** The statement line the budgets' disagreements go to (an expense line: a credit when the revenue side budgets more). */
export const BUDGET_DIFFERENCE_ACCOUNT = "intragroup-budget-difference";
export const BUDGET_DIFFERENCE_NAME = "Intra-group budgets that disagree";

export interface BudgetPairElimination {
  readonly id: string;
  readonly name: string;
  /** Each side: the company, its account, its budget in its currency and at the budget rate (parent minor units, natural sign). */
  readonly revenue: BudgetPairSide & { readonly entityName: string; readonly currency: string; readonly translated: number };
  readonly expense: BudgetPairSide & { readonly entityName: string; readonly currency: string; readonly translated: number };
  /** expense − revenue at the budget rate (debit positive, as the actuals' pair difference): what goes to the difference line. */
  readonly difference: number;
  readonly match: PairMatch;
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
  /** The group's revenue/expense pairs whose sides are both members, with their budgets; none: nothing is eliminated. */
  readonly pairs?: readonly BudgetPair[];
}

export interface BudgetColumns {
  readonly actual: number;
  /** Σ the companies' budgets at the budget rate, before eliminations. */
  readonly budgetCompanies: number;
  /** What the intra-group pairs eliminate from it (natural sign): budget = budgetCompanies − budgetEliminations. */
  readonly budgetEliminations: number;
  /** The consolidated budget. */
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
  /** Each intra-group pair's budgets eliminated, in the pairs' order. */
  readonly eliminations: BudgetPairElimination[];
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

function columns(section: BudgetSection | "netIncome", actual: number, budgetCompanies: number, budgetEliminations: number, actualAtBudgetRate: number): BudgetColumns {
  const budget = budgetCompanies - budgetEliminations;
  const variance = actual - budget;
  const sign = section === "expenses" ? -1 : 1;
  return {
    actual,
    budgetCompanies,
    budgetEliminations,
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
  const total = (k: "actual" | "budgetCompanies" | "budgetEliminations" | "actualAtBudgetRate") => parts.reduce((s, p) => s + p[k], 0);
  return columns(section, total("actual"), total("budgetCompanies"), total("budgetEliminations"), total("actualAtBudgetRate"));
}

/**
 * The statement. Throws when a member's currency has no budget rate (the caller checks
 * `missingBudgetRates` first and answers with the currency named), when a member's budget or
 * actual sits on an account the statement does not show, or when a pair's side is not a member or
 * its two sides are not one revenue and one expense line.
 */
export function budgetVsActual(input: BudgetVsActualInput): BudgetVsActualStatement {
  const { parentCurrency, exponent } = input;
  const missing = missingBudgetRates(parentCurrency, input.entities.map((e) => e.currency), input.budgetRates);
  if (missing.length) throw new Error(`no budget rate for ${missing.join(", ")}`);
  const known = new Map(input.accounts.map((a) => [a.account, a.section]));
  for (const account of input.actual.keys()) if (!known.has(account)) throw new Error(`the consolidated actual is on account ${account}, not a profit and loss account of the statement`);
  const budget = new Map<string, number>();
  const eliminated = new Map<string, number>();
  const atBudget = new Map<string, number>(input.actual);
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const entities: BudgetVsActualStatement["entities"] = [];
  const factorOf = (e: BudgetEntity) => translationFactor(parseRate(rateOf(e)), e.exponent, exponent);
  const rateOf = (e: BudgetEntity) => (e.currency === parentCurrency ? "1" : input.budgetRates.get(e.currency)!);
  for (const e of input.entities) {
    const rateText = rateOf(e);
    const factor = factorOf(e);
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
  // Intra-group pairs: both sides reversed in full at the budget rate, the difference to its own line.
  const byId = new Map(input.entities.map((e) => [e.id, e]));
  const eliminations: BudgetPairElimination[] = [];
  let differences = 0;
  for (const p of input.pairs ?? []) {
    const sides = [p.left, p.right].map((side) => {
      const e = byId.get(side.entity);
      if (!e) throw new Error(`the pair ${p.name} has a side in ${side.entity}, not a member of the group for the period`);
      const s = known.get(side.account);
      if (!s) throw new Error(`the pair ${p.name}'s side ${side.accountName} is on account ${side.account}, not a profit and loss account of the statement`);
      return { ...side, section: s, entityName: e.name, currency: e.currency, translated: mulDivRound(side.local, factorOf(e)) };
    });
    const revenue = sides.find((x) => x.section === "revenue");
    const expense = sides.find((x) => x.section === "expenses");
    if (!revenue || !expense) throw new Error(`the pair ${p.name} needs one side on a revenue line and one on an expense line`);
    add(eliminated, revenue.account, revenue.translated);
    add(eliminated, expense.account, expense.translated);
    // Debit positive, as the actuals' pair: the revenue side reversed is a debit, the expense side a credit.
    const { difference, match } = classifyIntercompanyPair({ left: -revenue.translated, right: expense.translated }, p.tolerance);
    differences += difference;
    const strip = ({ section: _, ...side }: (typeof sides)[number]) => side;
    eliminations.push({ id: p.id, name: p.name, revenue: strip(revenue), expense: strip(expense), difference, match });
  }
  const section = (s: BudgetSection) => {
    const lines: BudgetLine[] = input.accounts
      .filter((a) => a.section === s)
      .map((a) => ({ account: a.account, name: a.name, section: s, ...columns(s, input.actual.get(a.account) ?? 0, budget.get(a.account) ?? 0, eliminated.get(a.account) ?? 0, atBudget.get(a.account) ?? 0) }))
      .filter((l) => l.actual !== 0 || l.budgetCompanies !== 0 || l.budgetEliminations !== 0 || l.actualAtBudgetRate !== 0);
    // Eliminated from no company's budget, so it is all in the eliminations column: budget = 0 − (−difference).
    if (s === "expenses" && differences !== 0) lines.push({ account: BUDGET_DIFFERENCE_ACCOUNT, name: BUDGET_DIFFERENCE_NAME, section: s, ...columns(s, 0, 0, -differences, 0) });
    return { lines, total: sumColumns(s, lines) };
  };
  const revenue = section("revenue");
  const expenses = section("expenses");
  const r = revenue.total;
  const x = expenses.total;
  const netIncome = columns("netIncome", r.actual - x.actual, r.budgetCompanies - x.budgetCompanies, r.budgetEliminations - x.budgetEliminations, r.actualAtBudgetRate - x.actualAtBudgetRate);
  return { currency: parentCurrency, exponent, revenue, expenses, netIncome, eliminations, entities };
}
