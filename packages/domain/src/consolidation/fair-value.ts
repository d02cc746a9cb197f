import { mulDivRound, mulRatioRound, parseRate, translationFactor, type Factor, type Ratio } from "../money/rate.ts";
import { formatMonth } from "../periods/month.ts";
import type { EliminationContext, EntryLine } from "./elimination-types.ts";
import type { ConsolidationInput } from "./input-schema.ts";
import { LineKind, type CompiledEntity } from "./model.ts";

type Investment = ConsolidationInput["eliminations"]["investments"][number];
type Adjustment = Investment["fairValueAdjustments"][number];

/**
 * Cumulative release of an adjustment through month k after the acquisition: straight-line by
 * month, rounded once half away from zero, so the months' releases add up to exactly the amount.
 */
export function cumulativeRelease(amount: number, lifeMonths: number | "indefinite", k: number): number {
  if (k <= 0 || lifeMonths === "indefinite") return 0;
  if (k >= lifeMonths) return amount;
  return mulRatioRound(amount, { num: BigInt(k), den: BigInt(lifeMonths) } satisfies Ratio, 0);
}

/** One adjustment's figures, reporting-currency minor units unless named local. */
export interface FairValueAdjustmentFigures {
  readonly id: string;
  readonly assetRow: number;
  readonly expenseRow: number;
  readonly amountLocal: number;
  /** At acquisition (the acquisition month's closing rate for a translated subsidiary). */
  readonly atAcquisition: number;
  /** Released (depreciated, amortised, sold) in the months before the period, each at its month's rate. */
  readonly releasedBeforePeriod: number;
  readonly releasedInPeriod: number;
  /** Remaining amount at the period's end: local × closing rate for a foreign operation's adjustment. */
  readonly carryingAmount: number;
  readonly carryingAmountLocal: number;
  /** Cumulative exchange difference, credit positive (foreign operation only, else 0). */
  readonly cta: number;
  /** The part of it arising in the period (other comprehensive income), credit positive. */
  readonly ctaInPeriod: number;
  /** NCI's share of the earlier releases (reduces the NCI) and of the exchange difference (credit positive). */
  readonly nciReleasedBeforePeriod: number;
  readonly nciCta: number;
}

export interface FairValueAdjustments {
  readonly items: readonly FairValueAdjustmentFigures[];
  readonly atAcquisition: number;
  readonly releasedInPeriod: number;
  readonly nciReleasedBeforePeriod: number;
  readonly nciCta: number;
}

export const NO_FAIR_VALUE_ADJUSTMENTS: FairValueAdjustments = { items: [], atAcquisition: 0, releasedInPeriod: 0, nciReleasedBeforePeriod: 0, nciCta: 0 };

/**
 * Fair-value adjustments of one investment (IFRS 3.18 and B41-B45, ASC 805-20-30-1): measured at
 * acquisition, released straight-line month by month after it (IAS 16.50 / IAS 38.97 / ASC
 * 350-30-35-6; inventory as it is sold), the release shared with the NCI like the subsidiary's own
 * result. A subsidiary translated at the current rate carries them as assets of the foreign
 * operation (IAS 21.47, ASC 830-30-45-11): in its currency, each month's release at that month's
 * average rate, the remaining amount at the closing rate and the difference in the CTA (its NCI
 * share in the NCI). Under the temporal method they are non-monetary items at the acquisition
 * rate (no exchange difference); in the reporting currency they are not translated at all.
 */
export function fairValueAdjustments(
  ctx: EliminationContext,
  rule: Investment,
  sub: CompiledEntity,
  tAcq: number,
  path: readonly (string | number)[],
): FairValueAdjustments | undefined {
  if (rule.fairValueAdjustments.length === 0) return NO_FAIR_VALUE_ADJUSTMENTS;
  const parent = ctx.group.parent;
  const periodStart = ctx.group.period.from - sub.start;
  const tEnd = ctx.group.period.to - sub.start;
  const foreign = !sub.identity && sub.method === "currentRate";
  const before = ctx.issues.items.length;

  const parentRowOf = (account: string, kind: LineKind, field: string, j: number, what: string): number | undefined => {
    const index = parent.accountIndex.get(account);
    if (index === undefined || parent.kinds[index] !== kind) {
      const found = index === undefined ? "not an account of the parent" : `a ${parent.accounts[index]!.classification} account of the parent`;
      ctx.issues.add([...path, "fairValueAdjustments", j, field], `"${account}" is ${found}: ${what}`);
      return undefined;
    }
    return ctx.parentRow(account);
  };

  // Rates of months before the subsidiary's opening month come from the rate table.
  const factorAt = (t: number, kind: "closing" | "average", j: number): Factor | undefined => {
    if (sub.identity) return undefined;
    if (t >= 0) return kind === "closing" ? sub.closing[t] : sub.average[t];
    const month = formatMonth(sub.start + t);
    const text = ctx.input.rates[sub.currency]?.[month]?.[kind];
    if (text === undefined) {
      ctx.issues.add(["rates", sub.currency, month], `give the ${kind} rate of ${sub.currency} for ${month}: ${sub.name}'s fair-value adjustment "${rule.fairValueAdjustments[j]!.id}" is translated at it`);
      return undefined;
    }
    return translationFactor(parseRate(text), sub.exponent, sub.reportingExponent);
  };
  const translate = (x: number, f: Factor | undefined) => (f === undefined || x === 0 ? x : mulDivRound(x, f));

  const seen = new Set<string>();
  const items: FairValueAdjustmentFigures[] = [];
  rule.fairValueAdjustments.forEach((adj: Adjustment, j) => {
    if (seen.has(adj.id)) ctx.issues.add([...path, "fairValueAdjustments", j, "id"], `adjustment id "${adj.id}" is used twice`);
    seen.add(adj.id);
    const assetRow = parentRowOf(adj.assetAccount, LineKind.Asset, "assetAccount", j, "the adjustment must show on a parent Asset account");
    const expenseRow = parentRowOf(adj.expenseAccount, LineKind.Expense, "expenseAccount", j, "its depreciation, amortisation or release must go to a parent Expense account");
    const acquisitionFactor = factorAt(tAcq, "closing", j);
    if (assetRow === undefined || expenseRow === undefined || (!sub.identity && !acquisitionFactor)) return;

    const life = adj.usefulLifeMonths;
    const atAcquisition = translate(adj.amount, acquisitionFactor);
    let releasedBeforePeriod = 0;
    let releasedInPeriod = 0;
    let ratesMissing = false;
    // Only months with a release need a rate: those up to the end of the life.
    const last = life === "indefinite" ? tAcq : Math.min(tEnd, tAcq + life);
    for (let t = tAcq + 1; t <= last; t++) {
      const k = t - tAcq;
      const local = cumulativeRelease(adj.amount, life, k) - cumulativeRelease(adj.amount, life, k - 1);
      if (local === 0) continue;
      const f = foreign ? factorAt(t, "average", j) : acquisitionFactor;
      if (foreign && !f) {
        ratesMissing = true;
        continue;
      }
      const released = translate(local, f);
      if (t < periodStart) releasedBeforePeriod += released;
      else releasedInPeriod += released;
    }
    if (ratesMissing) return;

    const carryingAmountLocal = adj.amount - cumulativeRelease(adj.amount, life, tEnd - tAcq);
    const bookValue = atAcquisition - releasedBeforePeriod - releasedInPeriod;
    const carryingAmount = foreign ? translate(carryingAmountLocal, sub.closing[tEnd]) : bookValue;
    const cta = carryingAmount - bookValue;
    const ctaOpening = foreign
      ? translate(adj.amount - cumulativeRelease(adj.amount, life, periodStart - 1 - tAcq), sub.closing[periodStart - 1]) - (atAcquisition - releasedBeforePeriod)
      : 0;
    // The adjustment belongs to the identifiable net assets, so the NCI owns its share under
    // either NCI measurement (unlike goodwill).
    items.push({
      id: adj.id,
      assetRow,
      expenseRow,
      amountLocal: adj.amount,
      atAcquisition,
      releasedBeforePeriod,
      releasedInPeriod,
      carryingAmount,
      carryingAmountLocal,
      cta,
      ctaInPeriod: cta - ctaOpening,
      nciReleasedBeforePeriod: mulRatioRound(releasedBeforePeriod, sub.nciShare, 0),
      nciCta: mulRatioRound(cta, sub.nciShare, 0),
    });
  });
  if (ctx.issues.items.length > before) return undefined;
  const sum = (f: (x: FairValueAdjustmentFigures) => number) => items.reduce((s, x) => s + f(x), 0);
  return {
    items,
    atAcquisition: sum((x) => x.atAcquisition),
    releasedInPeriod: sum((x) => x.releasedInPeriod),
    nciReleasedBeforePeriod: sum((x) => x.nciReleasedBeforePeriod),
    nciCta: sum((x) => x.nciCta),
  };
}

/**
 * The adjustments' lines in the investment elimination, debit positive: the amount at acquisition
 * on the asset (its counterpart is in the net assets eliminated against cost and NCI), earlier
 * releases out of opening retained earnings and the NCI, the period's release as an expense, and
 * the exchange difference to the CTA and the NCI.
 */
export function fairValueLines(fv: FairValueAdjustments, rows: { retainedEarnings: number; nci: number | undefined; cta: number | undefined }): EntryLine[] {
  const lines: EntryLine[] = [];
  const push = (row: number | undefined, amount: number) => {
    if (amount !== 0) lines.push({ row: row!, amount });
  };
  for (const x of fv.items) {
    push(x.assetRow, x.atAcquisition);
    push(x.assetRow, -x.releasedBeforePeriod);
    push(rows.retainedEarnings, x.releasedBeforePeriod - x.nciReleasedBeforePeriod);
    push(rows.nci, x.nciReleasedBeforePeriod);
    push(x.expenseRow, x.releasedInPeriod);
    push(x.assetRow, -x.releasedInPeriod);
    push(x.assetRow, x.cta);
    push(rows.cta, -(x.cta - x.nciCta));
    push(rows.nci, -x.nciCta);
  }
  return lines;
}

/** The adjustments shown in the investment elimination's details (totals, then per adjustment). */
export function fairValueDetails(fv: FairValueAdjustments, foreign: boolean): Record<string, number> {
  if (fv.items.length === 0) return {};
  const sum = (f: (x: FairValueAdjustmentFigures) => number) => fv.items.reduce((s, x) => s + f(x), 0);
  const details: Record<string, number> = {
    fairValueAdjustmentsAtAcquisition: fv.atAcquisition,
    fairValueReleasedBeforePeriod: sum((x) => x.releasedBeforePeriod),
    fairValueReleasedInPeriod: fv.releasedInPeriod,
    fairValueReleasedNciShareBeforePeriod: fv.nciReleasedBeforePeriod,
    fairValueCarryingAmount: sum((x) => x.carryingAmount),
  };
  if (foreign) {
    details.ctaOnFairValueAdjustmentsCreditPositive = sum((x) => x.cta);
    details.ctaOnFairValueAdjustmentsInPeriodCreditPositive = sum((x) => x.ctaInPeriod);
    details.ctaOnFairValueAdjustmentsNciShare = fv.nciCta;
  }
  for (const x of fv.items) {
    const key = `fairValue[${x.id}]`;
    details[`${key}.amountLocal`] = x.amountLocal;
    details[`${key}.atAcquisition`] = x.atAcquisition;
    details[`${key}.releasedBeforePeriod`] = x.releasedBeforePeriod;
    details[`${key}.releasedInPeriod`] = x.releasedInPeriod;
    details[`${key}.carryingAmount`] = x.carryingAmount;
    if (foreign) {
      details[`${key}.carryingAmountLocal`] = x.carryingAmountLocal;
      details[`${key}.ctaCreditPositive`] = x.cta;
      details[`${key}.ctaInPeriodCreditPositive`] = x.ctaInPeriod;
    }
  }
  return details;
}
