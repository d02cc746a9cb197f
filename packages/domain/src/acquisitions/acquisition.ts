import type { EquityKind } from "../consolidation/input-schema.ts";
import { currencyExponent } from "../money/currency.ts";
import { mulDivRound, mulRatioRound, parseRate, translationFactor, type Factor, type Ratio } from "../money/rate.ts";

/**
 * An acquisition as the product records it (Setup → Acquisitions), and the pure rules that turn it
 * into the consolidation engine's investment elimination (docs/engine.md, "Investment"):
 *
 * - The acquisition takes effect at the end of the month of its date (the books are monthly).
 * - The equity acquired is the subsidiary's equity at that month-end in its own currency, retained
 *   earnings including the fiscal year's profit to date, debit positive.
 * - For a translated subsidiary it is translated at that month-end's closing rate, line by line
 *   (IAS 21.47 and ASC 830-30-45-11 treat goodwill and fair-value adjustments as the foreign
 *   operation's; the equity acquired is measured at the acquisition date, IFRS 3.18 / ASC 805-20-30-1).
 * - Goodwill = consideration + NCI at acquisition − net assets acquired (IFRS 3.32, ASC 805-30-30-1);
 *   below zero it is a bargain purchase gain (IFRS 3.34, ASC 805-30-25-2). The NCI at acquisition
 *   is its proportionate share of the net assets, or its fair value (IFRS 3.19).
 */

export interface AcquisitionFacts {
  /** YYYY-MM: the month-end the acquisition takes effect at. */
  acquisitionMonth: string;
  /** The parent's share as an exact decimal fraction, e.g. "0.8". */
  ownership: string;
  /** Reporting-currency minor units. */
  consideration: number;
  nciMeasurement: "proportionateShare" | "fairValue";
  /** Reporting-currency minor units; with fairValue only. */
  nciFairValue: number | null;
  /** The subsidiary's equity at acquisition, local minor units, debit positive. */
  equity: readonly { account: string; local: number }[];
  /** Fair-value adjustments of identifiable assets, local minor units, debit positive (an uplift is positive). */
  fairValueAdjustments: readonly { amount: number }[];
}

export interface AcquisitionFigures {
  /** Credit positive, reporting minor units. */
  netAssets: number;
  /** Debit positive (an uplift adds to the net assets), reporting minor units. */
  fairValueAdjustments: number;
  /** Credit positive. */
  nciAtAcquisition: number;
  /** Negative: a bargain purchase gain of its absolute value. */
  goodwill: number;
}

/** The NCI's share (1 − ownership) as an exact ratio. */
export function nciShareOf(ownership: string): Ratio {
  const r = parseRate(ownership);
  const one = 10n ** BigInt(r.scale);
  return { num: one - r.numerator, den: one };
}

/** Local → reporting at the acquisition month's closing rate; null: same currency (no translation). */
export function acquisitionFactor(rate: string | null, localCurrency: string, reportingCurrency: string): Factor | null {
  if (localCurrency === reportingCurrency) return null;
  if (rate === null) throw new Error("a translated subsidiary's acquisition needs the closing rate of its acquisition month");
  return translationFactor(parseRate(rate), currencyExponent(localCurrency), currencyExponent(reportingCurrency));
}

const at = (local: number, factor: Factor | null) => (factor === null || local === 0 ? local : mulDivRound(local, factor));

/** Goodwill, NCI and net assets at acquisition, exactly as the engine computes them (per-line rounding). */
export function acquisitionFigures(facts: AcquisitionFacts, factor: Factor | null): AcquisitionFigures {
  let equity = 0;
  for (const line of facts.equity) equity -= at(line.local, factor);
  let fairValue = 0;
  for (const adj of facts.fairValueAdjustments) fairValue += at(adj.amount, factor);
  const netAssets = equity + fairValue;
  const nciAtAcquisition = facts.nciMeasurement === "fairValue" ? (facts.nciFairValue ?? 0) : mulRatioRound(netAssets, nciShareOf(facts.ownership), 0);
  return { netAssets: equity, fairValueAdjustments: fairValue, nciAtAcquisition, goodwill: facts.consideration + nciAtAcquisition - netAssets };
}

/**
 * The equity at acquisition as the engine's investment rule states it (translated, debit positive,
 * by account). Its total is the net assets at the acquisition rate. Contributed capital that the
 * subsidiary's column carries at another historical translation is stated at that translation, so
 * its row is eliminated entirely, and retained earnings at acquisition take the difference: the
 * whole equity at acquisition is eliminated either way, so goodwill does not move.
 * `historicalAt(account)`: the translated amount the consolidation gives that account's balance at
 * acquisition (undefined: translate it at the acquisition rate).
 */
export function engineEquityAtAcquisition(
  lines: readonly { account: string; local: number; kind: EquityKind }[],
  factor: Factor | null,
  retainedEarningsAccount: string,
  historicalAt: (account: string) => number | undefined,
): { account: string; amount: number }[] {
  const out = new Map<string, number>();
  let total = 0;
  for (const line of lines) total += at(line.local, factor);
  let stated = 0;
  for (const line of lines) {
    if (line.kind !== "contributedCapital" && line.kind !== "other") continue;
    const amount = historicalAt(line.account) ?? at(line.local, factor);
    out.set(line.account, (out.get(line.account) ?? 0) + amount);
    stated += amount;
  }
  const retained = total - stated;
  if (retained !== 0) out.set(retainedEarningsAccount, (out.get(retainedEarningsAccount) ?? 0) + retained);
  return [...out].filter(([, amount]) => amount !== 0).map(([account, amount]) => ({ account, amount }));
}
