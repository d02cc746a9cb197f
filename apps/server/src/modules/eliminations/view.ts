import { and, eq, inArray, lt } from "drizzle-orm";
import {
  currencyExponent,
  lastDayOfMonth,
  monthCount,
  monthList,
  parseRate,
  type Problem,
  shiftMonth,
  translatedSumRoundedOnce,
  translationFactor,
  closedBooksReason,
  countsAsMatched,
  type PairMatch,
} from "@groupledger/domain";
import type { EliminationPair, EliminationView, RunPeriod } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { consolidationPostings, eliminationPairs, foreignBalances, qboAccounts, qboNames } from "../../db/schema.ts";
import { loadGroup } from "../group/service.ts";
import { buildConsolidationInput, type IntercompanyPair } from "../consolidation/input.ts";
import { GROUPLEDGER_INTERCO_CLASS } from "../sync/own-books.ts";
import { eliminationDocNumber, INTERCO_REALM } from "../posting/names.ts";
import { openingOf, resolvePeriod } from "../runs/entry.ts";
import { toleranceOf } from "./tolerance.ts";
import { consolidateBuilt } from "../consolidation/engine.ts";

/** Eliminations post under their own class in QBO (and "realm" in the postings table, posting/names.ts). */
export const INTERCO_CLASS = GROUPLEDGER_INTERCO_CLASS;

type PairRow = typeof eliminationPairs.$inferSelect;
type Line = { account: string; name: string; debit: number; credit: number };
/** What one pair contributed to a posted entry, kept to post only movements of balance pairs next time. */
export type PairLines = Record<string, { kind: PairRow["kind"]; lines: { account: string; name: string; amount: number }[] }>;

export const pairRows = (db: Db, accountId: string) => db.select().from(eliminationPairs).where(eq(eliminationPairs.accountId, accountId)).orderBy(eliminationPairs.createdAt);

const nameOf = (kind: PairRow["leftNameKind"], id: string) => (kind ? { kind, id } : undefined);

export const asEnginePair = (r: PairRow): IntercompanyPair => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  left: { entity: r.leftRealmId, account: r.leftAccountId, name: nameOf(r.leftNameKind, r.leftNameId) },
  right: { entity: r.rightRealmId, account: r.rightAccountId, name: nameOf(r.rightNameKind, r.rightNameId) },
  differenceTo: r.differenceTo,
});

export async function pairViews(db: Db, accountId: string, rows: readonly PairRow[]): Promise<EliminationPair[]> {
  if (rows.length === 0) return [];
  const companies = new Map((await loadGroup(db, accountId)).companies.map((c) => [c.realmId, c]));
  const realms = [...new Set(rows.flatMap((r) => [r.leftRealmId, r.rightRealmId]))];
  const accounts = new Map(
    (await db.select({ realmId: qboAccounts.realmId, id: qboAccounts.qboId, name: qboAccounts.name, acctNum: qboAccounts.acctNum }).from(qboAccounts).where(inArray(qboAccounts.realmId, realms))).map((a) => [
      `${a.realmId}:${a.id}`,
      a.acctNum ? `${a.acctNum} ${a.name}` : a.name,
    ]),
  );
  const namedIds = [...new Set(rows.flatMap((r) => [r.leftNameId, r.rightNameId]).filter(Boolean))];
  const names = new Map(
    namedIds.length === 0
      ? []
      : (await db.select().from(qboNames).where(and(inArray(qboNames.realmId, realms), inArray(qboNames.qboId, namedIds)))).map((n) => [`${n.realmId}:${n.kind}:${n.qboId}`, n.displayName]),
  );
  const side = (realmId: string, accountId: string, nameKind: PairRow["leftNameKind"], nameId: string) => ({
    realmId,
    companyName: companies.get(realmId)?.companyName ?? realmId,
    accountId,
    accountName: accounts.get(`${realmId}:${accountId}`) ?? `(account ${accountId} is gone)`,
    currency: companies.get(realmId)?.homeCurrency ?? "",
    name: nameKind ? { kind: nameKind, id: nameId, displayName: names.get(`${realmId}:${nameKind}:${nameId}`) ?? `(${nameKind.toLowerCase()} ${nameId} is gone)` } : null,
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    kind: r.kind,
    left: side(r.leftRealmId, r.leftAccountId, r.leftNameKind, r.leftNameId),
    right: side(r.rightRealmId, r.rightAccountId, r.rightNameKind, r.rightNameId),
    differenceTo: r.differenceTo,
    createdAt: r.createdAt.toISOString(),
  }));
}

/** The currency each paired account holds (QBO's CurrencyRef; the home currency unless multicurrency), by "realm:account". */
async function accountCurrencies(db: Db, rows: readonly PairRow[]): Promise<Map<string, string>> {
  const realms = [...new Set(rows.flatMap((r) => [r.leftRealmId, r.rightRealmId]))];
  const ids = [...new Set(rows.flatMap((r) => [r.leftAccountId, r.rightAccountId]))];
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ realmId: qboAccounts.realmId, id: qboAccounts.qboId, currency: qboAccounts.currency })
    .from(qboAccounts)
    .where(and(inArray(qboAccounts.realmId, realms), inArray(qboAccounts.qboId, ids)));
  return new Map(found.map((a) => [`${a.realmId}:${a.id}`, a.currency]));
}

/**
 * What each paired foreign-currency account holds in its own currency at the end of `month`: the
 * latest synced month-end up to it (0 before its first line); absent when the sync could not tell.
 */
async function foreignBalancesAt(db: Db, rows: readonly PairRow[], month: string): Promise<Map<string, number>> {
  const realms = [...new Set(rows.flatMap((r) => [r.leftRealmId, r.rightRealmId]))];
  const ids = [...new Set(rows.flatMap((r) => [r.leftAccountId, r.rightAccountId]))];
  const found = await db
    .select()
    .from(foreignBalances)
    .where(and(inArray(foreignBalances.realmId, realms), inArray(foreignBalances.qboAccountId, ids)))
    .orderBy(foreignBalances.month);
  const out = new Map<string, number>();
  const end = `${month}-01`;
  for (const r of found) {
    const key = `${r.realmId}:${r.qboAccountId}`;
    if (!out.has(key)) out.set(key, 0);
    if (r.month <= end) out.set(key, r.amountMinor);
  }
  return out;
}

export interface ComputedEliminations {
  view: Omit<EliminationView, "posted">;
  pairLines: PairLines;
}

/**
 * The eliminations of a period over the whole group: each pair's two sides translated into the
 * parent currency, the difference and how much of it the translation rates make, and the entry
 * that brings the period's eliminations into the parent's books.
 *
 * The entry: a revenue/expense pair eliminates the period's flows; a receivable/payable pair
 * eliminates a balance, so its lines are the balance at the period end minus what earlier
 * posted elimination entries already eliminated for it (all of it the first time, since the
 * opening balances carry the balances uneliminated).
 */
export async function computeEliminations(db: Db, accountId: string, requested: RunPeriod): Promise<ComputedEliminations> {
  const group = await loadGroup(db, accountId);
  const parent = group.requireParent("eliminations are made in the parent's currency");
  const period = resolvePeriod(parent, requested);
  const opening = await openingOf(db, accountId, parent).catch(() => null);
  const openingMonth = opening && opening.anchor < period.from ? opening.anchor : shiftMonth(period.from, -1);
  const rows = await pairRows(db, accountId);
  const pairs = await pairViews(db, accountId, rows);
  const subsidiaries = [...new Set(rows.flatMap((r) => [r.leftRealmId, r.rightRealmId]))].filter((r) => r !== parent.realmId && group.find(r) !== undefined);
  const intercompany = rows.map(asEnginePair);
  const base = {
    period: { kind: period.kind, from: period.from, to: period.to, label: period.label },
    parentCurrency: parent.homeCurrency,
    tolerance: await toleranceOf(db, accountId),
  };
  if (rows.length === 0) return { view: { ...base, ok: true, problems: [], pairs: [], entry: null }, pairLines: {} };

  const built = await buildConsolidationInput(db, { accountId, subsidiaries, period: { from: period.from, to: period.to }, openingMonth, intercompany });
  const problems: Problem[] = [...built.problems];
  const closed = closedBooksReason(parent, lastDayOfMonth(period.to), `the ${period.label} eliminations entry`, "post a later period");
  if (closed) problems.push({ code: "books_closed", realmId: parent.realmId, message: closed });
  const output = await consolidateBuilt(built.input, problems);
  const publicProblems = problems.map((p) => ({ code: p.code, message: p.message }));
  if (!output) return { view: { ...base, ok: false, problems: publicProblems, pairs: [], entry: null }, pairLines: {} };

  const pe = currencyExponent(parent.homeCurrency);
  const closingRate = (currency: string) => (currency === parent.homeCurrency ? "1" : (built.input.rates?.[currency]?.[period.to]?.closing ?? null));
  const factorOf = (currency: string, rate: string) => translationFactor(parseRate(rate), currencyExponent(currency), pe);
  /**
   * The pair's sides at the same rates the consolidation uses (the period-end closing rate for
   * balances, each month's average for flows), summed exactly and rounded once: what the books
   * differ by at those rates. The rest of the difference is what rounding each side (and each
   * month) on its own makes.
   */
  const atSameRates = (pairId: string, kind: EliminationPair["kind"], sides: { currency: string }[]): number | null => {
    const rule = built.input.eliminations?.intercompany?.find((x) => x.id === pairId);
    if (!rule) return null;
    const months = kind === "receivablePayable" ? [period.to] : monthList(period.from, period.to);
    const terms: { amount: number; factor: ReturnType<typeof factorOf> }[] = [];
    for (const [i, side] of [rule.left, rule.right].entries()) {
      const currency = sides[i]!.currency;
      const series = side.portion ?? built.input.entities.find((x) => x.id === side.entity)?.balances.find((b) => b.account === side.account);
      for (const month of months) {
        const rate = currency === parent.homeCurrency ? "1" : kind === "receivablePayable" ? closingRate(currency) : (built.input.rates?.[currency]?.[month]?.average ?? null);
        if (rate === null) return null;
        const at = series ? monthCount(series.from, month) - 1 : -1;
        const amount = series && at >= 0 ? (series.amounts[at] ?? 0) : 0;
        if (amount !== 0) terms.push({ amount, factor: factorOf(currency, rate) });
      }
    }
    return translatedSumRoundedOnce(terms);
  };
  /**
   * A balance pair whose two accounts hold one currency (the parent's GBP loan account against the
   * UK's books in pounds): both sides in that currency at the period end, from what each account
   * holds in it (foreign_balances for a foreign-currency account, the company's own figure where it
   * is its home currency). Null where the sides are in different currencies, a side is limited to a
   * name, or a foreign balance is not known: the pair is then compared at the same rates instead.
   */
  const accountCurrency = await accountCurrencies(db, rows);
  const foreignAt = await foreignBalancesAt(db, rows, period.to);
  const inOneCurrency = (pairId: string, sides: { realmId: string; accountId: string }[]): { currency: string; left: number; right: number } | null => {
    const rule = built.input.eliminations?.intercompany?.find((x) => x.id === pairId);
    if (!rule) return null;
    const held = sides.map((s) => accountCurrency.get(`${s.realmId}:${s.accountId}`));
    const currency = held[0];
    if (!currency || held[1] !== currency) return null;
    const homes = sides.map((s) => group.find(s.realmId)?.homeCurrency);
    if (homes.every((h) => h === currency)) return null; // both in their home currency: the same-rates comparison is this one
    const amounts: number[] = [];
    for (const [i, side] of [rule.left, rule.right].entries()) {
      if (side.portion) return null;
      const key = `${sides[i]!.realmId}:${sides[i]!.accountId}`;
      if (homes[i] === currency) {
        const series = built.input.entities.find((x) => x.id === side.entity)?.balances.find((b) => b.account === side.account);
        const at = series ? monthCount(series.from, period.to) - 1 : -1;
        amounts.push(series && at >= 0 ? (series.amounts[at] ?? 0) : 0);
      } else {
        const foreign = foreignAt.get(key);
        if (foreign === undefined) return null;
        amounts.push(foreign);
      }
    }
    return { currency, left: amounts[0]!, right: amounts[1]! };
  };
  // Where each pair's difference is posted: the parent's FX or CTA account the engine was given, named as the pairs' accounts are.
  const designated = built.input.designatedAccounts;
  const differenceIds = [...new Set([designated?.fxDifference, designated?.cta].filter((x): x is string => !!x))];
  const differenceLabels = new Map(
    differenceIds.length === 0
      ? []
      : (await db.select().from(qboAccounts).where(and(eq(qboAccounts.realmId, parent.realmId), inArray(qboAccounts.qboId, differenceIds)))).map((a) => [a.qboId, a.acctNum ? `${a.acctNum} ${a.name}` : a.name]),
  );
  const differenceAccountOf = (to: EliminationPair["differenceTo"]) => {
    const id = to === "cta" ? designated?.cta : designated?.fxDifference;
    return id ? { id, name: differenceLabels.get(id) ?? id } : null;
  };
  const views: EliminationView["pairs"] = [];
  const pairLines: PairLines = {};
  for (const pair of pairs) {
    const e = output.eliminations.find((x) => x.id === pair.id);
    if (!e) continue; // left out by a problem, which says why
    const d = e.details as Record<string, number>;
    // The engine's classification (the domain's pair-match rule, with the group's tolerance): the screen says what reports and the entry do.
    const match = e.details["match"] as PairMatch;
    const inCurrency = pair.kind === "receivablePayable" ? inOneCurrency(pair.id, [pair.left, pair.right]) : null;
    // In one currency, the books' part is what the two sides differ by in it, at the closing rate; the rest is exchange.
    const closingOfPair = inCurrency ? closingRate(inCurrency.currency) : null;
    const bookPart =
      inCurrency && closingOfPair !== null
        ? translatedSumRoundedOnce([{ amount: inCurrency.left + inCurrency.right, factor: factorOf(inCurrency.currency, closingOfPair) }])
        : (atSameRates(pair.id, pair.kind, [pair.left, pair.right]) ?? d["difference"]!);
    views.push({
      pair,
      left: { local: d["leftLocal"]!, currency: pair.left.currency, translated: d["leftTranslated"]!, rate: pair.kind === "receivablePayable" ? closingRate(pair.left.currency) : null },
      right: { local: d["rightLocal"]!, currency: pair.right.currency, translated: d["rightTranslated"]!, rate: pair.kind === "receivablePayable" ? closingRate(pair.right.currency) : null },
      difference: d["difference"]!,
      translationPart: d["difference"]! - bookPart,
      bookPart,
      inCurrency: inCurrency && closingOfPair !== null ? inCurrency : null,
      match,
      matched: countsAsMatched(match),
      differenceAccount: differenceAccountOf(pair.differenceTo),
    });
    pairLines[pair.id] = { kind: pair.kind, lines: e.lines };
  }

  // What earlier posted elimination entries already eliminated for each balance pair.
  const earlier = await db
    .select({ inputs: consolidationPostings.inputs })
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.accountId, accountId), eq(consolidationPostings.realmId, INTERCO_REALM), eq(consolidationPostings.status, "posted"), lt(consolidationPostings.periodTo, period.from)));
  const already = new Map<string, number>();
  for (const row of earlier) {
    for (const [pairId, p] of Object.entries((row.inputs as { pairs?: PairLines }).pairs ?? {})) {
      if (p.kind !== "receivablePayable") continue;
      for (const l of p.lines) already.set(`${pairId}|${l.account}`, (already.get(`${pairId}|${l.account}`) ?? 0) + l.amount);
    }
  }
  const names = new Map(output.worksheet.rows.map((r) => [r.account, r.name]));
  const byAccount = new Map<string, number>();
  for (const [pairId, p] of Object.entries(pairLines)) {
    const accounts = new Set([...p.lines.map((l) => l.account), ...[...already.keys()].filter((k) => k.startsWith(`${pairId}|`)).map((k) => k.slice(pairId.length + 1))]);
    for (const account of accounts) {
      const now = p.lines.filter((l) => l.account === account).reduce((s, l) => s + l.amount, 0);
      const movement = p.kind === "receivablePayable" ? now - (already.get(`${pairId}|${account}`) ?? 0) : now;
      byAccount.set(account, (byAccount.get(account) ?? 0) + movement);
    }
  }
  const lines: Line[] = [...byAccount]
    .filter(([, a]) => a !== 0)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([account, amount]) => ({ account, name: names.get(account) ?? account, debit: amount > 0 ? amount : 0, credit: amount < 0 ? -amount : 0 }));
  return {
    view: {
      ...base,
      ok: publicProblems.length === 0,
      problems: publicProblems,
      pairs: views,
      entry: lines.length ? { lines, docNumber: eliminationDocNumber(period.code), txnDate: lastDayOfMonth(period.to) } : null,
    },
    pairLines,
  };
}
