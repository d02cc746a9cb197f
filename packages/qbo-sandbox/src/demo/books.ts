/**
 * A book-keeper for the generator: posts balanced journal entries by account role and keeps the
 * running balances and profit the generator's decisions depend on (collections, tax, dividends).
 * Lines carry a Name (customer or vendor) by key: per line, else the entry's, else, on an
 * Accounts Receivable or Accounts Payable account, the trade customer or supplier, so the books
 * obey QBO's rule that such lines name one.
 */
import { classificationOf, isBalanceSheet } from "../accountTypes.ts";
import type { Account, JournalEntry, JournalLine, LineEntity } from "../ledger.ts";
import { fiscalYearStart } from "../calendar.ts";
import { convert, formatRate } from "../money.ts";
import { TRADE_CUSTOMERS, TRADE_SUPPLIERS } from "./names.ts";

/** [role, debit-positive cents, line description?, name key? (see demo/names.ts)] */
export type Posting = readonly [role: string, amount: number, description?: string | undefined, name?: string | undefined];

export class Books {
  readonly entries: JournalEntry[] = [];
  private readonly idByRole = new Map<string, string>();
  private readonly accountById = new Map<string, Account>();
  private readonly balances = new Map<string, number>();
  private readonly foreignBalances = new Map<string, number>();
  private readonly profitByMonth = new Map<string, number>();
  private readonly profitByFiscalYear = new Map<string, number>();
  private readonly docSeq = new Map<string, number>();

  constructor(
    accounts: readonly Account[],
    roles: ReadonlyMap<string, string>,
    private readonly fiscalYearStartMonth: number,
    readonly currency: string,
    private readonly names: ReadonlyMap<string, LineEntity> = new Map(),
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

  /**
   * Total equity (credit-positive) as the balance sheet shows it: what the assets exceed the
   * liabilities by, i.e. share capital + retained earnings + profit to date - dividends.
   */
  equity(): number {
    let total = 0;
    for (const [id, amount] of this.balances) {
      const c = classificationOf((this.accountById.get(id) as Account).type);
      if (c === "Asset" || c === "Liability") total += amount;
    }
    return total;
  }

  /** Net income (credit-positive) booked in a month "YYYY-MM". */
  profitOfMonth(month: string): number {
    return this.profitByMonth.get(month) ?? 0;
  }

  /** Net income of the fiscal year starting on `fyStart` ("YYYY-MM-DD"). */
  profitOfFiscalYear(fyStart: string): number {
    return this.profitByFiscalYear.get(fyStart) ?? 0;
  }

  /** `name`: the key of the Name every line without its own carries. */
  post(date: string, memo: string, postings: readonly Posting[], name?: string): JournalEntry | undefined {
    return this.record(date, memo, postings, name, undefined);
  }

  /**
   * An entry in a foreign currency (QBO's JournalEntry CurrencyRef and ExchangeRate): amounts in
   * `currency`, each line's home amount at `rateMicros` (home units per one unit, six decimals) as
   * QuickBooks converts it. Its accounts hold `currency` or the home currency; balance() stays in
   * the home currency, foreignBalance() keeps the foreign accounts' own.
   */
  postForeign(date: string, memo: string, foreign: { currency: string; rateMicros: bigint }, postings: readonly Posting[], name?: string): JournalEntry | undefined {
    for (const [role] of postings) {
      const held = this.accountById.get(this.id(role))?.currency ?? this.currency;
      if (held !== foreign.currency && held !== this.currency) throw new Error(`demo entry on ${date} (${memo}): ${role} holds ${held}, not ${foreign.currency}`);
    }
    return this.record(date, memo, postings, name, foreign);
  }

  /** Debit-positive balance of a foreign-currency account in its own currency. */
  foreignBalance(role: string): number {
    return this.foreignBalances.get(this.id(role)) ?? 0;
  }

  private record(date: string, memo: string, postings: readonly Posting[], name: string | undefined, foreign: { currency: string; rateMicros: bigint } | undefined): JournalEntry | undefined {
    const live = postings.filter((p) => p[1] !== 0);
    if (live.length === 0) return undefined;
    const total = live.reduce((s, p) => s + p[1], 0);
    if (total !== 0) throw new Error(`unbalanced demo entry on ${date} (${memo}): ${total}`);
    const homeOf = (amount: number) => (foreign === undefined ? amount : convert(amount, foreign.rateMicros));
    if (live.reduce((s, p) => s + homeOf(p[1]), 0) !== 0) throw new Error(`demo entry on ${date} (${memo}) does not balance in ${this.currency}`);
    const month = date.slice(0, 7);
    const fy = fiscalYearStart(date, this.fiscalYearStartMonth);
    const lines: JournalLine[] = live.map(([role, amount, description, lineName], i) => {
      const accountId = this.id(role);
      const home = homeOf(amount);
      this.balances.set(accountId, (this.balances.get(accountId) ?? 0) + home);
      const account = this.accountById.get(accountId) as Account;
      if (foreign !== undefined && account.currency === foreign.currency) this.foreignBalances.set(accountId, (this.foreignBalances.get(accountId) ?? 0) + amount);
      const entity = this.entity(lineName ?? name ?? (account.type === "Accounts Receivable" ? TRADE_CUSTOMERS : account.type === "Accounts Payable" ? TRADE_SUPPLIERS : undefined));
      if (!isBalanceSheet(account.type)) {
        this.profitByMonth.set(month, (this.profitByMonth.get(month) ?? 0) - home);
        this.profitByFiscalYear.set(fy, (this.profitByFiscalYear.get(fy) ?? 0) - home);
      }
      return {
        id: String(i),
        accountId,
        posting: amount > 0 ? "Debit" : "Credit",
        amount: Math.abs(amount),
        homeAmount: Math.abs(home),
        description: description ?? memo,
        ...(entity === undefined ? {} : { entity }),
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
      currency: foreign?.currency ?? this.currency,
      ...(foreign === undefined ? {} : { exchangeRate: formatRate(foreign.rateMicros) }),
      lines,
      createTime: created,
      updateTime: created,
    };
    this.entries.push(entry);
    return entry;
  }

  private entity(key: string | undefined): LineEntity | undefined {
    if (key === undefined) return undefined;
    const entity = this.names.get(key);
    if (entity === undefined) throw new Error(`no demo name ${key}`);
    return entity;
  }

  private id(role: string): string {
    const id = this.idByRole.get(role);
    if (id === undefined) throw new Error(`no account with role ${role}`);
    return id;
  }
}
