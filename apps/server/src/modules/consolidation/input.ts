import { and, eq, gte, inArray, lte, max, min, sql } from "drizzle-orm";
import {
  accountLabel,
  accountsWithAmounts,
  BALANCE_SHEET,
  chartMappingProblem,
  type ChartRow,
  type ConsolidationInputJson,
  ctaAccountProblem,
  currencyExponent,
  describeMissingRate,
  engineBooks,
  equityKindOf,
  fiscalYearStart,
  formatMonth,
  isMonthText,
  isNonMonetary,
  type LocalBooks,
  missingRates,
  monthList,
  mulDivRound,
  NCI_NAME,
  parseMonth,
  parseRate,
  type Problem,
  PROFIT_AND_LOSS,
  type RateNeed,
  shiftMonth,
  suggestCtaAccounts,
  translationFactor,
} from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { accountMaps, fxRates, historicalEquity, monthlyBalances, nameBalances, qboAccounts, qboNames, translationSettings, type companies, type NameKind } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import { toChartAccount } from "../companies/chart.ts";
import { byQboId, listCompanies } from "../companies/routes.ts";
import { lastDayOf, monthOf } from "../sync/months.ts";
import { bargainPurchaseAccountOf, goodwillAccountOf, investmentEliminations } from "./acquisitions.ts";
import { intragroupEliminations } from "./intragroup.ts";

/**
 * The bridge from the synced books to the consolidation engine (docs/engine.md): reads an
 * account's parent and chosen subsidiaries and produces the engine's input, plus every Problem
 * that would stop the engine or a posting, named so an accountant can fix it.
 *
 * Rules (see books.ts for retained earnings and dividends):
 * - Entities: the parent (role parent) and each subsidiary; ids are realm ids, account ids QBO ids.
 *   Ownership = companies.ownership_percent / 100, exact. Method: translation_settings.method
 *   (current rate by default; temporal remeasures non-monetary items at the historical rates of
 *   historical_equity); `monetary` is set from the AccountType (books.ts isNonMonetary).
 * - Balances: a series per account from the opening month to the period end. Within the months
 *   a sync has covered, a month without a row is 0: sync replaces whole months and QBO's reports
 *   list every account with an amount in any month of a chunk, so an absent row is a zero. Months
 *   after the last sync are never guessed (Problem "months_not_synced").
 * - Opening (current-rate subsidiaries): opening.month defaults to the month before the period.
 *   Nothing in the product records a translated retained earnings figure, so it is DERIVED:
 *   CTA at the opening month-end is taken as zero and retained earnings are the balancing figure
 *   (assets and liabilities at that month-end's closing rate, contributed capital at its historical
 *   rate or amount). This is the IFRS 1 D13 / "fresh start" convention: translation differences
 *   accumulate from the date the group starts consolidating in GroupLedger, and everything before
 *   it sits in retained earnings. We pass `opening.cta: 0` explicitly so the engine checks that our
 *   figure balances to the cent with its own per-line rounding. Consequence: runs must share the
 *   opening month (issue 9 should pass the locked opening-balance month) or each run restarts CTA.
 * - Rates: fx_rates of the account, every month from the opening month to the period end, both
 *   average and month-end; a month with either missing is left out and named (never 0).
 * - Maps: account_maps; invalid pairs are dropped and named; accounts with amounts and no map are
 *   left unmapped (the engine puts them on UNMAPPED rows) and named.
 * - Designated accounts: CTA from translation_settings (all translated subsidiaries must agree);
 *   FX differences by FX_DIFFERENCE_RULE below unless given; NCI (needed below 100% ownership)
 *   by name unless given; goodwill only when given.
 * - Eliminations: the intercompany pairs the caller passes (modules/eliminations) whose two
 *   companies are both in the request; a side whose account is gone from QBO is named. No
 *   investment eliminations yet.
 */

export type PeriodRequest = { month: string } | { from: string; to: string };

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
   * (Setup → Acquisitions; consolidation/acquisitions.ts), unrealised profit in intra-group stock
   * and intra-group dividends (consolidation/intragroup.ts). For the group's statements; a
   * subsidiary's own translation (opening balances, runs) leaves them out.
   */
  groupAdjustments?: boolean;
}

export interface PairSide {
  entity: string;
  account: string;
  /** Only what the account holds against this customer or vendor; absent: the whole account. */
  name?: { kind: NameKind; id: string } | undefined;
}

export interface IntercompanyPair {
  id: string;
  name: string;
  kind: "receivablePayable" | "revenueExpense";
  left: PairSide;
  right: PairSide;
  differenceTo: "fx" | "cta";
}

export interface BuildOptions {
  /**
   * false: the parent enters with its chart but no balances. For a subsidiary's own translation
   * (opening balances), where the parent's books play no part and must not block it.
   */
  parentBalances?: boolean;
}

export interface BuildResult {
  input: ConsolidationInputJson;
  problems: Problem[];
  /** What moves no number but the user should know (e.g. a subsidiary with no acquisition recorded). */
  warnings: string[];
  /** What the rules chose, for the screen to show (and let the user change). */
  chosen: { cta: string | null; fxDifference: string | null; nci: string | null; openingMonth: string; from: string; to: string };
}

type CompanyRow = typeof companies.$inferSelect;
type EntityJson = ConsolidationInputJson["entities"][number];


/**
 * FX_DIFFERENCE_RULE: the parent's P&L account that receives exchange differences (intercompany
 * pair differences, temporal remeasurement). Nothing stores a choice yet, so: an active Expense
 * account of QBO detail type ExchangeGainOrLoss (what QBO multicurrency creates as "Exchange Gain or
 * Loss"), else an active Expense account named like "exchange gain/loss", "foreign exchange",
 * "FX" or "currency"; ties by the lowest QBO id. Otherwise a Problem asks the user to choose one.
 * Expense rather than Revenue because QBO files exchange results under Other Expense.
 */
const FX_NAME = /\b(exchange gains?|exchange loss(es)?|exchange gain or loss|exchange gains? and loss(es)?|foreign exchange|fx|currency|kursdifferenz\w*)\b/i;
export function fxDifferenceAccountOf(parentChart: readonly ChartRow[]): ChartRow | undefined {
  const pl = parentChart.filter((a) => a.active && a.classification === "Expense").sort((a, b) => byQboId(a.id, b.id));
  return pl.find((a) => a.accountSubType === "ExchangeGainOrLoss") ?? pl.find((a) => FX_NAME.test(a.name));
}

/** NCI: an active "other" equity account named like non-controlling / minority interest(s) (domain NCI_NAME). */
export function nciAccountOf(parentChart: readonly ChartRow[]): ChartRow | undefined {
  return parentChart
    .filter((a) => a.active && a.classification === "Equity" && equityKindOf(a) === "other" && NCI_NAME.test(a.name))
    .sort((a, b) => byQboId(a.id, b.id))[0];
}

/** "80.0000" (percent) → "0.8" (fraction), exactly. */
export function ownershipFraction(percent: string): string {
  const [whole = "0", fraction = ""] = percent.trim().split(".");
  const scale = fraction.length + 2;
  const digits = BigInt(`${whole}${fraction}`).toString().padStart(scale + 1, "0");
  const int = digits.slice(0, -scale);
  const frac = digits.slice(-scale).replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
}

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
  const all = await listCompanies(db, req.accountId);
  const parent = all.find((c) => c.isParent);
  if (!parent) throw errors.conflict("parent_required", "Choose a parent company first: the consolidation is in the parent's currency and onto its chart of accounts.");
  const subs: CompanyRow[] = [];
  for (const realmId of new Set(req.subsidiaries)) {
    const company = all.find((c) => c.realmId === realmId);
    if (!company) throw errors.notFound(`Company ${realmId} is not in your account.`);
    if (company.isParent) throw errors.badRequest("parent_not_subsidiary", `${company.companyName} is the parent; choose only subsidiaries.`);
    subs.push(company);
  }
  const group = [parent, ...subs];
  const realms = group.map((c) => c.realmId);
  const problems: Problem[] = [];
  const translated = subs.filter((s) => s.homeCurrency !== parent.homeCurrency);
  const withBalances = options.parentBalances === false ? subs : group;

  // --- Reads -------------------------------------------------------------------------------
  const fyStartOf = (c: CompanyRow, m: string) => formatMonth(fiscalYearStart(parseMonth(m), c.fiscalYearStartMonth));
  const readFrom = withBalances.map((c) => fyStartOf(c, opening)).sort()[0] ?? opening;
  const balanceRealms = withBalances.map((c) => c.realmId);
  const [toChartAccounts, balanceRows, syncedRange, mapRows, settingsRows, historicalRows, rateRows] = await Promise.all([
    db.select().from(qboAccounts).where(inArray(qboAccounts.realmId, realms)),
    balanceRealms.length === 0
      ? []
      : db
          .select({ realmId: monthlyBalances.realmId, account: monthlyBalances.qboAccountId, month: monthlyBalances.month, amount: monthlyBalances.amountMinor })
          .from(monthlyBalances)
          .where(and(inArray(monthlyBalances.realmId, balanceRealms), gte(monthlyBalances.month, `${readFrom}-01`), lte(monthlyBalances.month, lastDayOf(to)))),
    balanceRealms.length === 0
      ? []
      : db
          .select({ realmId: monthlyBalances.realmId, first: min(monthlyBalances.month), last: max(monthlyBalances.month) })
          .from(monthlyBalances)
          .where(inArray(monthlyBalances.realmId, balanceRealms))
          .groupBy(monthlyBalances.realmId),
    subs.length === 0 ? [] : db.select().from(accountMaps).where(inArray(accountMaps.realmId, subs.map((s) => s.realmId))),
    subs.length === 0 ? [] : db.select().from(translationSettings).where(inArray(translationSettings.realmId, subs.map((s) => s.realmId))),
    subs.length === 0 ? [] : db.select().from(historicalEquity).where(inArray(historicalEquity.realmId, subs.map((s) => s.realmId))),
    translated.length === 0
      ? []
      : db
          .select()
          .from(fxRates)
          .where(
            and(
              eq(fxRates.accountId, req.accountId),
              inArray(fxRates.currency, [...new Set(translated.map((s) => s.homeCurrency))]),
              sql`${fxRates.month} between ${opening} and ${to}`,
            ),
          ),
  ]);

  const charts = new Map<string, ChartRow[]>(realms.map((r) => [r, []]));
  for (const r of toChartAccounts) charts.get(r.realmId)!.push(toChartAccount(r));
  for (const list of charts.values()) list.sort((a, b) => byQboId(a.id, b.id));
  const amounts = new Map<string, number>();
  for (const r of balanceRows) amounts.set(`${r.realmId}|${r.account}|${r.month.slice(0, 7)}`, r.amount);
  const firstSynced = new Map(syncedRange.map((r) => [r.realmId, r.first ? r.first.slice(0, 7) : undefined]));
  const parentChart = charts.get(parent.realmId)!;
  const parentById = new Map(parentChart.map((a) => [a.id, a]));

  // --- Sync state ----------------------------------------------------------------------------
  const syncedThrough = new Map<string, string>();
  for (const c of withBalances) {
    const base = { realmId: c.realmId };
    if (!c.lastSyncedAt) {
      problems.push({ ...base, code: "not_synced", message: `${c.companyName} has not been synced yet; wait for its first sync to finish.` });
      syncedThrough.set(c.realmId, shiftMonth(opening, -1));
      continue;
    }
    const through = monthOf(c.lastSyncedAt);
    syncedThrough.set(c.realmId, through);
    if (c.syncState === "queued" || c.syncState === "running") {
      problems.push({ ...base, code: "sync_in_progress", message: `${c.companyName} is being synced; its balances may still change. Run this again when the sync has finished.` });
    } else if (c.syncState === "failed") {
      problems.push({ ...base, code: "sync_failed", message: `${c.companyName}'s last sync failed (${c.syncMessage ?? "no reason given"}); its balances may be incomplete. Sync it again.` });
    }
    if (through < to) {
      problems.push({ ...base, code: "months_not_synced", month: shiftMonth(through, 1), message: `${c.companyName} is synced through ${through}; sync it again to include ${shiftMonth(through, 1)} to ${to}.` });
    }
  }

  // --- Entities ------------------------------------------------------------------------------
  const settingsByRealm = new Map(settingsRows.map((s) => [s.realmId, s]));
  const ratesByKey = new Map(rateRows.map((r) => [`${r.currency}:${r.month}`, { average: r.average, closing: r.closing }]));
  const booksByRealm = new Map<string, LocalBooks>();

  const entityOf = (c: CompanyRow, role: "parent" | "subsidiary"): EntityJson => {
    const chart = charts.get(c.realmId)!;
    const withBooks = role === "subsidiary" || options.parentBalances !== false;
    const books = engineBooks({
      company: c,
      chart,
      opening,
      to,
      amount: withBooks ? (account, month) => amounts.get(`${c.realmId}|${account}|${month}`) ?? 0 : () => 0,
      checkThrough: withBooks ? [syncedThrough.get(c.realmId) ?? to, to].sort()[0]! : to,
      firstSyncedMonth: firstSynced.get(c.realmId),
    });
    booksByRealm.set(c.realmId, books);
    problems.push(...books.problems);
    const accounts = chart.map((a) => {
      const classification = a.classification as "Asset" | "Liability" | "Equity" | "Revenue" | "Expense";
      const equityKind = equityKindOf(a);
      return {
        id: a.id,
        name: a.name,
        classification,
        ...(equityKind ? { equityKind } : {}),
        ...(classification === "Asset" || classification === "Liability" ? { monetary: !isNonMonetary(a) } : {}),
      };
    });
    const balances = withBooks
      ? chart.flatMap((a) => {
          const s = books.series.get(a.id)!;
          return s.some((x) => x !== 0) ? [{ account: a.id, from: opening, amounts: s }] : [];
        })
      : [];
    const settings = settingsByRealm.get(c.realmId);
    const policy = role === "subsidiary" ? (settings?.dividendRatePolicy ?? "declarationDate") : "declarationDate";
    const isTranslated = role === "subsidiary" && c.homeCurrency !== parent.homeCurrency;
    const entity: EntityJson = {
      id: c.realmId,
      name: c.companyName,
      role,
      currency: c.homeCurrency,
      ownership: role === "parent" ? "1" : ownershipFraction(c.ownershipPercent),
      fiscalYearStartMonth: c.fiscalYearStartMonth,
      method: isTranslated ? (settings?.method ?? "currentRate") : "currentRate",
      dividendRatePolicy: policy,
      ...(books.retainedEarningsAccount ? { retainedEarningsAccount: books.retainedEarningsAccount } : {}),
      accounts,
      opening: { month: opening },
      balances,
      historical: [],
      dividends: withBooks ? dividendsOf(c, books, policy === "profitPeriod" && isTranslated, chart, problems) : [],
    };
    if (isTranslated) translatedOpening(c, entity, books, chart);
    return entity;
  };

  /** Historical equity (and, temporal method, non-monetary items), and opening RE at CTA 0 (see the header). */
  const translatedOpening = (c: CompanyRow, entity: EntityJson, books: LocalBooks, chart: ChartRow[]) => {
    const historical = historicalRows.filter((h) => h.realmId === c.realmId && chart.some((a) => a.id === h.accountId));
    entity.historical = historical.flatMap((h): { account: string; rate?: string; amount?: number }[] =>
      h.rate ? [{ account: h.accountId, rate: h.rate }] : h.amountMinor !== null ? [{ account: h.accountId, amount: h.amountMinor }] : [],
    );
    const byAccount = new Map(entity.historical.map((h) => [h.account, h]));
    const closing = ratesByKey.get(`${c.homeCurrency}:${opening}`)?.closing;
    const localExp = currencyExponent(c.homeCurrency);
    const parentExp = currencyExponent(parent.homeCurrency);
    let translatedSum = 0;
    let complete = Boolean(closing);
    for (const a of chart) {
      if (!BALANCE_SHEET.has(a.classification)) continue;
      const kind = equityKindOf(a);
      if (kind === "retainedEarnings" || kind === "dividends") continue;
      const x0 = books.series.get(a.id)![0]!;
      if (x0 === 0) continue;
      if (kind === "contributedCapital" || kind === "other") {
        const h = byAccount.get(a.id);
        if (!h) {
          complete = false;
          problems.push({
            code: "missing_historical_equity",
            realmId: c.realmId,
            accountId: a.id,
            month: opening,
            message:
              kind === "contributedCapital"
                ? `Enter the historical rate or translated amount of ${accountLabel(a)} (${c.companyName}) on the CTA & Historical page: its balance at ${opening} is translated at the rate of the day it was contributed.`
                : `${c.companyName}'s equity reserve ${accountLabel(a)} has a balance at ${opening}; it is translated at a historical rate, which can be entered for contributed capital only. Move the reserve into contributed capital or retained earnings in QuickBooks, or open the consolidation before it arose.`,
          });
          continue;
        }
        translatedSum += h.rate !== undefined ? mulDivRound(x0, translationFactor(parseRate(h.rate), localExp, parentExp)) : h.amount!;
      } else if (entity.method === "temporal" && isNonMonetary(a)) {
        // Remeasurement: a non-monetary item keeps the rate of the day it was acquired (ASC 830-10-45-18, IAS 21.23(b)).
        const h = byAccount.get(a.id);
        if (!h) {
          complete = false;
          problems.push({
            code: "missing_historical_equity",
            realmId: c.realmId,
            accountId: a.id,
            month: opening,
            message: `${c.companyName} is remeasured with the temporal method: enter the historical rate or remeasured amount of its non-monetary account ${accountLabel(a)} on the CTA & Historical page.`,
          });
          continue;
        }
        translatedSum += h.rate !== undefined ? mulDivRound(x0, translationFactor(parseRate(h.rate), localExp, parentExp)) : h.amount!;
      } else if (closing) {
        translatedSum += mulDivRound(x0, translationFactor(parseRate(closing), localExp, parentExp));
      }
    }
    // Retained earnings close the opening balance sheet, so the CTA starts at exactly zero.
    if (complete) entity.opening = { month: opening, retainedEarnings: -translatedSum, cta: 0 };
  };

  const entities = [entityOf(parent, "parent"), ...subs.map((s) => entityOf(s, "subsidiary"))];

  // --- Rates ---------------------------------------------------------------------------------
  const rates: Record<string, Record<string, { average: string; closing: string }>> = {};
  const needs: RateNeed[] = [];
  for (const currency of [...new Set(translated.map((s) => s.homeCurrency))].sort()) {
    rates[currency] = {};
    for (const month of monthList(opening, to)) {
      needs.push({ currency, month, kind: "average" }, { currency, month, kind: "closing" });
      const r = ratesByKey.get(`${currency}:${month}`);
      if (r?.average && r.closing) rates[currency][month] = { average: r.average, closing: r.closing };
    }
  }
  for (const n of missingRates(needs, ratesByKey)) {
    const who = translated.filter((s) => s.homeCurrency === n.currency).map((s) => s.companyName).join(", ");
    problems.push({ code: "missing_rate", currency: n.currency, month: n.month, message: `${describeMissingRate(n)} ${who} needs it; enter, import or fetch it on the FX rates page.` });
  }

  // --- Maps ----------------------------------------------------------------------------------
  const maps = subs.map((s) => {
    const chart = charts.get(s.realmId)!;
    const byId = new Map(chart.map((a) => [a.id, a]));
    const lines: Record<string, string> = {};
    for (const row of mapRows.filter((m) => m.realmId === s.realmId)) {
      const sub = byId.get(row.subAccountId);
      if (!sub) continue; // an account deleted in QBO: no balance to consolidate
      const target = parentById.get(row.parentAccountId);
      const reason = target ? chartMappingProblem(sub, target) : "the parent account it maps to is no longer in the parent's QuickBooks chart";
      if (reason) {
        problems.push({ code: "invalid_map", realmId: s.realmId, accountId: sub.id, message: `${s.companyName}: the map of ${accountLabel(sub)} is not valid (${reason.replace(/\.$/, "")}); map it again on the Mapping page.` });
        continue;
      }
      lines[sub.id] = target!.id;
    }
    for (const a of accountsWithAmounts(chart, booksByRealm.get(s.realmId)!, from)) {
      if (lines[a.id] !== undefined) continue;
      problems.push({
        code: "unmapped_account",
        realmId: s.realmId,
        accountId: a.id,
        message: `${s.companyName}: ${a.classification.toLowerCase()} account ${accountLabel(a)} has amounts between ${opening} and ${to} but is not mapped to a parent account; map it on the Mapping page.`,
      });
    }
    return { entity: s.realmId, lines };
  });

  // --- Designated accounts -------------------------------------------------------------------
  const ctaChoices = new Map<string, string[]>();
  for (const s of translated) {
    const id = settingsByRealm.get(s.realmId)?.ctaAccountId;
    if (!id) {
      problems.push({ code: "missing_cta_account", realmId: s.realmId, message: `Choose the parent's account that receives ${s.companyName}'s CTA (translation differences) on the CTA & Historical page.` });
      continue;
    }
    ctaChoices.set(id, [...(ctaChoices.get(id) ?? []), s.companyName]);
  }
  if (ctaChoices.size > 1) {
    problems.push({
      code: "cta_accounts_disagree",
      message: `The subsidiaries send CTA to different parent accounts (${[...ctaChoices].map(([id, who]) => `${accountLabel(parentById.get(id) ?? { acctNum: null, name: id })} for ${who.join(", ")}`).join("; ")}); the group keeps one CTA account, so choose the same one for all.`,
    });
  }
  let cta: string | null = [...ctaChoices].sort((a, b) => b[1].length - a[1].length)[0]?.[0] ?? null;
  if (cta) {
    const problem = ctaAccountProblem(parentById.get(cta));
    if (problem) problems.push({ code: "invalid_cta_account", accountId: cta, message: `The CTA account chosen cannot be used: ${problem}` });
  } else if (translated.length === 0) {
    // No translated subsidiary: no CTA can arise, but the engine still names an account.
    cta = suggestCtaAccounts(parentChart)[0]?.accountId ?? null;
    if (!cta) problems.push({ code: "missing_cta_account", message: `The parent ${parent.companyName} needs an equity account for translation differences (for example "Accumulated Other Comprehensive Income").` });
  }

  const designatedAccount = (id: string | undefined, ok: (a: ChartRow) => boolean, what: string) => {
    if (id === undefined) return undefined;
    const a = parentById.get(id);
    if (!a || !ok(a)) {
      problems.push({ code: "invalid_designated_account", accountId: id, message: `Account ${id} cannot hold ${what}: ${a ? `${accountLabel(a)} is ${a.classification.toLowerCase()}` : `it is not in ${parent.companyName}'s chart of accounts`}.` });
      return null;
    }
    return a.id;
  };
  const fxDifference =
    designatedAccount(req.designated?.fxDifference, (a) => PROFIT_AND_LOSS.has(a.classification), "exchange differences (choose a revenue or expense account)") ??
    fxDifferenceAccountOf(parentChart)?.id ??
    null;
  if (fxDifference === null && req.designated?.fxDifference === undefined) {
    problems.push({
      code: "missing_fx_difference_account",
      message: `Choose ${parent.companyName}'s profit and loss account for exchange differences: none is named like "Exchange gain or loss" or "Foreign exchange".`,
    });
  }
  let nci: string | null = null;
  if (subs.some((s) => ownershipFraction(s.ownershipPercent) !== "1")) {
    nci = designatedAccount(req.designated?.nci, (a) => a.classification === "Equity" && equityKindOf(a) === "other", "non-controlling interests (choose an equity reserve account)") ?? nciAccountOf(parentChart)?.id ?? null;
    if (nci === null && req.designated?.nci === undefined) {
      const partly = subs.filter((s) => ownershipFraction(s.ownershipPercent) !== "1").map((s) => `${s.companyName} (${Number(s.ownershipPercent)}%)`);
      problems.push({
        code: "missing_nci_account",
        message: `${partly.join(", ")} ${partly.length > 1 ? "are" : "is"} not wholly owned: ${parent.companyName} needs an equity account for non-controlling interests (for example "Non-controlling interests").`,
      });
    }
  }
  const adjusting = req.groupAdjustments === true && options.parentBalances !== false;
  const acquired = adjusting
    ? await investmentEliminations(db, { accountId: req.accountId, parent, subs, charts, books: booksByRealm, entities, to, opening })
    : { investments: [], rates: {}, problems: [], warnings: [] };
  const intragroup = adjusting
    ? await intragroupEliminations(db, { accountId: req.accountId, parent, group, charts, books: booksByRealm, from, to, syncedThrough })
    : { unrealisedProfit: [], dividends: [], problems: [], warnings: [] };
  problems.push(...acquired.problems, ...intragroup.problems);
  for (const [currency, months] of Object.entries(acquired.rates)) Object.assign((rates[currency] ??= {}), months);
  let goodwill = designatedAccount(req.designated?.goodwill, (a) => a.classification === "Asset", "goodwill (choose an asset account)");
  if (goodwill === undefined && acquired.investments.length > 0) {
    goodwill = goodwillAccountOf(parentChart)?.id;
    if (goodwill === undefined) {
      problems.push({ code: "missing_goodwill_account", message: `${parent.companyName} needs an asset account for goodwill (for example "Goodwill") to eliminate its investments against the subsidiaries' equity.` });
    }
  }

  const input: ConsolidationInputJson = {
    reportingCurrency: parent.homeCurrency,
    period: "month" in req.period ? { month: from } : { from, to },
    entities,
    rates,
    maps,
    designatedAccounts: {
      cta: cta ?? "",
      fxDifference: fxDifference ?? "",
      ...(goodwill ? { goodwill } : {}),
      ...(nci ? { nci } : {}),
      ...(acquired.investments.length && bargainPurchaseAccountOf(parentChart) ? { bargainPurchaseGain: bargainPurchaseAccountOf(parentChart)!.id } : {}),
    },
    eliminations: { intercompany: intercompanyOf(req.intercompany ?? [], group, charts, await namePortions(db, req.intercompany ?? [], opening, to, syncedThrough), problems), investments: acquired.investments, manual: [], unrealisedProfit: intragroup.unrealisedProfit, dividends: intragroup.dividends },
  };
  return { input, problems, warnings: [...acquired.warnings, ...intragroup.warnings], chosen: { cta, fxDifference, nci, openingMonth: opening, from, to } };
}

const nameKey = (realmId: string, name: { kind: NameKind; id: string }) => `${realmId}|${name.kind}|${name.id}`;

interface NamePortions {
  names: Map<string, { displayName: string; balancesThrough: string | null; balancesFrom: string | null }>;
  amounts: Map<string, number>;
  months: string[];
  syncedThrough: ReadonlyMap<string, string>;
}

/** Per-name balances (sync/names.ts) of the customers and vendors the pairs are limited to. */
async function namePortions(db: Db, pairs: readonly IntercompanyPair[], opening: string, to: string, syncedThrough: ReadonlyMap<string, string>): Promise<NamePortions> {
  const sides = pairs.flatMap((p) => [p.left, p.right]).filter((s) => s.name);
  const result: NamePortions = { names: new Map(), amounts: new Map(), months: monthList(opening, to), syncedThrough };
  if (sides.length === 0) return result;
  const realms = [...new Set(sides.map((s) => s.entity))];
  const ids = [...new Set(sides.map((s) => s.name!.id))];
  const [names, rows] = await Promise.all([
    db.select().from(qboNames).where(and(inArray(qboNames.realmId, realms), inArray(qboNames.qboId, ids))),
    db
      .select()
      .from(nameBalances)
      .where(and(inArray(nameBalances.realmId, realms), inArray(nameBalances.nameId, ids), gte(nameBalances.month, `${opening}-01`), lte(nameBalances.month, lastDayOf(to)))),
  ]);
  for (const n of names) result.names.set(nameKey(n.realmId, { kind: n.kind, id: n.qboId }), { displayName: n.displayName, balancesFrom: n.balancesFrom, balancesThrough: n.balancesThrough });
  for (const r of rows) result.amounts.set(`${nameKey(r.realmId, { kind: r.nameKind, id: r.nameId })}|${r.qboAccountId}|${r.month.slice(0, 7)}`, r.amountMinor);
  return result;
}

function intercompanyOf(pairs: readonly IntercompanyPair[], group: readonly CompanyRow[], charts: ReadonlyMap<string, readonly ChartRow[]>, portions: NamePortions, problems: Problem[]) {
  const inGroup = new Map(group.map((c) => [c.realmId, c]));
  const sideOf = (p: IntercompanyPair, side: PairSide) => {
    const company = inGroup.get(side.entity)!;
    if (!charts.get(side.entity)?.some((a) => a.id === side.account)) {
      problems.push({
        code: "invalid_pair",
        realmId: side.entity,
        accountId: side.account,
        message: `The intercompany pair "${p.name}" names account ${side.account} of ${company.companyName}, which is no longer in its QuickBooks chart; fix the pair on Interco Eliminations.`,
      });
      return null;
    }
    if (!side.name) return { entity: side.entity, account: side.account };
    const key = nameKey(side.entity, side.name);
    const name = portions.names.get(key);
    const kind = side.name.kind.toLowerCase();
    if (!name) {
      problems.push({
        code: "invalid_pair",
        realmId: side.entity,
        message: `The intercompany pair "${p.name}" is limited to ${kind} ${side.name.id} of ${company.companyName}, which is not in its QuickBooks; fix the pair on Interco Eliminations.`,
      });
      return null;
    }
    const needed = [portions.months.at(-1)!, portions.syncedThrough.get(side.entity) ?? portions.months.at(-1)!].sort()[0]!;
    if (!name.balancesThrough || name.balancesThrough < needed) {
      problems.push({
        code: "name_not_synced",
        realmId: side.entity,
        message: `${company.companyName}'s balances with ${kind} ${name.displayName} (pair "${p.name}") ${name.balancesThrough ? `are fetched through ${name.balancesThrough} only` : "have not been fetched yet"}; sync ${company.companyName} to fetch them.`,
      });
      return null;
    }
    const amounts = portions.months.map((m) => portions.amounts.get(`${key}|${side.account}|${m}`) ?? 0);
    return { entity: side.entity, account: side.account, portion: { name: name.displayName, from: portions.months[0]!, amounts } };
  };
  return pairs
    .filter((p) => inGroup.has(p.left.entity) && inGroup.has(p.right.entity))
    .flatMap((p) => {
      const left = sideOf(p, p.left);
      const right = sideOf(p, p.right);
      return left && right ? [{ id: p.id, kind: p.kind, left, right, differenceTo: p.differenceTo }] : [];
    });
}

/**
 * Dividends of one company (books.ts derives them). Under the profitPeriod policy each names the
 * profit it distributes: the company's last complete fiscal year before the declaration (when
 * dividends are usually voted), cut to the months after the opening month; when that leaves
 * nothing, the months from the opening month to the declaration.
 */
function dividendsOf(c: CompanyRow, books: LocalBooks, profitPeriod: boolean, chart: readonly ChartRow[], problems: Problem[]): EntityJson["dividends"] {
  const opening = books.months[0]!;
  return books.dividends.map((d) => {
    if (!profitPeriod) return { month: d.month, amount: d.amount };
    const fyStart = formatMonth(fiscalYearStart(parseMonth(d.month), c.fiscalYearStartMonth));
    let from = shiftMonth(fyStart, -12);
    let to = shiftMonth(fyStart, -1);
    if (from <= opening) from = shiftMonth(opening, 1);
    if (to < from) to = d.month;
    const profit = -chart
      .filter((a) => PROFIT_AND_LOSS.has(a.classification))
      .reduce((s, a) => s + books.months.reduce((t, m, i) => (m >= from && m <= to ? t + books.series.get(a.id)![i]! : t), 0), 0);
    if (profit <= 0) {
      problems.push({
        code: "dividend_without_profit",
        realmId: c.realmId,
        month: d.month,
        message: `${c.companyName} declared a dividend in ${d.month} but made no profit from ${from} to ${to}, so the profit-period rate cannot be taken from them; switch its dividend rate policy to declaration date on the CTA & Historical page.`,
      });
    }
    return { month: d.month, amount: d.amount, profitOf: { from, to } };
  });
}
