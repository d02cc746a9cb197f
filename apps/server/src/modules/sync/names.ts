import { and, eq, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { companies, dividendEliminations, eliminationPairs, nameBalances, qboNames, type NameKind } from "../../db/schema.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { monthlyAmounts, type MonthlyAmount } from "./balances.ts";
import { lastDayOfMonth } from "@groupledger/domain";
import { insertColumns } from "../../db/bulk-insert.ts";
import { chunkMonths, inChunk } from "./months.ts";

type Client = ReturnType<QboProvider["client"]>;

type Names = { customers: Awaited<ReturnType<Client["customers"]>>; vendors: Awaited<ReturnType<Client["vendors"]>> };

/** A company's customers and vendors as QBO lists them (inactive ones too: old pairs may name them), read together. */
export async function readNames(client: Client): Promise<Names> {
  const [customers, vendors] = await Promise.all([client.customers(), client.vendors()]);
  return { customers, vendors };
}

/** Saves what `readNames` read; how many names there are. */
export async function saveNames(database: Database, realmId: string, { customers, vendors }: Names): Promise<number> {
  const rows = [
    ...customers.map((c) => ({ kind: "Customer" as const, ...c })),
    ...vendors.map((v) => ({ kind: "Vendor" as const, ...v })),
  ].map((n) => ({ realmId, kind: n.kind, qboId: n.id, displayName: n.displayName, active: n.active, syncedAt: new Date() }));
  for (let i = 0; i < rows.length; i += 1000) {
    await database.db
      .insert(qboNames)
      .values(rows.slice(i, i + 1000))
      .onConflictDoUpdate({
        target: [qboNames.realmId, qboNames.kind, qboNames.qboId],
        set: { displayName: sql`excluded.display_name`, active: sql`excluded.active`, syncedAt: sql`excluded.synced_at` },
      });
  }
  return rows.length;
}

/**
 * The names of this company whose balances are fetched: those a pair's side is limited to, and,
 * for the parent, the customers standing for subsidiaries whose dividends it books in a shared
 * account (dividend_eliminations).
 */
export async function namesInPairs(database: Database, accountId: string, realmId: string): Promise<{ kind: NameKind; id: string }[]> {
  const rows = await database.db
    .select({
      leftRealm: eliminationPairs.leftRealmId,
      leftKind: eliminationPairs.leftNameKind,
      leftId: eliminationPairs.leftNameId,
      rightRealm: eliminationPairs.rightRealmId,
      rightKind: eliminationPairs.rightNameKind,
      rightId: eliminationPairs.rightNameId,
    })
    .from(eliminationPairs)
    .where(and(eq(eliminationPairs.accountId, accountId), or(eq(eliminationPairs.leftRealmId, realmId), eq(eliminationPairs.rightRealmId, realmId))));
  const found = new Map<string, { kind: NameKind; id: string }>();
  for (const r of rows) {
    if (r.leftRealm === realmId && r.leftKind) found.set(`${r.leftKind}:${r.leftId}`, { kind: r.leftKind, id: r.leftId });
    if (r.rightRealm === realmId && r.rightKind) found.set(`${r.rightKind}:${r.rightId}`, { kind: r.rightKind, id: r.rightId });
  }
  const [company] = await database.db.select({ isParent: companies.isParent }).from(companies).where(eq(companies.realmId, realmId)).limit(1);
  if (company?.isParent) {
    const dividends = await database.db.select({ nameId: dividendEliminations.nameId }).from(dividendEliminations).where(eq(dividendEliminations.accountId, accountId));
    for (const d of dividends) if (d.nameId) found.set(`Customer:${d.nameId}`, { kind: "Customer", id: d.nameId });
  }
  return [...found.values()].sort((a, b) => `${a.kind}:${a.id}`.localeCompare(`${b.kind}:${b.id}`));
}

/**
 * Per-name monthly balances for the names pairs use: QBO's BalanceSheet and ProfitAndLoss by month,
 * filtered by the customer or vendor (the Reports API's `customer` / `vendor` parameters). A name
 * fetched before is refreshed over the months this sync covers; a name never fetched gets the
 * company's whole history. Each chunk replaces its months in one transaction.
 */
export async function syncNameBalances(
  database: Database,
  realmId: string,
  client: Client,
  names: readonly { kind: NameKind; id: string }[],
  range: { changedFrom: string; historyFrom: string; to: string },
  classificationOf: (qboAccountId: string) => string | undefined,
  chunkMonthsSize: number,
  onChunk: (done: number, total: number) => Promise<void>,
): Promise<void> {
  if (names.length === 0) return;
  const known = await database.db.select().from(qboNames).where(eq(qboNames.realmId, realmId));
  const plans = names.map((n) => {
    const row = known.find((k) => k.kind === n.kind && k.qboId === n.id);
    const from = row?.balancesFrom && row.balancesThrough && row.balancesFrom <= range.historyFrom ? [range.changedFrom, row.balancesThrough].sort()[0]! : range.historyFrom;
    return { ...n, from, chunks: chunkMonths(from, range.to, chunkMonthsSize) };
  });
  const total = plans.reduce((s, p) => s + p.chunks.length, 0);
  let done = 0;
  for (const plan of plans) {
    for (const chunk of plan.chunks) {
      const filter = plan.kind === "Customer" ? { customer: plan.id } : { vendor: plan.id };
      const params = { start_date: `${chunk.from}-01`, end_date: lastDayOfMonth(chunk.to), accounting_method: "Accrual", summarize_column_by: "Month", ...filter } as const;
      const [bs, pl] = await Promise.all([client.report("BalanceSheet", params), client.report("ProfitAndLoss", params)]);
      const amounts = [...monthlyAmounts(bs, classificationOf).amounts, ...monthlyAmounts(pl, classificationOf).amounts];
      await writeNameBalances(database, realmId, plan, chunk, amounts);
      await onChunk(++done, total);
    }
    await database.db
      .update(qboNames)
      .set({ balancesFrom: sql`least(coalesce(${qboNames.balancesFrom}, ${plan.from}), ${plan.from})`, balancesThrough: range.to })
      .where(and(eq(qboNames.realmId, realmId), eq(qboNames.kind, plan.kind), eq(qboNames.qboId, plan.id)));
  }
}

async function writeNameBalances(
  database: Database,
  realmId: string,
  name: { kind: NameKind; id: string },
  chunk: { from: string; to: string },
  amounts: readonly MonthlyAmount[],
): Promise<void> {
  await database.db.transaction(async (tx) => {
    await tx.delete(nameBalances).where(and(eq(nameBalances.realmId, realmId), eq(nameBalances.nameKind, name.kind), eq(nameBalances.nameId, name.id), inChunk(nameBalances.month, chunk)));
    const rows = amounts
      .filter((a) => a.amountMinor !== 0)
      .map((a) => ({ realmId, nameKind: name.kind, nameId: name.id, qboAccountId: a.qboAccountId, month: `${a.month}-01`, kind: a.kind, amountMinor: a.amountMinor }));
    await insertColumns(tx, nameBalances, ["realmId", "nameKind", "nameId", "qboAccountId", "month", "kind", "amountMinor"], rows);
  });
}
