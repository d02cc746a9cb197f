import { and, eq, inArray, lt } from "drizzle-orm";
import {
  consolidate,
  ConsolidationInputError,
  currencyExponent,
  formatIssue,
  mulDivRound,
  parseConsolidationInput,
  parseRate,
  translationFactor,
  type ConsolidationOutput,
} from "@groupledger/domain";
import type { EliminationPair, EliminationView, RunPeriod } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { consolidationPostings, eliminationPairs, qboAccounts, qboNames } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import { listCompanies } from "../companies/routes.ts";
import { shiftMonth } from "../consolidation/books.ts";
import { buildConsolidationInput, type IntercompanyPair } from "../consolidation/input.ts";
import type { Problem } from "../consolidation/problems.ts";
import { lastDayOf } from "../sync/months.ts";
import { GROUPLEDGER_INTERCO_CLASS } from "../sync/own-books.ts";
import { openingOf, resolvePeriod } from "../runs/entry.ts";
import { INTERCO_REALM } from "../runs/once.ts";

/** Eliminations post under their own class in QBO (and "realm" in the postings table, once.ts). */
export { INTERCO_REALM };
export const INTERCO_CLASS = GROUPLEDGER_INTERCO_CLASS;
export const eliminationDocNumber = (code: string) => `EL${code}`;

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
  const companies = new Map((await listCompanies(db, accountId)).map((c) => [c.realmId, c]));
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
  const all = await listCompanies(db, accountId);
  const parent = all.find((c) => c.isParent);
  if (!parent) throw errors.conflict("parent_required", "Choose a parent company first: eliminations are made in the parent's currency.");
  const period = resolvePeriod(parent, requested);
  const opening = await openingOf(db, accountId, parent).catch(() => null);
  const openingMonth = opening && opening.anchor < period.from ? opening.anchor : shiftMonth(period.from, -1);
  const rows = await pairRows(db, accountId);
  const pairs = await pairViews(db, accountId, rows);
  const subsidiaries = [...new Set(rows.flatMap((r) => [r.leftRealmId, r.rightRealmId]))].filter((r) => r !== parent.realmId && all.some((c) => c.realmId === r));
  const intercompany = rows.map(asEnginePair);
  const base = {
    period: { kind: period.kind, from: period.from, to: period.to, label: period.label },
    parentCurrency: parent.homeCurrency,
  };
  if (rows.length === 0) return { view: { ...base, ok: true, problems: [], pairs: [], entry: null }, pairLines: {} };

  const built = await buildConsolidationInput(db, { accountId, subsidiaries, period: { from: period.from, to: period.to }, openingMonth, intercompany });
  const problems: Problem[] = [...built.problems];
  let output: ConsolidationOutput | null = null;
  try {
    output = consolidate(parseConsolidationInput(built.input));
  } catch (e) {
    if (!(e instanceof ConsolidationInputError)) throw e;
    if (problems.length === 0) for (const issue of e.issues) problems.push({ code: "engine_refused", message: `The consolidation engine refused the input: ${formatIssue(issue)}` });
  }
  const publicProblems = problems.map((p) => ({ code: p.code, message: p.message }));
  if (!output) return { view: { ...base, ok: false, problems: publicProblems, pairs: [], entry: null }, pairLines: {} };

  const pe = currencyExponent(parent.homeCurrency);
  const closingRate = (currency: string) => (currency === parent.homeCurrency ? "1" : (built.input.rates?.[currency]?.[period.to]?.closing ?? null));
  const atClosing = (local: number, currency: string) => {
    const rate = closingRate(currency);
    return rate === null ? null : mulDivRound(local, translationFactor(parseRate(rate), currencyExponent(currency), pe));
  };
  const views: EliminationView["pairs"] = [];
  const pairLines: PairLines = {};
  for (const pair of pairs) {
    const e = output.eliminations.find((x) => x.id === pair.id);
    if (!e) continue; // left out by a problem, which says why
    const d = e.details as Record<string, number>;
    const [l, r] = [atClosing(d["leftLocal"]!, pair.left.currency), atClosing(d["rightLocal"]!, pair.right.currency)];
    const bookPart = l === null || r === null ? d["difference"]! : l + r;
    views.push({
      pair,
      left: { local: d["leftLocal"]!, currency: pair.left.currency, translated: d["leftTranslated"]!, rate: pair.kind === "receivablePayable" ? closingRate(pair.left.currency) : null },
      right: { local: d["rightLocal"]!, currency: pair.right.currency, translated: d["rightTranslated"]!, rate: pair.kind === "receivablePayable" ? closingRate(pair.right.currency) : null },
      difference: d["difference"]!,
      translationPart: d["difference"]! - bookPart,
      bookPart,
      matched: d["difference"] === 0,
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
      entry: lines.length ? { lines, docNumber: eliminationDocNumber(period.code), txnDate: lastDayOf(period.to) } : null,
    },
    pairLines,
  };
}
