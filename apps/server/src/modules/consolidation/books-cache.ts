import { asc, eq } from "drizzle-orm";
import { byQboId, type ChartRow } from "@groupledger/domain";
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
  const entry: Entry = { version: company.booksVersion, rows: 0, books: readBooks(db, company.realmId) };
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

async function readBooks(db: Db, realmId: string): Promise<CompanyBooks> {
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
  return { chart: Object.freeze(chart), balances: { accounts, months, amounts }, firstMonth: months[0] };
}

/** The rows of months `from`..`to` (inclusive, "YYYY-MM"), as the bridge reads balances. */
export function balancesBetween(realmId: string, b: CachedBalances, from: string, to: string): { realmId: string; account: string; month: string; amount: number }[] {
  const start = firstAtOrAfter(b.months, from);
  const end = firstAtOrAfter(b.months, `${to}\u{10FFFF}`);
  const out = new Array<{ realmId: string; account: string; month: string; amount: number }>(end - start);
  for (let i = start; i < end; i++) out[i - start] = { realmId, account: b.accounts[i]!, month: b.months[i]!, amount: b.amounts[i]! };
  return out;
}

function firstAtOrAfter(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
