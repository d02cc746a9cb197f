import { and, eq, gte, inArray, lte, or, sql } from "drizzle-orm";
import {
  acquisitionRateNeeds,
  assembleConsolidationInput,
  type AssembledInput,
  type AssembleRequest,
  balancesReadFrom,
  type ChartRow,
  type GroupCompany,
  type GroupSnapshot,
  type IntercompanyPair,
  isMonthText,
  lastDayOfMonth,
  monthOf,
  pairNames,
  shiftMonth,
} from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import {
  accountMaps,
  accounts,
  acquisitions,
  dividendEliminations,
  fxRates,
  historicalEquity,
  intragroupInventory,
  nameBalances,
  qboNames,
  translationSettings,
} from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import { loadGroup, type CompanyRow } from "../group/service.ts";
import { companyBooks } from "./books-cache.ts";

/**
 * The bridge from the synced books to the consolidation engine, its reads: this module loads a
 * group's companies, charts, balances, maps, settings, rates and recorded adjustments (a
 * GroupSnapshot), and the domain's assembleConsolidationInput (packages/domain bridge/input.ts)
 * turns them into the engine's input and the Problems that would stop it. Every rule lives there,
 * tested without a database; here are only the queries and the HTTP errors of a bad request.
 */

export type PeriodRequest = { month: string } | { from: string; to: string };

export type { IntercompanyPair, PairSide } from "@groupledger/domain";

export interface BuildRequest {
  accountId: string;
  subsidiaries: readonly string[];
  period: PeriodRequest;
  /** Month-end that opens the roll-forward; default the month before the period's first month. */
  openingMonth?: string;
  /** Parent accounts chosen by the user, overriding the rules. */
  designated?: { fxDifference?: string; nci?: string; goodwill?: string };
  /** Intercompany pairs to eliminate; pairs naming a company outside the request are left out. */
  intercompany?: readonly IntercompanyPair[];
  /**
   * The group's own adjustments: each subsidiary's investment against its equity at acquisition
   * (Setup → Acquisitions), unrealised profit in intra-group stock and intra-group dividends
   * (Interco Eliminations). For the group's statements; a subsidiary's own translation (opening
   * balances, runs) leaves them out.
   */
  groupAdjustments?: boolean;
}

export interface BuildOptions {
  /**
   * false: the parent enters with its chart but no balances. For a subsidiary's own translation
   * (opening balances), where the parent's books play no part and must not block it.
   */
  parentBalances?: boolean;
}

export type BuildResult = AssembledInput;

/** A company row as the domain's bridge sees it. */
const groupCompany = (c: CompanyRow): GroupCompany => ({
  realmId: c.realmId,
  companyName: c.companyName,
  homeCurrency: c.homeCurrency,
  fiscalYearStartMonth: c.fiscalYearStartMonth,
  isParent: c.isParent,
  ownershipPercent: c.ownershipPercent,
  syncedThrough: c.lastSyncedAt ? monthOf(c.lastSyncedAt) : null,
  syncState: c.syncState,
  syncMessage: c.syncMessage,
});

function resolvePeriod(period: PeriodRequest, openingMonth: string | undefined): { from: string; to: string; opening: string } {
  const from = "month" in period ? period.month : period.from;
  const to = "month" in period ? period.month : period.to;
  for (const [name, m] of [["period", from], ["period", to], ["openingMonth", openingMonth]] as const) {
    if (m !== undefined && !isMonthText(m)) throw errors.badRequest("invalid_month", `The ${name} month ${m} is not a month written YYYY-MM, e.g. 2025-12.`);
  }
  if (to < from) throw errors.badRequest("invalid_period", `The period ends (${to}) before it starts (${from}).`);
  const opening = openingMonth ?? shiftMonth(from, -1);
  if (opening >= from) throw errors.badRequest("invalid_opening", `The opening month ${opening} must be before the first month consolidated (${from}).`);
  return { from, to, opening };
}


export async function buildConsolidationInput(db: Db, req: BuildRequest, options: BuildOptions = {}): Promise<BuildResult> {
  const { from, to, opening } = resolvePeriod(req.period, req.openingMonth);
  const group = await loadGroup(db, req.accountId);
  const parentRow = group.requireParent("the consolidation is in the parent's currency and onto its chart of accounts");
  const subRows: CompanyRow[] = [];
  for (const realmId of new Set(req.subsidiaries)) {
    const company = group.company(realmId);
    if (company.isParent) throw errors.badRequest("parent_not_subsidiary", `${company.companyName} is the parent; choose only subsidiaries.`);
    subRows.push(company);
  }
  const parent = groupCompany(parentRow);
  const subs = subRows.map(groupCompany);
  const adjusting = req.groupAdjustments === true && options.parentBalances !== false;
  const snap = await readSnapshot(db, req.accountId, { parent, subs, rows: [parentRow, ...subRows], from, to, opening, adjusting, parentBalances: options.parentBalances !== false, pairs: req.intercompany ?? [], ctaAccountId: parentRow.ctaAccountId });
  const request: AssembleRequest = {
    from,
    to,
    opening,
    single: "month" in req.period,
    designated: req.designated,
    intercompany: req.intercompany,
    groupAdjustments: req.groupAdjustments,
    parentBalances: options.parentBalances,
  };
  return assembleConsolidationInput(parent, subs, request, snap);
}

/** Everything the bridge's rules need, read in two rounds (the second depends on what the first found). */
async function readSnapshot(
  db: Db,
  accountId: string,
  q: {
    parent: GroupCompany;
    subs: readonly GroupCompany[];
    /** The same companies' rows, read before this: their books versions key the books kept in memory. */
    rows: readonly CompanyRow[];
    from: string;
    to: string;
    opening: string;
    adjusting: boolean;
    parentBalances: boolean;
    pairs: readonly IntercompanyPair[];
    ctaAccountId: string | null;
  },
): Promise<GroupSnapshot> {
  const { parent, subs, from, to, opening, adjusting } = q;
  const group = [parent, ...subs];
  const realms = group.map((c) => c.realmId);
  const subRealms = subs.map((s) => s.realmId);
  const translatedCurrencies = [...new Set(subs.filter((s) => s.homeCurrency !== parent.homeCurrency).map((s) => s.homeCurrency))];
  const withBalances = q.parentBalances ? group : subs;
  const balanceRealms = withBalances.map((c) => c.realmId);
  const readFrom = balancesReadFrom(withBalances, opening);
  const [books, maps, settings, historical, rates, acquired, stock, dividendSettings, accountRows] = await Promise.all([
    Promise.all(q.rows.map((row) => companyBooks(db, row))),
    subRealms.length === 0 ? [] : db.select().from(accountMaps).where(inArray(accountMaps.realmId, subRealms)),
    subRealms.length === 0 ? [] : db.select().from(translationSettings).where(inArray(translationSettings.realmId, subRealms)),
    subRealms.length === 0 ? [] : db.select().from(historicalEquity).where(inArray(historicalEquity.realmId, subRealms)),
    translatedCurrencies.length === 0
      ? []
      : db
          .select()
          .from(fxRates)
          .where(and(eq(fxRates.accountId, accountId), inArray(fxRates.currency, translatedCurrencies), sql`${fxRates.month} between ${opening} and ${to}`)),
    adjusting && subRealms.length ? db.select().from(acquisitions).where(inArray(acquisitions.realmId, subRealms)) : [],
    adjusting
      ? db
          .select()
          .from(intragroupInventory)
          .where(and(eq(intragroupInventory.accountId, accountId), inArray(intragroupInventory.month, [shiftMonth(from, -1), to])))
      : [],
    adjusting ? db.select().from(dividendEliminations).where(eq(dividendEliminations.accountId, accountId)) : [],
    db.select({ eliminationTolerance: accounts.eliminationTolerance }).from(accounts).where(eq(accounts.id, accountId)).limit(1),
  ]);

  // Second round: the rates acquisitions need outside the period's, and the customers and
  // vendors the pairs and dividend settings name, with their balances.
  const acquisitionNeeds = acquisitionRateNeeds(acquired, parent, subs, opening).filter((n) => n.month < opening || n.month > to);
  const wantedNames = [
    ...pairNames(q.pairs),
    ...dividendSettings.filter((d) => d.nameId).map((d) => ({ realmId: parent.realmId, kind: "Customer" as const, id: d.nameId })),
  ];
  const [extraRates, names, balances] = await Promise.all([
    acquisitionNeeds.length === 0
      ? []
      : db
          .select()
          .from(fxRates)
          .where(
            and(
              eq(fxRates.accountId, accountId),
              inArray(fxRates.currency, [...new Set(acquisitionNeeds.map((n) => n.currency))]),
              inArray(fxRates.month, [...new Set(acquisitionNeeds.map((n) => n.month))]),
            ),
          ),
    wantedNames.length === 0
      ? []
      : db
          .select()
          .from(qboNames)
          .where(or(...wantedNames.map((n) => and(eq(qboNames.realmId, n.realmId), eq(qboNames.kind, n.kind), eq(qboNames.qboId, n.id))))),
    wantedNames.length === 0
      ? []
      : db
          .select()
          .from(nameBalances)
          .where(
            and(
              or(...wantedNames.map((n) => and(eq(nameBalances.realmId, n.realmId), eq(nameBalances.nameKind, n.kind), eq(nameBalances.nameId, n.id)))),
              gte(nameBalances.month, `${opening}-01`),
              lte(nameBalances.month, lastDayOfMonth(to)),
            ),
          ),
  ]);

  // q.rows are the group's companies, so every realm has its books.
  const booksOf = new Map(q.rows.map((row, i) => [row.realmId, books[i]!]));
  const charts = new Map<string, ChartRow[]>(realms.map((r) => [r, [...booksOf.get(r)!.chart]]));
  // The amounts a row read would have given: the companies with balances, months readFrom..to.
  const withAmounts = new Set(balanceRealms);
  return {
    charts,
    balances: [],
    books: {
      amount: (realmId, account, month) => (withAmounts.has(realmId) && month >= readFrom && month <= to ? booksOf.get(realmId)!.amount(account, month) : 0),
      // Asked only for a company with balances, from the start of its fiscal year containing the
      // opening month (never before readFrom) to the period's end: the same amounts.
      local: (realmId, args) => booksOf.get(realmId)!.local(args),
    },
    firstSynced: new Map(balanceRealms.filter((r) => booksOf.get(r)!.firstMonth !== undefined).map((r) => [r, booksOf.get(r)!.firstMonth])),
    maps,
    ctaAccountId: q.ctaAccountId,
    settings,
    historical,
    rates: [...rates, ...extraRates],
    names,
    nameBalances: balances,
    acquisitions: acquired,
    stock,
    dividendSettings,
    eliminationTolerance: accountRows[0]?.eliminationTolerance ?? 0,
  };
}
