import { formatMonth, type MonthRange } from "../periods/month.ts";
import type { EntityTranslation } from "../translation/translate.ts";
import type { WorksheetRows } from "./mapping.ts";
import { isProfitAndLoss, isRolledForward, type CompiledEntity } from "./model.ts";
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
  addMovements(e, tr.translated, a, b, accountRows, byRow);
  let dividends = 0;
  let remeasurement = 0;
  for (let t = a; t <= b; t++) {
    dividends += tr.dividends[t]!;
    remeasurement += tr.remeasurement[t]!;
  }
  byRow[accountRows[e.dividendsRow]!]! += dividends;
  byRow[fxRow]! += remeasurement;
  byRow[ctaRow]! += tr.cta[b]! - tr.cta[a - 1]!;

  const lines: JournalEntry["lines"] = [];
  let total = 0;
  let postable = true;
  for (let row = 0; row < byRow.length; row++) {
    const amount = byRow[row]!;
    if (amount === 0) continue;
    total += amount;
    if (rows.roles[row] !== "account") postable = false;
    lines.push({ account: rows.ids[row]!, name: rows.names[row]!, debit: amount > 0 ? amount : 0, credit: amount < 0 ? -amount : 0 });
  }
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

/** Each line's part of the entry: a balance-sheet line's movement over the period, a P&L line's activity in it. */
function addMovements(e: CompiledEntity, translated: Float64Array, a: number, b: number, accountRows: Int32Array, byRow: Float64Array): void {
  const T = e.months;
  const accounts = e.accounts;
  for (let i = 0; i < accounts.length; i++) {
    const kind = accounts[i]!.kind;
    if (isRolledForward(kind)) continue;
    const base = i * T;
    let amount = 0;
    if (isProfitAndLoss(kind)) {
      for (let t = a; t <= b; t++) amount += translated[base + t]!;
    } else {
      amount = translated[base + b]! - translated[base + a - 1]!;
    }
    byRow[accountRows[i]!]! += amount;
  }
}
