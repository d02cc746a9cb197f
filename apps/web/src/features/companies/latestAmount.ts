import type { CompanyAccount } from "@groupledger/contract";
import { PROFIT_AND_LOSS } from "@groupledger/domain";
import { formatMonth } from "./format.ts";

/**
 * What an account's `latestAmount` is (GET /api/companies/{realmId}/accounts): a balance-sheet
 * account's balance at the end of its latest synced month; an income or expense account's activity
 * in the last full month (the server's rule, by the same classification the books use).
 */
type Amounted = Pick<CompanyAccount, "classification" | "latestMonth">;

export const isActivityAccount = (a: Pick<CompanyAccount, "classification">): boolean => PROFIT_AND_LOSS.has(a.classification);

/** "Balance at the end of Nov 2026" or "Activity in Oct 2026"; null before the first sync. */
export function latestAmountLabel(a: Amounted, locale?: string): string | null {
  if (!a.latestMonth) return null;
  const month = formatMonth(a.latestMonth, locale);
  return isActivityAccount(a) ? `Activity in ${month}` : `Balance at the end of ${month}`;
}

const latestOf = (accounts: readonly Amounted[], activity: boolean): string | null =>
  accounts.reduce<string | null>((max, a) => (a.latestMonth && isActivityAccount(a) === activity && (!max || a.latestMonth > max) ? a.latestMonth : max), null);

/**
 * The sentence that says which period the amount column shows, for both kinds of account:
 * "Balance: balance-sheet accounts at the end of Nov 2026; income and expense accounts, their activity in Oct 2026."
 */
export function latestAmountBasis(accounts: readonly Amounted[], locale?: string): string | null {
  const closing = latestOf(accounts, false);
  const activity = latestOf(accounts, true);
  const parts = [
    closing ? `balance-sheet accounts at the end of ${formatMonth(closing, locale)}` : null,
    activity ? `income and expense accounts, their activity in ${formatMonth(activity, locale)}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? `Balance: ${parts.join("; ")}.` : null;
}
