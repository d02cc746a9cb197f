import { balanceSeriesOf } from "../consolidation/balance-columns.ts";
import type { ConsolidationInput } from "../consolidation/input-schema.ts";
import type { ConsolidationOutput } from "../consolidation/output-schema.ts";
import { currencyExponent } from "../money/currency.ts";
import { mulDivRound, parseRate, translationFactor } from "../money/rate.ts";
import { monthCount, monthList, shiftMonth } from "../periods/month.ts";
import type { CashFlowClass } from "./cash-flow-classes.ts";

/**
 * Consolidated statement of cash flows, indirect method (IAS 7.18(b), ASC 230-10-45-28), from the
 * engine's consolidated (translated, eliminated) figures at two month-ends: the one before the period
 * (`opening`) and the period's last (`closing`), both of one roll-forward. docs/engine.md, "Statement
 * of cash flows", gives the rules and their sources.
 *
 * Each consolidated balance-sheet line's movement is a cash flow of its class, less its translation
 * difference: a foreign subsidiary's line is translated at the closing rate at both month-ends, while
 * its cash flows are translated at the rates of the months they happened in (each month's average,
 * IAS 7.26-27, ASC 830-230-45-1), so a receivable that did not move in its own currency has no cash
 * flow. Intra-group balances, income and dividends are gone from the consolidated figures already, so
 * their flows are too (IFRS 10 B86(c)). The effect of exchange-rate changes on cash (IAS 7.28) is
 * computed for each subsidiary from its own cash: its cash at the closing rate, less its opening cash
 * at the opening rate, less its cash flows as the statement reports them; shown split into the opening
 * cash's part, round(opening cash × closing rate) − opening cash as translated, and the flows' part,
 * the flows at the closing rate less as reported (PwC, Financial statement presentation, 6.11).
 * Opening cash + the flows + that effect is compared with the engine's closing cash; any difference
 * is shown, never absorbed.
 */

export interface CashFlowLine {
  /** Parent account (worksheet row), or a name for the lines that are not one account's. */
  account: string;
  name: string;
  /** Cash effect: an inflow positive, an outflow negative (reporting-currency minor units). */
  amount: number;
}

export interface CashFlowEntityEffect {
  entity: string;
  name: string;
  currency: string;
  /** The entity's cash (its accounts of class cash) in its own minor units. */
  openingCashLocal: number;
  closingCashLocal: number;
  openingRate: string;
  closingRate: string;
  /** Translated by the engine (reporting-currency minor units). */
  openingCash: number;
  closingCash: number;
  /** Its net cash flow as the statement reports it (translated at each month's average rate). */
  netCashFlow: number;
  onOpeningCash: number;
  onCashFlows: number;
  total: number;
}

export interface ConsolidatedCashFlow {
  period: { from: string; to: string };
  currency: string;
  exponent: number;
  operating: { profit: number; adjustments: CashFlowLine[]; workingCapital: CashFlowLine[]; total: number };
  investing: { lines: CashFlowLine[]; total: number };
  financing: { lines: CashFlowLine[]; total: number };
  netCashFlow: number;
  exchangeEffect: { total: number; entities: CashFlowEntityEffect[] };
  openingCash: number;
  closingCash: number;
  cashAccounts: { account: string; name: string; opening: number; closing: number }[];
  /** openingCash + netCashFlow + exchangeEffect.total, and how far the engine's closing cash is from it. */
  reconciliation: { computedClosingCash: number; difference: number; reconciles: boolean };
}

export interface CashFlowSources {
  /** The engine input of the period (`closing`): each entity's monthly balances and the rates. */
  input: ConsolidationInput;
  /** The same group consolidated for a period ending the month before `closing`'s first, from the same opening month. */
  opening: ConsolidationOutput;
  closing: ConsolidationOutput;
  /** Class of a parent balance-sheet account; undefined: the default for its classification. */
  classOf: (account: string) => CashFlowClass | undefined;
}

/** Where a consolidated row's movement goes: a cash-flow class, or one of the four rows fixed by their nature. */
export type CashFlowCategory = { kind: "class"; cls: CashFlowClass } | { kind: "retained" } | { kind: "translation" } | { kind: "nci" };

const ROLLED_FORWARD = new Set(["retainedEarningsRollForward", "dividends", "combinedIntoRetainedEarnings"]);

/**
 * The statement's place for each worksheet row (one home for it: the consolidated statement and
 * the statement by segment both ask here). The profit and loss rows, the NCI's share of profit and
 * the parent's retained earnings and dividends accounts are the retained earnings roll-forward; the
 * CTA account is translation, the NCI account the NCI's; every other row has its class (the
 * user's, else the default for its classification).
 */
export function cashFlowCategoryOf(input: ConsolidationInput, classOf: (account: string) => CashFlowClass | undefined): (account: string, classification: string, role: string) => CashFlowCategory {
  const parent = input.entities.find((e) => e.role === "parent");
  const equityKind = new Map((parent?.accounts ?? []).map((a) => [a.id, a.equityKind]));
  const { cta, nci } = input.designatedAccounts;
  return (account, classification, role) => {
    if (role === "nciShareOfProfit" || classification === "Revenue" || classification === "Expense") return { kind: "retained" };
    if (account === cta) return { kind: "translation" };
    if (account === nci) return { kind: "nci" };
    const kind = equityKind.get(account);
    if (kind === "retainedEarnings" || kind === "dividends") return { kind: "retained" };
    return { kind: "class", cls: classOf(account) ?? (classification === "Equity" ? "financing" : "operating") };
  };
}

/** A series of local month-end balances (an entity's account, or one segment's share of it). */
export interface MonthEndSeries {
  /** "YYYY-MM": the month of amounts[0]; earlier months are 0. */
  readonly from: string;
  readonly amounts: readonly number[];
}

/**
 * The cash flow of a line the engine translates at the closing rate (IAS 7.26-27, ASC
 * 830-230-45-1): the sum over `months` (the month before the period, then each of its months) of
 * its local movement in each month × that month's average rate, each month rounded.
 */
export function flowAtAverageRates(input: ConsolidationInput, months: readonly string[], currency: string, series: MonthEndSeries | undefined, reportingExponent: number): number {
  if (!series) return 0;
  const rates = input.rates[currency] ?? {};
  const exponent = currencyExponent(currency);
  const at = (month: string) => (month < series.from ? 0 : (series.amounts[monthCount(series.from, month) - 1] ?? 0));
  let flow = 0;
  for (let t = 1; t < months.length; t++) {
    const movement = at(months[t]!) - at(months[t - 1]!);
    if (movement !== 0) flow += mulDivRound(movement, translationFactor(parseRate(rates[months[t]!]!.average), exponent, reportingExponent));
  }
  return flow;
}

/** Cash translated at both ends: in the reporting currency as translated, and the opening cash at the closing rate. */
export interface TranslatedCash {
  readonly open: number;
  readonly close: number;
  /** round(opening local cash × closing rate). */
  readonly openAtClosingRate: number;
}

/**
 * The effect of exchange-rate changes on cash (IAS 7.28, ASC 830-230-45-1; PwC FSP 6.11): the cash
 * at the closing rate less the opening cash at the opening rate less the net cash flow as the
 * statement reports it, split into its part on the opening cash (round(opening cash × closing
 * rate) − opening cash as translated) and the rest, on the period's flows.
 */
export function exchangeEffectOnCash(cash: TranslatedCash, netCashFlow: number): { onOpeningCash: number; onCashFlows: number; total: number } {
  const total = cash.close - cash.open - netCashFlow;
  const onOpeningCash = cash.openAtClosingRate - cash.open;
  return { onOpeningCash, onCashFlows: total - onOpeningCash, total };
}

export function consolidatedCashFlow({ input, opening, closing, classOf }: CashFlowSources): ConsolidatedCashFlow {
  const from = closing.period.from;
  const to = closing.period.to;
  if (opening.period.to !== shiftMonth(from, -1)) throw new Error(`the opening consolidation ends ${opening.period.to}, not the month before ${from}`);
  const { cta, nci } = input.designatedAccounts;

  // Rows of both worksheets (an unmapped row may exist at one date only); amounts of the consolidated column.
  const rows = new Map<string, { name: string; classification: string; role: string; open: number; close: number; nciCol: [number, number] }>();
  const read = (out: ConsolidationOutput, at: 0 | 1) => {
    const nciColumn = out.worksheet.columns.findIndex((c) => c.id === "nci");
    for (const r of out.worksheet.rows) {
      const row = rows.get(r.account) ?? { name: r.name, classification: r.classification, role: r.role, open: 0, close: 0, nciCol: [0, 0] as [number, number] };
      const consolidated = r.amounts[r.amounts.length - 1]!;
      if (at === 0) row.open = consolidated;
      else row.close = consolidated;
      row.nciCol[at] = nciColumn >= 0 ? r.amounts[nciColumn]! : 0;
      rows.set(r.account, row);
    }
  };
  read(opening, 0);
  read(closing, 1);

  const categoryOf = cashFlowCategoryOf(input, classOf);
  const isCash = (account: string) => {
    const row = rows.get(account);
    if (!row) return false;
    const c = categoryOf(account, row.classification, row.role);
    return c.kind === "class" && c.cls === "cash";
  };

  // Translation differences (debit positive) of the lines the engine translates at the closing rate.
  const translationDiff = new Map<string, number>();
  const addDiff = (row: string, amount: number) => translationDiff.set(row, (translationDiff.get(row) ?? 0) + amount);
  const effects: CashFlowEntityEffect[] = [];
  const remeasurements: CashFlowLine[] = [];
  const reportingExponent = closing.exponent;
  const months = monthList(shiftMonth(from, -1), to);
  /** A local month-end series' movements over the period, each month's at that month's average rate (the flow as IAS 7.26-27 translates it). */
  const flowAtAverages = (currency: string, series: MonthEndSeries | undefined) => flowAtAverageRates(input, months, currency, series, reportingExponent);
  for (const e of closing.entities) {
    if (e.method === "none") continue;
    const source = input.entities.find((x) => x.id === e.id);
    const before = opening.entities.find((x) => x.id === e.id);
    if (!source || !before) continue;
    const exponent = currencyExponent(e.currency);
    const rates = input.rates[e.currency] ?? {};
    const series = new Map(balanceSeriesOf(source).map((s) => [s.account, s]));
    const closingRate = rates[to]!.closing;
    const openingRate = rates[shiftMonth(from, -1)]!.closing;
    const closingFactor = translationFactor(parseRate(closingRate), exponent, reportingExponent);
    const openLines = new Map(before.lines.filter((l) => l.account !== null).map((l) => [l.account!, l]));

    let cash = { openLocal: 0, closeLocal: 0, open: 0, close: 0, openAtClosingRate: 0 };
    let profit = 0;
    let otherFlows = 0; // debit positive: the cash flows of its non-cash balance-sheet lines
    for (const line of e.lines) {
      if (line.special === "cta") continue;
      if (line.special === "remeasurement" || line.classification === "Revenue" || line.classification === "Expense") {
        profit -= line.translated; // credit positive, the remeasurement result included (temporal method)
        continue;
      }
      if (ROLLED_FORWARD.has(line.basis) || line.account === null) continue;
      const was = openLines.get(line.account);
      const change = line.translated - (was?.translated ?? 0);
      const flow = line.basis === "closing" ? flowAtAverages(e.currency, series.get(line.account)) : change;
      if (isCash(line.parentAccount)) {
        cash = {
          openLocal: cash.openLocal + (was?.local ?? 0),
          closeLocal: cash.closeLocal + line.local,
          open: cash.open + (was?.translated ?? 0),
          close: cash.close + line.translated,
          openAtClosingRate: cash.openAtClosingRate + mulDivRound(was?.local ?? 0, closingFactor),
        };
        continue;
      }
      otherFlows += flow;
      if (change !== flow) addDiff(line.parentAccount, change - flow);
    }
    // The remeasurement result (temporal method) is in the profit but is no cash flow: added back below.
    const netCashFlow = profit + e.remeasurement - e.retainedEarnings.dividends - otherFlows;
    if (e.remeasurement !== 0) remeasurements.push({ account: `(remeasurement:${e.id})`, name: `Remeasurement result of ${e.name} (temporal method), not a cash flow`, amount: e.remeasurement });
    const { onOpeningCash, onCashFlows, total } = exchangeEffectOnCash(cash, netCashFlow);
    effects.push({
      entity: e.id,
      name: e.name,
      currency: e.currency,
      openingCashLocal: cash.openLocal,
      closingCashLocal: cash.closeLocal,
      openingRate,
      closingRate,
      openingCash: cash.open,
      closingCash: cash.close,
      netCashFlow,
      onOpeningCash,
      onCashFlows,
      total,
    });
  }

  // Intercompany receivable/payable pairs: the elimination reverses each side as translated, so it
  // also reverses that side's translation difference, and its eliminated rows show no flow. The
  // pair's difference is no cash flow either: sent to profit (fx), it is taken out of the profit with
  // the exchange differences of the sides (the engine books a pair's whole difference at each
  // period's end, so the part at the opening month-end is taken out of the opening retained earnings
  // too); sent to the CTA, what of it the sides' translation differences do not explain (their
  // flows differing, e.g. a side's own exchange gain on the balance) is taken out of the profit.
  const handledCta = new Set<string>();
  let intraGroupDifferences = 0;
  let openingDifferences = 0;
  const eliminationOf = (out: ConsolidationOutput, id: string) => out.eliminations.find((x) => x.id === id);
  for (const rule of input.eliminations.intercompany) {
    if (rule.kind !== "receivablePayable") continue;
    const after = eliminationOf(closing, rule.id);
    const before = eliminationOf(opening, rule.id);
    if (!after || !before) continue;
    const differenceAccount = rule.differenceTo === "cta" ? cta : input.designatedAccounts.fxDifference;
    const differenceIn = (el: typeof after) => el.lines.filter((l) => l.account === differenceAccount).reduce((sum, l) => sum + l.amount, 0);
    let sidesDifference = 0;
    (["left", "right"] as const).forEach((which, i) => {
      const side = rule[which];
      const entity = closing.entities.find((x) => x.id === side.entity);
      if (!entity || entity.method === "none") return;
      const key = which === "left" ? "leftTranslated" : "rightTranslated";
      const change = Number(after.details[key] ?? 0) - Number(before.details[key] ?? 0);
      const holder = side.portion ? undefined : input.entities.find((x) => x.id === side.entity);
      const series = side.portion ?? (holder ? balanceSeriesOf(holder).find((b) => b.account === side.account) : undefined);
      const difference = change - flowAtAverages(entity.currency, series);
      sidesDifference += difference;
      const row = after.lines[i]?.account;
      if (row) addDiff(row, -difference);
    });
    if (rule.differenceTo === "cta") {
      handledCta.add(rule.id);
      intraGroupDifferences += sidesDifference - (differenceIn(after) - differenceIn(before));
    } else {
      const atOpening = differenceIn(before);
      openingDifferences += atOpening;
      intraGroupDifferences += sidesDifference + atOpening;
    }
  }
  if (intraGroupDifferences !== 0) remeasurements.push({ account: "(intra-group differences)", name: "Exchange differences on intra-group balances, not cash", amount: intraGroupDifferences });

  // The NCI's share of the CTA moves between the CTA and NCI rows inside the NCI column: a translation
  // difference of the NCI, not a transaction with it.
  const ctaRow = rows.get(cta);
  if (ctaRow && nci) addDiff(nci, -(ctaRow.nciCol[1] - ctaRow.nciCol[0]));
  // Eliminations that put exchange differences on the CTA (goodwill and fair-value adjustments of a
  // foreign operation, IAS 21.47; intercompany differences sent to the CTA): their counterparts are
  // translation differences too, on the goodwill row or on the elimination's first balance-sheet row.
  const ctaOf = (out: ConsolidationOutput) => new Map(out.eliminations.map((el) => [el.id, el.lines.filter((l) => l.account === cta).reduce((s, l) => s + l.amount, 0)]));
  const ctaBefore = ctaOf(opening);
  const ctaAfter = ctaOf(closing);
  for (const el of [...closing.eliminations, ...opening.eliminations.filter((x) => !ctaAfter.has(x.id))]) {
    const moved = (ctaAfter.get(el.id) ?? 0) - (ctaBefore.get(el.id) ?? 0);
    if (moved === 0 || handledCta.has(el.id)) continue;
    const goodwill = input.designatedAccounts.goodwill;
    const target =
      el.kind === "investment" && goodwill && rows.has(goodwill)
        ? goodwill
        : el.lines.find((l) => l.account !== cta && ["Asset", "Liability"].includes(rows.get(l.account)?.classification ?? ""))?.account;
    if (target) addDiff(target, -moved);
  }

  const profit = closing.incomeStatement.netIncome;
  const nciProfit = closing.incomeStatement.attributableToNci;
  const adjustments: CashFlowLine[] = [...remeasurements];
  const workingCapital: CashFlowLine[] = [];
  const investing: CashFlowLine[] = [];
  const financing: CashFlowLine[] = [];
  const cashAccounts: ConsolidatedCashFlow["cashAccounts"] = [];
  let retainedMovement = openingDifferences;
  let nciMovement = 0;
  for (const [account, row] of rows) {
    const change = row.close - row.open;
    const category = categoryOf(account, row.classification, row.role);
    if (category.kind === "retained") {
      retainedMovement += change;
      continue;
    }
    if (category.kind === "translation") continue;
    const flow = -(change - (translationDiff.get(account) ?? 0));
    if (category.kind === "nci") {
      nciMovement += flow;
      continue;
    }
    if (category.cls === "cash") {
      if (row.open !== 0 || row.close !== 0) cashAccounts.push({ account, name: row.name, opening: row.open, closing: row.close });
      continue;
    }
    if (flow === 0) continue;
    const line = { account, name: row.name, amount: flow };
    ({ operating: workingCapital, nonCash: adjustments, investing, financing } as const)[category.cls].push(line);
  }
  for (const effect of effects.filter((x) => x.total === 0 && x.openingCashLocal === 0 && x.closingCashLocal === 0)) effects.splice(effects.indexOf(effect), 1);
  // Retained earnings (with the period's P&L closed into them) move by the parent's share of the
  // profit and the dividends declared to its owners; the NCI by its share and the dividends to it.
  const dividends = -retainedMovement - (profit - nciProfit);
  if (dividends !== 0) financing.push({ account: "(dividends)", name: "Dividends to owners of the parent", amount: dividends });
  const withNci = nciMovement - nciProfit;
  if (withNci !== 0) financing.push({ account: "(nci)", name: "Dividends to and transactions with non-controlling interests", amount: withNci });

  const sum = (lines: readonly CashFlowLine[]) => lines.reduce((s, l) => s + l.amount, 0);
  const operatingTotal = profit + sum(adjustments) + sum(workingCapital);
  const investingTotal = sum(investing);
  const financingTotal = sum(financing);
  const netCashFlow = operatingTotal + investingTotal + financingTotal;
  const exchange = effects.reduce((s, x) => s + x.total, 0);
  const openingCash = cashAccounts.reduce((s, c) => s + c.opening, 0);
  const closingCash = cashAccounts.reduce((s, c) => s + c.closing, 0);
  const computedClosingCash = openingCash + netCashFlow + exchange;
  return {
    period: { from, to },
    currency: closing.reportingCurrency,
    exponent: closing.exponent,
    operating: { profit, adjustments, workingCapital, total: operatingTotal },
    investing: { lines: investing, total: investingTotal },
    financing: { lines: financing, total: financingTotal },
    netCashFlow,
    exchangeEffect: { total: exchange, entities: effects },
    openingCash,
    closingCash,
    cashAccounts,
    reconciliation: { computedClosingCash, difference: closingCash - computedClosingCash, reconciles: closingCash === computedClosingCash },
  };
}
