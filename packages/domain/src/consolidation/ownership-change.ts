import { mulRatioRound, parseRate, type Ratio } from "../money/rate.ts";
import { translatedAt } from "../translation/translate.ts";
import { formatMonth, parseMonth } from "../periods/month.ts";
import type { AcquisitionEquity, Elimination, EliminationContext, EntryLine, OwnershipHistory, OwnershipSegment } from "./elimination-types.ts";
import { consolidatedMonths } from "./mid-year.ts";
import { LineKind } from "./model.ts";
import { nciEntry, type NciComputation } from "./nci.ts";
import type { NciAttribution } from "./nci-attribution.ts";

export type { OwnershipHistory } from "./elimination-types.ts";

/**
 * Changes in a parent's ownership of a subsidiary that do not end control (IFRS 10.23 and B96,
 * ASC 810-10-45-22 to 45-24): equity transactions between owners. The NCI's carrying amount is
 * adjusted for the change in relative interests; the difference against the consideration paid or
 * received goes to the parent's equity, never to profit or loss; goodwill is not remeasured. The
 * parent's share of the cumulative translation difference is re-attributed between the parent and
 * the NCI (IAS 21.48C; ASC 810-10-45-24 and 830-30-45-17 adjust accumulated OCI through equity).
 *
 * The subsidiary's `ownership` is its share at acquisition; each change sets the share from its
 * month-end on. The NCI takes its share of each equity movement and of each month's profit at the
 * share in force then (nci.ts does the same with one share; a subsidiary without changes never
 * comes here).
 */

const nciShareOf = (ownershipText: string): Ratio => {
  const r = parseRate(ownershipText);
  const one = 10n ** BigInt(r.scale);
  return { num: one - r.numerator, den: one };
};
const sameRatio = (a: Ratio, b: Ratio) => a.num * b.den === b.num * a.den;

/** The ownership history of every subsidiary whose investment rule lists changes (checked); empty otherwise. */
export function ownershipHistories(ctx: EliminationContext): Map<string, OwnershipHistory> {
  const out = new Map<string, OwnershipHistory>();
  ctx.input.eliminations.investments.forEach((rule, k) => {
    if (rule.ownershipChanges.length === 0) return;
    const path = ["eliminations", "investments", k, "ownershipChanges"];
    const sub = ctx.group.entities.find((e) => e.id === rule.subsidiary && e.role === "subsidiary");
    if (!sub || out.has(sub.id)) return; // the investment elimination reports it
    const tAcq = rule.acquisitionMonth === undefined ? 0 : parseMonth(rule.acquisitionMonth) - sub.start;
    const { last } = consolidatedMonths(ctx, sub);
    if (ctx.nciRow === undefined) ctx.issues.add(["designatedAccounts", "nci"], `${sub.name}'s ownership changes: name the parent's NCI account`);
    if (rule.cost === undefined) {
      // The investment account also holds what later purchases and sales moved through it.
      ctx.issues.add(["eliminations", "investments", k, "cost"], `${sub.name}'s ownership changes: give the cost of the shares bought at acquisition`);
    }
    if (rule.nciMeasurement === "fairValue" && (rule.goodwillImpairments.length > 0 || (!sub.identity && rule.goodwillTranslation === "closing"))) {
      ctx.issues.add(path, "changes in ownership of a subsidiary whose NCI is at fair value are built only when its goodwill is carried in the reporting currency and not impaired");
      return;
    }
    if (rule.fairValueAdjustments.length > 0) {
      ctx.issues.add(path, "changes in ownership of a subsidiary with fair-value adjustments at acquisition are not built: the NCI's share of their release would change with the holding");
      return;
    }
    if (ctx.windows?.get(sub.id)?.disposedAt !== undefined) {
      ctx.issues.add(path, `${sub.name} is disposed of in the period: its ownership changes before the disposal are not built`);
      return;
    }
    const segments: OwnershipSegment[] = [];
    const changes: OwnershipHistory["changes"][number][] = [];
    let share = sub.nciShare;
    let start = tAcq;
    let previous = -Infinity;
    rule.ownershipChanges.forEach((c, j) => {
      const t = parseMonth(c.month) - sub.start;
      if (t <= tAcq || t < 0 || t <= previous) {
        ctx.issues.add([...path, j, "month"], `a change must come after the acquisition (${formatMonth(sub.start + tAcq)}), after ${sub.name}'s opening month and after the change before it`);
        return;
      }
      previous = t;
      if (t > last) {
        ctx.warnings.push(`${sub.name}: the ownership change of ${c.month} falls after the period and is not included`);
        return;
      }
      const after = nciShareOf(c.ownership);
      if (sameRatio(after, share)) {
        ctx.issues.add([...path, j, "ownership"], `the ownership does not change (${c.ownership})`);
        return;
      }
      if (c.ownership === "0" || after.num === after.den) {
        ctx.issues.add([...path, j, "ownership"], "a holding of nothing is a loss of control: use eliminations.disposals");
        return;
      }
      segments.push({ start, end: t, share });
      changes.push({ t, before: share, after, ownershipText: c.ownership, index: j });
      share = after;
      start = t;
    });
    segments.push({ start, end: last, share });
    out.set(sub.id, { sub, segments, changes, ruleIndex: k });
  });
  return out;
}

/** Translated value of a balance line at month t, the acquisition's own figure at the acquisition month. */
function valueAt(series: (t: number) => number, atAcquisition: number, t: number, tAcq: number): number {
  return t === tAcq ? atAcquisition : series(t);
}

/**
 * The NCI of a subsidiary whose ownership changed: like nci.ts, each equity row's movement since
 * acquisition moves to the NCI account, but each stretch of months at its own share (one rounding
 * per stretch and row). What the eliminations attribute to the subsidiary is shared at the
 * ownership at the period's end. The adjustments at each change are booked by
 * ownershipChangeEliminations and added here as `ownershipChanges`.
 */
export function segmentedNonControllingInterest(
  ctx: EliminationContext,
  history: OwnershipHistory,
  acquisition: AcquisitionEquity | undefined,
  rows: { readonly nci: number; readonly cta: number; readonly nciShareOfProfit: number },
  adjustments: number,
  attribution?: NciAttribution,
): NciComputation & { readonly ownershipChanges: number } {
  const sub = history.sub;
  const tr = ctx.translations.get(sub.id)!;
  const { first, last } = consolidatedMonths(ctx, sub);
  const tAcq = history.segments[0]!.start;
  const entry = nciEntry(rows);
  const move = entry.move;
  let capitalSinceAcquisition = 0;
  let retainedEarningsSinceAcquisition = 0;
  let dividends = 0;
  let cta = 0;
  let netIncome = 0;
  let profit = 0;
  const lastSegment = history.segments.length - 1;
  const unrealisedProfitInPeriod = -(attribution?.unrealisedProfitInPeriod ?? 0);
  const attributedManualProfit = -(attribution?.manualProfit ?? 0);
  history.segments.forEach((seg, k) => {
    sub.kinds.forEach((kind, i) => {
      if (kind !== LineKind.ContributedCapital && kind !== LineKind.OtherEquity) return;
      const value = (t: number) => valueAt((u) => translatedAt(tr, i, u), acquisition?.byAccount.get(i) ?? 0, t, tAcq);
      capitalSinceAcquisition -= move(ctx.rowOf(sub, i), value(seg.end) - value(seg.start), seg.share);
    });
    // Retained earnings on the worksheet stand at the start of the months consolidated.
    const reEnd = Math.min(seg.end, first - 1);
    if (reEnd > seg.start) {
      const re = (t: number) => valueAt((u) => tr.retainedEarningsEnd[u]!, acquisition?.retainedEarnings ?? 0, t, tAcq);
      retainedEarningsSinceAcquisition -= move(ctx.rowOf(sub, sub.retainedEarningsRow), re(reEnd) - re(seg.start), seg.share);
    }
    let segmentDividends = 0;
    let segmentProfit = 0;
    for (let t = Math.max(seg.start + 1, first); t <= Math.min(seg.end, last); t++) {
      segmentDividends += tr.dividends[t]!;
      segmentProfit -= tr.profitAndLoss[t]! + tr.remeasurement[t]!;
    }
    dividends += move(ctx.rowOf(sub, sub.dividendsRow), segmentDividends, seg.share);
    if (!sub.identity) {
      const c = (t: number) => valueAt((u) => tr.cta[u]!, acquisition?.cta ?? 0, t, tAcq);
      cta -= move(rows.cta, c(seg.end) - c(seg.start), seg.share);
    }
    // The group's adjustments to the subsidiary's profit are shared at the period-end ownership.
    if (k === lastSegment) segmentProfit += unrealisedProfitInPeriod + attributedManualProfit;
    profit += segmentProfit;
    netIncome += mulRatioRound(segmentProfit, seg.share, 0);
  });
  const endShare = history.segments[lastSegment]!.share;
  const computed = entry.finish(
    endShare,
    attribution,
    {
      atAcquisition: acquisition?.nciAtAcquisition ?? 0,
      retainedEarningsSinceAcquisition,
      capitalSinceAcquisition,
      netIncome,
      dividends,
      cta,
      goodwillImpairmentBeforePeriod: 0,
      goodwillCta: 0,
      fairValueReleasedBeforePeriod: 0,
      fairValueCta: 0,
      adjustedProfit: profit,
      unrealisedProfitInPeriod,
      attributedManualProfit,
    },
    adjustments,
  );
  return { ...computed, ownershipChanges: adjustments };
}

/** The NCI's share of the dividends a subsidiary declared in the months consolidated, at the share in force in each stretch (as segmentedNonControllingInterest moves them). */
export function segmentedDividendsShare(ctx: EliminationContext, history: OwnershipHistory): number {
  const tr = ctx.translations.get(history.sub.id)!;
  const { first, last } = consolidatedMonths(ctx, history.sub);
  let total = 0;
  for (const seg of history.segments) {
    let d = 0;
    for (let t = Math.max(seg.start + 1, first); t <= Math.min(seg.end, last); t++) d += tr.dividends[t]!;
    total += mulRatioRound(d, seg.share, 0);
  }
  return total;
}

/**
 * One equity entry per change (kind `ownershipChange`): the NCI adjusted, the parent's booking of
 * the consideration reversed, the CTA re-attributed, the difference to the parent's equity.
 * Buying (the NCI's share falls from s to s'): the NCI's carrying amount at the change × (s − s')
 * / s leaves the NCI (Kaplan's "(5/20) × $6m"). Selling (it rises): the NCI gains (s' − s) × the
 * subsidiary's net assets at the change, plus goodwill when the NCI is measured at fair value and
 * so owns its share of it (Kaplan's "10% × ($7m + $23m)"; with a proportionate NCI goodwill stays
 * the parent's).
 */
export function ownershipChangeEliminations(
  ctx: EliminationContext,
  histories: ReadonlyMap<string, OwnershipHistory>,
  acquisitions: ReadonlyMap<string, AcquisitionEquity>,
  eliminations: readonly Elimination[],
): { eliminations: Elimination[]; adjustments: Map<string, number> } {
  const out: Elimination[] = [];
  const adjustments = new Map<string, number>();
  const parent = ctx.group.parent;
  const reserveId = ctx.input.designatedAccounts.ownershipChangeReserve;
  let reserveRow = ctx.retainedEarningsRow;
  if (reserveId !== undefined) {
    const index = parent.accountIndex.get(reserveId);
    const kind = index === undefined ? undefined : (parent.kinds[index]! as LineKind);
    if (kind === undefined || kind === LineKind.Asset || kind === LineKind.Liability || kind === LineKind.Revenue || kind === LineKind.Expense || ctx.parentRow(reserveId) === ctx.nciRow) {
      ctx.issues.add(["designatedAccounts", "ownershipChangeReserve"], `"${reserveId}" is not an Equity account of the parent (other than the NCI account)`);
      return { eliminations: out, adjustments };
    }
    reserveRow = ctx.parentRow(reserveId)!;
  }
  for (const history of histories.values()) {
    const sub = history.sub;
    const rule = ctx.input.eliminations.investments[history.ruleIndex]!;
    const acquisition = acquisitions.get(sub.id);
    const investment = eliminations.find((e) => e.kind === "investment" && e.id === rule.id);
    if (!acquisition || !investment) continue; // the investment elimination reported why
    const tr = ctx.translations.get(sub.id)!;
    const tAcq = history.segments[0]!.start;
    const fairValue = rule.nciMeasurement === "fairValue";
    const goodwill = investment.details.goodwillAtAcquisition as number;
    const netAssetsAt = (t: number): number => {
      if (t === tAcq) return investment.details.netAssetsAtAcquisition as number;
      let equity = tr.retainedEarningsEnd[t]! + tr.cta[t]!;
      sub.kinds.forEach((kind, i) => {
        if (kind === LineKind.ContributedCapital || kind === LineKind.OtherEquity) equity += translatedAt(tr, i, t);
      });
      return -equity;
    };
    // The NCI's carrying amount as it stands after each stretch (one rounding per stretch).
    let carrying = acquisition.nciAtAcquisition;
    let total = 0;
    history.changes.forEach((change, j) => {
      const seg = history.segments[j]!;
      carrying += mulRatioRound(netAssetsAt(seg.end) - netAssetsAt(seg.start), seg.share, 0);
      const netAssets = netAssetsAt(change.t);
      const selling = change.after.num * change.before.den > change.before.num * change.after.den;
      const delta: Ratio = { num: change.after.num * change.before.den - change.before.num * change.after.den, den: change.after.den * change.before.den };
      const adjustment = selling
        ? mulRatioRound(netAssets + (fairValue ? goodwill : 0), delta, 0)
        : -mulRatioRound(carrying, { num: -delta.num * change.before.den, den: delta.den * change.before.num }, 0);
      const ctaSince = sub.identity ? 0 : tr.cta[change.t]! - acquisition.cta;
      const ctaPart = mulRatioRound(ctaSince, delta, 0);
      const c = rule.ownershipChanges[change.index]!;
      const path = ["eliminations", "investments", history.ruleIndex, "ownershipChanges", change.index];
      const accountId = c.account ?? rule.investmentAccount;
      const accountRow = ctx.parentRow(accountId);
      if (accountRow === undefined) {
        ctx.issues.add([...path, "account"], `"${accountId}" is not an account of the parent ${parent.name}`);
        return;
      }
      const lines: EntryLine[] = [];
      const add = (row: number, amount: number) => {
        if (amount !== 0) lines.push({ row, amount });
      };
      add(ctx.nciRow!, -adjustment);
      if (ctaPart !== 0) add(ctx.ctaRow!, -ctaPart);
      add(accountRow, selling ? c.consideration : -c.consideration);
      const difference = -lines.reduce((s, l) => s + l.amount, 0);
      add(reserveRow, difference);
      carrying += adjustment;
      total += adjustment;
      out.push({
        id: `${rule.id}:ownership:${formatMonth(sub.start + change.t)}`,
        kind: "ownershipChange",
        description: `${selling ? "Sale" : "Purchase"} of shares in ${sub.name} without a change of control (${formatMonth(sub.start + change.t)}): the NCI adjusted, the difference to equity`,
        lines,
        details: {
          subsidiary: sub.id,
          month: formatMonth(sub.start + change.t),
          ownershipAfter: change.ownershipText,
          consideration: c.consideration,
          direction: selling ? "sold" : "bought",
          nciCarryingAmountBefore: carrying - adjustment,
          netAssets,
          goodwillShared: selling && fairValue ? goodwill : 0,
          nciAdjustmentCreditPositive: adjustment,
          ctaReattributedToNciCreditPositive: -ctaPart,
          differenceToEquityCreditPositive: -difference,
        },
      });
    });
    adjustments.set(sub.id, total);
  }
  return { eliminations: out, adjustments };
}
