import { formatMonth, type MonthRange } from "../periods/month.ts";
import type { AccountInput } from "../consolidation/input-schema.ts";
import { isProfitAndLoss, isRolledForward, LineKind } from "../consolidation/model.ts";
import { translatedAt, type EntityTranslation } from "./translate.ts";

export type TranslationBasis =
  | "unchanged"
  | "closing"
  | "average"
  | "historical"
  | "retainedEarningsRollForward"
  | "dividends"
  | "combinedIntoRetainedEarnings"
  | "cta"
  | "remeasurement";

/**
 * One line of an entity's translated trial balance for a period (debit positive), in the shape the
 * result lists it (output-schema.ts, translatedLineSchema): the period's trial balance of a large
 * group has tens of thousands of lines, built once and handed to the result as they are.
 */
export interface TranslatedLine {
  /** The entity's own account id; null for the CTA and remeasurement lines. */
  readonly account: string | null;
  readonly special: "cta" | "remeasurement" | null;
  readonly name: string;
  readonly classification: string;
  /** Never −0 (JSON cannot carry it), like every amount of the result. */
  readonly local: number;
  readonly translated: number;
  readonly basis: TranslationBasis;
  /** The single rate used, when there is one (closing or historical opening rate). */
  readonly rate: string | null;
  /** The worksheet row (its id) the line lands on: consolidate fills it in once the rows are known. */
  parentAccount: string;
}

export interface EntityPeriodTrialBalance {
  readonly lines: TranslatedLine[];
  readonly netIncomeLocal: number;
  /** Credit positive, including any remeasurement result. */
  readonly netIncomeTranslated: number;
  readonly retainedEarnings: { readonly opening: number; readonly netIncome: number; readonly dividends: number; readonly closing: number };
  readonly cta: { readonly opening: number; readonly change: number; readonly closing: number };
  readonly remeasurement: number;
}

/** A line, always built with the same fields in the same order (one object shape); + 0 turns −0 into 0. */
function line(
  account: string | null,
  special: TranslatedLine["special"],
  name: string,
  classification: string,
  local: number,
  translated: number,
  basis: TranslationBasis,
  rate: string | null,
): TranslatedLine {
  return { account, special, name, classification, local: local + 0, translated: translated + 0, basis, rate, parentAccount: "" };
}

function accountLine(account: AccountInput, local: number, translated: number, basis: TranslationBasis, rate: string | null): TranslatedLine {
  return line(account.id, null, account.name, account.classification, local, translated, basis, rate);
}

/**
 * Each account's amounts in the period's trial balance, local and translated: a P&L line's activity
 * over the months a … b (summed in month order), a balance-sheet line's balance at b. Rolled-forward
 * lines are left at 0 (the roll-forward gives theirs). For the consolidation period the translation
 * has summed the P&L lines already (EntityTranslation.periodFlows, the same sums); any other period
 * (mid-year acquisitions and disposals) sums them here. A balance-sheet line's balance at the last
 * month was kept by the translation too (EntityTranslation.periodBalances). Kept apart from the
 * building of the lines so that V8 optimises this loop early and on its own.
 */
function periodAmounts(tr: EntityTranslation, a: number, b: number): { local: Float64Array; translated: Float64Array } {
  const e = tr.entity;
  const T = e.months;
  const n = e.kinds.length;
  const kinds = e.kinds;
  const local = e.local;
  const flows = tr.periodFlows;
  const summed = flows.from === a && b === T - 1;
  const localOut = summed ? flows.local.slice() : new Float64Array(n);
  const translatedOut = summed ? flows.translated.slice() : new Float64Array(n);
  // A balance row's translated balance at the last month was kept as it was translated.
  const atEnd = b === T - 1 ? tr.periodBalances.end : undefined;
  for (let i = 0; i < n; i++) {
    const kind = kinds[i]! as LineKind;
    const base = i * T;
    if (isProfitAndLoss(kind)) {
      if (summed) continue;
      let x = 0;
      let y = 0;
      for (let t = a; t <= b; t++) {
        x += local[base + t]!;
        y += translatedAt(tr, i, t);
      }
      localOut[i] = x;
      translatedOut[i] = y;
    } else if (!isRolledForward(kind)) {
      localOut[i] = local[base + b]!;
      translatedOut[i] = atEnd ? atEnd[i]! : translatedAt(tr, i, b);
    }
  }
  return { local: localOut, translated: translatedOut };
}

/** What the retained earnings line and the dividends line carry (local, translated). */
interface RolledLines {
  readonly retainedEarnings: { readonly local: number; readonly translated: number };
  readonly dividends: { readonly local: number; readonly translated: number };
}

/**
 * The line of each account, into `lines` (in the accounts' order). Returns the period's local net
 * income (credit positive), the sum of the translated P&L lines and the sum of every line's
 * translated amount, each added up in the accounts' order. The one loop over every account of the
 * period trial balance, a small function of its own so that V8 optimises it early.
 */
function accountLines(tr: EntityTranslation, a: number, b: number, amounts: { local: Float64Array; translated: Float64Array }, rolled: RolledLines, lines: TranslatedLine[]): Float64Array {
  const e = tr.entity;
  const accounts = e.accounts;
  const kinds = e.kinds;
  const temporal = e.method === "temporal" && !e.identity;
  const averageRate = (a === b && !e.identity ? e.averageRates[a]?.text : undefined) ?? null;
  const closingRate = (e.identity ? undefined : e.closingRates[b]?.text) ?? null;
  let netIncomeLocal = 0;
  let profitTranslated = 0;
  let sum = 0;
  // Each branch says what the line holds; the line itself is built in one place below, so that the
  // optimised loop makes its object in one place too (it was five, each a copy of the object's code).
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i]! as LineKind;
    let lineLocal: number;
    let translated: number;
    let basis: TranslationBasis;
    let rate: string | null = null;
    if (isRolledForward(kind)) {
      if (i === e.retainedEarningsRow) {
        lineLocal = rolled.retainedEarnings.local;
        translated = rolled.retainedEarnings.translated;
        basis = "retainedEarningsRollForward";
      } else if (i === e.dividendsRow) {
        lineLocal = rolled.dividends.local;
        translated = rolled.dividends.translated;
        basis = "dividends";
      } else {
        lineLocal = 0;
        translated = 0;
        basis = "combinedIntoRetainedEarnings";
      }
    } else if (isProfitAndLoss(kind)) {
      lineLocal = amounts.local[i]!;
      translated = amounts.translated[i]!;
      netIncomeLocal -= lineLocal;
      profitTranslated += translated;
      const hist = temporal ? e.historical.get(i) : undefined;
      basis = e.identity ? "unchanged" : hist ? "historical" : "average";
      rate = hist?.type === "rate" ? hist.rate.text : averageRate;
    } else {
      lineLocal = amounts.local[i]!;
      translated = amounts.translated[i]!;
      const isEquity = kind === LineKind.ContributedCapital || kind === LineKind.OtherEquity;
      const historical = !e.identity && (isEquity || (e.method === "temporal" && !e.monetary[i]));
      rate = closingRate;
      if (historical) {
        const hist = e.historical.get(i);
        rate = hist?.type === "rate" ? hist.rate.text : null;
      }
      basis = e.identity ? "unchanged" : historical ? "historical" : "closing";
    }
    const l = accountLine(accounts[i]!, lineLocal, translated, basis, rate);
    lines[i] = l;
    sum += l.translated;
  }
  const totals = new Float64Array(3);
  totals[0] = netIncomeLocal;
  totals[1] = profitTranslated;
  totals[2] = sum;
  return totals;
}

/**
 * The rolled-forward rows' local balances at month t, added in the accounts' order. A small function
 * of its own: a loop over every account inside entityPeriodTrialBalance made V8 compile all of that
 * function (10 to 35 ms of the compiler thread on this machine) for its sake.
 */
function rolledLocalAt(kinds: Uint8Array, local: Float64Array, T: number, t: number): number {
  let sum = 0;
  for (let i = 0; i < kinds.length; i++) {
    if (isRolledForward(kinds[i]! as LineKind)) sum += local[i * T + t]!;
  }
  return sum;
}

/**
 * The translated trial balance of one entity for a period: balance-sheet lines at the period's
 * last month-end, P&L lines summed over its months, retained earnings at the start of the period
 * with the period's dividends beside it, and the cumulative CTA. It sums to exactly zero.
 */
export function entityPeriodTrialBalance(tr: EntityTranslation, period: MonthRange): EntityPeriodTrialBalance {
  const e = tr.entity;
  const T = e.months;
  const a = period.from - e.start;
  const b = period.to - e.start;
  const kinds = e.kinds;
  const n = kinds.length;
  const local = e.local;
  let dividendsLocal = 0;
  for (const d of e.dividends) if (d.t >= a && d.t <= b) dividendsLocal += d.amount;
  let dividendsTranslated = 0;
  let remeasurement = 0;
  for (let t = a; t <= b; t++) {
    dividendsTranslated += tr.dividends[t]!;
    remeasurement += tr.remeasurement[t]!;
  }
  const rolledLocalAtStart = rolledLocalAt(kinds, local, T, a - 1);
  const reStart = tr.retainedEarningsEnd[a - 1]!;
  const separateDividends = e.dividendsRow !== e.retainedEarningsRow;
  const rolled: RolledLines = {
    retainedEarnings: { local: separateDividends ? rolledLocalAtStart : rolledLocalAtStart + dividendsLocal, translated: separateDividends ? reStart : reStart + dividendsTranslated },
    dividends: { local: dividendsLocal, translated: dividendsTranslated },
  };
  // Sized once for the accounts' lines and the CTA and remeasurement lines after them.
  const specials = e.identity ? 0 : e.method === "temporal" ? 2 : 1;
  const lines: TranslatedLine[] = new Array<TranslatedLine>(n + specials);
  const totals = accountLines(tr, a, b, periodAmounts(tr, a, b), rolled, lines);
  const netIncomeLocal = totals[0]!;
  const profitTranslated = totals[1]!;
  let sum = totals[2]!;

  const ctaOpening = tr.cta[a - 1]!;
  const ctaClosing = tr.cta[b]!;
  if (!e.identity) {
    lines[n] = line(null, "cta", "Cumulative translation adjustment", "Equity", 0, ctaClosing, "cta", null);
    if (e.method === "temporal") {
      lines[n + 1] = line(null, "remeasurement", "Remeasurement gain/loss", "Expense", 0, remeasurement, "remeasurement", null);
    }
  }
  const netIncomeTranslated = -(profitTranslated + remeasurement);
  for (let i = n; i < lines.length; i++) sum += lines[i]!.translated;
  if (sum !== 0) throw new Error(`internal: ${e.name}'s translated trial balance for ${formatMonth(period.from)}…${formatMonth(period.to)} is off by ${sum}`);
  return {
    lines,
    netIncomeLocal,
    netIncomeTranslated,
    retainedEarnings: {
      opening: -reStart,
      netIncome: netIncomeTranslated,
      dividends: dividendsTranslated,
      closing: -tr.retainedEarningsEnd[b]!,
    },
    cta: { opening: -ctaOpening, change: -(ctaClosing - ctaOpening), closing: -ctaClosing },
    remeasurement,
  };
}
