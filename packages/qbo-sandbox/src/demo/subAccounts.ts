/**
 * The demo's sub-accounts (issue #20 item 3). Northwind Canada opened sub-accounts in January 2025
 * (CA_CHART, `parent`): from then on what the generator books on "Computer Equipment" and "Wages
 * and Salaries" is split between their sub-accounts (each line into one line per sub-account, by
 * share, the last taking what rounding leaves), so the company's totals, and every report total,
 * are what they were without sub-accounts; the parent accounts keep their own amounts from before.
 */
import type { JournalEntry, JournalLine } from "../ledger.ts";
import type { DemoCode } from "./companies.ts";

export interface SubAccountSplit {
  readonly code: DemoCode;
  /** The parent account, by its demo number. */
  readonly account: string;
  /** Lines dated on or after this day ("YYYY-MM-DD") move to the sub-accounts. */
  readonly from: string;
  /** Sub-accounts by demo number, with their share (the shares add up to 1). */
  readonly into: readonly (readonly [number: string, share: number])[];
}

export const SUB_ACCOUNT_SPLITS: readonly SubAccountSplit[] = [
  { code: "CA", account: "15000", from: "2025-01-01", into: [["15010", 0.7], ["15020", 0.3]] },
  { code: "CA", account: "60000", from: "2025-01-01", into: [["60010", 0.6], ["60020", 0.4]] },
];

/**
 * The entries with each split account's lines (from the split's date) replaced by one line per
 * sub-account; `idOf` gives an account id by demo number. Entries stay balanced line by line.
 */
export function splitIntoSubAccounts(code: DemoCode, entries: readonly JournalEntry[], idOf: (number: string) => string): JournalEntry[] {
  const splits = SUB_ACCOUNT_SPLITS.filter((s) => s.code === code).map((s) => ({ ...s, accountId: idOf(s.account), into: s.into.map(([n, share]) => [idOf(n), share] as const) }));
  if (splits.length === 0) return [...entries];
  return entries.map((entry) => {
    const applies = splits.filter((s) => entry.txnDate >= s.from && entry.lines.some((l) => l.accountId === s.accountId));
    if (applies.length === 0) return entry;
    const lines: JournalLine[] = entry.lines.flatMap((line) => {
      const split = applies.find((s) => s.accountId === line.accountId);
      if (split === undefined) return [line];
      let left = line.amount;
      return split.into.map(([accountId, share], i) => {
        const amount = i === split.into.length - 1 ? left : Math.round(line.amount * share);
        left -= amount;
        return { ...line, accountId, amount, homeAmount: amount };
      });
    });
    return { ...entry, lines: lines.map((l, i) => ({ ...l, id: String(i) })) };
  });
}
