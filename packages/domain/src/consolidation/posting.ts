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
  rowOf: (accountIndex: number) => number,
  ctaRow: number,
  fxRow: number,
): JournalEntry {
  const T = e.months;
  const a = period.from - e.start;
  const b = period.to - e.start;
  const byRow = new Map<number, number>();
  const add = (row: number, amount: number) => {
    if (amount !== 0) byRow.set(row, (byRow.get(row) ?? 0) + amount);
  };
  e.accounts.forEach((account, i) => {
    if (isRolledForward(account.kind)) return;
    const base = i * T;
    if (isProfitAndLoss(account.kind)) {
      for (let t = a; t <= b; t++) add(rowOf(i), tr.translated[base + t]!);
    } else {
      add(rowOf(i), tr.translated[base + b]! - tr.translated[base + a - 1]!);
    }
  });
  let dividends = 0;
  let remeasurement = 0;
  for (let t = a; t <= b; t++) {
    dividends += tr.dividends[t]!;
    remeasurement += tr.remeasurement[t]!;
  }
  add(rowOf(e.dividendsRow), dividends);
  add(fxRow, remeasurement);
  add(ctaRow, tr.cta[b]! - tr.cta[a - 1]!);

  const lines: JournalEntry["lines"] = [];
  let total = 0;
  let postable = true;
  for (const [row, amount] of [...byRow].sort((x, y) => x[0] - y[0])) {
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
