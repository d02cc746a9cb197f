import { divRoundHalfAway, factorColumns, mulDivRound, mulRatioRoundWith, rateRatio, ratioFactor, subtractRatio, translateFlowRows, translateRows, type Factor, type Rate, type Ratio, type RowOutputs } from "../money/rate.ts";
import { formatMonth } from "../periods/month.ts";
import type { IssueList } from "../consolidation/errors.ts";
import { isProfitAndLoss, isRolledForward, LineKind, type CompiledEntity } from "../consolidation/model.ts";
import type { AmountsPass, LocalBookSums, MonthSums, PeriodBalances, PeriodFlows } from "./amounts-pass.ts";

/**
 * Translation of one entity, month by month from its opening month to the period end.
 *
 * Current-rate method (IAS 21.39, ASC 830-30-45): assets and liabilities at the month's closing
 * rate, revenue and expense at the month's average rate, contributed capital and other equity at
 * historical rates, retained earnings rolled forward (never retranslated), CTA the balancing figure.
 * Temporal method (ASC 830-10-45-17, IAS 21.23): monetary items at closing, non-monetary items and
 * equity at historical rates, the balancing figure is a remeasurement gain or loss in profit.
 *
 * Every line is rounded on its own (half away from zero); the balancing figure absorbs the sum of
 * those roundings, so each month's translated trial balance sums to exactly zero.
 * All amounts are debit positive, in reporting-currency minor units.
 */
export interface EntityTranslation {
  readonly entity: CompiledEntity;
  /**
   * How each account's translated amounts are had (translatedAt): RowBasis.Closing or Average, the
   * month's factor applied to its local amount again; Stored, its row of `stored`; None, 0 (rolled
   * forward: the roll-forward gives its amounts).
   */
  readonly rowBasis: Uint8Array;
  /** The translated amounts, month by month, of the rows translated one by one (historical rates). */
  readonly stored: ReadonlyMap<number, Float64Array>;
  /** Translated retained earnings (with dividends) at each month-end; [0] is the opening amount. */
  readonly retainedEarningsEnd: Float64Array;
  /** Translated dividends declared in each month (debit positive). */
  readonly dividends: Float64Array;
  /** Cumulative translation adjustment at each month-end (debit positive: a credit CTA is negative). */
  readonly cta: Float64Array;
  /** Temporal method: remeasurement result of each month (debit positive = loss). */
  readonly remeasurement: Float64Array;
  /** Sum of translated P&L lines per month (debit positive), excluding remeasurement. */
  readonly profitAndLoss: Float64Array;
  readonly ctaExplanation: readonly CtaMonthExplanation[];
  /**
   * Each revenue and expense row's activity over the months `from` to the last (the consolidation
   * period's), local and translated, summed as it was translated: what the period's trial balance
   * reads for those rows (period.ts) instead of summing them again. 0 for every other row.
   */
  readonly periodFlows: PeriodFlows;
  /**
   * Each balance-sheet row's translated balance at the month before the consolidation period
   * (periodFlows.from − 1) and at its last month, kept as the row was translated: what the period's
   * trial balance and the posting entry read (translatedAt, the same numbers for any month). 0 for
   * every other row.
   */
  readonly periodBalances: PeriodBalances;
}

/**
 * Why the CTA moved in one month. All figures are credit positive (a translation gain is
 * positive) and the five parts add up exactly to `change`.
 */
export interface CtaMonthExplanation {
  readonly month: string;
  readonly openingNetAssetsLocal: number;
  readonly previousClosingRate: string;
  readonly closingRate: string;
  readonly averageRate: string;
  /** Opening net assets × (closing rate − previous closing rate). */
  readonly openingNetAssets: number;
  /** Net income at the closing rate − net income as translated (≈ NI × (closing − average)). */
  readonly netIncome: number;
  /** −(dividends at the closing rate − dividends as translated). */
  readonly dividends: number;
  /** Capital and other equity movements at the closing rate − as translated. */
  readonly equityMovements: number;
  /** What per-line rounding left over; bounded by half a minor unit per line. */
  readonly rounding: number;
  readonly change: number;
}

export const RowBasis = { None: 0, Closing: 1, Average: 2, Stored: 3 } as const;

/**
 * Account i's translated amount in month t (offset from the entity's opening month): its translated
 * closing balance (balance-sheet lines) or its activity (revenue and expense; 0 in the opening
 * month). Translation keeps the sums, not the 1.8 million translated amounts of a large group, which
 * only a few months of are ever read again (the period's ends, an acquisition's month): a row
 * translated at the month's closing or average rate gives the same amount again from its local
 * amount and the same factor (mulDivRound, as translateRows), and rows translated otherwise are
 * stored. Writing every amount into a fresh 15 MB column cost more than translating them
 * (docs/performance.md, "Fourth round").
 */
export function translatedAt(tr: EntityTranslation, i: number, t: number): number {
  const basis = tr.rowBasis[i];
  if (basis === RowBasis.None) return 0;
  if (basis === RowBasis.Stored) return tr.stored.get(i)![t]!;
  const e = tr.entity;
  const x = e.local[i * e.months + t]!;
  if (x === 0) return 0;
  if (basis === RowBasis.Closing) return mulDivRound(x, e.closing[t]!);
  return t === 0 ? 0 : mulDivRound(x, e.average[t]!);
}

/** What translateAmounts reads of an entity: its compiled form before the pass. */
export type AmountsSource = Pick<
  CompiledEntity,
  "kinds" | "monetary" | "local" | "months" | "identity" | "method" | "historical" | "movementRates" | "closing" | "average" | "closingColumns" | "averageColumns"
>;

/**
 * The one pass over an entity's local amounts, made when it is compiled (prepare.ts): each row
 * translated month by month, the translated and local sums the roll-forward reads, the period's
 * revenue and expense activity (`periodFrom`: the consolidation period's first month as an offset
 * from the entity's opening month), each balance row's translated balance before the period and at
 * its end, and the local books' sums (balance sheet, retained earnings, result) in the accounts'
 * order, as their check adds them. A large group's 1.8 million amounts are read once here, not once
 * for the books' check and again for the translation (docs/performance.md, "Fifth round").
 */
export function translateAmounts(e: AmountsSource, periodFrom: number): AmountsPass {
  const T = e.months;
  const n = e.kinds.length;
  const rowBasis = new Uint8Array(n);
  const stored = new Map<number, Float64Array>();
  const sums: MonthSums = {
    bsTranslated: new Float64Array(T),
    plTranslated: new Float64Array(T),
    netAssetsLocal: new Float64Array(T),
    equityLocal: new Float64Array(T),
    equityTranslated: new Float64Array(T),
    plLocal: new Float64Array(T),
  };
  const periodFlows = { from: periodFrom, local: new Float64Array(n), translated: new Float64Array(n) };
  const out: RowOutputs = { books: new Float64Array(T), before: periodFrom - 1, atBefore: new Float64Array(n), atEnd: new Float64Array(n) };
  const retained = new Float64Array(T);
  let failure: unknown;
  try {
    translateEveryRow(e, periodFrom, rowBasis, stored, sums, periodFlows, out, retained);
  } catch (error) {
    failure = error;
  }
  // The result is the revenue and expense rows' local amounts, added in order (translateFlowRows).
  const books = failure === undefined ? { balance: out.books, retained, result: sums.plLocal } : sumLocalBooks(e);
  return { rowBasis, stored, sums, periodFlows, periodBalances: { before: out.atBefore, end: out.atEnd }, books, failure };
}

/**
 * The rows in order, a run of consecutive rows translated alike in one call of a small loop
 * (translateRows), so that the loop over a million balances is optimised early and the per-row
 * work outside it, which runs before V8 optimises it, stays small. Rolled-forward rows are not
 * translated (the roll-forward gives theirs); their amounts go to the books' sums only.
 */
function translateEveryRow(
  e: AmountsSource,
  periodFrom: number,
  rowBasis: Uint8Array,
  stored: Map<number, Float64Array>,
  sums: MonthSums,
  periodFlows: AmountsPass["periodFlows"],
  out: RowOutputs,
  retained: Float64Array,
): void {
  const T = e.months;
  const n = e.kinds.length;
  const kinds = e.kinds;
  const local = e.local;
  const temporal = e.method === "temporal";
  let i = 0;
  while (i < n) {
    const kind = kinds[i]! as LineKind;
    if (isRolledForward(kind)) {
      addRow(local, i * T, T, out.books);
      addRow(local, i * T, T, retained);
      i++;
      continue;
    }
    if (isProfitAndLoss(kind)) {
      const hist = temporal ? e.historical.get(i) : undefined;
      if (hist?.type === "rate") {
        translateFlowRows(local, i, i + 1, factorColumns(new Array<Factor>(T).fill(hist.factor)), sums.plTranslated, sums.plLocal, periodFrom, periodFlows.local, periodFlows.translated);
        // Its own rate, not the month's: stored (a few rows at most).
        const row = new Float64Array(T);
        for (let t = 1; t < T; t++) row[t] = atFactor(local[i * T + t]!, hist.factor);
        stored.set(i, row);
        rowBasis[i] = RowBasis.Stored;
        i++;
        continue;
      }
      const j = flowRunEnd(e, i + 1, temporal);
      translateFlowRows(local, i, j, e.averageColumns, sums.plTranslated, sums.plLocal, periodFrom, periodFlows.local, periodFlows.translated);
      rowBasis.fill(RowBasis.Average, i, j);
      i = j;
      continue;
    }
    const isEquity = kind === LineKind.ContributedCapital || kind === LineKind.OtherEquity;
    if (isEquity || !atClosing(e, i)) {
      const atHistorical = !e.identity && (isEquity || (temporal && !e.monetary[i]));
      if (atHistorical) {
        const row = translateAtHistorical(e, i, isEquity, sums, out.books);
        out.atBefore[i] = row[out.before]!;
        out.atEnd[i] = row[T - 1]!;
        stored.set(i, row);
        rowBasis[i] = RowBasis.Stored;
      } else {
        translateEquityAtClosing(e, i, sums, out);
        rowBasis[i] = RowBasis.Closing;
      }
      i++;
      continue;
    }
    const j = balanceRunEnd(e, i + 1);
    translateRows(local, i, j, e.closingColumns, sums.bsTranslated, sums.netAssetsLocal, out);
    rowBasis.fill(RowBasis.Closing, i, j);
    i = j;
  }
}

/** The end of the run of revenue and expense rows from `j` translated at the month's average rate. */
function flowRunEnd(e: AmountsSource, j: number, temporal: boolean): number {
  const kinds = e.kinds;
  while (j < kinds.length && isProfitAndLoss(kinds[j]! as LineKind) && !(temporal && e.historical.get(j)?.type === "rate")) j++;
  return j;
}

/** The end of the run of asset and liability rows from `j` translated at the month's closing rate. */
function balanceRunEnd(e: AmountsSource, j: number): number {
  const kinds = e.kinds;
  while (j < kinds.length && (kinds[j] === LineKind.Asset || kinds[j] === LineKind.Liability) && atClosing(e, j)) j++;
  return j;
}

/**
 * The local books' sums, account by account in the chart's order, when the translation stopped
 * before it had added them all up (translateAmounts' failure): the books are still checked first.
 */
function sumLocalBooks(e: AmountsSource): LocalBookSums {
  const T = e.months;
  const sums = { balance: new Float64Array(T), retained: new Float64Array(T), result: new Float64Array(T) };
  for (let i = 0; i < e.kinds.length; i++) {
    const kind = e.kinds[i]! as LineKind;
    const base = i * T;
    if (isProfitAndLoss(kind)) addRow(e.local, base, T, sums.result);
    else {
      addRow(e.local, base, T, sums.balance);
      if (isRolledForward(kind)) addRow(e.local, base, T, sums.retained);
    }
  }
  return sums;
}

/** sums[t] += local[base + t] for every month. */
function addRow(local: Float64Array, base: number, months: number, sums: Float64Array): void {
  for (let t = 0; t < months; t++) sums[t]! += local[base + t]!;
}

/**
 * The translation of one entity: the roll-forward from its pass over the amounts (e.pass, made when
 * it was compiled), or what that pass threw.
 */
export function translateEntity(e: CompiledEntity, issues: IssueList): EntityTranslation {
  const pass = e.pass;
  if (pass.failure !== undefined) throw pass.failure;
  return rollForward(e, pass, issues);
}

/** mulDivRound, 0 for a 0 (never −0): what translateRows adds for an amount. */
function atFactor(x: number, f: Factor): number {
  return x === 0 ? 0 : mulDivRound(x, f);
}

/** An asset or liability translated at the closing rate: always but for a non-monetary item under the temporal method. */
function atClosing(e: AmountsSource, i: number): boolean {
  return e.identity || e.method !== "temporal" || e.monetary[i] === 1;
}

/** Equity in the reporting currency (not translated): each month-end balance as it is. */
function translateEquityAtClosing(e: AmountsSource, i: number, sums: MonthSums, out: RowOutputs): void {
  const T = e.months;
  const base = i * T;
  translateRows(e.local, i, i + 1, e.closingColumns, sums.bsTranslated, sums.equityLocal, out);
  const equityTranslated = sums.equityTranslated;
  for (let t = 0; t < T; t++) equityTranslated[t]! += atFactor(e.local[base + t]!, e.closing[t]!);
}

/**
 * Historical: the opening balance at its historical rate or amount, each later change at the
 * rate of that movement (given, or the month's average).
 */
function translateAtHistorical(e: AmountsSource, i: number, isEquity: boolean, sums: MonthSums, books: Float64Array): Float64Array {
  const T = e.months;
  const base = i * T;
  const translated = new Float64Array(T);
  const local = e.local;
  const { bsTranslated, equityLocal, equityTranslated, netAssetsLocal } = sums;
  const hist = e.historical.get(i);
  const x0 = local[base]!;
  let y = hist === undefined ? 0 : hist.type === "amount" ? hist.amount : mulDivRound(x0, hist.factor);
  for (let t = 0; t < T; t++) {
    const x = local[base + t]!;
    if (t > 0) {
      const change = x - local[base + t - 1]!;
      if (change !== 0) {
        const movement = e.movementRates.get(base + t);
        y += mulDivRound(change, movement?.factor ?? e.average[t]!);
      }
    }
    translated[t] = y;
    bsTranslated[t]! += y;
    books[t]! += x;
    if (isEquity) {
      equityLocal[t]! += x;
      equityTranslated[t]! += y;
    } else {
      netAssetsLocal[t]! += x;
    }
  }
  return translated;
}

/** Dividends, retained earnings and the balancing figure (CTA or remeasurement), month by month. */
function rollForward(e: CompiledEntity, pass: AmountsPass, issues: IssueList): EntityTranslation {
  const { rowBasis, stored, sums, periodFlows, periodBalances } = pass;
  const T = e.months;
  const { bsTranslated, plTranslated, plLocal } = sums;
  const retainedEarningsEnd = new Float64Array(T);
  const dividends = new Float64Array(T);
  const cta = new Float64Array(T);
  const remeasurement = new Float64Array(T);
  const dividendsLocal = new Float64Array(T);
  retainedEarningsEnd[0] = e.openingRetainedEarnings ?? 0;

  const balancingAtOpening = -(bsTranslated[0]! + retainedEarningsEnd[0]!);
  if (e.openingCta === undefined) {
    cta[0] = balancingAtOpening;
  } else {
    cta[0] = e.openingCta;
    if (e.openingCta !== balancingAtOpening) {
      issues.add([...e.inputPath, "opening", "cta"], `${e.name}'s opening translated balances do not balance: with retained earnings ${retainedEarningsEnd[0]} the CTA at ${formatMonth(e.start)} must be ${balancingAtOpening}, not ${e.openingCta} (debit positive)`);
    }
  }

  const byMonth = new Map<number, typeof e.dividends[number][]>();
  for (const d of e.dividends) {
    const list = byMonth.get(d.t) ?? [];
    list.push(d);
    byMonth.set(d.t, list);
  }

  for (let t = 1; t < T; t++) {
    for (const d of byMonth.get(t) ?? []) {
      dividendsLocal[t]! += d.amount;
      if (d.factor) {
        dividends[t]! += mulDivRound(d.amount, d.factor);
        continue;
      }
      // Rate of the period whose profit is distributed: the effective rate at which that
      // profit was translated, so distributing all of it removes exactly its translated amount.
      const window = d.profitOf!;
      let profitLocal = 0;
      let profitTranslated = 0;
      for (let k = window.from; k <= window.to; k++) {
        profitLocal -= plLocal[k]!;
        profitTranslated -= plTranslated[k]! + remeasurement[k]!;
      }
      if (profitLocal <= 0) {
        issues.add([...d.path, "profitOf"], `${e.name} made no profit in the months named, so no rate can be taken from them`);
        continue;
      }
      dividends[t]! += Number(divRoundHalfAway(BigInt(d.amount) * BigInt(profitTranslated), BigInt(profitLocal)));
    }
    const before = retainedEarningsEnd[t - 1]! + dividends[t]! + plTranslated[t]!;
    if (e.method === "temporal" && !e.identity) {
      cta[t] = cta[t - 1]!;
      remeasurement[t] = -(bsTranslated[t]! + before + cta[t]!);
      retainedEarningsEnd[t] = before + remeasurement[t]!;
    } else {
      retainedEarningsEnd[t] = before;
      cta[t] = -(bsTranslated[t]! + before);
    }
  }

  const ctaExplanation = !e.identity && e.method === "currentRate" ? explainCta(e, sums, dividendsLocal, dividends, cta) : [];
  return { entity: e, rowBasis, stored, retainedEarningsEnd, dividends, cta, remeasurement, profitAndLoss: plTranslated, ctaExplanation, periodFlows, periodBalances };
}

/*
 * A month's closing rate as a Ratio, and the change between two months' closing rates (a Ratio, and
 * the same fraction × 10^shift as a Factor for mulRatioRoundWith's double path), each made once per
 * rate (or pair of rates) and shared by the entities translated at them: a large group's CTA
 * explanations ask for them 1,800 times, and in BigInt each was several objects to collect. A Rate
 * object belongs to one currency exponent (prepare.ts cachedRate), so to one shift.
 */
const ratios = new WeakMap<Rate, Ratio>();
function ratioOf(rate: Rate): Ratio {
  let r = ratios.get(rate);
  if (!r) ratios.set(rate, (r = rateRatio(rate)));
  return r;
}
const rateChanges = new WeakMap<Rate, WeakMap<Rate, { readonly ratio: Ratio; readonly factor: Factor }>>();
function closingRateChange(previous: Rate, current: Rate, shift: number): { readonly ratio: Ratio; readonly factor: Factor } {
  let byCurrent = rateChanges.get(previous);
  if (!byCurrent) rateChanges.set(previous, (byCurrent = new WeakMap()));
  let change = byCurrent.get(current);
  if (!change) {
    const ratio = subtractRatio(ratioOf(current), ratioOf(previous));
    byCurrent.set(current, (change = { ratio, factor: ratioFactor(ratio, shift) }));
  }
  return change;
}

/**
 * What the CTA explanation reads of an entity's closing rates, month by month: each month's rate as
 * a Ratio, its change from the month before, and the month's text. Made once per array of closing
 * rates: entities in one currency with the same months share theirs (prepare.ts monthlyRates), so
 * a large group's fifty explanations make them five times, and the explanation's loop reads arrays
 * instead of asking three maps every month.
 */
interface ClosingRateSteps {
  readonly ratios: readonly Ratio[];
  readonly changes: readonly { readonly ratio: Ratio; readonly factor: Factor }[];
  readonly months: readonly string[];
}
const closingRateSteps = new WeakMap<readonly (Rate | undefined)[], ClosingRateSteps>();
function closingRateStepsOf(e: CompiledEntity, shift: number): ClosingRateSteps {
  let steps = closingRateSteps.get(e.closingRates);
  if (!steps) {
    const ratios: Ratio[] = [];
    const changes: { readonly ratio: Ratio; readonly factor: Factor }[] = [];
    const months: string[] = [];
    for (let t = 1; t < e.months; t++) {
      ratios[t] = ratioOf(e.closingRates[t]!);
      changes[t] = closingRateChange(e.closingRates[t - 1]!, e.closingRates[t]!, shift);
      months[t] = formatMonth(e.start + t);
    }
    closingRateSteps.set(e.closingRates, (steps = { ratios, changes, months }));
  }
  return steps;
}

/** Why the CTA moved, month by month (current-rate method): exact rational arithmetic, a few values a month. */
function explainCta(e: CompiledEntity, sums: MonthSums, dividendsLocal: Float64Array, dividends: Float64Array, cta: Float64Array): CtaMonthExplanation[] {
  const T = e.months;
  const { netAssetsLocal, equityLocal, equityTranslated, plLocal, plTranslated } = sums;
  const ctaExplanation: CtaMonthExplanation[] = [];
  const shift = e.reportingExponent - e.exponent;
  const steps = closingRateStepsOf(e, shift);
  for (let t = 1; t < T; t++) {
    const c = steps.ratios[t]!;
    const change0 = steps.changes[t]!;
    const netIncomeLocal = -plLocal[t]!;
    const netIncomeTranslated = -plTranslated[t]!;
    const movementLocal = -(equityLocal[t]! - equityLocal[t - 1]!);
    const movementTranslated = -(equityTranslated[t]! - equityTranslated[t - 1]!);
    const openingNetAssets = mulRatioRoundWith(netAssetsLocal[t - 1]!, change0.factor, change0.ratio, shift);
    // e.closing[t] is c × 10^shift as a Factor: the same rounding, in doubles when exact.
    const closing = e.closing[t]!;
    const netIncome = mulRatioRoundWith(netIncomeLocal, closing, c, shift) - netIncomeTranslated;
    const dividendPart = -(mulRatioRoundWith(dividendsLocal[t]!, closing, c, shift) - dividends[t]!);
    const equityMovements = mulRatioRoundWith(movementLocal, closing, c, shift) - movementTranslated;
    const change = -(cta[t]! - cta[t - 1]!);
    const rounding = change - openingNetAssets - netIncome - dividendPart - equityMovements;
    // + 0 turns −0 into 0 (the result never holds −0): built so, the result's walk for −0 skips
    // these 1,800 objects of a large group (consolidate.ts withoutNegativeZero).
    ctaExplanation.push({
      month: steps.months[t]!,
      openingNetAssetsLocal: netAssetsLocal[t - 1]! + 0,
      previousClosingRate: e.closingRates[t - 1]!.text,
      closingRate: e.closingRates[t]!.text,
      averageRate: e.averageRates[t]!.text,
      openingNetAssets: openingNetAssets + 0,
      netIncome: netIncome + 0,
      dividends: dividendPart + 0,
      equityMovements: equityMovements + 0,
      rounding: rounding + 0,
      change: change + 0,
    });
  }
  return ctaExplanation;
}
