import { and, eq } from "drizzle-orm";
import type { CashFlowClasses, CashFlowQuery, CashFlowReport, PutCashFlowClassesBody } from "@groupledger/contract";
import {
  consolidatedCashFlow,
  currencyExponent,
  defaultCashFlowClass,
  isCashFlowClass,
  nciAccountOf,
  parseConsolidationInput,
  type CashFlowClass,
  type CashFlowSources,
  type ChartAccount,
  type Problem,
  qboEquityKind,
  shiftMonth,
  withoutIntraGroupEliminations,
} from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { cashFlowClasses } from "../../db/schema.ts";
import { errors } from "../../http/errors.ts";
import type { UserRow } from "../../http/auth.ts";
import { chartOf } from "../companies/chart.ts";
import { buildConsolidationInput } from "../consolidation/input.ts";
import { consolidateBuilt } from "../consolidation/engine.ts";
import { loadGroup, type CompanyRow } from "../group/service.ts";
import { checkReportPeriod, periodLabel, reportGroup } from "../reports/report-period.ts";

/**
 * The consolidated statement of cash flows (issue 23; the rules: packages/domain statements/cash-flow.ts,
 * docs/engine.md "Statement of cash flows") and the cash-flow class of each parent balance-sheet account.
 *
 * The statement needs the group consolidated at two month-ends of one roll-forward: the period's
 * last and the one before its first. The group, the subsidiaries in it and the opening month follow
 * the consolidated report's rules (reports/report.ts), except that the roll-forward must open before
 * the month-end before the period: the locked opening balances' anchor when it is, else a fresh
 * start two months before the period. Cash flows and the cash do not depend on where a fresh start is
 * (balances at the closing rate, profit at the average rates); only the split of opening equity between
 * retained earnings and the CTA would, and the statement does not show it.
 */

/** The parent's balance-sheet accounts whose place in the statement is fixed by their nature, with why. */
function fixedAccounts(chart: readonly ChartAccount[], parent: CompanyRow): Map<string, string> {
  const fixed = new Map<string, string>();
  for (const a of chart) {
    if (a.classification !== "Equity") continue;
    const kind = qboEquityKind(a.accountSubType);
    if (kind === "retainedEarnings" || kind === "dividends") fixed.set(a.id, "Retained earnings: the period's profit (operating) and the dividends paid (financing).");
  }
  if (parent.ctaAccountId) fixed.set(parent.ctaAccountId, "Translation reserve (CTA): exchange differences, not cash flows.");
  const nci = nciAccountOf(chart);
  if (nci) fixed.set(nci.id, "Non-controlling interests: their share of profit and of the CTA, and dividends paid to them (financing).");
  return fixed;
}

async function chosenClasses(db: Db, accountId: string, realmId: string): Promise<Map<string, CashFlowClass>> {
  const rows = await db
    .select({ account: cashFlowClasses.qboAccountId, cls: cashFlowClasses.cashFlowClass })
    .from(cashFlowClasses)
    .where(and(eq(cashFlowClasses.accountId, accountId), eq(cashFlowClasses.realmId, realmId)));
  return new Map(rows.filter((r) => isCashFlowClass(r.cls)).map((r) => [r.account, r.cls as CashFlowClass]));
}

/** Every balance-sheet account of the parent: its default class, the group's choice, and those fixed by their nature. */
export async function cashFlowClassesOf(db: Db, accountId: string): Promise<CashFlowClasses> {
  const group = await loadGroup(db, accountId);
  const parent = group.requireParent("cash-flow classes are those of the parent's accounts");
  const chart = (await chartOf(db, parent.realmId)).sort((a, b) => (a.acctNum ?? "").localeCompare(b.acctNum ?? "") || a.name.localeCompare(b.name));
  const chosen = await chosenClasses(db, accountId, parent.realmId);
  const fixed = fixedAccounts(chart, parent);
  const result: CashFlowClasses = { accounts: [], fixed: [] };
  for (const a of chart) {
    const defaultClass = defaultCashFlowClass(a.classification, a.accountType, a.accountSubType);
    if (!defaultClass) continue;
    const reason = fixed.get(a.id);
    if (reason) {
      result.fixed.push({ account: a.id, name: a.name, reason });
      continue;
    }
    const chosenClass = chosen.get(a.id) ?? null;
    result.accounts.push({
      account: a.id,
      name: a.name,
      accountNumber: a.acctNum,
      classification: a.classification,
      accountType: a.accountType,
      accountSubType: a.accountSubType,
      defaultClass,
      chosenClass,
      cashFlowClass: chosenClass ?? defaultClass,
    });
  }
  return result;
}

/** Sets (or, with null, clears back to the default) the class of parent accounts; all or nothing. */
export async function saveCashFlowClasses(db: Db, user: UserRow, body: PutCashFlowClassesBody): Promise<CashFlowClasses> {
  const group = await loadGroup(db, user.accountId);
  const parent = group.requireParent("cash-flow classes are those of the parent's accounts");
  const chart = await chartOf(db, parent.realmId);
  const byId = new Map(chart.map((a) => [a.id, a]));
  const fixed = fixedAccounts(chart, parent);
  const seen = new Set<string>();
  body.classes.forEach(({ account }, i) => {
    const path = `classes.${i}.account`;
    const a = byId.get(account);
    if (!a) throw errors.badRequest("unknown_account", `Account ${account} is not in ${parent.companyName}'s chart of accounts.`, { fields: [{ path, message: "not an account of the parent" }] });
    if (!defaultCashFlowClass(a.classification, a.accountType, a.accountSubType)) {
      throw errors.badRequest("not_a_balance_sheet_account", `${a.name} is a ${a.classification.toLowerCase()} account: its amounts are in the period's profit, not classed.`, { fields: [{ path, message: "a profit and loss account" }] });
    }
    const reason = fixed.get(account);
    if (reason) throw errors.badRequest("fixed_cash_flow_class", `${a.name} has a fixed place in the statement of cash flows. ${reason}`, { fields: [{ path, message: "fixed by its nature" }] });
    if (seen.has(account)) throw errors.badRequest("duplicate_account", `Account ${a.name} is given twice.`, { fields: [{ path, message: "given twice" }] });
    seen.add(account);
  });
  await db.transaction(async (tx) => {
    for (const { account, cashFlowClass } of body.classes) {
      const key = and(eq(cashFlowClasses.accountId, user.accountId), eq(cashFlowClasses.realmId, parent.realmId), eq(cashFlowClasses.qboAccountId, account));
      if (cashFlowClass === null) {
        await tx.delete(cashFlowClasses).where(key);
        continue;
      }
      await tx
        .insert(cashFlowClasses)
        .values({ accountId: user.accountId, realmId: parent.realmId, qboAccountId: account, cashFlowClass, updatedBy: user.id })
        .onConflictDoUpdate({ target: [cashFlowClasses.accountId, cashFlowClasses.realmId, cashFlowClasses.qboAccountId], set: { cashFlowClass, updatedBy: user.id, updatedAt: new Date() } });
    }
  });
  return cashFlowClassesOf(db, user.accountId);
}

/** A parent account's cash-flow class: the group's choice, else the default from its QuickBooks type. */
export async function cashFlowClassOf(db: Db, accountId: string, parentRealmId: string): Promise<(account: string) => CashFlowClass | undefined> {
  const chosen = await chosenClasses(db, accountId, parentRealmId);
  const chart = new Map((await chartOf(db, parentRealmId)).map((a) => [a.id, a]));
  return (account) => {
    const a = chart.get(account);
    return chosen.get(account) ?? (a ? defaultCashFlowClass(a.classification, a.accountType, a.accountSubType) : undefined);
  };
}

export interface CashFlowRun {
  parent: CompanyRow;
  problems: Problem[];
  warnings: string[];
  /** The statement's sources; null when either consolidation cannot be made. */
  sources: CashFlowSources | null;
  /** The same group's sources without its intra-group eliminations (asked with `companies`): the companies' own cash flows. */
  companies: CashFlowSources | null;
}

/**
 * The two consolidations the statement needs (the period's and the month-end before it, of one
 * roll-forward) and each account's class; with `companies`, the same two again without the
 * intra-group eliminations (the statement by segment's Eliminations column is the difference).
 */
export async function cashFlowSources(db: Db, accountId: string, query: CashFlowQuery, options: { companies?: boolean } = {}): Promise<CashFlowRun> {
  const { from, to } = query;
  checkReportPeriod(query, "statement");
  // The consolidated report's group (reports/report-period.ts): archived before the period, or acquired after it, a subsidiary takes no part.
  const { parent, subsidiariesFor, intercompany, opening: locked } = await reportGroup(db, accountId, from, "the statement is in the parent's currency and onto its chart of accounts");
  const subsidiaries = subsidiariesFor(to);
  const openingMonth = locked && locked.anchor < shiftMonth(from, -1) ? locked.anchor : shiftMonth(from, -2);

  const problems: Problem[] = [];
  const warnings: string[] = [];
  const run = async (period: { from: string; to: string }) => {
    const built = await buildConsolidationInput(db, { accountId, subsidiaries, period, openingMonth, intercompany, groupAdjustments: true });
    problems.push(...built.problems);
    const found: Problem[] = [...built.problems];
    const output = await consolidateBuilt(built.input, found);
    problems.push(...found.slice(built.problems.length));
    warnings.push(...built.warnings, ...(output?.warnings ?? []));
    // The companies' own: the engine's input without the intra-group eliminations (never refused when the whole is not).
    const companies = options.companies && output ? await consolidateBuilt(withoutIntraGroupEliminations(built.input), problems) : null;
    return { built, output, companies };
  };
  const closing = await run({ from, to });
  const before = shiftMonth(from, -1);
  const opening = closing.output ? await run({ from: before, to: before }) : null;
  if (!closing.output || !opening?.output || problems.length) return { parent, problems, warnings: [...new Set(warnings)], sources: null, companies: null };
  const classOf = await cashFlowClassOf(db, accountId, parent.realmId);
  const sources: CashFlowSources = { input: parseConsolidationInput(closing.built.input), opening: opening.output, closing: closing.output, classOf };
  const companies: CashFlowSources | null =
    closing.companies && opening.companies ? { input: parseConsolidationInput(withoutIntraGroupEliminations(closing.built.input)), opening: opening.companies, closing: closing.companies, classOf } : null;
  return { parent, problems, warnings: [...new Set(warnings)], sources, companies };
}

/** The statement for a month or range, or the problems that stop either consolidation it needs. */
export async function cashFlowReport(db: Db, accountId: string, query: CashFlowQuery): Promise<CashFlowReport> {
  const { from, to } = query;
  const { parent, problems, warnings, sources } = await cashFlowSources(db, accountId, query);
  const base = {
    problems: problems.map((p) => ({ code: p.code, message: p.message })),
    warnings,
    period: { from, to, label: periodLabel(from, to) },
    parentCurrency: parent.homeCurrency,
    exponent: currencyExponent(parent.homeCurrency),
  };
  if (!sources) return { ok: false, ...base, statement: null };
  return { ok: true, ...base, statement: consolidatedCashFlow(sources) };
}
