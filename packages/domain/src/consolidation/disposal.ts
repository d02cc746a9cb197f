import { mulRatioRound } from "../money/rate.ts";
import { formatMonth } from "../periods/month.ts";
import { entityPeriodTrialBalance } from "../translation/period.ts";
import type { AcquisitionEquity, Elimination, EliminationContext, EntryLine } from "./eliminations.ts";
import type { ConsolidationInput } from "./input-schema.ts";
import { requireParentAccount, requireSubsidiary } from "./mapping.ts";
import { trialBalanceDifference, type DisposalMonth } from "./mid-year.ts";
import { LineKind } from "./model.ts";
import type { NciResult } from "./output-schema.ts";

/**
 * Disposal of a whole subsidiary (loss of control): IFRS 10.25 and B97-B99, ASC 810-10-40-4 and
 * 40-5. Its results are consolidated up to and including the disposal month (mid-year.ts gives it
 * a control window ending there, so the NCI and every elimination see the disposal date); at the
 * disposal its net assets, the carrying amount of goodwill and the NCI are derecognised and the
 * gain or loss is proceeds + NCI − (net assets + goodwill). The parent's share of the cumulative
 * translation difference since the acquisition (on net assets and goodwill) is reclassified from
 * equity to profit or loss (IAS 21.48, ASC 830-30-40-1); the NCI's share goes out with the NCI and
 * is not reclassified (IAS 21.48B). Other reserves since the acquisition are transferred to
 * retained earnings (B99; capital the subsidiary issued after the acquisition likewise).
 */

/** The disposal months, for the control windows (mid-year.ts). */
export function disposalMonths(input: ConsolidationInput): DisposalMonth[] {
  return input.eliminations.disposals.map((d, k) => ({ subsidiary: d.subsidiary, month: d.month, path: ["eliminations", "disposals", k] }));
}

/**
 * The months after the disposal month are not the group's: the difference between the
 * subsidiary's trial balance up to the period's end and up to the disposal month, row by row
 * (its worksheet column is its whole period; with a mid-year acquisition, the pre-acquisition
 * entry has already cut the months before).
 */
export function postDisposalEliminations(ctx: EliminationContext): Elimination[] {
  const out: Elimination[] = [];
  for (const w of ctx.windows?.values() ?? []) {
    if (w.disposedAt === undefined) continue;
    const e = w.entity;
    const b = ctx.group.period.to - e.start;
    if (w.disposedAt === b) continue; // disposed of at the period's end: nothing after it
    const tr = ctx.translations.get(e.id)!;
    const toEnd = w.acquiredAt === undefined ? w.periodTb : entityPeriodTrialBalance(tr, { from: e.start + w.first, to: ctx.group.period.to });
    const lines = trialBalanceDifference(ctx, e, toEnd, w.tb);
    if (lines.length === 0) continue; // nothing moved after the disposal (e.g. its books held flat)
    out.push({
      id: `after-disposal:${e.id}`,
      kind: "disposal",
      description: `Leave out ${e.name}'s results and balances after its disposal (${formatMonth(e.start + w.disposedAt + 1)} to ${formatMonth(ctx.group.period.to)})`,
      lines,
      details: {
        subsidiary: e.id,
        disposalMonth: formatMonth(e.start + w.disposedAt),
        postDisposalProfitCreditPositive: toEnd.netIncomeTranslated - w.tb.netIncomeTranslated,
      },
    });
  }
  return out;
}

/**
 * The derecognition entry, booked after the NCI is computed (the NCI at the disposal date is part
 * of the gain). `eliminations` are those already booked (the investment elimination gives the
 * cost and goodwill's carrying amount at the disposal month).
 */
export function disposalEliminations(
  ctx: EliminationContext,
  acquisitions: ReadonlyMap<string, AcquisitionEquity>,
  nci: readonly NciResult[],
  eliminations: readonly Elimination[],
): Elimination[] {
  const out: Elimination[] = [];
  const parent = ctx.group.parent;
  const seen = new Set<string>();
  ctx.input.eliminations.disposals.forEach((rule, k) => {
    const path = ["eliminations", "disposals", k];
    const sub = requireSubsidiary(ctx.group, rule.subsidiary, [...path, "subsidiary"], ctx.issues);
    if (!sub) return;
    if (seen.has(sub.id)) return; // mid-year.ts reports it
    seen.add(sub.id);
    const gainId = requireParentAccount(parent, rule.gainAccount, [...path, "gainAccount"], [LineKind.Revenue, LineKind.Expense], "the gain or loss on disposal (it must be Revenue or Expense)", ctx.issues);
    let proceedsId = gainId;
    if (rule.proceedsAccount !== undefined) {
      proceedsId = parent.accountIndex.has(rule.proceedsAccount) ? rule.proceedsAccount : undefined;
      if (!proceedsId) ctx.issues.add([...path, "proceedsAccount"], `"${rule.proceedsAccount}" is not an account of the parent ${parent.name}`);
    }
    const investmentRule = ctx.input.eliminations.investments.find((r) => r.subsidiary === sub.id);
    const investment = investmentRule && eliminations.find((el) => el.kind === "investment" && el.id === investmentRule.id);
    const acquisition = acquisitions.get(sub.id);
    if (!investmentRule || !investment || !acquisition) {
      ctx.issues.add([...path, "subsidiary"], `${sub.name} has no investment elimination: its goodwill and equity at acquisition are needed to measure the gain on its disposal`);
      return;
    }
    if (investmentRule.fairValueAdjustments.length > 0 || investmentRule.parentMethod === "equity") {
      // Their carrying amounts (and an equity-method restatement) would have to leave with the subsidiary too.
      ctx.issues.add([...path, "subsidiary"], `the disposal of ${sub.name} is not built when its acquisition has fair-value adjustments or the parent carries it at equity`);
      return;
    }
    const w = ctx.windows?.get(sub.id);
    if (!gainId || !proceedsId || !w || w.disposedAt === undefined) return;
    const tb = w.tb;
    const tD = w.disposedAt;

    const lines: EntryLine[] = [];
    const add = (row: number, amount: number) => {
      if (amount !== 0) lines.push({ row, amount });
    };
    const cost = investment.details.cost as number;
    if (rule.investmentRemovedByParent) {
      // Put back what the parent's own entry took out, so the investment elimination's cost meets it.
      add(ctx.parentRow(investmentRule.investmentAccount)!, cost);
      add(ctx.parentRow(proceedsId)!, -cost);
    }
    // The parent's own booking of the proceeds is replaced by the group's gain.
    add(ctx.parentRow(proceedsId)!, rule.proceeds);

    // Net assets at the disposal month (the trial balance of the months controlled ends there).
    let netAssets = 0;
    let ctaSinceAcquisition = 0;
    const share = sub.nciShare;
    const gainRow = ctx.parentRow(gainId)!;
    let reservesToRetainedEarnings = 0;
    tb.lines.forEach((line) => {
      if (line.special === "cta") {
        ctaSinceAcquisition = line.translated - acquisition.cta;
        return;
      }
      if (line.special !== null) return;
      const i = sub.accountIndex.get(line.account!)!;
      const kind = sub.kinds[i]! as LineKind;
      if (kind === LineKind.Asset || kind === LineKind.Liability) {
        netAssets += line.translated;
        add(ctx.rowOf(sub, i), -line.translated);
      } else if (kind === LineKind.ContributedCapital || kind === LineKind.OtherEquity) {
        // What stays on the row after the investment elimination and the NCI's share (nci.ts, same rounding).
        const since = line.translated - (acquisition.byAccount.get(i) ?? 0);
        const residual = since - mulRatioRound(since, share, 0);
        if (residual !== 0) {
          add(ctx.rowOf(sub, i), -residual);
          reservesToRetainedEarnings += residual;
        }
      }
    });
    add(ctx.retainedEarningsRow, reservesToRetainedEarnings);

    const goodwill = investment.details.goodwillCarryingAmount as number;
    add(ctx.goodwillRow!, -goodwill);
    const n = nci.find((x) => x.entity === sub.id);
    const nciAtDisposal = n?.closing ?? 0;
    add(ctx.nciRow!, nciAtDisposal);
    const gainBeforeRecycling = rule.proceeds + nciAtDisposal - netAssets - goodwill;
    add(gainRow, -gainBeforeRecycling);

    // The parent's share of the CTA since the acquisition, on net assets and on goodwill, is what
    // the CTA row holds for this subsidiary (debit positive): reclassified to profit or loss.
    const nciCta = n?.cta ?? 0; // the NCI's share, credit positive
    const ctaOnGoodwill = (investment.details.ctaOnGoodwillCreditPositive as number | undefined) ?? 0;
    const nciGoodwillCta = (investment.details.ctaOnGoodwillNciShare as number | undefined) ?? 0;
    const ctaResidual = ctaSinceAcquisition + nciCta - (ctaOnGoodwill - nciGoodwillCta);
    if (ctaResidual !== 0) {
      add(ctx.ctaRow!, -ctaResidual);
      add(gainRow, ctaResidual);
    }
    const ctaRecycled = -ctaResidual;

    out.push({
      id: rule.id,
      kind: "disposal",
      description: `Derecognise ${sub.name} sold in ${formatMonth(sub.start + tD)}: its net assets, goodwill and NCI, with the group's gain or loss on disposal and the translation reserve recycled`,
      lines,
      details: {
        subsidiary: sub.id,
        disposalMonth: formatMonth(sub.start + tD),
        proceeds: rule.proceeds,
        netAssetsAtDisposal: netAssets,
        goodwillAtDisposal: goodwill,
        nciAtDisposal,
        gainBeforeRecyclingCreditPositive: gainBeforeRecycling,
        ctaRecycledCreditPositive: ctaRecycled,
        ctaNciShareDerecognised: nciCta + nciGoodwillCta,
        gainCreditPositive: gainBeforeRecycling + ctaRecycled,
        reservesToRetainedEarningsCreditPositive: -reservesToRetainedEarnings,
        investmentCost: cost,
        investmentRemovedByParent: rule.investmentRemovedByParent ? "yes" : "no",
      },
    });
  });
  return out;
}
