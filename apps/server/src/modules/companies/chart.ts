import { asc, eq, inArray, sql } from "drizzle-orm";
import type { CompanyAccount } from "@groupledger/contract";
import { monthOf, type ChartAccount } from "@groupledger/domain";
import type { Account } from "@groupledger/qbo";
import { rowsOf, type Db } from "../../db/client.ts";
import { qboAccounts } from "../../db/schema.ts";

/*
 * Our copy of each company's QuickBooks chart of accounts (qbo_accounts): written by every sync
 * and by creating the CTA account (so it can be chosen before the next sync), read by every feature.
 */

/** The columns toChartAccount reads. */
const chartColumns = {
  qboId: qboAccounts.qboId,
  name: qboAccounts.name,
  fullyQualifiedName: qboAccounts.fullyQualifiedName,
  acctNum: qboAccounts.acctNum,
  classification: qboAccounts.classification,
  accountType: qboAccounts.accountType,
  accountSubType: qboAccounts.accountSubType,
  active: qboAccounts.active,
  everHadBalance: qboAccounts.everHadBalance,
};

/** A synced QBO account as the domain's mapping and translation rules see it. */
export const toChartAccount = (r: Pick<typeof qboAccounts.$inferSelect, keyof typeof chartColumns>): ChartAccount & { everHadBalance: boolean } => ({
  id: r.qboId,
  name: r.name,
  fullyQualifiedName: r.fullyQualifiedName,
  acctNum: r.acctNum,
  classification: r.classification,
  accountType: r.accountType,
  accountSubType: r.accountSubType,
  active: r.active,
  everHadBalance: r.everHadBalance,
});

/**
 * A company's synced chart of accounts. Only the columns it shows: the mapping screen reads two
 * charts per view and per change (about 14 a second in the soak), and on PGlite every cell read is
 * decoded on the server's thread.
 */
export async function chartOf(db: Db, realmId: string): Promise<(ChartAccount & { everHadBalance: boolean })[]> {
  return (await db.select(chartColumns).from(qboAccounts).where(eq(qboAccounts.realmId, realmId))).map(toChartAccount);
}

/**
 * Accounts with their latest synced amount, in chart order (number, then name): a balance-sheet
 * account's closing balance at the latest synced month-end; an income or expense account's
 * activity in the last full month before `now` (the current month is still being booked, and its
 * activity so far, often nothing, says little about the account).
 */
export async function accountsWithLatestAmounts(db: Db, realmIds: readonly string[], now = new Date()): Promise<Map<string, CompanyAccount[]>> {
  const result = new Map<string, CompanyAccount[]>();
  if (realmIds.length === 0) return result;
  const rows = await db
    .select()
    .from(qboAccounts)
    .where(inArray(qboAccounts.realmId, [...realmIds]))
    .orderBy(asc(qboAccounts.realmId), asc(qboAccounts.acctNum), asc(qboAccounts.fullyQualifiedName));
  // The latest synced month of each account. A separate query: correlated subqueries in a
  // single-table drizzle select lose their table qualifiers (realm_id would match itself).
  const latest = rowsOf<{ realm_id: string; qbo_account_id: string; amount: string; month: string }>(
    await db.execute(sql`
      select distinct on (realm_id, qbo_account_id) realm_id, qbo_account_id, amount_minor::text as amount, to_char(month, 'YYYY-MM') as month
      from monthly_balances
      where realm_id in (${sql.join(
        realmIds.map((r) => sql`${r}`),
        sql`, `,
      )})
        and (kind = 'closing' or month < ${`${monthOf(now)}-01`}::date)
      order by realm_id, qbo_account_id, month desc`),
  );
  const latestOf = new Map(latest.map((l) => [`${l.realm_id}:${l.qbo_account_id}`, l]));
  for (const r of rows) {
    const list = result.get(r.realmId) ?? [];
    const l = latestOf.get(`${r.realmId}:${r.qboId}`);
    list.push({
      Id: r.qboId,
      name: r.name,
      fullyQualifiedName: r.fullyQualifiedName,
      acctNum: r.acctNum,
      accountType: r.accountType,
      accountSubType: r.accountSubType,
      classification: r.classification,
      currency: r.currency,
      active: r.active,
      everHadBalance: r.everHadBalance,
      latestAmount: l ? Number(l.amount) : null,
      latestMonth: l?.month ?? null,
    });
    result.set(r.realmId, list);
  }
  return result;
}

/** Intuit's fixed AccountType → Classification, for accounts that arrive without a Classification. */
const CLASSIFICATION_BY_TYPE: Record<string, string> = {
  Bank: "Asset",
  "Accounts Receivable": "Asset",
  "Other Current Asset": "Asset",
  "Fixed Asset": "Asset",
  "Other Asset": "Asset",
  "Accounts Payable": "Liability",
  "Credit Card": "Liability",
  "Other Current Liability": "Liability",
  "Long Term Liability": "Liability",
  Equity: "Equity",
  Income: "Revenue",
  "Other Income": "Revenue",
  "Cost of Goods Sold": "Expense",
  Expense: "Expense",
  "Other Expense": "Expense",
};

export const classificationOf = (a: Pick<Account, "classification" | "accountType">): string =>
  a.classification ?? CLASSIFICATION_BY_TYPE[a.accountType] ?? "Asset";

/**
 * Writes QuickBooks accounts into a company's synced chart (new ones added, known ones updated;
 * `everHadBalance` is the sync's to set) and returns them as stored.
 */
export async function saveAccounts(db: Db, realmId: string, chart: readonly Account[], homeCurrency: string): Promise<(typeof qboAccounts.$inferSelect)[]> {
  if (chart.length === 0) return [];
  const rows = chart.map((a) => ({
    realmId,
    qboId: a.id,
    name: a.name,
    fullyQualifiedName: a.fullyQualifiedName ?? a.name,
    acctNum: a.acctNum ?? null,
    accountType: a.accountType,
    accountSubType: a.accountSubType ?? null,
    classification: classificationOf(a),
    currency: a.currency ?? homeCurrency,
    active: a.active,
    parentQboId: a.parentId ?? null,
    syncedAt: new Date(),
  }));
  return db
    .insert(qboAccounts)
    .values(rows)
    .onConflictDoUpdate({
      target: [qboAccounts.realmId, qboAccounts.qboId],
      set: {
        name: sql`excluded.name`,
        fullyQualifiedName: sql`excluded.fully_qualified_name`,
        acctNum: sql`excluded.acct_num`,
        accountType: sql`excluded.account_type`,
        accountSubType: sql`excluded.account_sub_type`,
        classification: sql`excluded.classification`,
        currency: sql`excluded.currency`,
        active: sql`excluded.active`,
        parentQboId: sql`excluded.parent_qbo_id`,
        syncedAt: sql`excluded.synced_at`,
      },
    })
    .returning();
}
