import { and, eq } from "drizzle-orm";
import type { DividendEliminationRequest, FieldError, Intragroup, IntragroupInventory, IntragroupInventoryRequest } from "@groupledger/contract";
import {
  accountLabel,
  type ChartAccount,
  comparableCompanyName,
  mulRatioRound,
  parseRate,
  rateRatio,
} from "@groupledger/domain";
import type { Database, Db } from "../../db/client.ts";
import { dividendEliminations, intragroupInventory, qboNames } from "../../db/schema.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { RequestMeta } from "../../services/audit.ts";
import { auditUser } from "../../services/audit.ts";
import { chartOf } from "../companies/chart.ts";
import { loadGroup, type CompanyRow } from "../group/service.ts";
import { detectChangedAdjustments } from "../adjustments/stale.ts";
import { enqueueSync } from "../sync/enqueue.ts";

/**
 * Intra-group trade the consolidation adjusts for (contract intragroup.ts): stock held at a
 * month-end that one group company bought from another, and where the parent books each
 * subsidiary's dividends. The consolidation's rules are the engine's (docs/engine.md, "Unrealised
 * profit in inventory", "Intra-group dividends"); here they are recorded and proposed.
 */

type InventoryRow = typeof intragroupInventory.$inferSelect;

const option = (a: ChartAccount) => ({ accountId: a.id, name: a.name, acctNum: a.acctNum });

/** The parent's inventory account: an active asset of detail type Inventory, else one named like stock or inventory. */
export const inventoryAccountOf = (chart: readonly ChartAccount[]) =>
  chart.find((a) => a.active && a.classification === "Asset" && a.accountSubType === "Inventory") ?? chart.find((a) => a.active && a.classification === "Asset" && /\b(inventory|stock)\b/i.test(a.name));

/** The parent's cost of sales: an active Cost of Goods Sold account of a goods detail type, else the first such account. */
export const costOfSalesAccountOf = (chart: readonly ChartAccount[]) => {
  const cogs = chart.filter((a) => a.active && a.accountType === "Cost of Goods Sold");
  return cogs.find((a) => a.accountSubType === "SuppliesMaterialsCogs") ?? cogs[0];
};

/** The parent's account for dividends from subsidiaries: an active revenue of detail type DividendIncome, else one named like dividends. */
export const dividendIncomeAccountOf = (chart: readonly ChartAccount[]) =>
  chart.find((a) => a.active && a.classification === "Revenue" && a.accountSubType === "DividendIncome") ?? chart.find((a) => a.active && a.classification === "Revenue" && /dividend/i.test(a.name));

/** inventory × margin, half away from zero: the profit the seller made on what the buyer still holds. */
export const unrealisedProfitOf = (inventory: number, margin: string) => mulRatioRound(inventory, rateRatio(parseRate(margin)), 0);

/** The account's group, which needs its parent: intra-group trade is adjusted in the parent's consolidation. */
async function groupWithParent(db: Db, accountId: string) {
  const group = await loadGroup(db, accountId);
  const parent = group.requireParent("intra-group trade is adjusted in the parent's consolidation");
  return { group, all: group.companies, parent, subsidiaries: group.unarchivedSubsidiaries };
}

function inventoryView(r: InventoryRow, all: readonly CompanyRow[]): IntragroupInventory {
  const name = (realm: string) => all.find((c) => c.realmId === realm)?.companyName ?? realm;
  return {
    id: r.id,
    sellerRealmId: r.sellerRealmId,
    sellerName: name(r.sellerRealmId),
    buyerRealmId: r.buyerRealmId,
    buyerName: name(r.buyerRealmId),
    currency: all.find((c) => c.realmId === r.buyerRealmId)?.homeCurrency ?? "",
    month: r.month,
    inventory: r.inventory,
    margin: r.margin,
    unrealisedProfit: unrealisedProfitOf(r.inventory, r.margin),
    inventoryAccountId: r.inventoryAccountId,
    cogsAccountId: r.cogsAccountId,
  };
}

export async function intragroupView(db: Db, accountId: string): Promise<Intragroup> {
  const { all, parent, subsidiaries } = await groupWithParent(db, accountId);
  const chart = (await chartOf(db, parent.realmId)).filter((a) => a.active);
  const [rows, dividendRows, customers] = await Promise.all([
    db.select().from(intragroupInventory).where(eq(intragroupInventory.accountId, accountId)).orderBy(intragroupInventory.month),
    db.select().from(dividendEliminations).where(eq(dividendEliminations.accountId, accountId)),
    db.select().from(qboNames).where(and(eq(qboNames.realmId, parent.realmId), eq(qboNames.kind, "Customer"))),
  ]);
  const income = dividendIncomeAccountOf(chart);
  return {
    assetAccounts: chart.filter((a) => a.classification === "Asset").map(option),
    expenseAccounts: chart.filter((a) => a.classification === "Expense").map(option),
    revenueAccounts: chart.filter((a) => a.classification === "Revenue").map(option),
    parentCustomers: customers.filter((c) => c.active).map((c) => ({ id: c.qboId, displayName: c.displayName })),
    proposedInventoryAccountId: inventoryAccountOf(chart)?.id ?? null,
    proposedCogsAccountId: costOfSalesAccountOf(chart)?.id ?? null,
    inventory: rows.map((r) => inventoryView(r, all)),
    dividends: subsidiaries.map((s) => {
      const saved = dividendRows.find((d) => d.realmId === s.realmId);
      const customer = customers.find((c) => c.active && comparableCompanyName(c.displayName) === comparableCompanyName(s.companyName));
      return {
        realmId: s.realmId,
        companyName: s.companyName,
        saved: saved ? { incomeAccountId: saved.incomeAccountId, nameId: saved.nameId || null } : null,
        proposal: income ? { incomeAccountId: income.id, nameId: customer?.qboId ?? null } : null,
        reasons: [
          ...(income
            ? [`Income account: ${accountLabel(income)}, the parent's revenue account ${income.accountSubType === "DividendIncome" ? "of detail type Dividend income" : "named like dividends"}.`]
            : [`${parent.companyName} has no revenue account for dividends (detail type Dividend income, or named like dividends); choose the one it books ${s.companyName}'s dividends in.`]),
          ...(customer
            ? [`Customer: "${customer.displayName}", the parent's customer named like ${s.companyName}: what the parent booked for its dividends is read from the account's amounts for that customer, so several subsidiaries' dividends can share one account.`]
            : [`No customer of ${parent.companyName} is named like ${s.companyName}: the whole account's amount is taken as its dividends, which is right only if no other subsidiary's dividends are booked there.`]),
        ],
      };
    }),
  };
}

export async function saveInventory(db: Db, user: { id: string; accountId: string }, body: IntragroupInventoryRequest, meta: RequestMeta): Promise<IntragroupInventory> {
  const { all, group, parent } = await groupWithParent(db, user.accountId);
  const chart = await chartOf(db, parent.realmId);
  const fields: FieldError[] = [];
  for (const [path, realm] of [["sellerRealmId", body.sellerRealmId], ["buyerRealmId", body.buyerRealmId]] as const) {
    const c = group.find(realm);
    if (!c) fields.push({ path, message: `Company ${realm} is not in your account.` });
    else if (c.archivedAt) fields.push({ path, message: `${c.companyName} is archived: it is not in the group any more.` });
  }
  const parentAccount = (path: string, id: string, ok: (a: ChartAccount) => boolean, what: string) => {
    const a = chart.find((x) => x.id === id);
    if (!a) fields.push({ path, message: `Account ${id} is not in ${parent.companyName}'s chart of accounts.` });
    else if (!ok(a)) fields.push({ path, message: `${accountLabel(a)} is ${/^[AEIOU]/.test(a.classification) ? "an" : "a"} ${a.classification.toLowerCase()} account; ${what}.` });
  };
  parentAccount("inventoryAccountId", body.inventoryAccountId, (a) => a.classification === "Asset", "the stock held is an asset");
  parentAccount("cogsAccountId", body.cogsAccountId, (a) => a.classification === "Expense", "the unrealised profit comes out of cost of sales, an expense");
  if (fields.length) throw new AppError(400, "invalid_intragroup_inventory", fields.length === 1 ? fields[0]!.message : `${fields.length} problems; nothing was saved.`, { fields });
  const values = { ...body, accountId: user.accountId, updatedBy: user.id, updatedAt: new Date() };
  const [row] = await db.transaction(async (tx) => {
    const saved = await tx
      .insert(intragroupInventory)
      .values(values)
      .onConflictDoUpdate({
        target: [intragroupInventory.accountId, intragroupInventory.sellerRealmId, intragroupInventory.buyerRealmId, intragroupInventory.month],
        set: { inventory: body.inventory, margin: body.margin, inventoryAccountId: body.inventoryAccountId, cogsAccountId: body.cogsAccountId, updatedBy: user.id, updatedAt: new Date() },
      })
      .returning();
    await auditUser(tx, user, meta, "intragroup.inventory_saved", { ...body });
    return saved;
  });
  await detectChangedAdjustments(db, user.accountId);
  return inventoryView(row!, all);
}

/**
 * Deletes what `remove` deletes of the user's account, audited as `action` (refused with `missing`
 * when there was nothing to delete); then the group adjustment postings are checked again.
 */
async function deleteSetting(
  db: Db,
  user: { id: string; accountId: string },
  meta: RequestMeta,
  what: { action: string; details: Record<string, unknown>; missing: string },
  remove: (tx: Db) => Promise<unknown[]>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const gone = await remove(tx);
    if (gone.length === 0) throw errors.notFound(what.missing);
    await auditUser(tx, user, meta, what.action, what.details);
  });
  await detectChangedAdjustments(db, user.accountId);
}

export async function deleteInventory(db: Db, user: { id: string; accountId: string }, id: string, meta: RequestMeta): Promise<void> {
  await deleteSetting(db, user, meta, { action: "intragroup.inventory_deleted", details: { id }, missing: "No such stock line in your account." }, (tx) =>
    tx.delete(intragroupInventory).where(and(eq(intragroupInventory.id, id), eq(intragroupInventory.accountId, user.accountId))).returning({ id: intragroupInventory.id }),
  );
}

/** Saves where the parent books a subsidiary's dividends; a customer whose balances were never fetched queues the parent's sync. */
export async function saveDividendElimination(
  deps: { database: Database; queue: JobQueue },
  user: { id: string; accountId: string },
  realmId: string,
  body: DividendEliminationRequest,
  meta: RequestMeta,
): Promise<Intragroup["dividends"][number]> {
  const { db } = deps.database;
  const { group, parent } = await groupWithParent(db, user.accountId);
  const sub = group.company(realmId);
  if (sub.isParent) throw errors.conflict("parent_not_subsidiary", `${sub.companyName} is the parent; dividends are eliminated for subsidiaries.`);
  const chart = await chartOf(db, parent.realmId);
  const fields: FieldError[] = [];
  const income = chart.find((a) => a.id === body.incomeAccountId);
  if (!income) fields.push({ path: "incomeAccountId", message: `Account ${body.incomeAccountId} is not in ${parent.companyName}'s chart of accounts.` });
  else if (income.classification !== "Revenue") fields.push({ path: "incomeAccountId", message: `${accountLabel(income)} is not a revenue account; dividends received are income.` });
  const names = await db.select().from(qboNames).where(and(eq(qboNames.realmId, parent.realmId), eq(qboNames.kind, "Customer")));
  const name = body.nameId === null ? undefined : names.find((n) => n.qboId === body.nameId);
  if (body.nameId !== null && !name) fields.push({ path: "nameId", message: `Customer ${body.nameId} is not one of ${parent.companyName}'s customers.` });
  if (fields.length) throw new AppError(400, "invalid_dividend_elimination", fields.length === 1 ? fields[0]!.message : `${fields.length} problems; nothing was saved.`, { fields });
  const set = { incomeAccountId: body.incomeAccountId, nameId: body.nameId ?? "", updatedBy: user.id, updatedAt: new Date() };
  await db.transaction(async (tx) => {
    await tx.insert(dividendEliminations).values({ realmId, accountId: user.accountId, ...set }).onConflictDoUpdate({ target: dividendEliminations.realmId, set });
    await auditUser(tx, user, meta, "intragroup.dividends_saved", { realmId, ...body });
  });
  if (name && !name.balancesThrough && parent.connection === "connected") await enqueueSync(deps.database, deps.queue, parent);
  await detectChangedAdjustments(db, user.accountId);
  return (await intragroupView(db, user.accountId)).dividends.find((d) => d.realmId === realmId)!;
}

export async function deleteDividendElimination(db: Db, user: { id: string; accountId: string }, realmId: string, meta: RequestMeta): Promise<void> {
  await deleteSetting(db, user, meta, { action: "intragroup.dividends_deleted", details: { realmId }, missing: "No dividend setting is recorded for that company." }, (tx) =>
    tx.delete(dividendEliminations).where(and(eq(dividendEliminations.realmId, realmId), eq(dividendEliminations.accountId, user.accountId))).returning({ realmId: dividendEliminations.realmId }),
  );
}
