import { chartMappingProblem } from "../coa/mapping-rules.ts";
import { ctaAccountProblem, suggestCtaAccounts } from "../coa/cta-account.ts";
import type { ConsolidationInputJson } from "../consolidation/input-schema.ts";
import { describeMissingRate, missingRates, type RateNeed } from "../fx/rate-text.ts";
import { currencyExponent } from "../money/currency.ts";
import { mulDivRound, parseRate, translationFactor } from "../money/rate.ts";
import { fiscalYearStart, formatMonth, monthList, parseMonth, shiftMonth } from "../periods/month.ts";
import { investmentRules } from "./acquisitions.ts";
import {
  accountsWithAmounts,
  BALANCE_SHEET,
  type ChartRow,
  engineBooks,
  equityKindOf,
  isNonMonetary,
  type LocalBooks,
  PROFIT_AND_LOSS,
} from "./books.ts";
import { bargainPurchaseAccountOf, fxDifferenceAccountOf, goodwillAccountOf, type GroupCompany, type GroupSnapshot, type IntercompanyPair, nciAccountOf, ownershipFraction } from "./group.ts";
import { intercompanyRules } from "./intercompany.ts";
import { intragroupRules } from "./intragroup.ts";
import { accountLabel, type Problem } from "./problems.ts";
import { unpairedIntercompany } from "./unpaired-intercompany.ts";
import { fullNameOf } from "../coa/hierarchy.ts";

/**
 * The bridge from the synced books to the consolidation engine (docs/engine.md): the pure rules
 * that turn a group's synced books (GroupSnapshot, read by the server's consolidation/input.ts)
 * into the engine's input, plus every Problem that would stop the engine or a posting, named so an
 * accountant can fix it.
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
 *   figure balances to the cent with its own per-line rounding. Consequence: runs share the locked
 *   opening-balance month or each run restarts CTA.
 * - Rates: every month from the opening month to the period end, both average and month-end; a
 *   month with either missing is left out and named (never 0).
 * - Maps: invalid pairs are dropped and named; accounts with amounts and no map are left unmapped
 *   (the engine puts them on UNMAPPED rows) and named.
 * - Designated accounts: the group's one CTA account (snap.ctaAccountId; without a translated
 *   subsidiary the chosen one if usable, else the best suggestion); FX differences by FX_DIFFERENCE_RULE (group.ts) unless given; NCI (needed below 100%
 *   ownership) by name unless given; goodwill when given or, with acquisitions, by name.
 * - Eliminations: the intercompany pairs passed whose two companies are both in the request
 *   (intercompany.ts); with `groupAdjustments`, the investment eliminations (acquisitions.ts),
 *   unrealised profit and dividends (intragroup.ts).
 */

export interface AssembleRequest {
  from: string;
  to: string;
  /** Month-end that opens the roll-forward (before `from`). */
  opening: string;
  /** How the period is written in the input: one month, or a range. */
  single: boolean;
  /** Parent accounts chosen by the user, overriding the rules. */
  designated?: { fxDifference?: string; nci?: string; goodwill?: string } | undefined;
  intercompany?: readonly IntercompanyPair[] | undefined;
  /** The group's own adjustments (acquisitions, intra-group stock and dividends); see the server's BuildRequest. */
  groupAdjustments?: boolean | undefined;
  /** false: the parent enters with its chart but no balances (a subsidiary's own translation). */
  parentBalances?: boolean | undefined;
}

export interface AssembledInput {
  input: ConsolidationInputJson;
  problems: Problem[];
  /** What moves no number but the user should know (e.g. a subsidiary with no acquisition recorded). */
  warnings: string[];
  /** What the rules chose, for the screen to show (and let the user change). */
  chosen: { cta: string | null; fxDifference: string | null; nci: string | null; openingMonth: string; from: string; to: string };
}

type EntityJson = ConsolidationInputJson["entities"][number];

/** The earliest month whose balances the assembly reads: the start of each company's fiscal year containing the opening month. */
export function balancesReadFrom(companies: readonly GroupCompany[], opening: string): string {
  return companies.map((c) => formatMonth(fiscalYearStart(parseMonth(opening), c.fiscalYearStartMonth))).sort()[0] ?? opening;
}

export function assembleConsolidationInput(parent: GroupCompany, subs: readonly GroupCompany[], req: AssembleRequest, snap: GroupSnapshot): AssembledInput {
  const { from, to, opening } = req;
  const group = [parent, ...subs];
  const problems: Problem[] = [];
  const translated = subs.filter((s) => s.homeCurrency !== parent.homeCurrency);
  const withBalances = req.parentBalances === false ? subs : group;

  const chartOf = (realmId: string): readonly ChartRow[] => snap.charts.get(realmId) ?? [];
  const amountOf = snap.books?.amount ?? amountsOf(snap.balances);
  const parentChart = chartOf(parent.realmId);
  const parentById = new Map(parentChart.map((a) => [a.id, a]));

  // --- Sync state ----------------------------------------------------------------------------
  const syncedThrough = new Map<string, string>();
  for (const c of withBalances) {
    const base = { realmId: c.realmId };
    if (!c.syncedThrough) {
      problems.push({ ...base, code: "not_synced", message: `${c.companyName} has not been synced yet; wait for its first sync to finish.` });
      syncedThrough.set(c.realmId, shiftMonth(opening, -1));
      continue;
    }
    const through = c.syncedThrough;
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
  const settingsByRealm = new Map(snap.settings.map((s) => [s.realmId, s]));
  const ratesByKey = new Map(snap.rates.map((r) => [`${r.currency}:${r.month}`, { average: r.average, closing: r.closing }]));
  const booksByRealm = new Map<string, LocalBooks>();

  /** Historical equity (and, temporal method, non-monetary items), and opening RE at CTA 0 (see the header). */
  const translatedOpening = (c: GroupCompany, entity: EntityJson, books: LocalBooks, chart: readonly ChartRow[]) => {
    const historical = snap.historical.filter((h) => h.realmId === c.realmId && chart.some((a) => a.id === h.accountId));
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
      // An account without its historical rate or amount leaves the opening incomplete, saying what to enter.
      const atHistorical = (missing: string) => {
        const h = byAccount.get(a.id);
        if (!h) {
          complete = false;
          problems.push({ code: "missing_historical_equity", realmId: c.realmId, accountId: a.id, month: opening, message: missing });
          return;
        }
        translatedSum += h.rate !== undefined ? mulDivRound(x0, translationFactor(parseRate(h.rate), localExp, parentExp)) : h.amount!;
      };
      if (kind === "contributedCapital" || kind === "other") {
        atHistorical(
          kind === "contributedCapital"
            ? `Enter the historical rate or translated amount of ${accountLabel(a)} (${c.companyName}) on the CTA & Historical page: its balance at ${opening} is translated at the rate of the day it was contributed.`
            : `${c.companyName}'s equity reserve ${accountLabel(a)} has a balance at ${opening}; it is translated at a historical rate, which can be entered for contributed capital only. Move the reserve into contributed capital or retained earnings in QuickBooks, or open the consolidation before it arose.`,
        );
      } else if (entity.method === "temporal" && isNonMonetary(a)) {
        // Remeasurement: a non-monetary item keeps the rate of the day it was acquired (ASC 830-10-45-18, IAS 21.23(b)).
        atHistorical(
          `${c.companyName} is remeasured with the temporal method: enter the historical rate or remeasured amount of its non-monetary account ${accountLabel(a)} on the CTA & Historical page.`,
        );
      } else if (closing) {
        translatedSum += mulDivRound(x0, translationFactor(parseRate(closing), localExp, parentExp));
      }
    }
    // Retained earnings close the opening balance sheet, so the CTA starts at exactly zero.
    if (complete) entity.opening = { month: opening, retainedEarnings: -translatedSum, cta: 0 };
  };

  const entityOf = (c: GroupCompany, role: "parent" | "subsidiary"): EntityJson => {
    const chart = chartOf(c.realmId);
    const withBooks = role === "subsidiary" || req.parentBalances !== false;
    const args = { company: c, chart, opening, to, checkThrough: withBooks ? [syncedThrough.get(c.realmId) ?? to, to].sort()[0]! : to, firstSyncedMonth: snap.firstSynced.get(c.realmId) };
    const books = !withBooks
      ? engineBooks({ ...args, amount: () => 0 })
      : snap.books
        ? snap.books.local(c.realmId, args)
        : engineBooks({ ...args, amount: (account, month) => amountOf(c.realmId, account, month) });
    booksByRealm.set(c.realmId, books);
    problems.push(...books.problems);
    const accounts = chart.map((a) => {
      const classification = a.classification as "Asset" | "Liability" | "Equity" | "Revenue" | "Expense";
      const equityKind = equityKindOf(a);
      return {
        id: a.id,
        // A sub-account goes by its full name ("Wages and Salaries:Wages - Toronto") wherever the engine's names are shown.
        name: fullNameOf(a),
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
    const chart = chartOf(s.realmId);
    const byId = new Map(chart.map((a) => [a.id, a]));
    const lines: Record<string, string> = {};
    for (const row of snap.maps.filter((m) => m.realmId === s.realmId)) {
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
  // The group keeps one CTA account, chosen once on CTA & Historical (snap.ctaAccountId).
  let cta: string | null = snap.ctaAccountId;
  if (translated.length > 0) {
    if (!cta) {
      const who = translated.map((s) => s.companyName).join(", ");
      problems.push({ code: "missing_cta_account", message: `Choose the parent's account that receives the group's CTA (translation differences of ${who}) at the top of the CTA & Historical page.` });
    } else {
      const problem = ctaAccountProblem(parentById.get(cta));
      if (problem) problems.push({ code: "invalid_cta_account", accountId: cta, message: `The CTA account chosen cannot be used: ${problem}` });
    }
  } else {
    // No translated subsidiary: no CTA can arise, but the engine still names an account.
    if (cta && ctaAccountProblem(parentById.get(cta))) cta = null;
    cta ??= suggestCtaAccounts(parentChart)[0]?.accountId ?? null;
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
  // Not wholly owned at some point up to the period's end: at acquisition or after a change.
  const changesOf = (s: GroupCompany) => (req.groupAdjustments ? (snap.acquisitions.find((a) => a.realmId === s.realmId)?.ownershipChanges ?? []).filter((c) => c.effectiveOn.slice(0, 7) <= to) : []);
  const partlyOwned = (s: GroupCompany) => ownershipFraction(s.ownershipPercent) !== "1" || changesOf(s).some((c) => ownershipFraction(c.ownershipPercent) !== "1");
  if (subs.some(partlyOwned)) {
    nci = designatedAccount(req.designated?.nci, (a) => a.classification === "Equity" && equityKindOf(a) === "other", "non-controlling interests (choose an equity reserve account)") ?? nciAccountOf(parentChart)?.id ?? null;
    if (nci === null && req.designated?.nci === undefined) {
      const partly = subs.filter(partlyOwned).map((s) => `${s.companyName} (${Number(changesOf(s).at(-1)?.ownershipPercent ?? s.ownershipPercent)}%)`);
      problems.push({
        code: "missing_nci_account",
        message: `${partly.join(", ")} ${partly.length > 1 ? "are" : "is"} not wholly owned: ${parent.companyName} needs an equity account for non-controlling interests (for example "Non-controlling interests").`,
      });
    }
  }
  const adjusting = req.groupAdjustments === true && req.parentBalances !== false;
  const acquired = adjusting
    ? investmentRules({ parent, subs, records: snap.acquisitions, rates: ratesByKey, charts: snap.charts, books: booksByRealm, entities, to, opening })
    : { investments: [], rates: {}, problems: [], warnings: [] };
  const intragroup = adjusting
    ? intragroupRules({ parent, group, charts: snap.charts, books: booksByRealm, stock: snap.stock, dividendSettings: snap.dividendSettings, names: snap.names, nameBalances: snap.nameBalances, from, to, syncedThrough })
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
  const bargainPurchase = acquired.investments.length ? bargainPurchaseAccountOf(parentChart) : undefined;
  const intercompany = intercompanyRules({ pairs: req.intercompany ?? [], group, charts: snap.charts, names: snap.names, nameBalances: snap.nameBalances, opening, to, syncedThrough, tolerance: snap.eliminationTolerance ?? 0, problems });
  // A dividend eliminated against the parent's income must not also be a side of a pair: the
  // income would be eliminated twice (once by the dividend rule, once by the pair).
  for (const d of intragroup.dividends) {
    const pair = (req.intercompany ?? []).find((p) => intercompany.some((i) => i.id === p.id) && [p.left, p.right].some((side) => side.entity === parent.realmId && side.account === d.incomeAccount));
    if (!pair) continue;
    const sub = subs.find((x) => x.realmId === d.subsidiary)!;
    problems.push({
      code: "invalid_intragroup",
      realmId: sub.realmId,
      accountId: d.incomeAccount,
      message: `${sub.companyName}'s dividends are eliminated against ${accountLabel(parentById.get(d.incomeAccount)!)}, which the intercompany pair "${pair.name}" eliminates too: the income would be eliminated twice. On Interco Eliminations, remove the pair or the dividend setting.`,
    });
  }

  const input: ConsolidationInputJson = {
    reportingCurrency: parent.homeCurrency,
    period: req.single ? { month: from } : { from, to },
    entities,
    rates,
    maps,
    designatedAccounts: {
      cta: cta ?? "",
      fxDifference: fxDifference ?? "",
      ...(goodwill ? { goodwill } : {}),
      ...(nci ? { nci } : {}),
      ...(bargainPurchase ? { bargainPurchaseGain: bargainPurchase.id } : {}),
    },
    eliminations: { intercompany, investments: acquired.investments, manual: [], unrealisedProfit: intragroup.unrealisedProfit, dividends: intragroup.dividends },
  };
  const unpaired = adjusting
    ? unpairedIntercompany({
        parent,
        group,
        charts: snap.charts,
        amount: amountOf,
        pairs: req.intercompany ?? [],
        handled: new Set(intragroup.dividends.map((d) => `${parent.realmId}|${d.incomeAccount}`)),
        from,
        to,
      })
    : [];
  return { input, problems, warnings: [...acquired.warnings, ...intragroup.warnings, ...unpaired], chosen: { cta, fxDifference, nci, openingMonth: opening, from, to } };
}

/** Synced amounts by realm, account and month, from the snapshot's rows. */
function amountsOf(rows: GroupSnapshot["balances"]): (realmId: string, account: string, month: string) => number {
  const amounts = new Map<string, number>();
  for (const r of rows) amounts.set(`${r.realmId}|${r.account}|${r.month.slice(0, 7)}`, r.amount);
  return (realmId, account, month) => amounts.get(`${realmId}|${account}|${month}`) ?? 0;
}

/**
 * Dividends of one company (books.ts derives them). Under the profitPeriod policy each names the
 * profit it distributes: the company's last complete fiscal year before the declaration (when
 * dividends are usually voted), cut to the months after the opening month; when that leaves
 * nothing, the months from the opening month to the declaration.
 */
function dividendsOf(c: GroupCompany, books: LocalBooks, profitPeriod: boolean, chart: readonly ChartRow[], problems: Problem[]): EntityJson["dividends"] {
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
