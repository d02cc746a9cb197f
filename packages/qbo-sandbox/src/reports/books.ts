/** Ledger arithmetic shared by the reports: natural signs, fiscal-year close, account order. */
import type { AccountType } from "../accountTypes.ts";
import { isBalanceSheet, isCreditNatured } from "../accountTypes.ts";
import { fiscalYearStart } from "../calendar.ts";
import type { Account, CompanyLedger } from "../ledger.ts";
import { dayBefore } from "../ledger.ts";

/** Debit-positive ledger amount shown the way a report shows it for this account. */
export function natural(account: Account, debitPositive: number): number {
  return isCreditNatured(account.type) ? -debitPositive : debitPositive;
}

/** Net income (credit-positive) of everything dated from `from` to `to`. */
export function profitBetween(ledger: CompanyLedger, from: string, to: string): number {
  let sum = 0;
  for (const a of ledger.accounts) if (!isBalanceSheet(a.type)) sum -= ledger.activity(a.id, from, to);
  return sum;
}

export function retainedEarningsAccount(ledger: CompanyLedger): Account | undefined {
  return ledger.accounts.find((a) => a.subType === "RetainedEarnings");
}

export function fiscalYearOf(ledger: CompanyLedger, date: string): string {
  return fiscalYearStart(date, ledger.profile.fiscalYearStartMonth);
}

/**
 * What QBO shows for a balance-sheet account at `date`, debit-positive. Retained Earnings also
 * carries every earlier fiscal year's profit: QBO closes the year in its reports, not by a posting.
 */
export function balanceAt(ledger: CompanyLedger, account: Account, date: string): number {
  const own = ledger.balanceThrough(account.id, date);
  if (account.id !== retainedEarningsAccount(ledger)?.id) return own;
  return own - profitBetween(ledger, "0000-01-01", dayBefore(fiscalYearOf(ledger, date)));
}

/** Whether an account appears on a balance sheet as of `date`. */
export function showsOnBalanceSheet(ledger: CompanyLedger, account: Account, date: string): boolean {
  if (ledger.hasPostings(account.id, "0000-01-01", date)) return true;
  return account.id === retainedEarningsAccount(ledger)?.id && balanceAt(ledger, account, date) !== 0;
}

const TYPE_ORDER: readonly AccountType[] = [
  "Bank",
  "Accounts Receivable",
  "Other Current Asset",
  "Fixed Asset",
  "Other Asset",
  "Accounts Payable",
  "Credit Card",
  "Other Current Liability",
  "Long Term Liability",
  "Equity",
  "Income",
  "Cost of Goods Sold",
  "Expense",
  "Other Income",
  "Other Expense",
];

/** Chart order: by type as QBO lists them, then account number, then name. */
export function chartOrder(a: Account, b: Account): number {
  const t = TYPE_ORDER.indexOf(a.type) - TYPE_ORDER.indexOf(b.type);
  if (t !== 0) return t;
  if (a.number !== b.number) return a.number < b.number ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
