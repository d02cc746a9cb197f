import { formatMonth, parseMonth } from "../periods/month.ts";
import { entityPeriodTrialBalance, type EntityPeriodTrialBalance } from "../translation/period.ts";
import type { EntityTranslation } from "../translation/translate.ts";
import type { ControlWindow, ControlWindows, Elimination, EliminationContext, EntryLine } from "./elimination-types.ts";
import type { IssueList } from "./errors.ts";
import type { ConsolidationInput } from "./input-schema.ts";
import type { CompiledEntity, CompiledGroup } from "./model.ts";

export type { ControlWindow, ControlWindows } from "./elimination-types.ts";

/**
 * The months of the period in which the parent controlled a subsidiary (IFRS 10.20 and B88,
 * ASC 810-10-45-4: income and expenses are included from the date control is obtained until the
 * date it is lost). A subsidiary acquired inside the period is consolidated from the month after
 * its acquisition month (the acquisition month's results are the seller's, part of the equity
 * acquired); one disposed of inside the period up to and including its disposal month.
 *
 * The subsidiary's own column on the worksheet stays its whole translated trial balance for the
 * period (what its books say); the "control window" is reached by an elimination of the
 * difference between that trial balance and the trial balance of the controlled months, so
 * every worksheet column still sums to zero. Every later elimination, and the NCI, read the
 * controlled months' trial balance.
 */
/** A disposal month, given by the disposal module (the last month consolidated). */
export interface DisposalMonth {
  readonly subsidiary: string;
  readonly month: string;
  readonly path: readonly (string | number)[];
}

/**
 * The control window of every subsidiary acquired or disposed of inside the period. Groups with
 * neither get an empty map and pay nothing for it.
 */
export function controlWindows(
  input: ConsolidationInput,
  group: CompiledGroup,
  translations: ReadonlyMap<string, EntityTranslation>,
  periodTbs: ReadonlyMap<string, EntityPeriodTrialBalance>,
  disposals: readonly DisposalMonth[],
  issues: IssueList,
): Map<string, ControlWindow> {
  const windows = new Map<string, ControlWindow>();
  const { period } = group;
  const acquired = new Map<string, number>();
  for (const rule of input.eliminations.investments) {
    if (rule.acquisitionMonth === undefined) continue;
    const month = parseMonth(rule.acquisitionMonth);
    if (month < period.from || month > period.to) continue; // before the period: as always; after it: refused by the investment elimination
    const sub = group.entities.find((e) => e.id === rule.subsidiary && e.role === "subsidiary");
    if (sub && !acquired.has(sub.id)) acquired.set(sub.id, month - sub.start);
  }
  const disposed = new Map<string, number>();
  for (const d of disposals) {
    const sub = group.entities.find((e) => e.id === d.subsidiary && e.role === "subsidiary");
    if (!sub) continue; // the disposal module reports it
    const month = parseMonth(d.month);
    if (month < period.from || month > period.to) {
      issues.add([...d.path, "month"], `the disposal month must be inside the period (${formatMonth(period.from)} to ${formatMonth(period.to)}): a subsidiary sold before it is not part of the group, one sold after it is consolidated in full`);
      continue;
    }
    const tAcq = acquired.get(sub.id);
    if (tAcq !== undefined && month - sub.start <= tAcq) {
      issues.add([...d.path, "month"], `${sub.name} is disposed of (${d.month}) before the month after its acquisition (${formatMonth(sub.start + tAcq)})`);
      continue;
    }
    if (disposed.has(sub.id)) {
      issues.add([...d.path, "subsidiary"], `${sub.name} is disposed of more than once`);
      continue;
    }
    disposed.set(sub.id, month - sub.start);
  }
  for (const sub of group.entities) {
    const acquiredAt = acquired.get(sub.id);
    const disposedAt = disposed.get(sub.id);
    if (acquiredAt === undefined && disposedAt === undefined) continue;
    const first = acquiredAt === undefined ? period.from - sub.start : acquiredAt + 1;
    const last = disposedAt ?? period.to - sub.start;
    // entityPeriodTrialBalance reads "the start" at first − 1 and the balance sheet at last; an
    // empty window (acquired in the period's last month) gives the balance sheet with no results.
    const tb = entityPeriodTrialBalance(translations.get(sub.id)!, { from: sub.start + first, to: sub.start + last });
    windows.set(sub.id, { entity: sub, first, last, acquiredAt, disposedAt, periodTb: periodTbs.get(sub.id)!, tb });
  }
  return windows;
}

/** The months consolidated for an entity, as roll-forward offsets: its control window, or the whole period. */
export function consolidatedMonths(ctx: Pick<EliminationContext, "group" | "windows">, e: CompiledEntity): { first: number; last: number } {
  const w = ctx.windows?.get(e.id);
  if (w) return { first: w.first, last: w.last };
  return { first: ctx.group.period.from - e.start, last: ctx.group.period.to - e.start };
}

/** The period trial balances with each windowed subsidiary's replaced by its controlled months'. */
export function withControlWindows(periodTbs: ReadonlyMap<string, EntityPeriodTrialBalance>, windows: ControlWindows): ReadonlyMap<string, EntityPeriodTrialBalance> {
  if (windows.size === 0) return periodTbs;
  const out = new Map(periodTbs);
  for (const [id, w] of windows) out.set(id, w.tb);
  return out;
}

/** Row by row, `to` − `from` of two trial balances of one entity (the same lines in the same order). */
export function trialBalanceDifference(ctx: EliminationContext, e: CompiledEntity, from: EntityPeriodTrialBalance, to: EntityPeriodTrialBalance): EntryLine[] {
  const byRow = new Map<number, number>();
  to.lines.forEach((line, k) => {
    const amount = line.translated - from.lines[k]!.translated;
    if (amount === 0) return;
    const row = line.special === "cta" ? ctx.ctaRow! : line.special === "remeasurement" ? ctx.fxRow! : ctx.rowOf(e, e.accountIndex.get(line.account!)!);
    byRow.set(row, (byRow.get(row) ?? 0) + amount);
  });
  const lines: EntryLine[] = [];
  for (const [row, amount] of byRow) if (amount !== 0) lines.push({ row, amount });
  return lines;
}

/**
 * Pre-acquisition results of a subsidiary acquired inside the period (IFRS 10 B88, IFRS 3.8 and
 * .18, ASC 805-10-25-6): its revenue and expenses (and remeasurement result) of the months up to
 * and including the acquisition month leave the group's profit and join its retained earnings,
 * where they are part of the equity at acquisition the investment elimination takes out; the
 * dividends it declared in those months go with them. Only the trial balance of the months
 * consolidated differs from the period's, so the entry is their difference, row by row.
 * A subsidiary also disposed of in the period gets its post-disposal months from disposal.ts.
 */
export function preAcquisitionEliminations(ctx: EliminationContext): Elimination[] {
  const out: Elimination[] = [];
  for (const w of ctx.windows?.values() ?? []) {
    if (w.acquiredAt === undefined) continue;
    const e = w.entity;
    const tr = ctx.translations.get(e.id)!;
    const a = ctx.group.period.from - e.start;
    // The trial balance of the months from the acquisition to the period's end (or the disposal).
    const afterAcquisition = w.disposedAt === undefined ? w.tb : entityPeriodTrialBalance(tr, { from: e.start + w.first, to: ctx.group.period.to });
    const lines = trialBalanceDifference(ctx, e, w.periodTb, afterAcquisition);
    let dividendsLocal = 0;
    for (const d of e.dividends) if (d.t >= a && d.t <= w.acquiredAt) dividendsLocal += d.amount;
    const preAcquisitionProfit = w.periodTb.netIncomeTranslated - afterAcquisition.netIncomeTranslated;
    out.push({
      id: `pre-acquisition:${e.id}`,
      kind: "preAcquisition",
      description: `Leave out ${e.name}'s results before its acquisition (${formatMonth(e.start + a)} to ${formatMonth(e.start + w.acquiredAt)}): they are part of the equity acquired`,
      lines,
      details: {
        subsidiary: e.id,
        acquisitionMonth: formatMonth(e.start + w.acquiredAt),
        firstMonthConsolidated: formatMonth(e.start + w.first),
        preAcquisitionMonths: w.acquiredAt - a + 1,
        preAcquisitionProfitLocal: w.periodTb.netIncomeLocal - afterAcquisition.netIncomeLocal,
        preAcquisitionProfitCreditPositive: preAcquisitionProfit,
        preAcquisitionDividendsLocal: dividendsLocal,
        preAcquisitionDividends: w.periodTb.retainedEarnings.dividends - afterAcquisition.retainedEarnings.dividends,
        retainedEarningsAtAcquisitionCreditPositive: -tr.retainedEarningsEnd[w.acquiredAt]!,
        ctaAtAcquisitionCreditPositive: -tr.cta[w.acquiredAt]!,
      },
    });
  }
  return out;
}
