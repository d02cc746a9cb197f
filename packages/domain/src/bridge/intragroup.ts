import type { ConsolidationInputJson } from "../consolidation/input-schema.ts";
import { formatAmount } from "../money/format.ts";
import { shiftMonth } from "../periods/month.ts";
import type { ChartRow, LocalBooks } from "./books.ts";
import type { DividendSetting, GroupCompany, NameBalanceRow, NameRow, StockRecord } from "./group.ts";
import { accountLabel, type Problem } from "./problems.ts";

type Eliminations = NonNullable<ConsolidationInputJson["eliminations"]>;
type StockRule = NonNullable<Eliminations["unrealisedProfit"]>[number];
type DividendRule = NonNullable<Eliminations["dividends"]>[number];

/**
 * Intra-group stock and dividends as the engine's eliminations (docs/engine.md, "Unrealised profit
 * in inventory", "Intra-group dividends"), from what the user recorded (Interco Eliminations):
 *
 * - Stock: what a buyer held at the period's end (closing: its unrealised profit is eliminated)
 *   and at the end of the month before the period (opening: realised in the period), per seller
 *   and buyer, both in the consolidation.
 * - Dividends: for each subsidiary with a dividend setting that declared dividends in the period,
 *   its dividends against the parent's income. What the parent booked is the income account's
 *   amount for the customer standing for the subsidiary (its per-name balances) or, without one,
 *   the whole account's, which two subsidiaries cannot share.
 */
export function intragroupRules(args: {
  parent: GroupCompany;
  group: readonly GroupCompany[];
  charts: ReadonlyMap<string, readonly ChartRow[]>;
  books: ReadonlyMap<string, LocalBooks>;
  stock: readonly StockRecord[];
  dividendSettings: readonly DividendSetting[];
  names: readonly NameRow[];
  nameBalances: readonly NameBalanceRow[];
  from: string;
  to: string;
  syncedThrough: ReadonlyMap<string, string>;
}): { unrealisedProfit: StockRule[]; dividends: DividendRule[]; problems: Problem[]; warnings: string[] } {
  const { parent, from, to } = args;
  const problems: Problem[] = [];
  const warnings: string[] = [];
  const inGroup = new Map(args.group.map((c) => [c.realmId, c]));
  const parentChart = new Map((args.charts.get(parent.realmId) ?? []).map((a) => [a.id, a]));
  const before = shiftMonth(from, -1);

  // --- Stock held -------------------------------------------------------------------------------
  const stock = args.stock.filter((r) => r.month === before || r.month === to);
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
  const declaring = args.dividendSettings.filter((s) => {
    const c = inGroup.get(s.realmId);
    return c && !c.isParent && (args.books.get(s.realmId)?.dividends ?? []).some((d) => d.month >= from && d.month <= to);
  });
  const customers = args.names.filter((n) => n.realmId === parent.realmId && n.kind === "Customer");
  const amounts = args.nameBalances.filter((a) => a.realmId === parent.realmId && a.nameKind === "Customer" && a.month.slice(0, 7) >= from && a.month.slice(0, 7) <= to);
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
    const name = customers.find((n) => n.qboId === s.nameId);
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
        `${sub.companyName} declared dividends between ${from} and ${to}, but ${parent.companyName} booked no income from "${name.displayName}" in ${accountLabel(income)} in those months (${formatAmount(booked, parent.homeCurrency, { currency: "code", negative: "minus", locale: "en-US" })}): they are not eliminated against income. Check where and when the parent booked them.`,
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
