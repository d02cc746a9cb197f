import { and, eq, inArray, sql } from "drizzle-orm";
import type { Report } from "@groupledger/qbo";
import { currencyExponent, mulDivRound, parseRate, translationFactor } from "@groupledger/domain";
import type { TransactionDetail } from "@groupledger/contract";
import type { Db } from "../../db/client.ts";
import { accountMaps, consolidationPostings, fxRates, obalCompanies, qboAccounts } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { loadGroup } from "../group/service.ts";
import { askQbo } from "../qbo/errors.ts";
import { lastDayOfMonth } from "@groupledger/domain";

/**
 * Transaction detail (issue 9): the QuickBooks transactions behind one parent account of the
 * consolidation for a range of months, company by company. For a subsidiary these are the
 * postings on every one of its accounts mapped onto that parent account, read from its
 * GeneralLedger report, each in its own currency and in the parent's at the average rate of
 * its month (how the engine translates activity). Amounts are debit positive.
 *
 * The parent's own ledger also holds the entries GroupLedger posted into it (opening balances,
 * runs, eliminations): those are left out of its list, since the subsidiaries' own transactions
 * behind them are listed. A balance-sheet line's consolidated figure also holds the balance
 * brought forward and its retranslation at the closing rate (CTA), which are not transactions.
 */

const CREDIT_NORMAL = new Set(["Liability", "Equity", "Revenue"]);

export async function transactionDetail(
  db: Db,
  provider: QboProvider,
  accountId: string,
  query: { account: string; from: string; to: string; realmId?: string | undefined },
): Promise<TransactionDetail> {
  if (query.to < query.from) throw errors.badRequest("invalid_period", `The range ends (${query.to}) before it starts (${query.from}).`);
  const group = await loadGroup(db, accountId);
  const parent = group.requireParent("transaction detail follows the parent's chart of accounts");
  const [target] = await db
    .select()
    .from(qboAccounts)
    .where(and(eq(qboAccounts.realmId, parent.realmId), eq(qboAccounts.qboId, query.account)))
    .limit(1);
  if (!target) throw errors.notFound(`Account ${query.account} is not in ${parent.companyName}'s chart of accounts.`);
  if (query.realmId) group.company(query.realmId);

  const subsidiaries = group.subsidiaries.filter((c) => (!query.realmId || c.realmId === query.realmId));
  const maps = subsidiaries.length
    ? await db
        .select()
        .from(accountMaps)
        .where(and(inArray(accountMaps.realmId, subsidiaries.map((s) => s.realmId)), eq(accountMaps.parentAccountId, query.account)))
    : [];
  const members = [
    ...(!query.realmId || query.realmId === parent.realmId ? [{ company: parent, accounts: [query.account] }] : []),
    ...subsidiaries.map((s) => ({ company: s, accounts: maps.filter((m) => m.realmId === s.realmId).map((m) => m.subAccountId) })).filter((m) => m.accounts.length > 0),
  ];
  const currencies = [...new Set(members.map((m) => m.company.homeCurrency).filter((c) => c !== parent.homeCurrency))];
  const rates = currencies.length
    ? await db
        .select()
        .from(fxRates)
        .where(and(eq(fxRates.accountId, accountId), inArray(fxRates.currency, currencies), sql`${fxRates.month} between ${query.from} and ${query.to}`))
    : [];
  const averageOf = (currency: string, month: string) => (currency === parent.homeCurrency ? "1" : rates.find((r) => r.currency === currency && r.month === month)?.average || null);
  const pe = currencyExponent(parent.homeCurrency);
  const ours = new Set(
    [
      ...(await db.select({ id: consolidationPostings.journalEntryId }).from(consolidationPostings).where(eq(consolidationPostings.accountId, accountId))),
      ...(await db.select({ id: obalCompanies.journalEntryId }).from(obalCompanies).where(eq(obalCompanies.accountId, accountId))),
    ]
      .map((r) => r.id)
      .filter((id): id is string => !!id),
  );

  const companies: TransactionDetail["companies"] = [];
  const problems: TransactionDetail["problems"] = [];
  for (const m of members) {
    const names = new Map(
      (await db.select().from(qboAccounts).where(and(eq(qboAccounts.realmId, m.company.realmId), inArray(qboAccounts.qboId, m.accounts)))).map((a) => [a.qboId, a]),
    );
    const report: Report = await askQbo(
      {
        subject: m.company,
        ...(m.company.isParent ? { then: "post again" } : {}),
        unavailable: (e) => `QuickBooks did not answer for ${m.company.companyName}'s general ledger (${e.message}); try again.`,
      },
      () => provider.client(m.company.realmId).report("GeneralLedger", { start_date: `${query.from}-01`, end_date: lastDayOfMonth(query.to) }),
    );
    const ex = currencyExponent(m.company.homeCurrency);
    const transactions: TransactionDetail["companies"][number]["transactions"] = [];
    for (const row of report.rows) {
      const acct = row.sectionAccountId;
      if (row.kind !== "data" || !acct || !m.accounts.includes(acct)) continue;
      const date = row.cells[0]?.value ?? "";
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) continue; // Beginning Balance and other non-posting rows
      const a = names.get(acct);
      const natural = row.amounts[6] ?? 0;
      const local = a && CREDIT_NORMAL.has(a.classification) ? -natural : natural;
      const rate = averageOf(m.company.homeCurrency, date.slice(0, 7));
      if (rate === null && !problems.some((p) => p.message.includes(`${m.company.homeCurrency} ${date.slice(0, 7)}`))) {
        problems.push({ code: "missing_rate", message: `No average rate for ${m.company.homeCurrency} ${date.slice(0, 7)}: ${m.company.companyName}'s transactions of that month are shown in ${m.company.homeCurrency} only.` });
      }
      const type = row.cells[1];
      if (m.company.isParent && type?.id && ours.has(type.id)) continue;
      transactions.push({
        date,
        type: type?.value ?? "",
        txnId: type?.id ?? null,
        docNumber: row.cells[2]?.value || null,
        name: row.cells[3]?.value || null,
        memo: row.cells[4]?.value || null,
        accountId: acct,
        // A sub-account by its full name ("Wages and Salaries:Wages - Toronto"): its own name may repeat under another parent.
        accountName: a ? `${a.acctNum ? `${a.acctNum} ` : ""}${a.fullyQualifiedName}` : acct,
        local,
        rate,
        translated: rate === null ? null : mulDivRound(local, translationFactor(parseRate(rate), ex, pe)),
        url: type?.id && type.value === "Journal Entry" && m.company.isParent ? provider.journalEntryUrl(m.company.realmId, type.id) : null,
      });
    }
    companies.push({
      realmId: m.company.realmId,
      companyName: m.company.companyName,
      currency: m.company.homeCurrency,
      accounts: m.accounts.map((id) => ({ id, name: names.get(id)?.fullyQualifiedName ?? id })),
      transactions,
      totalLocal: transactions.reduce((s, t) => s + t.local, 0),
      totalTranslated: engineTotal(transactions, (month) => averageOf(m.company.homeCurrency, month), ex, pe),
    });
  }
  return {
    account: { id: target.qboId, name: target.name, classification: target.classification },
    period: { from: query.from, to: query.to },
    parentCurrency: parent.homeCurrency,
    companies,
    problems,
  };
}

/**
 * The company's total as the consolidation computes it: each account's month translated as one
 * sum at the month's average rate (so it equals the report's figure to the cent; the
 * per-transaction amounts above may round a cent apart).
 */
function engineTotal(transactions: readonly { date: string; accountId: string; local: number }[], rateOf: (month: string) => string | null, ex: number, pe: number): number | null {
  const sums = new Map<string, number>();
  for (const t of transactions) {
    const key = `${t.accountId}|${t.date.slice(0, 7)}`;
    sums.set(key, (sums.get(key) ?? 0) + t.local);
  }
  let total = 0;
  for (const [key, local] of sums) {
    const rate = rateOf(key.slice(key.indexOf("|") + 1));
    if (rate === null) return null;
    total += mulDivRound(local, translationFactor(parseRate(rate), ex, pe));
  }
  return total;
}
