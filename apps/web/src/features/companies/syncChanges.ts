import type { SyncChanges } from "@groupledger/contract";
import { formatMonth } from "./format.ts";

/** QuickBooks' transaction entities as people call them: [one, several]. */
const ENTITY_WORDS: Record<string, readonly [string, string]> = {
  JournalEntry: ["journal entry", "journal entries"],
  Invoice: ["invoice", "invoices"],
  SalesReceipt: ["sales receipt", "sales receipts"],
  Payment: ["payment", "payments"],
  Bill: ["bill", "bills"],
  BillPayment: ["bill payment", "bill payments"],
  Purchase: ["expense", "expenses"],
  Deposit: ["deposit", "deposits"],
  Transfer: ["transfer", "transfers"],
  CreditMemo: ["credit memo", "credit memos"],
  VendorCredit: ["vendor credit", "vendor credits"],
  RefundReceipt: ["refund receipt", "refund receipts"],
};

const counted = (n: number, [one, several]: readonly [string, string]) => `${n} ${n === 1 ? one : several}`;
const wordsOf = (entity: string) => ENTITY_WORDS[entity] ?? ([entity, entity] as const);

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
    .map(([entity, n]) => counted(n, wordsOf(entity)));
  return changes.length === 0 ? `No changes; read ${read}` : `${changes.join(", ")} changed; read ${read}`;
}
