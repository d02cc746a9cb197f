import { and, eq, lte } from "drizzle-orm";
import { balancesByAccount } from "@groupledger/qbo";
import {
  ConsolidationInputError,
  type ConsolidationInputJson,
  diagnoseVerify,
  entryChanges,
  firstPostableMonth,
  fiscalYearStart,
  formatIssue,
  formatMonth,
  lastDayOfMonth,
  monthsNotPosted,
  parseMonth,
  type PostedEntryFacts,
  shiftMonth,
} from "@groupledger/domain";
import type { RunPeriod, VerifyResult } from "@groupledger/contract";
import { consolidateOrThrow } from "../consolidation/engine.ts";
import type { Db } from "../../db/client.ts";
import { acquisitions, consolidationPostings, obalCompanies } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { loadGroup } from "../group/service.ts";
import { buildConsolidationInput } from "../consolidation/input.ts";
import { asEnginePair, pairRows } from "../eliminations/view.ts";
import { counterpartsOf } from "../posting/foreign-accounts.ts";
import { ADJUSTMENTS_REALM, INTERCO_REALM, openingDocNumber } from "../posting/names.ts";
import { askQbo } from "../qbo/errors.ts";
import { DataVersionCache } from "../../services/data-version-cache.ts";
import { openingOf, resolvePeriod } from "../runs/entry.ts";

/**
 * Verify (issue 9): reconciles, at a month-end,
 * 1. each subsidiary: the translated trial balance the engine computes from the roll-forward
 *    anchor to the month (what its opening balance and every month's entry should add up to)
 *    against the entries GroupLedger posted into the parent for it, as QuickBooks holds them
 *    now (an entry deleted or edited there shows up);
 * 2. the group: the parent's own TrialBalance in QuickBooks (its books plus everything posted
 *    into them) against the engine's consolidation of the fiscal year to date, before NCI
 *    (which is not posted). QuickBooks closes profit into retained earnings at each year-end
 *    while the engine keeps dividends apart, so retained earnings and dividends are compared
 *    as one line.
 * Every difference is listed by account; nothing is rounded away. Then why (`causes`, the
 * domain's runs/verify-causes.ts): months not posted, opening balances not posted, and entries
 * deleted or edited in QuickBooks (each entry read back is compared with the lines posted) or out
 * of date. QuickBooks is asked twice: every posted entry at once, and the parent's trial balance.
 */

type Diff = VerifyResult["subsidiaries"][number]["differences"][number];

const compared = (expected: ReadonlyMap<string, number>, actual: ReadonlyMap<string, number>) => new Set([...expected.keys(), ...actual.keys()]).size;

function differences(expected: ReadonlyMap<string, number>, actual: ReadonlyMap<string, number>, names: ReadonlyMap<string, string>): Diff[] {
  const out: Diff[] = [];
  for (const account of new Set([...expected.keys(), ...actual.keys()])) {
    const e = expected.get(account) ?? 0;
    const a = actual.get(account) ?? 0;
    if (e !== a) out.push({ account, name: names.get(account) ?? account, expected: e, actual: a, difference: a - e });
  }
  return out.sort((x, y) => x.account.localeCompare(y.account));
}

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

/** A subsidiary's translated trial balance at a month-end by parent account (and the worksheet's account names), or why it cannot be computed. */
type SubTrialBalance = { ok: true; expected: ReadonlyMap<string, number>; names: readonly (readonly [string, string])[] } | { ok: false; why: string };

/**
 * Each subsidiary's translated trial balance by account, month and data version: Verify asked again
 * (a team checking after each post, 2 a second in the soak) builds and runs the engine for each
 * subsidiary only after a change to what it is computed from. What QuickBooks holds, the posted
 * entries and the opening balances posted are read on every Verify.
 */
const subTrialBalances = new DataVersionCache<SubTrialBalance>(200);

async function translatedTrialBalance(db: Db, accountId: string, realmId: string, anchor: string, month: string): Promise<SubTrialBalance> {
  const built = await buildConsolidationInput(db, { accountId, subsidiaries: [realmId], period: { from: shiftMonth(anchor, 1), to: month }, openingMonth: anchor }, { parentBalances: false });
  try {
    const out = await consolidateOrThrow(built.input);
    const expected = new Map<string, number>();
    for (const l of out.entities.find((e) => e.id === realmId)!.lines) if (l.translated !== 0) add(expected, l.parentAccount, l.translated);
    return { ok: true, expected, names: out.worksheet.rows.map((r) => [r.account, r.name] as const) };
  } catch (e) {
    if (!(e instanceof ConsolidationInputError)) throw e;
    return { ok: false, why: built.problems[0]?.message ?? formatIssue(e.issues[0]!) };
  }
}

/** `dataVersion`: the account's as the request read it (auth.ts), which keeps each subsidiary's translation for the next Verify. */
export async function verify(db: Db, provider: QboProvider, accountId: string, requested: RunPeriod, dataVersion?: number): Promise<VerifyResult> {
  const accountGroup = await loadGroup(db, accountId);
  const parent = accountGroup.requireParent("there is nothing to verify yet");
  const period = resolvePeriod(parent, { ...requested, kind: "month" });
  const month = period.to;
  const opening = await openingOf(db, accountId, parent);
  if (month < opening.month) throw errors.badRequest("before_opening", `${month} is before the opening month ${opening.month}: nothing was posted for it.`);
  const client = provider.client(parent.realmId);
  const qbo = <T>(what: string, fn: () => Promise<T>): Promise<T> =>
    askQbo({ subject: "parent", then: "post again", unavailable: (e) => `QuickBooks did not answer ${what} (${e.message}); try again.` }, fn);

  const { subsidiaries } = accountGroup;
  const obal = await db.select().from(obalCompanies).where(eq(obalCompanies.accountId, accountId));
  const postings = await db
    .select()
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.accountId, accountId), eq(consolidationPostings.status, "posted"), lte(consolidationPostings.periodTo, month)));
  const acquiredMonth = new Map(
    (await db.select({ realmId: acquisitions.realmId, acquiredOn: acquisitions.acquiredOn }).from(acquisitions).where(eq(acquisitions.accountId, accountId))).map((a) => [a.realmId, a.acquiredOn.slice(0, 7)]),
  );
  const names = new Map<string, string>();

  // Every entry GroupLedger posted that Verify compares, read back in one call (an `Id IN` query,
  // or a batch of them for thousands: issue 21), instead of one call per entry.
  const postedIds = [
    ...obal.filter((o) => o.postedAt && o.journalEntryId && subsidiaries.some((s) => s.realmId === o.realmId)).map((o) => o.journalEntryId!),
    ...postings.filter((p) => p.journalEntryId).map((p) => p.journalEntryId!),
  ];
  const held = await qbo("with the posted entries", () => client.journalEntriesById(postedIds));

  /** What QuickBooks holds now of each entry read back, by journal entry id. */
  const inQuickBooks = new Map<string, { state: PostedEntryFacts["inQuickBooks"]; changedAccounts: number }>();
  const readBack = (journalEntryId: string, posted: readonly { account: string; debit: number; credit: number }[] | null) => {
    const entry = held.get(journalEntryId) ?? null;
    const changed = entry && posted ? entryChanges(posted, entry.lines).length : 0;
    const state = !entry ? "deleted" : changed > 0 ? "edited" : "as_posted";
    inQuickBooks.set(journalEntryId, { state, changedAccounts: changed });
    return entry;
  };

  // --- 1. Each subsidiary: engine vs what was posted for it ---------------------------------
  const subResults: VerifyResult["subsidiaries"] = [];
  for (const sub of subsidiaries) {
    const opened = obal.find((o) => o.realmId === sub.realmId && o.postedAt && o.journalEntryId);
    if (!opened) {
      subResults.push({ realmId: sub.realmId, companyName: sub.companyName, status: "not_posted", message: `${sub.companyName}'s opening balance is not posted; nothing to reconcile.`, missingMonths: [], missingEntries: [], accounts: 0, differences: [] });
      continue;
    }
    const mine = postings.filter((p) => p.realmId === sub.realmId);
    const missingMonths = monthsNotPosted(
      firstPostableMonth(opening.month, acquiredMonth.get(sub.realmId) ?? null),
      month,
      mine.map((p) => ({ from: p.periodFrom, to: p.periodTo })),
    );

    const computeSub = () => translatedTrialBalance(db, accountId, sub.realmId, opening.anchor, month);
    // Kept by data version (what it is computed from moves it), when the caller read one.
    const translated = dataVersion === undefined ? await computeSub() : await subTrialBalances.get(accountId, dataVersion, `verify|${sub.realmId}|${opening.anchor}|${month}`, computeSub);
    if (!translated.ok) {
      subResults.push({ realmId: sub.realmId, companyName: sub.companyName, status: "not_computable", message: `${sub.companyName} cannot be translated at ${month}: ${translated.why}`, missingMonths, missingEntries: [], accounts: 0, differences: [] });
      continue;
    }
    for (const [account, name] of translated.names) names.set(account, name);
    const { expected } = translated;
    const actual = new Map<string, number>();
    const missingEntries: string[] = [];
    const read = [
      { id: opened.journalEntryId!, docNumber: openingDocNumber(opening.month, sub.realmId), lines: null },
      ...mine.filter((p) => p.journalEntryId).map((p) => ({ id: p.journalEntryId!, docNumber: p.docNumber, lines: p.lines })),
    ];
    for (const { id, docNumber, lines } of read) {
      const entry = readBack(id, lines);
      if (!entry) {
        missingEntries.push(docNumber);
        continue;
      }
      for (const l of entry.lines) add(actual, l.accountId, l.postingType === "Debit" ? l.amount : -l.amount);
    }
    const diffs = differences(expected, actual, names);
    subResults.push({
      realmId: sub.realmId,
      companyName: sub.companyName,
      status: diffs.length === 0 && missingEntries.length === 0 ? "ok" : "differences",
      message:
        diffs.length === 0 && missingEntries.length === 0
          ? `What is posted for ${sub.companyName} through ${month} equals its translated trial balance.`
          : [
              missingMonths.length ? `Months not posted: ${missingMonths.join(", ")}.` : "",
              missingEntries.length ? `Entries no longer in QuickBooks: ${missingEntries.join(", ")}.` : "",
              diffs.length ? `${diffs.length} account${diffs.length === 1 ? "" : "s"} differ.` : "",
            ]
              .filter(Boolean)
              .join(" "),
      missingMonths,
      missingEntries,
      accounts: compared(expected, actual),
      differences: diffs,
    });
  }

  // --- 2. The group: the parent's QuickBooks trial balance vs the engine ---------------------
  const fyStart = formatMonth(fiscalYearStart(parseMonth(month), parent.fiscalYearStartMonth));
  const intercompany = (await pairRows(db, accountId)).map(asEnginePair);
  const posted = subsidiaries.filter((s) => obal.some((o) => o.realmId === s.realmId && o.postedAt)).map((s) => s.realmId);
  const built = await buildConsolidationInput(db, { accountId, subsidiaries: posted, period: { from: fyStart, to: month }, openingMonth: opening.anchor < fyStart ? opening.anchor : shiftMonth(fyStart, -1), intercompany, groupAdjustments: true });
  let group: VerifyResult["group"];
  try {
    const out = await consolidateOrThrow(built.input);
    const merged = mergedEquity(built.input);
    const expected = new Map<string, number>();
    const nciColumn = out.worksheet.columns.findIndex((c) => c.id === "nci");
    const consolidatedColumn = out.worksheet.columns.findIndex((c) => c.id === "consolidated");
    for (const r of out.worksheet.rows) {
      names.set(r.account, r.name);
      if (r.role !== "account") continue;
      const amount = r.amounts.reduce((s, a, i) => (i === nciColumn || i === consolidatedColumn ? s : s + a), 0);
      if (amount !== 0) add(expected, merged.get(r.account) ?? r.account, amount);
    }
    const tb = balancesByAccount(await qbo("with the parent's trial balance", () => client.report("TrialBalance", { start_date: `${fyStart}-01`, end_date: lastDayOfMonth(month) })));
    const actual = new Map<string, number>();
    // A foreign-currency account's counterpart holds GroupLedger's entries for it (posting/foreign-accounts.ts): the two are one account here.
    const counterparts = await counterpartsOf(db, parent);
    for (const [account, [amount = 0]] of tb) {
      const own = counterparts.get(account) ?? account;
      if (amount !== 0) add(actual, merged.get(own) ?? own, amount);
    }
    names.set(RE_AND_DIVIDENDS, "Retained earnings and dividends");
    const eliminationsPosted = postings.some((p) => p.realmId === INTERCO_REALM);
    const adjustmentsPosted = postings.some((p) => p.realmId === ADJUSTMENTS_REALM);
    const adjusting = (built.input.eliminations?.investments?.length ?? 0) > 0;
    const diffs = differences(expected, actual, names);
    group = {
      status: diffs.length === 0 ? "ok" : "differences",
      message:
        diffs.length === 0
          ? `${parent.companyName}'s trial balance in QuickBooks at ${month} equals the consolidation before non-controlling interests.`
          : `${diffs.length} account${diffs.length === 1 ? "" : "s"} differ${intercompany.length && !eliminationsPosted ? "; no elimination entry is posted yet" : ""}${adjusting && !adjustmentsPosted ? "; no group adjustment entry is posted yet" : ""}.`,
      accounts: compared(expected, actual),
      differences: diffs,
    };
  } catch (e) {
    if (!(e instanceof ConsolidationInputError)) throw e;
    group = { status: "not_computable", message: `The consolidation at ${month} cannot be computed: ${built.problems[0]?.message ?? formatIssue(e.issues[0]!)}`, accounts: 0, differences: [] };
  }

  // --- 3. Why: the facts the domain's rules read ---------------------------------------------
  for (const p of postings) {
    if ((p.realmId === INTERCO_REALM || p.realmId === ADJUSTMENTS_REALM) && p.journalEntryId) readBack(p.journalEntryId, p.lines);
  }
  const company = new Map(accountGroup.companies.map((c) => [c.realmId, c]));
  const kindOf = (realmId: string): PostedEntryFacts["kind"] => (realmId === INTERCO_REALM ? "eliminations" : realmId === ADJUSTMENTS_REALM ? "adjustments" : "subsidiary");
  const fact = (journalEntryId: string | null): Pick<PostedEntryFacts, "inQuickBooks" | "changedAccounts"> => {
    const seen = journalEntryId ? inQuickBooks.get(journalEntryId) : undefined;
    return { inQuickBooks: seen?.state ?? "as_posted", changedAccounts: seen?.changedAccounts ?? 0 };
  };
  const entries: PostedEntryFacts[] = [
    ...obal
      .filter((o) => o.postedAt && o.journalEntryId && company.has(o.realmId))
      .map((o) => ({
        kind: "opening" as const,
        realmId: o.realmId,
        companyName: company.get(o.realmId)!.companyName,
        from: opening.month,
        to: opening.month,
        docNumber: openingDocNumber(opening.month, o.realmId),
        url: o.journalEntryUrl,
        stale: false,
        ...fact(o.journalEntryId),
      })),
    ...postings.map((p) => ({
      kind: kindOf(p.realmId),
      realmId: kindOf(p.realmId) === "subsidiary" ? p.realmId : null,
      companyName: company.get(p.realmId)?.companyName ?? null,
      from: p.periodFrom,
      to: p.periodTo,
      docNumber: p.docNumber,
      url: p.journalEntryUrl,
      stale: p.stale !== null,
      ...fact(p.journalEntryId),
    })),
  ];
  const inGroup = subsidiaries.filter((s) => !s.archivedAt);
  const acquiredInGroup = posted.map((r) => acquiredMonth.get(r)).filter((m): m is string => m !== undefined).sort();
  const causes = diagnoseVerify({
    month,
    openingMonth: opening.month,
    subsidiaries: inGroup.map((s) => ({
      realmId: s.realmId,
      companyName: s.companyName,
      openingPosted: obal.some((o) => o.realmId === s.realmId && o.postedAt && o.journalEntryId),
      acquiredMonth: acquiredMonth.get(s.realmId) ?? null,
    })),
    entries,
    eliminationsFrom: intercompany.length > 0 ? shiftMonth(opening.month, 1) : null,
    adjustmentsFrom: (built.input.eliminations?.investments?.length ?? 0) > 0 ? (acquiredInGroup[0] ?? shiftMonth(opening.month, 1)) : null,
  });

  const ok = group.status === "ok" && subResults.every((s) => s.status === "ok" || s.status === "not_posted");
  return { month, openingMonth: opening.month, parentCurrency: parent.homeCurrency, ok, subsidiaries: subResults, group, causes };
}

const RE_AND_DIVIDENDS = "(retained earnings and dividends)";

/** The parent's retained earnings and dividends accounts, compared as one line. */
function mergedEquity(input: ConsolidationInputJson): Map<string, string> {
  const parent = input.entities.find((e) => e.role === "parent");
  const merged = new Map<string, string>();
  for (const a of parent?.accounts ?? []) if (a.equityKind === "retainedEarnings" || a.equityKind === "dividends") merged.set(a.id, RE_AND_DIVIDENDS);
  return merged;
}

