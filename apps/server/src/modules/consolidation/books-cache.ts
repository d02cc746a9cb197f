import { asc, eq } from "drizzle-orm";
import { byQboId, type ChartRow, engineBooks, type EngineBooksArgs, type LocalBooks } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { monthlyBalances, qboAccounts } from "../../db/schema.ts";
import { toChartAccount } from "../companies/chart.ts";
import type { CompanyRow } from "../group/service.ts";

/**
 * Each company's synced books (its chart and every monthly balance) kept in memory by the books
 * version that statement triggers bump whenever either changes (migration 0030). A consolidation
 * reads them from here, so a change elsewhere in the group (a map, a rate, a pair: the account's data
 * version, which every report is keyed by) recomputes the report without decoding the books from
 * the database again; decoding them was most of a cold report's time (docs/performance.md).
 *
 * Why a stale read cannot stick: the version is read with the company row before the books are,
 * and a writer changes the books and bumps the version in one transaction. So books newer than
 * their key may be kept (the next request's newer version misses and reloads), never older ones.
 */

/** One company's balances in month order, as columns (strings are shared: one per account and month). */
export interface CachedBalances {
  readonly accounts: readonly string[];
  /** "YYYY-MM", ascending. */
  readonly months: readonly string[];
  readonly amounts: readonly number[];
}

export interface CompanyBooks {
  /** The chart as the bridge reads it, by QuickBooks id; rows frozen (shared by every report). */
  readonly chart: readonly ChartRow[];
  readonly balances: CachedBalances;
  /** The first month with a balance row, if any. */
  readonly firstMonth: string | undefined;
  /** One account's amount in a month ("YYYY-MM"); 0 when it has no row, as the bridge reads a synced month. */
  amount(account: string, month: string): number;
  /**
   * The domain's engineBooks over these books (retained earnings with the year's profit, dividends,
   * the months that do not balance), kept for equal arguments: a map, rate or pair change makes
   * every report cold, but not these books, so the next reports reuse them. Frozen: every
   * consolidation of the group shares them.
   */
  local(args: Omit<EngineBooksArgs, "amount" | "chart">): LocalBooks;
}

/** The most balance rows kept in all (about 40 bytes each); the least recently used company goes first. */
const MAX_ROWS = 3_000_000;

interface Entry {
  version: number;
  books: Promise<CompanyBooks>;
  rows: number;
}

const entries = new Map<string, Entry>();
let rowsKept = 0;


/** The company's books as of `company` (a row read before this call), from memory when unchanged since. */
export function companyBooks(db: Db, company: Pick<CompanyRow, "id" | "realmId" | "booksVersion">): Promise<CompanyBooks> {
  // By the row's id, unique across databases (tests run several in one process) and new when a
  // company is deleted and connected again.
  const key = company.id;
  const kept = entries.get(key);
  if (kept && kept.version === company.booksVersion) {
    // Most recently used last: eviction takes from the front.
    entries.delete(key);
    entries.set(key, kept);
    return kept.books;
  }
  if (kept) forget(key);
  const entry: Entry = { version: company.booksVersion, rows: 0, books: readBooks(db, company.realmId, `${key}|${company.booksVersion}`) };
  entries.set(key, entry);
  entry.books.then(
    (books) => {
      // Only if this load is still the one kept (a newer version may have replaced it meanwhile).
      if (entries.get(key) !== entry) return;
      entry.rows = books.balances.amounts.length;
      rowsKept += entry.rows;
      while (rowsKept > MAX_ROWS && entries.size > 1) forget(entries.keys().next().value!);
    },
    () => {
      if (entries.get(key) === entry) entries.delete(key);
    },
  );
  return entry.books;
}

function forget(key: string) {
  const entry = entries.get(key);
  if (!entry) return;
  rowsKept -= entry.rows;
  entries.delete(key);
}

/** For tests: what is kept now. */
export function booksKept(): { companies: number; rows: number } {
  return { companies: entries.size, rows: rowsKept };
}

async function readBooks(db: Db, realmId: string, booksKey: string): Promise<CompanyBooks> {
  const [chartRows, balanceRows] = await Promise.all([
    db.select().from(qboAccounts).where(eq(qboAccounts.realmId, realmId)),
    db
      .select({ account: monthlyBalances.qboAccountId, month: monthlyBalances.month, amount: monthlyBalances.amountMinor })
      .from(monthlyBalances)
      .where(eq(monthlyBalances.realmId, realmId))
      .orderBy(asc(monthlyBalances.month)),
  ]);
  const chart = chartRows.map((r) => Object.freeze(toChartAccount(r)) as ChartRow).sort((a, b) => byQboId(a.id, b.id));
  const strings = new Map<string, string>();
  const shared = (s: string) => {
    const kept = strings.get(s);
    if (kept !== undefined) return kept;
    strings.set(s, s);
    return s;
  };
  const n = balanceRows.length;
  const accounts = new Array<string>(n);
  const months = new Array<string>(n);
  const amounts = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const r = balanceRows[i]!;
    accounts[i] = shared(r.account);
    months[i] = shared(r.month.slice(0, 7));
    amounts[i] = r.amount;
  }
  const frozenChart = Object.freeze(chart);
  let byAccount: Map<string, Map<string, number>> | undefined;
  const amount = (account: string, month: string): number => {
    if (!byAccount) {
      byAccount = new Map();
      for (let i = 0; i < n; i++) {
        let row = byAccount.get(accounts[i]!);
        if (!row) byAccount.set(accounts[i]!, (row = new Map()));
        row.set(months[i]!, amounts[i]!);
      }
    }
    return byAccount.get(account)?.get(month) ?? 0;
  };
  const local = (args: Omit<EngineBooksArgs, "amount" | "chart">): LocalBooks => {
    const c = args.company;
    // Every argument but the chart and amounts (these books', fixed by booksKey) is in the key.
    const key = `${booksKey}|${args.opening}|${args.to}|${args.checkThrough}|${args.firstSyncedMonth}|${c.realmId}|${c.companyName}|${c.homeCurrency}|${c.fiscalYearStartMonth}`;
    return keptLocalBooks(key, () => engineBooks({ ...args, chart: frozenChart, amount }));
  };
  return { chart: frozenChart, balances: { accounts, months, amounts }, firstMonth: months[0], amount, local };
}

/** The most series values (one per account and month) kept in derived local books in all; the least recently used go first. */
const MAX_LOCAL_CELLS = 4_000_000;
const localKept = new Map<string, { books: LocalBooks; cells: number }>();
let localCells = 0;
let derived = 0;
/** For tests: how many companies' local books were derived in this process (a map change derives none). */
export const localBooksDerived = () => derived;

function keptLocalBooks(key: string, derive: () => LocalBooks): LocalBooks {
  const kept = localKept.get(key);
  if (kept) {
    localKept.delete(key);
    localKept.set(key, kept);
    return kept.books;
  }
  derived++;
  const books = deepFreeze(derive());
  const cells = books.series.size * books.months.length;
  localKept.set(key, { books, cells });
  localCells += cells;
  while (localCells > MAX_LOCAL_CELLS && localKept.size > 1) {
    const [oldest, entry] = localKept.entries().next().value!;
    localKept.delete(oldest);
    localCells -= entry.cells;
  }
  return books;
}

/** Shared books that nothing may change: a write would throw (modules are strict) instead of altering every later report. */
function deepFreeze(books: LocalBooks): LocalBooks {
  for (const s of books.series.values()) Object.freeze(s);
  for (const p of books.problems) Object.freeze(p);
  for (const d of books.dividends) Object.freeze(d);
  Object.freeze(books.months);
  Object.freeze(books.problems);
  Object.freeze(books.dividends);
  return Object.freeze(books);
}
