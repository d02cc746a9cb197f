import { and, eq, gte, inArray, lte } from "drizzle-orm";
import type { ConsolidationInputJson } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { dividendEliminations, intragroupInventory, nameBalances, qboNames, type companies } from "../../db/schema.ts";
import { lastDayOf } from "../sync/months.ts";
import { accountLabel, type ChartRow, formatAmount, type LocalBooks, type Problem, shiftMonth } from "@groupledger/domain";

type CompanyRow = typeof companies.$inferSelect;
type Eliminations = NonNullable<ConsolidationInputJson["eliminations"]>;
type StockRule = NonNullable<Eliminations["unrealisedProfit"]>[number];
type DividendRule = NonNullable<Eliminations["dividends"]>[number];

/**
 * Intra-group stock and dividends as the engine's eliminations (docs/engine.md, "Unrealised profit
 * in inventory", "Intra-group dividends"), from what the user recorded (modules/intragroup):
 *
 * - Stock: what a buyer held at the period's end (closing: its unrealised profit is eliminated)
 *   and at the end of the month before the period (opening: realised in the period), per seller
 *   and buyer, both in the consolidation.
 * - Dividends: for each subsidiary with a dividend setting that declared dividends in the period,
 *   its dividends against the parent's income. What the parent booked is the income account's
 *   amount for the customer standing for the subsidiary (its per-name balances) or, without one,
 *   the whole account's, which two subsidiaries cannot share.
 */
export async function intragroupEliminations(
  db: Db,
  args: {
    accountId: string;
    parent: CompanyRow;
    group: readonly CompanyRow[];
    charts: ReadonlyMap<string, readonly ChartRow[]>;
    books: ReadonlyMap<string, LocalBooks>;
    from: string;
    to: string;
    syncedThrough: ReadonlyMap<string, string>;
  },
): Promise<{ unrealisedProfit: StockRule[]; dividends: DividendRule[]; problems: Problem[]; warnings: string[] }> {
  const { parent, from, to } = args;
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const inGroup = new Map(args.group.map((c) => [c.realmId, c]));
  const parentChart = new Map((args.charts.get(parent.realmId) ?? []).map((a) => [a.id, a]));
  const before = shiftMonth(from, -1);

  // --- Stock held -------------------------------------------------------------------------------
  const stock = await db
    .select()
    .from(intragroupInventory)
    .where(and(eq(intragroupInventory.accountId, args.accountId), inArray(intragroupInventory.month, [before, to])));
  const rules = new Map<string, StockRule>();
  for (const row of stock.sort((a, b) => (a.month === to ? -1 : 1) - (b.month === to ? -1 : 1))) {
    const seller = inGroup.get(row.sellerRealmId);
    const buyer = inGroup.get(row.buyerRealmId);
    if (!seller || !buyer) continue; // a company outside this consolidation
    const key = `${row.sellerRealmId}:${row.buyerRealmId}`;
    const held = { inventory: row.inventory, margin: row.margin };
    const rule = rules.get(key);
    if (rule) {
      if (row.month === before) rule.opening = held;
      continue;
    }
    const bad = [row.inventoryAccountId, row.cogsAccountId].filter((id) => !parentChart.has(id));
    if (bad.length) {
      problems.push({ code: "invalid_intragroup", message: `The stock ${buyer.companyName} bought from ${seller.companyName} (held at ${row.month}) names account ${bad.join(", ")}, which is no longer in ${parent.companyName}'s chart; fix it on Interco Eliminations.` });
      continue;
    }
    rules.set(key, {
      id: `stock:${key}`,
      description: `Stock ${buyer.companyName} bought from ${seller.companyName}`,
      seller: seller.realmId,
      buyer: buyer.realmId,
      inventoryAccount: row.inventoryAccountId,
      cogsAccount: row.cogsAccountId,
      ...(row.month === to ? { closing: held } : { opening: held }),
    });
  }

  // --- Dividends --------------------------------------------------------------------------------
  const settings = await db.select().from(dividendEliminations).where(eq(dividendEliminations.accountId, args.accountId));
  const declaring = settings.filter((s) => {
    const c = inGroup.get(s.realmId);
    return c && !c.isParent && (args.books.get(s.realmId)?.dividends ?? []).some((d) => d.month >= from && d.month <= to);
  });
  const named = declaring.filter((s) => s.nameId);
  const [names, amounts] = named.length
    ? await Promise.all([
        db.select().from(qboNames).where(and(eq(qboNames.realmId, parent.realmId), eq(qboNames.kind, "Customer"), inArray(qboNames.qboId, named.map((s) => s.nameId)))),
        db
          .select()
          .from(nameBalances)
          .where(
            and(
              eq(nameBalances.realmId, parent.realmId),
              eq(nameBalances.nameKind, "Customer"),
              inArray(nameBalances.nameId, named.map((s) => s.nameId)),
              gte(nameBalances.month, `${from}-01`),
              lte(nameBalances.month, lastDayOf(to)),
            ),
          ),
      ])
    : [[], []];
  const dividends: DividendRule[] = [];
  const wholeAccount = new Map<string, string[]>();
  for (const s of declaring) {
    const sub = inGroup.get(s.realmId)!;
    const income = parentChart.get(s.incomeAccountId);
    if (!income || income.classification !== "Revenue") {
      problems.push({ code: "invalid_intragroup", realmId: sub.realmId, message: `${sub.companyName}'s dividends are set to be booked in ${income ? accountLabel(income) : `account ${s.incomeAccountId}`} of ${parent.companyName}, which is ${income ? "not a revenue account" : "no longer in its chart"}; fix it on Interco Eliminations.` });
      continue;
    }
    if (!s.nameId) {
      wholeAccount.set(income.id, [...(wholeAccount.get(income.id) ?? []), sub.companyName]);
      dividends.push({ id: `dividends:${sub.realmId}`, subsidiary: sub.realmId, incomeAccount: income.id });
      continue;
    }
    const name = names.find((n) => n.qboId === s.nameId);
    const needed = [to, args.syncedThrough.get(parent.realmId) ?? to].sort()[0]!;
    if (!name?.balancesThrough || name.balancesThrough < needed) {
      problems.push({
        code: "name_not_synced",
        realmId: parent.realmId,
        message: `${parent.companyName}'s dividend income from ${name?.displayName ?? `customer ${s.nameId}`} (${sub.companyName}) ${name?.balancesThrough ? `is fetched through ${name.balancesThrough} only` : "has not been fetched yet"}; sync ${parent.companyName} to fetch it.`,
      });
      continue;
    }
    const booked = -amounts.filter((a) => a.nameId === s.nameId && a.qboAccountId === income.id).reduce((sum, a) => sum + a.amountMinor, 0);
    if (booked <= 0) {
      warnings.push(
        `${sub.companyName} declared dividends between ${from} and ${to}, but ${parent.companyName} booked no income from "${name.displayName}" in ${accountLabel(income)} in those months (${formatAmount(booked, parent.homeCurrency)}): they are not eliminated against income. Check where and when the parent booked them.`,
      );
      continue;
    }
    dividends.push({ id: `dividends:${sub.realmId}`, subsidiary: sub.realmId, incomeAccount: income.id, parentAmount: booked });
  }
  for (const [account, who] of wholeAccount) {
    const sharing = dividends.filter((d) => d.incomeAccount === account).length;
    if (who.length > 0 && sharing > 1) {
      problems.push({
        code: "invalid_intragroup",
        message: `${who.join(", ")} ${who.length > 1 ? "have" : "has"} dividends booked in ${accountLabel(parentChart.get(account)!)}, which ${sharing} subsidiaries' dividends share in this period: choose the customer standing for each on Interco Eliminations, so what the parent booked for each can be told apart.`,
      });
    }
  }
  return { unrealisedProfit: [...rules.values()], dividends, problems, warnings };
}
