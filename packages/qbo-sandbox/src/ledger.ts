/**
 * One company's books: accounts, classes, departments, customers and vendors, transactions (journal
 * entries, bills and bill payments, each in the books by its journal lines) and
 * (for a multicurrency company) exchange rates. All amounts are integer cents. Balances come from a lazily rebuilt
 * per-account index of debit-positive home-currency amounts, so reports over many columns stay
 * cheap while posting stays simple.
 */
import type { AccountType } from "./accountTypes.ts";
import { isBalanceSheet } from "./accountTypes.ts";
import type { Address } from "./demo/companies.ts";

export interface Account {
  readonly id: string;
  readonly number: string;
  readonly name: string;
  readonly type: AccountType;
  readonly subType: string;
  readonly active: boolean;
  /** A foreign currency (ISO 4217) the account holds amounts in; absent: the home currency. */
  readonly currency?: string | undefined;
  /** Set only on accounts created through the API with one. */
  readonly description?: string | undefined;
  /** A sub-account's parent account (QBO's ParentRef); absent on top-level accounts. */
  readonly parentId?: string | undefined;
  /** Epoch milliseconds. */
  readonly createTime: number;
  readonly updateTime: number;
  readonly syncToken: number;
}

/** A Class or a Department. */
export interface Tag {
  readonly id: string;
  readonly name: string;
  readonly active: boolean;
  readonly createTime: number;
  readonly updateTime: number;
  readonly syncToken: number;
}

/** QBO's "names": customers and vendors share one id sequence and one namespace of DisplayNames. */
export type PartyKind = "Customer" | "Vendor";

/** A Customer or a Vendor. */
export interface Party {
  readonly id: string;
  readonly kind: PartyKind;
  readonly displayName: string;
  /** Set on the demo's group companies (and on creates that send one). */
  readonly companyName?: string | undefined;
  readonly active: boolean;
  readonly createTime: number;
  readonly updateTime: number;
  readonly syncToken: number;
}

/** A journal line's Name: `JournalEntryLineDetail.Entity`. */
export interface LineEntity {
  readonly type: PartyKind;
  readonly id: string;
}

export type PostingType = "Debit" | "Credit";

export interface JournalLine {
  readonly id: string;
  readonly accountId: string;
  readonly posting: PostingType;
  /** In the entry's currency. */
  readonly amount: number;
  /** In the company's home currency. */
  readonly homeAmount: number;
  readonly description?: string | undefined;
  readonly classId?: string | undefined;
  readonly departmentId?: string | undefined;
  /** The line's Name (a customer or vendor), when it has one. */
  readonly entity?: LineEntity | undefined;
}

/**
 * What makes a transaction a Bill rather than a journal entry. Its journal lines are the A/P
 * credit naming the vendor first (id "0"), then one debit per AccountBasedExpenseLineDetail line
 * (ids "1", "2", ... as the Bill's Line Ids), each naming the vendor too.
 */
export interface BillDocument {
  readonly type: "Bill";
  readonly vendorId: string;
  readonly dueDate: string;
}

/** One BillPayment line: what it pays on one bill. */
export interface BillLink {
  readonly billId: string;
  /** Cents. */
  readonly amount: number;
}

/**
 * What makes a transaction a BillPayment. Its journal lines are the credit to the bank (PayType
 * Check) or credit card account first (id "0"), then one A/P debit per link, each naming the vendor.
 */
export interface BillPaymentDocument {
  readonly type: "BillPayment";
  readonly vendorId: string;
  readonly payType: "Check" | "CreditCard";
  /** CheckPayment.PrintStatus (Check only). */
  readonly printStatus?: string | undefined;
  readonly links: readonly BillLink[];
}

/** QBO's transaction entities the ledger keeps; they share one id sequence, as at QuickBooks. */
export type TransactionKind = "JournalEntry" | "Bill" | "BillPayment";

/**
 * A transaction in the books: a journal entry, or with `document` a bill or bill payment. Every
 * kind posts through its `lines`, so balances and reports read them all alike.
 */
export interface JournalEntry {
  readonly id: string;
  readonly syncToken: number;
  readonly docNumber?: string | undefined;
  readonly txnDate: string;
  readonly privateNote?: string | undefined;
  readonly currency: string;
  /** Home units per one unit of `currency`, six decimals; only for foreign-currency entries. */
  readonly exchangeRate?: string | undefined;
  readonly lines: readonly JournalLine[];
  readonly createTime: number;
  readonly updateTime: number;
  /** Set when deleted through the API; deleted entries stay for CDC but leave every report. */
  readonly deletedTime?: number | undefined;
  /** Absent: a journal entry. */
  readonly document?: BillDocument | BillPaymentDocument | undefined;
}

export function kindOf(entry: JournalEntry): TransactionKind {
  return entry.document?.type ?? "JournalEntry";
}

/** A transaction's TotalAmt in its own currency, cents: what its debit lines add up to. */
export function totalOf(entry: JournalEntry): number {
  return entry.lines.filter((l) => l.posting === "Debit").reduce((s, l) => s + l.amount, 0);
}

/** A bill payment's use of a bill. */
export interface BillPaid {
  readonly payment: JournalEntry;
  /** Cents. */
  readonly amount: number;
}

export interface ExchangeRateRow {
  readonly source: string;
  readonly target: string;
  readonly asOfDate: string;
  /** Six decimals. */
  readonly rate: string;
  readonly updateTime: number;
  /** Bumped by each update through the API; absent: never updated (0). */
  readonly syncToken?: number | undefined;
}

/** A CompanyCurrency: a foreign currency the multicurrency company has turned on (never the home currency). */
export interface CompanyCurrencyRow {
  readonly id: string;
  readonly code: string;
  readonly active: boolean;
  readonly createTime: number;
  readonly updateTime: number;
  readonly syncToken: number;
}

/**
 * QuickBooks Online's Budget entity (issue 23), read-only through the API as the emulator keeps it:
 * `select * from Budget` answers each budget with its BudgetDetail lines. The shape follows Intuit's
 * API reference and its query example ("Sandbox Budget": StartDate, BudgetEntryType, EndDate, Name,
 * SyncToken, BudgetType, domain, sparse, Active, BudgetDetail[{Amount, AccountRef, BudgetDate}],
 * then Id and MetaData); a detail line subdivided by class, location or customer carries its
 * ClassRef, DepartmentRef or CustomerRef after the AccountRef. Writes answer QuickBooks'
 * unsupported-operation fault (apiRoutes' catch-all): a budget is made in QuickBooks itself.
 */
export interface BudgetDetailRow {
  /** The first day of the month (Monthly), quarter or year the amount is for. */
  readonly budgetDate: string;
  /** Cents of the company's currency, the account's natural sign (income and expenses positive). */
  readonly amount: number;
  readonly accountId: string;
  readonly classId?: string | undefined;
  readonly departmentId?: string | undefined;
  readonly customerId?: string | undefined;
}

export interface BudgetRow {
  readonly id: string;
  readonly name: string;
  readonly startDate: string;
  readonly endDate: string;
  readonly budgetType: "ProfitAndLoss" | "BalanceSheet";
  readonly entryType: "Monthly" | "Quarterly" | "Annually";
  readonly active: boolean;
  readonly details: readonly BudgetDetailRow[];
  readonly createTime: number;
  readonly updateTime: number;
  readonly syncToken: number;
}

export interface CompanyProfileData {
  readonly realmId: string;
  readonly name: string;
  readonly legalName: string;
  readonly country: string;
  readonly currency: string;
  readonly isParent: boolean;
  readonly fiscalYearStartMonth: number;
  readonly startDate: string;
  readonly address: Address;
  readonly phone: string;
  readonly email: string;
  readonly multiCurrency: boolean;
  readonly createTime: number;
  /** "Close the books" date (YYYY-MM-DD): nothing dated on or before it changes through the API; absent: books open. */
  readonly bookCloseDate?: string | undefined;
  /** Preferences AccountingInfoPrefs.UseAccountNumbers ("Enable account numbers"); absent: on. */
  readonly useAccountNumbers?: boolean | undefined;
}

export interface CompanyData {
  readonly profile: CompanyProfileData;
  readonly accounts: Account[];
  readonly classes: Tag[];
  readonly departments: Tag[];
  /** Customers and vendors; absent means none. */
  readonly parties?: Party[] | undefined;
  readonly entries: JournalEntry[];
  readonly exchangeRates: ExchangeRateRow[];
  /**
   * The company's currencies (CompanyCurrency). Absent: for a multicurrency company, one per
   * currency its stored exchange rates are for (a rate exists only for a currency turned on).
   */
  readonly currencies?: CompanyCurrencyRow[] | undefined;
  /** Budgets (the Budget entity, read-only through the API); absent means none. */
  readonly budgets?: BudgetRow[] | undefined;
}

interface AccountSeries {
  readonly dates: string[];
  /** Running debit-positive sum after each date's postings. */
  readonly cumulative: number[];
}

function upperBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function signedHome(line: JournalLine): number {
  return line.posting === "Debit" ? line.homeAmount : -line.homeAmount;
}

export class CompanyLedger {
  private currentProfile: CompanyProfileData;
  readonly accounts: Account[];
  readonly classes: Tag[];
  readonly departments: Tag[];
  readonly parties: Party[];
  readonly entries: JournalEntry[];
  readonly exchangeRates: ExchangeRateRow[];
  readonly currencies: CompanyCurrencyRow[];
  readonly budgets: BudgetRow[];
  private accountIndex = new Map<string, Account>();
  private entryIndex = new Map<string, number>();
  private series: Map<string, AccountSeries> | undefined;
  private partyBalances: Map<string, number> | undefined;
  private foreignBalances: Map<string, number> | undefined;
  private children: Map<string, Account[]> | undefined;
  private billPayments: Map<string, BillPaid[]> | undefined;

  constructor(data: CompanyData) {
    this.currentProfile = data.profile;
    this.accounts = data.accounts;
    this.classes = data.classes;
    this.departments = data.departments;
    this.parties = data.parties ?? [];
    this.entries = data.entries;
    this.exchangeRates = data.exchangeRates;
    this.currencies = data.currencies ?? (data.profile.multiCurrency ? currenciesOfRates(data.exchangeRates, data.profile) : []);
    this.budgets = data.budgets ?? [];
    for (const a of this.accounts) this.accountIndex.set(a.id, a);
    this.entries.forEach((e, i) => this.entryIndex.set(e.id, i));
  }

  /**
   * The same books seen through a report filter: only the lines `keep` accepts (an entry left
   * with none drops out). Accounts, names and rates are shared; nothing is copied but the lines.
   */
  filtered(keep: (line: JournalLine) => boolean): CompanyLedger {
    const entries: JournalEntry[] = [];
    for (const e of this.entries) {
      if (e.deletedTime !== undefined) continue;
      const lines = e.lines.filter(keep);
      if (lines.length > 0) entries.push(lines.length === e.lines.length ? e : { ...e, lines });
    }
    return this.withEntries(entries);
  }

  /** The same company with other transactions (a report's view of the books); nothing else is copied. */
  withEntries(entries: JournalEntry[]): CompanyLedger {
    return new CompanyLedger({
      profile: this.profile,
      accounts: this.accounts,
      classes: this.classes,
      departments: this.departments,
      parties: this.parties,
      entries,
      exchangeRates: this.exchangeRates,
      currencies: this.currencies,
    });
  }

  party(id: string): Party | undefined {
    return this.parties.find((p) => p.id === id);
  }

  partiesOf(kind: PartyKind): Party[] {
    return this.parties.filter((p) => p.kind === kind);
  }

  addParty(party: Party): void {
    this.parties.push(party);
  }

  /** Swaps in a new version of a customer or vendor (an update), keeping its place. */
  replaceParty(party: Party): void {
    const i = this.parties.findIndex((p) => p.id === party.id);
    if (i < 0) throw new Error(`no customer or vendor ${party.id}`);
    this.parties[i] = party;
  }

  /**
   * QBO's Customer/Vendor `Balance`, home currency cents: what the name owes on Accounts
   * Receivable (debit-positive) or is owed on Accounts Payable (credit-positive), over every
   * live line that carries it.
   */
  partyBalance(party: Party): number {
    if (this.partyBalances === undefined) {
      const sums = new Map<string, number>();
      for (const e of this.entries) {
        if (e.deletedTime !== undefined) continue;
        for (const l of e.lines) {
          if (l.entity === undefined) continue;
          const type = this.accountIndex.get(l.accountId)?.type;
          if (type !== "Accounts Receivable" && type !== "Accounts Payable") continue;
          sums.set(l.entity.id, (sums.get(l.entity.id) ?? 0) + (type === "Accounts Receivable" ? signedHome(l) : -signedHome(l)));
        }
      }
      this.partyBalances = sums;
    }
    return this.partyBalances.get(party.id) ?? 0;
  }

  get realmId(): string {
    return this.profile.realmId;
  }

  account(id: string): Account | undefined {
    return this.accountIndex.get(id);
  }

  /** The sub-accounts directly under an account, in the chart's order. */
  subAccountsOf(id: string): readonly Account[] {
    if (this.children === undefined) {
      this.children = new Map();
      for (const a of this.accounts) {
        if (a.parentId === undefined) continue;
        const list = this.children.get(a.parentId);
        if (list === undefined) this.children.set(a.parentId, [a]);
        else list.push(a);
      }
    }
    return this.children.get(id) ?? [];
  }

  /** The account and its parents up to the top-level one, the account first. */
  lineage(account: Account): Account[] {
    const out = [account];
    for (let p = this.parentOf(account); p !== undefined && !out.includes(p); p = this.parentOf(p)) out.push(p);
    return out;
  }

  parentOf(account: Account): Account | undefined {
    return account.parentId === undefined ? undefined : this.accountIndex.get(account.parentId);
  }

  /** QBO's FullyQualifiedName: the top-level parent's name, then each sub-account's, joined by colons. */
  fullyQualifiedName(account: Account): string {
    return this.lineage(account)
      .reverse()
      .map((a) => a.name)
      .join(":");
  }

  entry(id: string): JournalEntry | undefined {
    const i = this.entryIndex.get(id);
    return i === undefined ? undefined : this.entries[i];
  }

  /** A live (not deleted) transaction of that kind; any other id is unknown to that entity. */
  liveTransaction(kind: TransactionKind, id: string): JournalEntry | undefined {
    const e = this.entry(id);
    return e === undefined || e.deletedTime !== undefined || kindOf(e) !== kind ? undefined : e;
  }

  /** The live bill payments that pay on a bill, in date order then id order, with what each pays on it. */
  paymentsOf(billId: string): readonly BillPaid[] {
    if (this.billPayments === undefined) {
      const map = new Map<string, BillPaid[]>();
      for (const payment of this.liveEntriesByDate()) {
        if (payment.document?.type !== "BillPayment") continue;
        const perBill = new Map<string, number>();
        for (const l of payment.document.links) perBill.set(l.billId, (perBill.get(l.billId) ?? 0) + l.amount);
        for (const [id, amount] of perBill) {
          const list = map.get(id);
          if (list === undefined) map.set(id, [{ payment, amount }]);
          else list.push({ payment, amount });
        }
      }
      this.billPayments = map;
    }
    return this.billPayments.get(billId) ?? [];
  }

  /** A bill's Balance: its total less what live bill payments pay on it, cents. */
  openBalance(bill: JournalEntry): number {
    return this.paymentsOf(bill.id).reduce((s, p) => s - p.amount, totalOf(bill));
  }

  /** Customers and vendors share QBO's one sequence of name ids. */
  nextPartyId(): string {
    return this.nextId(this.parties);
  }

  nextId(items: readonly { id: string }[]): string {
    let max = 0;
    for (const it of items) max = Math.max(max, Number(it.id) || 0);
    return String(max + 1);
  }

  get profile(): CompanyProfileData {
    return this.currentProfile;
  }

  /** QuickBooks' "Close the books": sets (or, with undefined, clears) the closing date, as a user does in Settings. */
  closeBooks(date: string | undefined): void {
    this.currentProfile = { ...this.currentProfile, bookCloseDate: date };
  }

  addEntry(entry: JournalEntry): void {
    this.entryIndex.set(entry.id, this.entries.length);
    this.entries.push(entry);
    this.entriesChanged();
  }

  replaceEntry(entry: JournalEntry): void {
    const i = this.entryIndex.get(entry.id);
    if (i === undefined) throw new Error(`no entry ${entry.id}`);
    this.entries[i] = entry;
    this.entriesChanged();
  }

  private entriesChanged(): void {
    this.series = undefined;
    this.partyBalances = undefined;
    this.foreignBalances = undefined;
    this.billPayments = undefined;
  }

  addClass(tag: Tag): void {
    this.classes.push(tag);
  }

  addAccount(account: Account): void {
    this.accountIndex.set(account.id, account);
    this.accounts.push(account);
    this.children = undefined;
  }

  /** Swaps in a new version of an existing account (an update), keeping its place in the chart. */
  replaceAccount(account: Account): void {
    const i = this.accounts.findIndex((a) => a.id === account.id);
    if (i < 0) throw new Error(`no account ${account.id}`);
    this.accounts[i] = account;
    this.accountIndex.set(account.id, account);
    this.partyBalances = undefined; // a type change moves an account in or out of A/R and A/P
    this.foreignBalances = undefined;
    this.children = undefined;
  }

  /** Debit-positive home balance of an account over every posting dated on or before `date`. */
  balanceThrough(accountId: string, date: string): number {
    const s = this.index().get(accountId);
    if (s === undefined) return 0;
    const n = upperBound(s.dates, date);
    return n === 0 ? 0 : (s.cumulative[n - 1] as number);
  }

  /** Debit-positive home activity dated from `from` to `to`, both inclusive. */
  activity(accountId: string, from: string, to: string): number {
    const s = this.index().get(accountId);
    if (s === undefined || from > to) return 0;
    const hi = upperBound(s.dates, to);
    const lo = upperBound(s.dates, dayBefore(from));
    if (hi === 0) return 0;
    return (s.cumulative[hi - 1] as number) - (lo === 0 ? 0 : (s.cumulative[lo - 1] as number));
  }

  /** Whether any posting to the account is dated within [from, to]. */
  hasPostings(accountId: string, from: string, to: string): boolean {
    const s = this.index().get(accountId);
    if (s === undefined || from > to) return false;
    return upperBound(s.dates, to) > upperBound(s.dates, dayBefore(from));
  }

  /** All live (not deleted) entries, in date order then id order. */
  liveEntriesByDate(): JournalEntry[] {
    return this.entries
      .filter((e) => e.deletedTime === undefined)
      .sort((a, b) => (a.txnDate < b.txnDate ? -1 : a.txnDate > b.txnDate ? 1 : Number(a.id) - Number(b.id)));
  }

  /**
   * QBO's CurrentBalance: balance-sheet accounts carry one, income and expense accounts show 0.
   * A foreign-currency account's balance is in its own currency (QuickBooks' chart of accounts
   * shows "account balances in the account's assigned currency"); every line on such an account
   * is in that currency (journal.ts), so it is the sum of the lines' own amounts.
   */
  currentBalance(account: Account): number {
    if (!isBalanceSheet(account.type)) return 0;
    if (this.isForeign(account)) return this.foreignBalance(account.id);
    return this.balanceThrough(account.id, "9999-12-31");
  }

  /** Whether the account holds a currency other than the home currency. */
  isForeign(account: Account): boolean {
    return account.currency !== undefined && account.currency !== this.profile.currency;
  }

  private foreignBalance(accountId: string): number {
    if (this.foreignBalances === undefined) {
      const sums = new Map<string, number>();
      for (const e of this.entries) {
        if (e.deletedTime !== undefined) continue;
        for (const l of e.lines) {
          const a = this.accountIndex.get(l.accountId);
          if (a === undefined || !this.isForeign(a)) continue;
          sums.set(l.accountId, (sums.get(l.accountId) ?? 0) + (l.posting === "Debit" ? l.amount : -l.amount));
        }
      }
      this.foreignBalances = sums;
    }
    return this.foreignBalances.get(accountId) ?? 0;
  }

  /** A CompanyCurrency by its code (any case), active or not. */
  currencyByCode(code: string): CompanyCurrencyRow | undefined {
    return this.currencies.find((c) => c.code.toLowerCase() === code.toLowerCase());
  }

  addCurrency(row: CompanyCurrencyRow): void {
    this.currencies.push(row);
  }

  replaceCurrency(row: CompanyCurrencyRow): void {
    const i = this.currencies.findIndex((c) => c.id === row.id);
    if (i < 0) throw new Error(`no company currency ${row.id}`);
    this.currencies[i] = row;
  }

  /** The stored rate of `source` for exactly `asOfDate`, if any. */
  exchangeRateOn(source: string, asOfDate: string): ExchangeRateRow | undefined {
    return this.exchangeRates.find((r) => r.source === source && r.asOfDate === asOfDate);
  }

  /** The rate in force for `source` on `date`: the latest stored on or before it. */
  exchangeRateAsOf(source: string, date: string): ExchangeRateRow | undefined {
    let best: ExchangeRateRow | undefined;
    for (const r of this.exchangeRates) {
      if (r.source === source && r.asOfDate <= date && (best === undefined || r.asOfDate > best.asOfDate)) best = r;
    }
    return best;
  }

  /** Adds the rate of its source and date, or replaces the one stored for them. */
  putExchangeRate(row: ExchangeRateRow): void {
    const i = this.exchangeRates.findIndex((r) => r.source === row.source && r.asOfDate === row.asOfDate);
    if (i < 0) this.exchangeRates.push(row);
    else this.exchangeRates[i] = row;
  }

  private index(): Map<string, AccountSeries> {
    if (this.series !== undefined) return this.series;
    const perAccount = new Map<string, { date: string; amount: number }[]>();
    for (const e of this.entries) {
      if (e.deletedTime !== undefined) continue;
      for (const l of e.lines) {
        let list = perAccount.get(l.accountId);
        if (list === undefined) perAccount.set(l.accountId, (list = []));
        list.push({ date: e.txnDate, amount: signedHome(l) });
      }
    }
    const series = new Map<string, AccountSeries>();
    for (const [id, list] of perAccount) {
      list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      const dates: string[] = [];
      const cumulative: number[] = [];
      let sum = 0;
      for (const p of list) {
        sum += p.amount;
        if (dates.length > 0 && dates[dates.length - 1] === p.date) {
          cumulative[cumulative.length - 1] = sum;
        } else {
          dates.push(p.date);
          cumulative.push(sum);
        }
      }
      series.set(id, { dates, cumulative });
    }
    this.series = series;
    return series;
  }
}

export function dayBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** One CompanyCurrency per currency the stored rates are for, in order of first appearance. */
function currenciesOfRates(rates: readonly ExchangeRateRow[], profile: CompanyProfileData): CompanyCurrencyRow[] {
  const codes = [...new Set(rates.map((r) => r.source))].filter((c) => c !== profile.currency);
  return codes.map((code, i) => ({ id: String(i + 1), code, active: true, createTime: profile.createTime, updateTime: profile.createTime, syncToken: 0 }));
}
