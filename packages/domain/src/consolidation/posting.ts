import { formatMonth, type MonthRange } from "../periods/month.ts";
import type { EntityPeriodTrialBalance } from "../translation/period.ts";
import { translatedAt, type EntityTranslation } from "../translation/translate.ts";
import type { WorksheetRows } from "./mapping.ts";
import { isProfitAndLoss, isRolledForward, type CompiledEntity, type LineKind } from "./model.ts";
import type { ConsolidationOutput } from "./output-schema.ts";

type JournalEntry = ConsolidationOutput["journalEntries"][number];

/**
 * The journal entry that brings one subsidiary-period into the parent's books, by parent account:
 * the movement of each translated balance-sheet line over the period, the period's translated
 * P&L and dividends, and the CTA movement. Posted month after month these rebuild the translated
 * trial balance; the entry balances because each month's translated trial balance does.
 */
export function postingEntry(
  e: CompiledEntity,
  tr: EntityTranslation,
  tb: EntityPeriodTrialBalance,
  period: MonthRange,
  rows: WorksheetRows,
  accountRows: Int32Array,
  ctaRow: number,
  fxRow: number,
): JournalEntry {
  const a = period.from - e.start;
  const b = period.to - e.start;
  // Summed by worksheet row in one typed column; rows are then read in order, as the entry lists them.
  const byRow = new Float64Array(rows.size);
  addMovements(e, tr, tb, a, accountRows, byRow);
  let dividends = 0;
  let remeasurement = 0;
  for (let t = a; t <= b; t++) {
    dividends += tr.dividends[t]!;
    remeasurement += tr.remeasurement[t]!;
  }
  byRow[accountRows[e.dividendsRow]!]! += dividends;
  byRow[fxRow]! += remeasurement;
  byRow[ctaRow]! += tr.cta[b]! - tr.cta[a - 1]!;

  const { lines, total, postable } = entryLines(byRow, rows);
  if (total !== 0) throw new Error(`internal: the posting entry for ${e.name} is off by ${total}`);
  const label = period.from === period.to ? formatMonth(period.from) : `${formatMonth(period.from)}..${formatMonth(period.to)}`;
  return {
    entity: e.id,
    class: e.name,
    period: label,
    memo: `Consolidation of ${e.name} (${e.currency}) for ${label}`,
    postable,
    lines,
  };
}

/** The entry's lines, rows in order: a debit or a credit for every row whose amount is not 0. */
function entryLines(byRow: Float64Array, rows: WorksheetRows): { lines: JournalEntry["lines"]; total: number; postable: boolean } {
  let count = 0;
  for (let row = 0; row < byRow.length; row++) if (byRow[row] !== 0) count++;
  // Sized once: an entry of a large group has a line for nearly each of the parent's 1,000 accounts.
  const lines: JournalEntry["lines"] = new Array<JournalEntry["lines"][number]>(count);
  let total = 0;
  let postable = true;
  let k = 0;
  for (let row = 0; row < byRow.length; row++) {
    const amount = byRow[row]!;
    if (amount === 0) continue;
    total += amount;
    if (rows.roles[row] !== "account") postable = false;
    lines[k++] = { account: rows.ids[row]!, name: rows.names[row]!, debit: amount > 0 ? amount : 0, credit: amount < 0 ? -amount : 0 };
  }
  return { lines, total, postable };
}

/**
 * Each line's part of the entry: a balance-sheet line's movement over the period, a P&L line's
 * activity in it. Both start from the line in the period's trial balance (`tb`): a P&L line's is
 * the months a … b summed in the same order, a balance-sheet line's the balance at b (translatedAt,
 * never −0 there), so the same numbers; the balance at a − 1 is the one the translation kept
 * (EntityTranslation.periodBalances), or asked for again for another period.
 */
function addMovements(e: CompiledEntity, tr: EntityTranslation, tb: EntityPeriodTrialBalance, a: number, accountRows: Int32Array, byRow: Float64Array): void {
  const kinds = e.kinds;
  const lines = tb.lines;
  // The balance before the consolidation period was kept as it was translated (periodBalances).
  const before = a === tr.periodFlows.from ? tr.periodBalances.before : undefined;
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i]! as LineKind;
    if (isRolledForward(kind)) continue;
    const amount = isProfitAndLoss(kind) ? lines[i]!.translated : lines[i]!.translated - (before ? before[i]! : translatedAt(tr, i, a - 1));
    byRow[accountRows[i]!]! += amount;
  }
}
