import { divRoundHalfAway, mulDivRound, mulRatioRound } from "../money/rate.ts";
import { formatMonth, parseMonth } from "../periods/month.ts";
import type { EntityPeriodTrialBalance } from "../translation/period.ts";
import type { EntityTranslation } from "../translation/translate.ts";
import type { IssueList } from "./errors.ts";
import type { ConsolidationInput } from "./input-schema.ts";
import { LineKind, type CompiledEntity, type CompiledGroup } from "./model.ts";

export interface EntryLine {
  readonly row: number;
  readonly amount: number;
}

export interface Elimination {
  readonly id: string;
  readonly kind: "receivablePayable" | "revenueExpense" | "investment" | "manual";
  readonly description: string;
  readonly lines: readonly EntryLine[];
  readonly details: Record<string, number | string>;
}

/** Equity of a subsidiary at acquisition, by worksheet row, debit positive (so mostly negative). */
export interface AcquisitionEquity {
  readonly byAccount: ReadonlyMap<number, number>;
  readonly retainedEarnings: number;
  readonly cta: number;
  readonly nciAtAcquisition: number;
}

export interface EliminationContext {
  readonly input: ConsolidationInput;
  readonly group: CompiledGroup;
  readonly translations: ReadonlyMap<string, EntityTranslation>;
  readonly periodTbs: ReadonlyMap<string, EntityPeriodTrialBalance>;
  /** Worksheet row of an entity's account. */
  rowOf(entity: CompiledEntity, accountIndex: number): number;
  readonly ctaRow: number | undefined;
  readonly fxRow: number | undefined;
  readonly goodwillRow: number | undefined;
  readonly nciRow: number | undefined;
  readonly parentRow: (accountId: string) => number | undefined;
  readonly issues: IssueList;
}

function sumLines(lines: readonly EntryLine[]): number {
  let s = 0;
  for (const l of lines) s += l.amount;
  return s;
}

/**
 * Intercompany pairs, matched after translation: both sides are reversed in full and whatever
 * they differ by in the reporting currency (rates, rounding, or a genuine mismatch) goes to the
 * chosen account and is shown, never hidden.
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
      return { entity, index, account: entity.accounts[index]! };
    });
    const [left, right] = sides;
    if (!left || !right) return;
    const allowed = rule.kind === "receivablePayable" ? [LineKind.Asset, LineKind.Liability] : [LineKind.Revenue, LineKind.Expense];
    const kinds = [left.account.kind, right.account.kind];
    if (!kinds.every((x) => (allowed as LineKind[]).includes(x)) || kinds[0] === kinds[1]) {
      ctx.issues.add(path, rule.kind === "receivablePayable"
        ? "a receivable/payable pair needs one Asset and one Liability account"
        : "a revenue/expense pair needs one Revenue and one Expense account");
      return;
    }
    if (left.entity.id === right.entity.id) {
      ctx.issues.add(path, "both sides of an intercompany pair are in the same entity");
      return;
    }
    const amountOf = (side: typeof left) => {
      const tb = ctx.periodTbs.get(side.entity.id)!;
      return tb.lines.find((l) => l.account === side.account.id)!;
    };
    const l = amountOf(left);
    const r = amountOf(right);
    const difference = l.translated + r.translated;
    const differenceRow = rule.differenceTo === "cta" ? ctx.ctaRow : ctx.fxRow;
    const lines: EntryLine[] = [
      { row: ctx.rowOf(left.entity, left.index), amount: -l.translated },
      { row: ctx.rowOf(right.entity, right.index), amount: -r.translated },
    ];
    if (difference !== 0) lines.push({ row: differenceRow!, amount: difference });
    out.push({
      id: rule.id,
      kind: rule.kind,
      description: `Eliminate ${left.entity.name} ${left.account.name} against ${right.entity.name} ${right.account.name}`,
      lines,
      details: {
        leftLocal: l.local,
        leftTranslated: l.translated,
        rightLocal: r.local,
        rightTranslated: r.translated,
        difference,
        differenceTo: rule.differenceTo,
      },
    });
  });
  return out;
}

/**
 * Investment in a subsidiary against its equity at acquisition (IFRS 10 B86, ASC 810-10-45),
 * with goodwill and NCI measured at its proportionate share of net assets. Goodwill is by default
 * an asset of the foreign operation, carried in its currency and retranslated at the closing
 * rate (IAS 21.47, ASC 830-30-45-11); the retranslation goes to CTA, all of it the parent's.
 */
export function investmentEliminations(ctx: EliminationContext, acquisitions: Map<string, AcquisitionEquity>): Elimination[] {
  const out: Elimination[] = [];
  const parent = ctx.group.parent;
  ctx.input.eliminations.investments.forEach((rule, k) => {
    const path = ["eliminations", "investments", k];
    const sub = ctx.group.entities.find((e) => e.id === rule.subsidiary);
    if (!sub || sub.role !== "subsidiary") {
      ctx.issues.add([...path, "subsidiary"], `"${rule.subsidiary}" is not a subsidiary`);
      return;
    }
    if (acquisitions.has(sub.id)) {
      ctx.issues.add([...path, "subsidiary"], `${sub.name} has more than one investment elimination`);
      return;
    }
    const investmentIndex = parent.accountIndex.get(rule.investmentAccount);
    if (investmentIndex === undefined || parent.accounts[investmentIndex]!.kind !== LineKind.Asset) {
      ctx.issues.add([...path, "investmentAccount"], `"${rule.investmentAccount}" is not an Asset account of the parent`);
      return;
    }
    if (ctx.goodwillRow === undefined) ctx.issues.add(["designatedAccounts", "goodwill"], "an investment elimination needs the parent's goodwill account");
    if (ctx.nciRow === undefined && sub.nciShare.num !== 0n) ctx.issues.add(["designatedAccounts", "nci"], "a subsidiary owned below 100% needs the parent's NCI account");
    const tr = ctx.translations.get(sub.id)!;
    const tAcq = rule.acquisitionMonth === undefined ? 0 : parseMonth(rule.acquisitionMonth) - sub.start;
    const periodStart = ctx.group.period.from - sub.start;
    if (tAcq < 0 || tAcq >= periodStart) {
      ctx.issues.add([...path, "acquisitionMonth"], `the acquisition must be between the opening month ${formatMonth(sub.start)} and the month before the period`);
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
        if (account.kind === LineKind.RetainedEarnings || account.kind === LineKind.Dividends) retainedEarnings += line.amount;
        else byAccount.set(index, (byAccount.get(index) ?? 0) + line.amount);
      }
    } else {
      sub.accounts.forEach((a, i) => {
        if (a.kind === LineKind.ContributedCapital || a.kind === LineKind.OtherEquity) {
          const x = tr.translated[i * sub.months + tAcq]!;
          if (x !== 0) byAccount.set(i, x);
        }
      });
      retainedEarnings = tr.retainedEarningsEnd[tAcq]!;
      cta = tr.cta[tAcq]!;
    }
    let equity = -(retainedEarnings + cta);
    for (const x of byAccount.values()) equity -= x;
    const nciAtAcquisition = mulRatioRound(equity, sub.nciShare, 0);
    const investmentTb = ctx.periodTbs.get(parent.id)!.lines.find((l) => l.account === rule.investmentAccount)!;
    const cost = rule.cost ?? investmentTb.translated;
    const goodwill = cost - (equity - nciAtAcquisition);
    if (goodwill < 0) {
      ctx.issues.add(path, `the cost (${cost}) is below the parent's share of net assets (${equity - nciAtAcquisition}): a bargain purchase, which this engine does not book`);
      return;
    }
    acquisitions.set(sub.id, { byAccount, retainedEarnings, cta, nciAtAcquisition });
    if (!ctx.issues.empty) return;

    const lines: EntryLine[] = [];
    for (const [i, x] of byAccount) lines.push({ row: ctx.rowOf(sub, i), amount: -x });
    if (retainedEarnings !== 0) lines.push({ row: ctx.rowOf(sub, sub.retainedEarningsRow), amount: -retainedEarnings });
    if (cta !== 0) lines.push({ row: ctx.ctaRow!, amount: -cta });
    lines.push({ row: ctx.parentRow(rule.investmentAccount)!, amount: -cost });
    if (nciAtAcquisition !== 0) lines.push({ row: ctx.nciRow!, amount: -nciAtAcquisition });
    if (goodwill !== 0) lines.push({ row: ctx.goodwillRow!, amount: goodwill });

    const details: Record<string, number | string> = {
      acquisitionMonth: formatMonth(sub.start + tAcq),
      cost,
      netAssetsAtAcquisition: equity,
      nciAtAcquisition,
      goodwillAtAcquisition: goodwill,
      goodwillTranslation: rule.goodwillTranslation,
    };
    if (rule.goodwillTranslation === "closing" && !sub.identity && goodwill !== 0) {
      // Goodwill in the subsidiary's currency at the acquisition-date closing rate, then the
      // period-end closing rate; the difference is translation, i.e. CTA.
      const acqRate = sub.closingRates[tAcq]!;
      const shift = sub.exponent - sub.reportingExponent;
      const num = BigInt(goodwill) * 10n ** BigInt(acqRate.scale) * 10n ** BigInt(Math.max(0, shift));
      const den = acqRate.numerator * 10n ** BigInt(Math.max(0, -shift));
      const goodwillLocal = Number(divRoundHalfAway(num, den));
      const tEnd = ctx.group.period.to - sub.start;
      const goodwillClosing = mulDivRound(goodwillLocal, sub.closing[tEnd]!);
      const ctaOnGoodwill = goodwillClosing - goodwill;
      if (ctaOnGoodwill !== 0) {
        lines.push({ row: ctx.goodwillRow!, amount: ctaOnGoodwill });
        lines.push({ row: ctx.ctaRow!, amount: -ctaOnGoodwill });
      }
      details.goodwillLocal = goodwillLocal;
      details.goodwillClosing = goodwillClosing;
      details.ctaOnGoodwillCreditPositive = ctaOnGoodwill;
    }
    out.push({ id: rule.id, kind: "investment", description: `Eliminate investment in ${sub.name} against its equity at acquisition`, lines, details });
  });
  return out;
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
    out.push({ id: entry.id, kind: "manual", description: entry.description, lines, details: {} });
  });
  return out;
}

export function assertBalanced(e: Elimination): void {
  const s = sumLines(e.lines);
  if (s !== 0) throw new Error(`internal: elimination ${e.id} is off by ${s}`);
}
