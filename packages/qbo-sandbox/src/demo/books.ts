/**
 * A book-keeper for the generator: posts balanced journal entries by account role and keeps the
 * running balances and profit the generator's decisions depend on (collections, tax, dividends).
 */
import { isBalanceSheet } from "../accountTypes.ts";
import type { Account, JournalEntry, JournalLine } from "../ledger.ts";
import { fiscalYearStart } from "../calendar.ts";

/** [role, debit-positive cents, line description?] */
export type Posting = readonly [role: string, amount: number, description?: string];

export class Books {
  readonly entries: JournalEntry[] = [];
  private readonly idByRole = new Map<string, string>();
  private readonly accountById = new Map<string, Account>();
  private readonly balances = new Map<string, number>();
  private readonly profitByMonth = new Map<string, number>();
  private readonly profitByFiscalYear = new Map<string, number>();
  private readonly docSeq = new Map<string, number>();

  constructor(
    accounts: readonly Account[],
    roles: ReadonlyMap<string, string>,
    private readonly fiscalYearStartMonth: number,
    private readonly currency: string,
  ) {
    for (const a of accounts) this.accountById.set(a.id, a);
    for (const [role, id] of roles) this.idByRole.set(role, id);
  }

  has(role: string): boolean {
    return this.idByRole.has(role);
  }

  /** Debit-positive running balance of the account with this role. */
  balance(role: string): number {
    return this.balances.get(this.id(role)) ?? 0;
  }

  /** Net income (credit-positive) booked in a month "YYYY-MM". */
  profitOfMonth(month: string): number {
    return this.profitByMonth.get(month) ?? 0;
  }

  /** Net income of the fiscal year starting on `fyStart` ("YYYY-MM-DD"). */
  profitOfFiscalYear(fyStart: string): number {
    return this.profitByFiscalYear.get(fyStart) ?? 0;
  }

  post(date: string, memo: string, postings: readonly Posting[]): JournalEntry | undefined {
    const live = postings.filter((p) => p[1] !== 0);
    if (live.length === 0) return undefined;
    const total = live.reduce((s, p) => s + p[1], 0);
    if (total !== 0) throw new Error(`unbalanced demo entry on ${date} (${memo}): ${total}`);
    const month = date.slice(0, 7);
    const fy = fiscalYearStart(date, this.fiscalYearStartMonth);
    const lines: JournalLine[] = live.map(([role, amount, description], i) => {
      const accountId = this.id(role);
      this.balances.set(accountId, (this.balances.get(accountId) ?? 0) + amount);
      const account = this.accountById.get(accountId) as Account;
      if (!isBalanceSheet(account.type)) {
        this.profitByMonth.set(month, (this.profitByMonth.get(month) ?? 0) - amount);
        this.profitByFiscalYear.set(fy, (this.profitByFiscalYear.get(fy) ?? 0) - amount);
      }
      return {
        id: String(i),
        accountId,
        posting: amount > 0 ? "Debit" : "Credit",
        amount: Math.abs(amount),
        homeAmount: Math.abs(amount),
        description: description ?? memo,
      };
    });
    const seq = (this.docSeq.get(month) ?? 0) + 1;
    this.docSeq.set(month, seq);
    const created = Date.parse(`${date}T18:00:00.000Z`);
    const entry: JournalEntry = {
      id: String(this.entries.length + 1),
      syncToken: 0,
      docNumber: `${date.slice(2, 4)}${date.slice(5, 7)}-${String(seq).padStart(3, "0")}`,
      txnDate: date,
      privateNote: memo,
      currency: this.currency,
      lines,
      createTime: created,
      updateTime: created,
    };
    this.entries.push(entry);
    return entry;
  }

  private id(role: string): string {
    const id = this.idByRole.get(role);
    if (id === undefined) throw new Error(`no account with role ${role}`);
    return id;
  }
}
