import type { SyncChanges } from "@groupledger/contract";
import { formatMonth } from "./format.ts";

/** A QuickBooks entity as people write it: "JournalEntry" → "journal entry", and "journal entries" for several. */
function counted(n: number, entity: string): string {
  const words = entity.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${n} ${n === 1 ? words : words.endsWith("y") ? `${words.slice(0, -1)}ies` : `${words}s`}`;
}

/** "Jun 2025 – Nov 2025 (6 months)", or "Nov 2025" for one month. */
function monthsRead(c: SyncChanges, locale?: string): string {
  if (c.from === c.to) return formatMonth(c.from, locale);
  return `${formatMonth(c.from, locale)} – ${formatMonth(c.to, locale)} (${c.months} months)`;
}

/**
 * What a company's last sync found and read again, in a line for Connected Companies:
 * "2 journal entries, 1 invoice changed; read Jun 2025 – Nov 2025 (6 months)",
 * "No changes; read Nov 2025", "Whole history read (first sync): Jan 2023 – Nov 2025 (35 months)".
 */
export function syncChangesLine(c: SyncChanges, locale?: string): string {
  const read = monthsRead(c, locale);
  if (c.kind === "full") {
    const why =
      c.reason === "transactions_deleted"
        ? `${c.deleted === 1 ? "a transaction was" : `${c.deleted} transactions were`} deleted`
        : c.reason === "cdc_window_passed"
          ? "the last sync was over 30 days before"
          : "first sync";
    return `Whole history read (${why}): ${read}`;
  }
  const changes = Object.entries(c.changed)
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([entity, n]) => counted(n, entity));
  return changes.length === 0 ? `No changes; read ${read}` : `${changes.join(", ")} changed; read ${read}`;
}
