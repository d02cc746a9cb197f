import { divRoundHalfAway, mulRatioRound } from "../money/rate.ts";
import type { Elimination, EliminationContext, EntryLine } from "./eliminations.ts";
import { requireParentAccount, requireSubsidiary } from "./mapping.ts";
import { consolidatedMonths } from "./mid-year.ts";
import { segmentedDividendsShare } from "./ownership-change.ts";
import { LineKind, type CompiledEntity } from "./model.ts";

/**
 * The rate that turns `local` minor units into `reporting` minor units, as decimal text rounded
 * half away from zero to `places` decimals (trailing zeros dropped): for explanations only.
 */
export function impliedRateText(reporting: number, localAmount: number, localExponent: number, reportingExponent: number, places = 10): string {
  if (localAmount === 0) return "";
  const num = BigInt(reporting) * 10n ** BigInt(localExponent + places);
  const den = BigInt(localAmount) * 10n ** BigInt(reportingExponent);
  const q = den < 0n ? divRoundHalfAway(-num, -den) : divRoundHalfAway(num, den);
  const negative = q < 0n;
  const digits = (negative ? -q : q).toString().padStart(places + 1, "0");
  const text = `${digits.slice(0, -places)}.${digits.slice(-places)}`.replace(/\.?0+$/, "");
  return negative ? `-${text}` : text;
}

/**
 * Dividends a subsidiary declared in the period, received by the parent (IFRS 10 B86(c),
 * ASC 810-10-45-1): the parent's share of the subsidiary's translated dividends (as its dividend
 * rate policy translated them) is eliminated against the dividend income the parent booked; the
 * NCI's share stays a reduction of the NCI (nci.ts). The parent's share is the translated
 * dividends less the NCI's rounded share, so the two add up to the dividends line exactly.
 * Whatever the parent booked differs by (another rate, a receivable revalued before it was paid)
 * is an exchange difference, booked to the FX difference account and explained in the details.
 */
export function dividendEliminations(ctx: EliminationContext): Elimination[] {
  const out: Elimination[] = [];
  const parent = ctx.group.parent;
  const rules = ctx.input.eliminations.dividends;
  const seen = new Set<string>();
  rules.forEach((rule, k) => {
    const path = ["eliminations", "dividends", k];
    const sub = requireSubsidiary(ctx.group, rule.subsidiary, [...path, "subsidiary"], ctx.issues, { seen, kind: "dividend" });
    if (!sub) return;
    seen.add(sub.id);
    const incomeId = requireParentAccount(parent, rule.incomeAccount, [...path, "incomeAccount"], [LineKind.Revenue], "dividend income (it must be Revenue)", ctx.issues);
    if (!incomeId) return;
    const shared = rules.some((other, j) => j !== k && other.incomeAccount === rule.incomeAccount);
    if (shared && rule.parentAmount === undefined) {
      ctx.issues.add([...path, "parentAmount"], `several dividend eliminations use "${rule.incomeAccount}": say what the parent booked for ${sub.name}'s dividends`);
      return;
    }

    const tb = ctx.periodTbs.get(sub.id)!;
    const translated = tb.retainedEarnings.dividends;
    const months = consolidatedMonths(ctx, sub); // only dividends declared while the parent controlled it
    const local = localDividends(sub, months.first, months.last);
    if (translated === 0 && local === 0) {
      ctx.warnings.push(`${sub.name} declared no dividends in the period: the dividend elimination "${rule.id}" books nothing`);
      return;
    }
    let booked = rule.parentAmount;
    if (booked === undefined) {
      booked = -ctx.periodTbs.get(parent.id)!.lines.find((l) => l.account === incomeId)!.translated;
      if (booked <= 0) {
        ctx.issues.add([...path, "parentAmount"], `the parent booked no dividend income on "${rule.incomeAccount}" in the period: say what it booked for ${sub.name}'s dividends`);
        return;
      }
    }
    // With ownership changes the NCI's share is taken at the share in force when each was declared.
    const history = ctx.ownershipHistories?.get(sub.id);
    const nciShare = history ? segmentedDividendsShare(ctx, history) : mulRatioRound(translated, sub.nciShare, 0);
    const parentShare = translated - nciShare;
    const parentShareLocal = local - mulRatioRound(local, history ? history.segments.at(-1)!.share : sub.nciShare, 0);
    const difference = booked - parentShare;
    const lines: EntryLine[] = [
      { row: ctx.parentRow(incomeId)!, amount: booked },
      { row: ctx.rowOf(sub, sub.dividendsRow), amount: -parentShare },
    ];
    if (difference !== 0) lines.push({ row: ctx.fxRow!, amount: -difference });
    out.push({
      id: rule.id,
      kind: "dividend",
      description: `Eliminate ${sub.name}'s dividends received by ${parent.name}`,
      lines,
      details: {
        subsidiary: sub.id,
        dividendsLocal: local,
        dividendsTranslated: translated,
        ownership: sub.ownershipText,
        parentShareLocal,
        parentShare,
        nciShare,
        parentBooked: booked,
        translationRate: sub.identity ? "1" : impliedRateText(translated, local, sub.exponent, sub.reportingExponent),
        parentBookedRate: sub.identity ? "1" : impliedRateText(booked, parentShareLocal, sub.exponent, sub.reportingExponent),
        fxDifferenceCreditPositive: difference,
      },
    });
  });
  return out;
}

function localDividends(e: CompiledEntity, a: number, b: number): number {
  let s = 0;
  for (const d of e.dividends) if (d.t >= a && d.t <= b) s += d.amount;
  return s;
}
