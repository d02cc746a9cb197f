import { minorToDecimal } from "../money/format.ts";
import { translatedAt } from "../translation/translate.ts";
import { divRoundHalfAway, mulDivRound, mulRatioRound, parseRate, translationFactor, type Rate } from "../money/rate.ts";
import { formatMonth, parseMonth } from "../periods/month.ts";
import { equityMethodRestatement } from "./equity-method.ts";
import { fairValueAdjustments, fairValueDetails, fairValueLines } from "./fair-value.ts";
import { requireSubsidiary } from "./mapping.ts";
import { consolidatedMonths } from "./mid-year.ts";
import { classifyIntercompanyPair } from "./pair-match.ts";
import { pairSidesFit } from "../eliminations/pair-kinds.ts";
import type { AcquisitionEquity, Elimination, EliminationContext, EntryLine } from "./elimination-types.ts";
import { CLASSIFICATION_OF_KIND, isRolledForward, LineKind, type CompiledEntity } from "./model.ts";

export type { AcquisitionEquity, Elimination, EliminationContext, EntryLine } from "./elimination-types.ts";

function sumLines(lines: readonly EntryLine[]): number {
  let s = 0;
  for (const l of lines) s += l.amount;
  return s;
}

/**
 * Intercompany pairs, matched after translation: both sides are reversed in full (IFRS 10 B86(c))
 * and whatever they differ by in the reporting currency (rates, rounding, or a genuine mismatch)
 * goes to the chosen account and is shown, never hidden (IAS 21.45). `details.match` says whether
 * the pair cancels exactly, within the rule's tolerance, or not (pair-match.ts); the lines are the
 * same in every case.
 */
export function intercompanyEliminations(ctx: EliminationContext): Elimination[] {
  const out: Elimination[] = [];
  const byId = new Map(ctx.group.entities.map((e) => [e.id, e] as const));
  ctx.input.eliminations.intercompany.forEach((rule, k) => {
    const path = ["eliminations", "intercompany", k];
    const sides = (["left", "right"] as const).map((side) => {
      const ref = rule[side];
      const entity = byId.get(ref.entity);
      if (!entity) {
        ctx.issues.add([...path, side, "entity"], `unknown entity "${ref.entity}"`);
        return undefined;
      }
      const index = entity.accountIndex.get(ref.account);
      if (index === undefined) {
        ctx.issues.add([...path, side, "account"], `"${ref.account}" is not an account of ${entity.name}`);
        return undefined;
      }
      return { entity, index, account: entity.accounts[index]!, kind: entity.kinds[index]! as LineKind };
    });
    const [left, right] = sides;
    if (!left || !right) return;
    if (!pairSidesFit(rule.kind, CLASSIFICATION_OF_KIND[left.kind]!, CLASSIFICATION_OF_KIND[right.kind]!)) {
      ctx.issues.add(path, rule.kind === "receivablePayable"
        ? "a receivable/payable pair needs one Asset and one Liability account"
        : "a revenue/expense pair needs one Revenue and one Expense account");
      return;
    }
    if (left.entity.id === right.entity.id) {
      ctx.issues.add(path, "both sides of an intercompany pair are in the same entity");
      return;
    }
    const amountOf = (side: typeof left, which: "left" | "right") => {
      const portion = rule[which].portion;
      if (portion) return portionAmount(ctx, side.entity, side.index, portion, [...path, which, "portion"]);
      // Line i is account i's (ids are unique once the group compiles).
      return ctx.periodTbs.get(side.entity.id)!.lines[side.index]!;
    };
    const l = amountOf(left, "left");
    const r = amountOf(right, "right");
    if (!l || !r) return;
    // Within the group's tolerance or not, the difference is posted (the entry balances) and shown.
    const { difference, match } = classifyIntercompanyPair({ left: l.translated, right: r.translated }, rule.tolerance);
    const differenceRow = rule.differenceTo === "cta" ? ctx.ctaRow : ctx.fxRow;
    const lines: EntryLine[] = [
      { row: ctx.rowOf(left.entity, left.index), amount: -l.translated },
      { row: ctx.rowOf(right.entity, right.index), amount: -r.translated },
    ];
    if (difference !== 0) lines.push({ row: differenceRow!, amount: difference });
    out.push({
      id: rule.id,
      kind: rule.kind,
      description: `Eliminate ${sideLabel(left, rule.left.portion)} against ${sideLabel(right, rule.right.portion)}`,
      lines,
      details: {
        leftLocal: l.local,
        leftTranslated: l.translated,
        rightLocal: r.local,
        rightTranslated: r.translated,
        difference,
        differenceTo: rule.differenceTo,
        tolerance: rule.tolerance,
        match,
      },
    });
  });
  return out;
}

const sideLabel = (side: { entity: CompiledEntity; account: { name: string } }, portion: { name: string } | undefined) =>
  `${side.entity.name} ${side.account.name}${portion ? ` (${portion.name})` : ""}`;

/**
 * The part of an account booked against one counterparty, translated exactly as the account's
 * own line is (translation/translate.ts and period.ts): a balance-sheet part at the period's last
 * closing rate, a P&L part month by month at each month's average rate, each month rounded on its
 * own. Parts of historically translated accounts (equity, temporal non-monetary items) are refused:
 * their rate depends on when each amount arose, which a month-end series cannot say.
 */
function portionAmount(
  ctx: EliminationContext,
  e: CompiledEntity,
  index: number,
  portion: { from: string; amounts: readonly number[] },
  path: (string | number)[],
): { local: number; translated: number } | undefined {
  const account = e.accounts[index]!;
  // The months consolidated: a subsidiary acquired or disposed of inside the period trades within the group only while controlled.
  const { first: a, last: b } = consolidatedMonths(ctx, e);
  const offset = parseMonth(portion.from) - e.start;
  const at = (t: number) => portion.amounts[t - offset] ?? 0;
  if (offset > a || offset + portion.amounts.length - 1 < b) {
    ctx.issues.add([...path, "amounts"], `the part of ${e.name} ${account.name} must cover ${formatMonth(e.start + a)} to ${formatMonth(e.start + b)}`);
    return undefined;
  }
  if (e.kinds[index] === LineKind.Revenue || e.kinds[index] === LineKind.Expense) {
    const hist = e.method === "temporal" && !e.identity ? e.historical.get(index) : undefined;
    let local = 0;
    let translated = 0;
    for (let t = a; t <= b; t++) {
      const x = at(t);
      local += x;
      if (x !== 0) translated += mulDivRound(x, hist?.type === "rate" ? hist.factor : e.average[t]!);
    }
    return { local, translated };
  }
  if (!e.identity && e.method === "temporal" && !e.monetary[index]) {
    ctx.issues.add(path, `${e.name} ${account.name} is translated at historical rates (temporal method), so a part of it cannot be translated on its own`);
    return undefined;
  }
  const local = at(b);
  return { local, translated: local === 0 ? 0 : mulDivRound(local, e.closing[b]!) };
}

/**
 * Investment in a subsidiary against its equity at acquisition (IFRS 10 B86, ASC 810-10-45),
 * with goodwill = cost + NCI at acquisition − net assets. The NCI is measured at its
 * proportionate share of net assets (goodwill is then the parent's only) or at its fair value
 * (full goodwill, IFRS 3.19, ASC 805-20-30-1). Goodwill is by default an asset of the foreign
 * operation, carried in its currency and retranslated at the closing rate (IAS 21.47,
 * ASC 830-30-45-11); impairment losses are recognised in the currency goodwill is carried in.
 * Under fair-value measurement the NCI bears its ownership share of impairment (IAS 36.C6) and
 * of goodwill's exchange differences; under the proportionate method both are the parent's.
 */
export function investmentEliminations(ctx: EliminationContext, acquisitions: Map<string, AcquisitionEquity>): Elimination[] {
  const out: Elimination[] = [];
  const parent = ctx.group.parent;
  ctx.input.eliminations.investments.forEach((rule, k) => {
    const path = ["eliminations", "investments", k];
    const sub = requireSubsidiary(ctx.group, rule.subsidiary, [...path, "subsidiary"], ctx.issues, { seen: acquisitions, kind: "investment" });
    if (!sub) return;
    const investmentIndex = parent.accountIndex.get(rule.investmentAccount);
    if (investmentIndex === undefined || parent.kinds[investmentIndex] !== LineKind.Asset) {
      ctx.issues.add([...path, "investmentAccount"], `"${rule.investmentAccount}" is not an Asset account of the parent`);
      return;
    }
    if (ctx.goodwillRow === undefined) ctx.issues.add(["designatedAccounts", "goodwill"], "an investment elimination needs the parent's goodwill account");
    const hasNci = sub.nciShare.num !== 0n;
    if (ctx.nciRow === undefined && hasNci) ctx.issues.add(["designatedAccounts", "nci"], "a subsidiary owned below 100% needs the parent's NCI account");
    if (!hasNci && rule.nciMeasurement === "fairValue") {
      ctx.issues.add([...path, "nciMeasurement"], `${sub.name} is wholly owned: there is no NCI to measure at fair value`);
      return;
    }
    const tr = ctx.translations.get(sub.id)!;
    const tAcq = rule.acquisitionMonth === undefined ? 0 : parseMonth(rule.acquisitionMonth) - sub.start;
    const periodStart = ctx.group.period.from - sub.start;
    // The last month consolidated: the period's, or the disposal month (goodwill is measured there).
    const tEnd = consolidatedMonths(ctx, sub).last;
    if (tAcq > ctx.group.period.to - sub.start) {
      ctx.issues.add([...path, "acquisitionMonth"], `the acquisition must not be after the period's last month (${formatMonth(ctx.group.period.to)})`);
      return;
    }
    // Acquired before the books given here open: the roll-forward has no translated equity for
    // that month, so it must be stated.
    if (tAcq < 0 && !rule.equityAtAcquisition) {
      ctx.issues.add([...path, "equityAtAcquisition"], `the acquisition (${formatMonth(sub.start + tAcq)}) is before ${sub.name}'s opening month ${formatMonth(sub.start)}: give its equity at acquisition`);
      return;
    }

    const byAccount = new Map<number, number>();
    let retainedEarnings = 0;
    let cta = 0;
    if (rule.equityAtAcquisition) {
      for (const [j, line] of rule.equityAtAcquisition.entries()) {
        const index = sub.accountIndex.get(line.account);
        const account = index === undefined ? undefined : sub.accounts[index];
        if (index === undefined || !account || account.classification !== "Equity") {
          ctx.issues.add([...path, "equityAtAcquisition", j, "account"], `"${line.account}" is not an Equity account of ${sub.name}`);
          continue;
        }
        if (isRolledForward(sub.kinds[index]! as LineKind)) retainedEarnings += line.amount;
        else byAccount.set(index, (byAccount.get(index) ?? 0) + line.amount);
      }
    } else {
      sub.kinds.forEach((kind, i) => {
        if (kind === LineKind.ContributedCapital || kind === LineKind.OtherEquity) {
          const x = translatedAt(tr, i, tAcq);
          if (x !== 0) byAccount.set(i, x);
        }
      });
      retainedEarnings = tr.retainedEarningsEnd[tAcq]!;
      cta = tr.cta[tAcq]!;
    }
    let equity = -(retainedEarnings + cta);
    for (const x of byAccount.values()) equity -= x;
    const fairValue = rule.nciMeasurement === "fairValue";
    let nciAtAcquisition = fairValue ? rule.nciFairValue! : 0;
    const investmentTb = ctx.periodTbs.get(parent.id)!.lines.find((l) => l.account === rule.investmentAccount)!;
    const cost = rule.cost ?? investmentTb.translated;
    const fmt = (x: number) => `${minorToDecimal(x, ctx.group.reportingExponent)} ${ctx.group.reportingCurrency}`;
    if (rule.cost === undefined) {
      // Not silent: the balance may include more than the cost (accruals, impairments, other investments).
      ctx.warnings.push(`${sub.name}: no cost was given for the investment, so the balance of ${rule.investmentAccount} at ${formatMonth(ctx.group.period.to)}, ${fmt(cost)}, is taken as its cost`);
    }
    const restated = rule.parentMethod === "equity" ? equityMethodRestatement(ctx, rule, sub, path) : undefined;
    if (rule.parentMethod === "equity" && !restated) return;
    // Fair-value adjustments are part of the identifiable net assets acquired (IFRS 3.18).
    const fv = fairValueAdjustments(ctx, rule, sub, tAcq, path);
    if (!fv) return;
    const bookEquity = equity;
    equity += fv.atAcquisition;
    if (!fairValue) nciAtAcquisition = mulRatioRound(equity, sub.nciShare, 0);
    let goodwill = cost + nciAtAcquisition - equity;
    // A bargain purchase (IFRS 3.34-36, ASC 805-30-25-2): no goodwill, and the excess is a gain of
    // the acquirer alone, recognised at the acquisition date: this period's profit when the
    // acquisition (the close of acquisitionMonth) opens the period, else opening retained earnings.
    const bargainPurchaseGain = goodwill < 0 ? -goodwill : 0;
    const gainInPeriod = bargainPurchaseGain !== 0 && tAcq === periodStart - 1;
    if (bargainPurchaseGain !== 0) {
      goodwill = 0;
      if (gainInPeriod && ctx.bargainPurchaseGainRow === undefined) {
        ctx.issues.add(["designatedAccounts", "bargainPurchaseGain"], `the acquisition of ${sub.name} is a bargain purchase with a gain of ${fmt(bargainPurchaseGain)} in the period: name the parent's Revenue account for it`);
      }
      ctx.warnings.push(
        `${sub.name}: the net assets acquired (${fmt(equity)}) exceed the cost plus the NCI (${fmt(cost + nciAtAcquisition)}); the ${fmt(bargainPurchaseGain)} gain on a bargain purchase is the parent's` +
          `${gainInPeriod ? " profit of the period" : ", in opening retained earnings"}. IFRS 3.36 and ASC 805-30-25-4 ask that the assets, liabilities and consideration be reviewed before it is recognised`,
      );
    }

    // Goodwill in the currency it is carried in, and each impairment translated at the average
    // rate of the month it is recognised in (it is an expense of that month).
    const foreign = rule.goodwillTranslation === "closing" && !sub.identity;
    let goodwillCarried = goodwill;
    if (foreign) {
      const acqRate = rateAt(ctx, sub, tAcq, "closing");
      if (!acqRate) return;
      goodwillCarried = goodwillInLocal(goodwill, sub, acqRate);
    }
    let impairedCarried = 0;
    let impairedBeforePeriodCarried = 0;
    let impairmentBeforePeriod = 0;
    let impairmentInPeriod = 0;
    rule.goodwillImpairments.forEach((imp, j) => {
      const t = parseMonth(imp.month) - sub.start;
      if (t <= tAcq) {
        ctx.issues.add([...path, "goodwillImpairments", j, "month"], `an impairment must be recognised after the acquisition (${formatMonth(sub.start + tAcq)})`);
        return;
      }
      if (t > tEnd) {
        ctx.warnings.push(`${sub.name}: the goodwill impairment of ${imp.month} falls after the period and is not included`);
        return;
      }
      impairedCarried += imp.amount;
      if (t < periodStart) impairedBeforePeriodCarried += imp.amount;
      let translated = imp.amount;
      if (foreign) {
        const rate = rateAt(ctx, sub, t, "average");
        if (!rate) return;
        translated = mulDivRound(imp.amount, t >= 0 ? sub.average[t]! : translationFactor(rate, sub.exponent, sub.reportingExponent));
      }
      if (t < periodStart) impairmentBeforePeriod += translated;
      else impairmentInPeriod += translated;
    });
    if (impairedCarried > goodwillCarried) {
      ctx.issues.add([...path, "goodwillImpairments"], `the impairment losses (${impairedCarried}) exceed the goodwill (${goodwillCarried}${foreign ? ` ${sub.currency} minor units` : ""})`);
      return;
    }
    if (impairmentInPeriod !== 0 && ctx.goodwillImpairmentRow === undefined) {
      ctx.issues.add(["designatedAccounts", "goodwillImpairment"], "a goodwill impairment falls in the period: name the parent's Expense account for it");
    }
    const nciImpairmentBeforePeriod = fairValue ? mulRatioRound(impairmentBeforePeriod, sub.nciShare, 0) : 0;
    // Carrying amount at the period's end: the closing rate for a foreign operation's goodwill.
    const carrying = foreign ? mulDivRound(goodwillCarried - impairedCarried, sub.closing[tEnd]!) : goodwill - impairmentBeforePeriod - impairmentInPeriod;
    const ctaOnGoodwill = carrying - (goodwill - impairmentBeforePeriod - impairmentInPeriod);
    // The same at the period's start, so the period's exchange difference on goodwill (OCI) shows.
    const ctaOnGoodwillOpening =
      foreign && periodStart >= 1 && tAcq < periodStart ? mulDivRound(goodwillCarried - impairedBeforePeriodCarried, sub.closing[periodStart - 1]!) - (goodwill - impairmentBeforePeriod) : 0;
    const nciGoodwillCta = fairValue ? mulRatioRound(ctaOnGoodwill, sub.nciShare, 0) : 0;
    acquisitions.set(sub.id, {
      byAccount,
      retainedEarnings,
      cta,
      nciAtAcquisition,
      nciSharesGoodwill: fairValue,
      impairmentInPeriod,
      nciImpairmentBeforePeriod,
      nciGoodwillCta,
      fairValueReleasedInPeriod: fv.releasedInPeriod,
      nciFairValueReleasedBeforePeriod: fv.nciReleasedBeforePeriod,
      nciFairValueCta: fv.nciCta,
    });
    if (!ctx.issues.empty) return;

    const lines: EntryLine[] = [];
    for (const [i, x] of byAccount) lines.push({ row: ctx.rowOf(sub, i), amount: -x });
    if (retainedEarnings !== 0) lines.push({ row: ctx.rowOf(sub, sub.retainedEarningsRow), amount: -retainedEarnings });
    if (cta !== 0) lines.push({ row: ctx.ctaRow!, amount: -cta });
    lines.push({ row: ctx.parentRow(rule.investmentAccount)!, amount: -cost });
    if (nciAtAcquisition !== 0) lines.push({ row: ctx.nciRow!, amount: -nciAtAcquisition });
    if (goodwill !== 0) lines.push({ row: ctx.goodwillRow!, amount: goodwill });
    if (bargainPurchaseGain !== 0) lines.push({ row: gainInPeriod ? ctx.bargainPurchaseGainRow! : ctx.retainedEarningsRow, amount: -bargainPurchaseGain });
    lines.push(...fairValueLines(fv, { retainedEarnings: ctx.retainedEarningsRow, nci: ctx.nciRow, cta: ctx.ctaRow }));
    if (impairmentBeforePeriod !== 0) {
      // Losses of earlier periods are in opening retained earnings (and the NCI), not this period's profit.
      lines.push({ row: ctx.retainedEarningsRow, amount: impairmentBeforePeriod - nciImpairmentBeforePeriod });
      if (nciImpairmentBeforePeriod !== 0) lines.push({ row: ctx.nciRow!, amount: nciImpairmentBeforePeriod });
      lines.push({ row: ctx.goodwillRow!, amount: -impairmentBeforePeriod });
    }
    if (impairmentInPeriod !== 0) {
      lines.push({ row: ctx.goodwillImpairmentRow!, amount: impairmentInPeriod });
      lines.push({ row: ctx.goodwillRow!, amount: -impairmentInPeriod });
    }
    if (ctaOnGoodwill !== 0) {
      lines.push({ row: ctx.goodwillRow!, amount: ctaOnGoodwill });
      lines.push({ row: ctx.ctaRow!, amount: -(ctaOnGoodwill - nciGoodwillCta) });
      if (nciGoodwillCta !== 0) lines.push({ row: ctx.nciRow!, amount: -nciGoodwillCta });
    }

    const details: Record<string, number | string> = {
      acquisitionMonth: formatMonth(sub.start + tAcq),
      cost,
      netAssetsAtAcquisition: equity,
      nciMeasurement: rule.nciMeasurement,
      nciAtAcquisition,
      goodwillAtAcquisition: goodwill,
      goodwillTranslation: rule.goodwillTranslation,
      goodwillImpairmentBeforePeriod: impairmentBeforePeriod,
      goodwillImpairmentInPeriod: impairmentInPeriod,
      goodwillImpairmentNciShareBeforePeriod: nciImpairmentBeforePeriod,
      goodwillCarryingAmount: carrying,
    };
    if (fv.items.length) details.bookNetAssetsAtAcquisition = bookEquity;
    if (bargainPurchaseGain !== 0) {
      details.bargainPurchaseGain = bargainPurchaseGain;
      details.bargainPurchaseGainRecognisedIn = gainInPeriod ? "period" : "openingRetainedEarnings";
    }
    Object.assign(details, fairValueDetails(fv, !sub.identity && sub.method === "currentRate"));
    if (foreign) {
      details.goodwillLocal = goodwillCarried;
      details.goodwillImpairedLocal = impairedCarried;
      details.ctaOnGoodwillCreditPositive = ctaOnGoodwill;
      details.ctaOnGoodwillInPeriodCreditPositive = ctaOnGoodwill - ctaOnGoodwillOpening;
      details.ctaOnGoodwillNciShare = nciGoodwillCta;
    }
    if (restated) out.push(restated);
    out.push({ id: rule.id, kind: "investment", description: `Eliminate investment in ${sub.name} against its equity at acquisition`, lines, details });
  });
  return out;
}

/**
 * The subsidiary's rate for month offset t: from its roll-forward, or, for a month before its
 * opening month (an acquisition or impairment before the books given here), from the rate table.
 */
function rateAt(ctx: EliminationContext, sub: CompiledEntity, t: number, kind: "closing" | "average"): Rate | undefined {
  if (t >= 0) return (kind === "closing" ? sub.closingRates : sub.averageRates)[t];
  const month = formatMonth(sub.start + t);
  const text = ctx.input.rates[sub.currency]?.[month]?.[kind];
  if (text === undefined) {
    ctx.issues.add(["rates", sub.currency, month], `give the ${kind} rate of ${sub.currency} for ${month}: ${sub.name}'s goodwill is translated at it`);
    return undefined;
  }
  return parseRate(text);
}

/** Goodwill measured in the reporting currency at acquisition, in the subsidiary's currency at that month-end's closing rate. */
function goodwillInLocal(goodwill: number, sub: CompiledEntity, acqRate: Rate): number {
  const shift = sub.exponent - sub.reportingExponent;
  const num = BigInt(goodwill) * 10n ** BigInt(acqRate.scale) * 10n ** BigInt(Math.max(0, shift));
  const den = acqRate.numerator * 10n ** BigInt(Math.max(0, -shift));
  return Number(divRoundHalfAway(num, den));
}

export function manualEliminations(ctx: EliminationContext): Elimination[] {
  const out: Elimination[] = [];
  ctx.input.eliminations.manual.forEach((entry, k) => {
    const path = ["eliminations", "manual", k];
    const lines: EntryLine[] = [];
    entry.lines.forEach((line, j) => {
      const row = ctx.parentRow(line.account);
      if (row === undefined) ctx.issues.add([...path, "lines", j, "account"], `"${line.account}" is not an account of the parent`);
      else lines.push({ row, amount: line.amount });
    });
    const total = entry.lines.reduce((s, l) => s + l.amount, 0);
    if (total !== 0) {
      ctx.issues.add([...path, "lines"], `the entry does not balance: debits exceed credits by ${total} minor units`);
      return;
    }
    out.push({ id: entry.id, kind: "manual", description: entry.description, lines, details: entry.attributeTo ? { attributedTo: entry.attributeTo.subsidiary } : {} });
  });
  return out;
}

export function assertBalanced(e: Elimination): void {
  const s = sumLines(e.lines);
  if (s !== 0) throw new Error(`internal: elimination ${e.id} is off by ${s}`);
}
