import { mulRatioRound, type Ratio } from "../money/rate.ts";
import type { EntityPeriodTrialBalance } from "../translation/period.ts";
import type { AcquisitionEquity, EntryLine } from "./elimination-types.ts";
import { LineKind, type CompiledEntity } from "./model.ts";
import type { NciAttribution } from "./nci-attribution.ts";

export interface NciComputation {
  readonly lines: readonly EntryLine[];
  readonly atAcquisition: number;
  readonly retainedEarningsSinceAcquisition: number;
  readonly capitalSinceAcquisition: number;
  readonly netIncome: number;
  readonly dividends: number;
  readonly cta: number;
  readonly goodwillImpairmentBeforePeriod: number;
  readonly goodwillCta: number;
  readonly fairValueReleasedBeforePeriod: number;
  readonly fairValueCta: number;
  readonly closing: number;
  readonly adjustedProfit: number;
  readonly unrealisedProfitInPeriod: number;
  readonly attributedManualProfit: number;
  readonly unrealisedProfitBeforePeriod: number;
  readonly attributedManualEquity: number;
}

/** What an NCI computation adds up, apart from what `finish` books (nciEntry). */
export type NciAmounts = Omit<NciComputation, "lines" | "closing" | "unrealisedProfitBeforePeriod" | "attributedManualEquity">;

/**
 * The lines of an NCI entry as it is built, in the order they are booked. `move` takes a share of
 * an amount out of the line it belongs to into the NCI account (rounded half away from zero per
 * line) and returns that part; `attributedEquity` moves the equity lines the eliminations attribute
 * to the subsidiary; `shareOfProfit` books the NCI's share of the period's profit. `finish` books
 * those two last (the attributed equity at `share`) and returns the computation, its closing NCI
 * all its parts add up to (with `other`, e.g. the adjustments at ownership changes).
 */
export function nciEntry(rows: { readonly nci: number; readonly nciShareOfProfit: number }) {
  const lines: EntryLine[] = [];
  const move = (row: number, amount: number, share: Ratio): number => {
    const part = mulRatioRound(amount, share, 0);
    if (part !== 0) {
      lines.push({ row, amount: -part });
      lines.push({ row: rows.nci, amount: part });
    }
    return part;
  };
  const attributedEquity = (attribution: NciAttribution | undefined, share: Ratio) => {
    let unrealisedProfitBeforePeriod = 0;
    let attributedManualEquity = 0;
    for (const line of attribution?.equityLines ?? []) {
      const part = move(line.row, line.amount, share);
      if (line.source === "unrealisedProfit") unrealisedProfitBeforePeriod += part;
      else attributedManualEquity -= part;
    }
    return { unrealisedProfitBeforePeriod, attributedManualEquity };
  };
  const shareOfProfit = (netIncome: number): void => {
    if (netIncome !== 0) {
      lines.push({ row: rows.nciShareOfProfit, amount: netIncome });
      lines.push({ row: rows.nci, amount: -netIncome });
    }
  };
  const finish = (share: Ratio, attribution: NciAttribution | undefined, amounts: NciAmounts, other = 0): NciComputation => {
    const { unrealisedProfitBeforePeriod, attributedManualEquity } = attributedEquity(attribution, share);
    shareOfProfit(amounts.netIncome);
    const { atAcquisition, capitalSinceAcquisition, retainedEarningsSinceAcquisition, dividends, cta, netIncome } = amounts;
    const closing =
      atAcquisition + capitalSinceAcquisition + retainedEarningsSinceAcquisition - dividends + cta + netIncome - amounts.goodwillImpairmentBeforePeriod + amounts.goodwillCta -
      amounts.fairValueReleasedBeforePeriod + amounts.fairValueCta - unrealisedProfitBeforePeriod + attributedManualEquity + other;
    return {
      lines,
      atAcquisition,
      retainedEarningsSinceAcquisition,
      capitalSinceAcquisition,
      netIncome,
      dividends,
      cta,
      goodwillImpairmentBeforePeriod: amounts.goodwillImpairmentBeforePeriod,
      goodwillCta: amounts.goodwillCta,
      fairValueReleasedBeforePeriod: amounts.fairValueReleasedBeforePeriod,
      fairValueCta: amounts.fairValueCta,
      closing,
      adjustedProfit: amounts.adjustedProfit,
      unrealisedProfitInPeriod: amounts.unrealisedProfitInPeriod,
      attributedManualProfit: amounts.attributedManualProfit,
      unrealisedProfitBeforePeriod,
      attributedManualEquity,
    };
  };
  return { lines, move, attributedEquity, shareOfProfit, finish };
}

/**
 * The non-controlling interests' share of a subsidiary (IFRS 10.22, ASC 810-10-45-16): of its
 * equity since acquisition (capital, retained earnings, dividends, CTA) and of the period's net
 * income. Each share moves from the line it belongs to into the NCI account, so the group keeps
 * only the parent's share of the CTA. Shares are rounded half away from zero per line.
 * When the NCI was measured at fair value it also bears its share of goodwill impairment: the
 * period's loss comes out of its share of profit (IAS 36.C6); earlier losses and its share of
 * goodwill's exchange differences were booked by the investment elimination and are reported here.
 * What the eliminations attribute to the subsidiary (nci-attribution.ts: unrealised profit in
 * inventory it sold within the group, manual entries attributed to it) adjusts the profit its
 * share is taken of (one rounding), and its share of their equity lines moves like the rest.
 * Fair-value adjustments are identifiable net assets, so under either measurement the NCI bears
 * its share of their release (the period's through its share of profit, earlier ones booked by the
 * investment elimination) and of their exchange differences.
 */
export function nonControllingInterest(
  sub: CompiledEntity,
  tb: EntityPeriodTrialBalance,
  acquisition: AcquisitionEquity | undefined,
  rowOf: (accountIndex: number) => number,
  rows: { readonly nci: number; readonly cta: number; readonly nciShareOfProfit: number },
  attribution?: NciAttribution,
): NciComputation {
  const share = sub.nciShare;
  const entry = nciEntry(rows);
  const move = (row: number, amount: number): number => entry.move(row, amount, share);
  let capitalSinceAcquisition = 0;
  let retainedEarningsSinceAcquisition = 0;
  let dividends = 0;
  // Only equity lines have a share to move: the subsidiary's equity rows, not all its accounts.
  for (const i of sub.equityRows) {
    const kind = sub.kinds[i]! as LineKind;
    if (kind === LineKind.ContributedCapital || kind === LineKind.OtherEquity) {
      capitalSinceAcquisition -= move(rowOf(i), tb.lines[i]!.translated - (acquisition?.byAccount.get(i) ?? 0));
    } else if (i === sub.retainedEarningsRow) {
      retainedEarningsSinceAcquisition -= move(rowOf(i), tb.lines[i]!.translated - (acquisition?.retainedEarnings ?? 0));
    } else if (i === sub.dividendsRow) {
      dividends += move(rowOf(i), tb.lines[i]!.translated);
    }
  }
  const ctaLine = tb.lines.find((l) => l.special === "cta");
  const cta = -move(rows.cta, (ctaLine?.translated ?? 0) - (acquisition?.cta ?? 0));
  const impairment = acquisition?.nciSharesGoodwill ? acquisition.impairmentInPeriod : 0;
  const fairValueRelease = acquisition?.fairValueReleasedInPeriod ?? 0;
  const unrealisedProfitInPeriod = -(attribution?.unrealisedProfitInPeriod ?? 0);
  const attributedManualProfit = -(attribution?.manualProfit ?? 0);
  const adjustedProfit = tb.netIncomeTranslated - impairment - fairValueRelease + unrealisedProfitInPeriod + attributedManualProfit;
  return entry.finish(share, attribution, {
    atAcquisition: acquisition?.nciAtAcquisition ?? 0,
    retainedEarningsSinceAcquisition,
    capitalSinceAcquisition,
    netIncome: mulRatioRound(adjustedProfit, share, 0),
    dividends,
    cta,
    goodwillImpairmentBeforePeriod: acquisition?.nciImpairmentBeforePeriod ?? 0,
    goodwillCta: acquisition?.nciGoodwillCta ?? 0,
    fairValueReleasedBeforePeriod: acquisition?.nciFairValueReleasedBeforePeriod ?? 0,
    fairValueCta: acquisition?.nciFairValueCta ?? 0,
    adjustedProfit,
    unrealisedProfitInPeriod,
    attributedManualProfit,
  });
}
