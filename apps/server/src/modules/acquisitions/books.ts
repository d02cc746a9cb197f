import { and, asc, eq, gte, inArray, lte } from "drizzle-orm";
import {
  type ChartAccount,
  engineBooks,
  type EquityKind,
  equityKindOf,
  fiscalYearStart,
  formatMonth,
  lastDayOfMonth,
  parseMonth,
} from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { fxRates, monthlyBalances, type companies } from "../../db/schema.ts";

type CompanyRow = typeof companies.$inferSelect;

/** One equity account of a subsidiary at a month-end, local minor units, debit positive. */
export interface EquityLine {
  account: ChartAccount;
  kind: EquityKind;
  local: number;
}

/**
 * A subsidiary's equity at a month-end as its synced books show it: each equity account's
 * closing balance, with the fiscal year's profit to date added to retained earnings (QBO has no
 * closing entry; consolidation/books.ts holds that rule). `synced` is false when the books hold
 * nothing at or before that month (the company's books in QuickBooks start later).
 */
export async function equityAt(db: Db, company: CompanyRow, chart: readonly ChartAccount[], month: string): Promise<{ lines: EquityLine[]; synced: boolean }> {
  const fyStart = formatMonth(fiscalYearStart(parseMonth(month), company.fiscalYearStartMonth));
  const rows = await db
    .select({ account: monthlyBalances.qboAccountId, month: monthlyBalances.month, amount: monthlyBalances.amountMinor })
    .from(monthlyBalances)
    .where(and(eq(monthlyBalances.realmId, company.realmId), gte(monthlyBalances.month, `${fyStart}-01`), lte(monthlyBalances.month, lastDayOfMonth(month))));
  const [first] = await db
    .select({ month: monthlyBalances.month })
    .from(monthlyBalances)
    .where(and(eq(monthlyBalances.realmId, company.realmId), lte(monthlyBalances.month, lastDayOfMonth(month))))
    .limit(1);
  const amounts = new Map(rows.map((r) => [`${r.account}|${r.month.slice(0, 7)}`, r.amount]));
  const books = engineBooks({
    company,
    chart,
    opening: month,
    to: month,
    amount: (account, m) => amounts.get(`${account}|${m}`) ?? 0,
    checkThrough: month,
    firstSyncedMonth: undefined,
  });
  const lines = chart.flatMap((a) => {
    const kind = equityKindOf(a);
    const local = books.series.get(a.id)?.[0] ?? 0;
    return kind && local !== 0 ? [{ account: a, kind, local }] : [];
  });
  return { lines, synced: first !== undefined };
}

/** The first month-end at which a parent account holds a balance, and that balance. */
export async function firstBalance(db: Db, realmId: string, accountId: string): Promise<{ month: string; amount: number } | null> {
  const rows = await db
    .select({ month: monthlyBalances.month, amount: monthlyBalances.amountMinor })
    .from(monthlyBalances)
    .where(and(eq(monthlyBalances.realmId, realmId), eq(monthlyBalances.qboAccountId, accountId)))
    .orderBy(asc(monthlyBalances.month));
  const hit = rows.find((r) => r.amount !== 0);
  return hit ? { month: hit.month.slice(0, 7), amount: hit.amount } : null;
}

/** Closing (and average) rates of an account's FX table for some currency-months. */
export async function ratesAt(db: Db, accountId: string, wanted: readonly { currency: string; month: string }[]) {
  const out = new Map<string, { average: string | null; closing: string | null }>();
  if (wanted.length === 0) return out;
  const rows = await db
    .select()
    .from(fxRates)
    .where(and(eq(fxRates.accountId, accountId), inArray(fxRates.currency, [...new Set(wanted.map((w) => w.currency))]), inArray(fxRates.month, [...new Set(wanted.map((w) => w.month))])));
  for (const r of rows) out.set(`${r.currency}:${r.month}`, { average: r.average, closing: r.closing });
  return out;
}
