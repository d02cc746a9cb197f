import { formatMonth, type MonthRange } from "../periods/month.ts";
import { isProfitAndLoss, isRolledForward, LineKind, type CompiledAccount } from "../consolidation/model.ts";
import type { EntityTranslation } from "./translate.ts";

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

/** One line of an entity's translated trial balance for a period (debit positive). */
export interface TranslatedLine {
  /** The entity's own account id; absent for the CTA and remeasurement lines. */
  readonly account: string | undefined;
  readonly special: "cta" | "remeasurement" | undefined;
  readonly name: string;
  readonly classification: string;
  readonly local: number;
  readonly translated: number;
  readonly basis: TranslationBasis;
  /** The single rate used, when there is one (closing or historical opening rate). */
  readonly rate: string | undefined;
}

export interface EntityPeriodTrialBalance {
  readonly lines: readonly TranslatedLine[];
  readonly netIncomeLocal: number;
  /** Credit positive, including any remeasurement result. */
  readonly netIncomeTranslated: number;
  readonly retainedEarnings: { readonly opening: number; readonly netIncome: number; readonly dividends: number; readonly closing: number };
  readonly cta: { readonly opening: number; readonly change: number; readonly closing: number };
  readonly remeasurement: number;
}

/** One account's line, always built with the same fields in the same order (one object shape). */
function accountLine(account: CompiledAccount, local: number, translated: number, basis: TranslationBasis, rate: string | undefined): TranslatedLine {
  return { account: account.id, special: undefined, name: account.name, classification: account.classification, local, translated, basis, rate };
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
  const accounts = e.accounts;
  const n = accounts.length;
  const local = e.local;
  const translatedAll = tr.translated;
  const lines: TranslatedLine[] = new Array<TranslatedLine>(n);
  let netIncomeLocal = 0;
  let profitTranslated = 0;
  let rolledLocalAtStart = 0;
  let dividendsLocal = 0;
  for (const d of e.dividends) if (d.t >= a && d.t <= b) dividendsLocal += d.amount;
  let dividendsTranslated = 0;
  let remeasurement = 0;
  for (let t = a; t <= b; t++) {
    dividendsTranslated += tr.dividends[t]!;
    remeasurement += tr.remeasurement[t]!;
  }
  for (let i = 0; i < n; i++) {
    if (isRolledForward(accounts[i]!.kind)) rolledLocalAtStart += local[i * T + a - 1]!;
  }
  const reStart = tr.retainedEarningsEnd[a - 1]!;
  const separateDividends = e.dividendsRow !== e.retainedEarningsRow;
  const temporal = e.method === "temporal" && !e.identity;
  const averageRate = a === b && !e.identity ? e.averageRates[a]?.text : undefined;
  const closingRate = e.identity ? undefined : e.closingRates[b]?.text;

  for (let i = 0; i < n; i++) {
    const account = accounts[i]!;
    const base = i * T;
    if (isRolledForward(account.kind)) {
      if (i === e.retainedEarningsRow) {
        const lineLocal = separateDividends ? rolledLocalAtStart : rolledLocalAtStart + dividendsLocal;
        const translated = separateDividends ? reStart : reStart + dividendsTranslated;
        lines[i] = accountLine(account, lineLocal, translated, "retainedEarningsRollForward", undefined);
      } else if (i === e.dividendsRow) {
        lines[i] = accountLine(account, dividendsLocal, dividendsTranslated, "dividends", undefined);
      } else {
        lines[i] = accountLine(account, 0, 0, "combinedIntoRetainedEarnings", undefined);
      }
      continue;
    }
    if (isProfitAndLoss(account.kind)) {
      let lineLocal = 0;
      let translated = 0;
      for (let t = a; t <= b; t++) {
        lineLocal += local[base + t]!;
        translated += translatedAll[base + t]!;
      }
      netIncomeLocal -= lineLocal;
      profitTranslated += translated;
      const hist = temporal ? e.historical.get(i) : undefined;
      lines[i] = accountLine(
        account,
        lineLocal,
        translated,
        e.identity ? "unchanged" : hist ? "historical" : "average",
        hist?.type === "rate" ? hist.rate.text : averageRate,
      );
      continue;
    }
    const isEquity = account.kind === LineKind.ContributedCapital || account.kind === LineKind.OtherEquity;
    const historical = !e.identity && (isEquity || (e.method === "temporal" && !account.monetary));
    let rate = closingRate;
    if (historical) {
      const hist = e.historical.get(i);
      rate = hist?.type === "rate" ? hist.rate.text : undefined;
    }
    lines[i] = accountLine(account, local[base + b]!, translatedAll[base + b]!, e.identity ? "unchanged" : historical ? "historical" : "closing", rate);
  }

  const ctaOpening = tr.cta[a - 1]!;
  const ctaClosing = tr.cta[b]!;
  if (!e.identity) {
    lines.push({ account: undefined, special: "cta", name: "Cumulative translation adjustment", classification: "Equity", local: 0, translated: ctaClosing, basis: "cta", rate: undefined });
    if (e.method === "temporal") {
      lines.push({ account: undefined, special: "remeasurement", name: "Remeasurement gain/loss", classification: "Expense", local: 0, translated: remeasurement, basis: "remeasurement", rate: undefined });
    }
  }
  const netIncomeTranslated = -(profitTranslated + remeasurement);
  let sum = 0;
  for (const line of lines) sum += line.translated;
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
