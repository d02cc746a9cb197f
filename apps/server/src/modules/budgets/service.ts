import { and, eq, gte, inArray, lte } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import type { BudgetImportResult, BudgetOverview, BudgetVsActualQuery, BudgetVsActualReport, FieldError, PutBudgetRatesBody } from "@groupledger/contract";
import {
  budgetCutMessage,
  budgetDetailSpan,
  budgetFiscalYear,
  budgetTemplateRows,
  budgetVsActual,
  currencyExponent,
  fiscalYearRange,
  formatMonth,
  isBudgetClassification,
  isBudgetEntryType,
  missingBudgetRates,
  monthList,
  normalizeRate,
  periodAround,
  RATE_MESSAGE,
  readBudgetRows,
  shiftMonth,
  spanCadence,
  spanEnd,
  spanFit,
  spanMonths,
  toCsv,
  type BudgetEntity,
  type BudgetPair,
  type BudgetSection,
  type BudgetSpan,
  type IntercompanyPair,
  type BudgetStatementAccount,
  type Problem,
} from "@groupledger/domain";
import { AmountError, amountFromJsonNumber, budgetSchema, type Budget } from "@groupledger/qbo";
import type { Db } from "../../db/client.ts";
import { accountMaps, budgetLines, budgetRates } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { chartOf } from "../companies/chart.ts";
import { buildConsolidationInput } from "../consolidation/input.ts";
import { consolidateBuilt } from "../consolidation/engine.ts";
import { loadGroup, type CompanyRow } from "../group/service.ts";
import { askQbo } from "../qbo/errors.ts";
import { checkReportPeriod, MAX_REPORT_MONTHS, openingAnchor, periodLabel, reportGroup } from "../reports/report-period.ts";
import { toleranceOf } from "../eliminations/tolerance.ts";

/**
 * Budget vs actual (issue 23; the rules: packages/domain budgets/, docs/engine.md "Budget vs
 * actual"). Budgets are kept per company account and month in the company's own currency
 * (budget_lines), read on demand from each company's QuickBooks budgets (one query per company:
 * budgets change a few times a year, so the sync does not spend a call on them every night) or
 * imported from CSV where QuickBooks keeps none. Budget rates are set per currency and fiscal year
 * of the parent (budget_rates, admins). The statement maps each company's budget through the
 * account mapping onto the parent's chart, translates it at the budget rate, and sets it against
 * the consolidated P&L of the period at the actual rates and at the budget rate.
 *
 * A budget line covers `months` months from its month (a QuickBooks budget entered quarterly or
 * annually keeps one amount per quarter or year, never spread): the statement uses it over a
 * period that holds it whole and says which period to choose when the period cuts it. The group's
 * revenue/expense pairs (the eliminations configuration, the same pairs the consolidation
 * eliminates) eliminate the budgets of their two sides.
 */

const month = (date: string) => date.slice(0, 7);
const firstDay = (m: string) => `${m}-01`;

/**
 * The budget lines of the group (or of some companies) with a month inside `from`–`to`: a line
 * starting before `from` is included when its span reaches into the period (no span is longer
 * than a report's longest period).
 */
async function linesOverlapping(db: Db, accountId: string, from: string, to: string, realmIds?: readonly string[]) {
  const rows = await db
    .select({ realmId: budgetLines.realmId, account: budgetLines.qboAccountId, month: budgetLines.month, months: budgetLines.months, amount: budgetLines.amountMinor, source: budgetLines.source, name: budgetLines.sourceName })
    .from(budgetLines)
    .where(and(eq(budgetLines.accountId, accountId), realmIds ? inArray(budgetLines.realmId, [...realmIds]) : undefined, gte(budgetLines.month, firstDay(shiftMonth(from, 1 - MAX_REPORT_MONTHS))), lte(budgetLines.month, firstDay(to))));
  return rows.map((r) => ({ ...r, month: month(r.month) })).filter((r) => spanEnd(r) >= from);
}

/** The companies a budget belongs to: the parent and the subsidiaries not archived. */
async function budgetCompanies(db: Db, accountId: string) {
  const group = await loadGroup(db, accountId);
  const parent = group.requireParent("budgets are consolidated in the parent's currency and onto its chart of accounts");
  return { parent, companies: [parent, ...group.unarchivedSubsidiaries] };
}

function fiscalMonths(parent: CompanyRow, fiscalYear: number): { from: string; to: string } {
  const range = fiscalYearRange(fiscalYear, parent.fiscalYearStartMonth);
  return { from: formatMonth(range.from), to: formatMonth(range.to) };
}

async function ratesOf(db: Db, accountId: string, fiscalYear: number): Promise<Map<string, string>> {
  const rows = await db.select().from(budgetRates).where(and(eq(budgetRates.accountId, accountId), eq(budgetRates.fiscalYear, fiscalYear)));
  return new Map(rows.map((r) => [r.currency, r.rate]));
}

/** The year's budget rates and, for each company, where its budget comes from and which months have none. */
export async function budgetOverview(db: Db, accountId: string, fiscalYear: number): Promise<BudgetOverview> {
  const { parent, companies } = await budgetCompanies(db, accountId);
  const { from, to } = fiscalMonths(parent, fiscalYear);
  const rates = await ratesOf(db, accountId, fiscalYear);
  const foreign = [...new Set(companies.map((c) => c.homeCurrency).filter((c) => c !== parent.homeCurrency))].sort();
  const lines = await linesOverlapping(db, accountId, from, to);
  const months = monthList(from, to);
  const inYear = (l: BudgetSpan) => spanMonths(l).filter((m) => m >= from && m <= to);
  return {
    fiscalYear,
    months: { from, to },
    parentCurrency: parent.homeCurrency,
    rates: foreign.map((currency) => ({ currency, rate: rates.get(currency) ?? null })),
    companies: companies.map((c) => {
      const own = lines.filter((l) => l.realmId === c.realmId);
      const bySource = new Map<string, { source: "quickbooks" | "csv"; name: string; months: Set<string>; span: number; lines: number; total: number }>();
      for (const l of own) {
        const key = `${l.source}|${l.name}`;
        const s = bySource.get(key) ?? { source: l.source, name: l.name, months: new Set<string>(), span: 1, lines: 0, total: 0 };
        for (const m of inYear(l)) s.months.add(m);
        s.span = Math.max(s.span, l.months);
        s.lines += 1;
        s.total += l.amount;
        bySource.set(key, s);
      }
      const covered = new Set(own.flatMap(inYear));
      return {
        realmId: c.realmId,
        companyName: c.companyName,
        currency: c.homeCurrency,
        isParent: c.isParent,
        sources: [...bySource.values()].map((s) => {
          const sorted = [...s.months].sort();
          return { source: s.source, name: s.name, from: sorted[0]!, to: sorted.at(-1)!, months: sorted.length, entered: spanCadence(s.span), lines: s.lines, total: s.total };
        }),
        missingMonths: months.filter((m) => !covered.has(m)),
      };
    }),
  };
}

/** Sets the year's budget rates (all or nothing); an empty rate clears one. */
export async function saveBudgetRates(db: Db, user: UserRow, body: PutBudgetRatesBody): Promise<BudgetOverview> {
  const { parent, companies } = await budgetCompanies(db, user.accountId);
  const foreign = new Set(companies.map((c) => c.homeCurrency).filter((c) => c !== parent.homeCurrency));
  const fields: FieldError[] = [];
  const seen = new Set<string>();
  const values: { currency: string; rate: string | null }[] = [];
  body.rates.forEach(({ currency, rate }, i) => {
    const path = `rates.${i}`;
    if (currency === parent.homeCurrency) fields.push({ path: `${path}.currency`, message: `${currency} is the parent's currency: its budget rate is 1.` });
    else if (!foreign.has(currency)) fields.push({ path: `${path}.currency`, message: `No company of the group keeps its books in ${currency}.` });
    else if (seen.has(currency)) fields.push({ path: `${path}.currency`, message: `${currency} is given twice.` });
    seen.add(currency);
    if (rate.trim() === "") return void values.push({ currency, rate: null });
    const normal = normalizeRate(rate);
    if (normal === null) fields.push({ path: `${path}.rate`, message: `${currency}: ${RATE_MESSAGE}` });
    else values.push({ currency, rate: normal });
  });
  if (fields.length) throw new AppError(400, "invalid_budget_rates", fields.length === 1 ? fields[0]!.message : `${fields.length} problems; no rate was saved.`, { fields });
  await db.transaction(async (tx) => {
    for (const { currency, rate } of values) {
      const key = and(eq(budgetRates.accountId, user.accountId), eq(budgetRates.fiscalYear, body.fiscalYear), eq(budgetRates.currency, currency));
      if (rate === null) await tx.delete(budgetRates).where(key);
      else
        await tx
          .insert(budgetRates)
          .values({ accountId: user.accountId, fiscalYear: body.fiscalYear, currency, rate, updatedBy: user.id })
          .onConflictDoUpdate({ target: [budgetRates.accountId, budgetRates.fiscalYear, budgetRates.currency], set: { rate, updatedBy: user.id, updatedAt: new Date() } });
    }
  });
  return budgetOverview(db, user.accountId, body.fiscalYear);
}

type NewLine = { realmId: string; account: string; month: string; months: number; amount: number };

/**
 * Replaces a company's budget for the months given, all in one transaction: every line whose span
 * reaches into them goes (a quarter's amount partly replaced by a monthly import would otherwise be
 * counted twice), the months of it outside them then showing as without a budget.
 */
async function replaceLines(db: Db, user: UserRow, realmId: string, batches: readonly { source: "quickbooks" | "csv"; name: string; months: readonly string[]; lines: readonly NewLine[] }[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const b of batches) {
      if (b.months.length) {
        const sorted = [...b.months].sort();
        const touched = (await linesOverlapping(tx, user.accountId, sorted[0]!, sorted.at(-1)!, [realmId])).filter((l) => spanMonths(l).some((m) => b.months.includes(m)));
        const starts = [...new Set(touched.map((l) => firstDay(l.month)))];
        if (starts.length) await tx.delete(budgetLines).where(and(eq(budgetLines.accountId, user.accountId), eq(budgetLines.realmId, realmId), inArray(budgetLines.month, starts)));
      }
      for (let i = 0; i < b.lines.length; i += 1000) {
        await tx.insert(budgetLines).values(
          b.lines.slice(i, i + 1000).map((l) => ({ accountId: user.accountId, realmId, qboAccountId: l.account, month: firstDay(l.month), months: l.months, amountMinor: l.amount, source: b.source, sourceName: b.name, importedBy: user.id })),
        );
      }
    }
  });
}

/**
 * Reads the companies' budgets from QuickBooks (one query each) and keeps the active profit and
 * loss budgets that cover a month of the parent's fiscal year, monthly, quarterly or annual, each
 * amount kept for the month, quarter or year it is for (never spread). Checked in full before
 * anything is saved: two active budgets for the same month of a company, a budget on an account
 * its chart (as last synced) does not have, or an amount with more decimals than the company's
 * currency, is a 409 and nothing changes.
 */
export async function readQuickBooksBudgets(db: Db, provider: QboProvider, user: UserRow, body: { fiscalYear: number; realmId?: string | undefined }): Promise<BudgetImportResult> {
  const { parent, companies: all } = await budgetCompanies(db, user.accountId);
  const companies = body.realmId === undefined ? all : all.filter((c) => c.realmId === body.realmId);
  if (companies.length === 0) throw errors.notFound(`Company ${body.realmId} is not in your group.`);
  const year = fiscalMonths(parent, body.fiscalYear);
  const imported: BudgetImportResult["imported"] = [];
  const skipped: BudgetImportResult["skipped"] = [];
  const plans: { company: CompanyRow; batches: { source: "quickbooks"; name: string; entered: string; months: string[]; lines: NewLine[] }[] }[] = [];
  for (const company of companies) {
    const budgets: Budget[] = await askQbo(
      { subject: company, unavailable: (e) => `QuickBooks did not answer for ${company.companyName}'s budgets (${e.message}); try again.` },
      () => provider.client(company.realmId).query("SELECT * FROM Budget", budgetSchema),
    );
    const chart = new Map((await chartOf(db, company.realmId)).map((a) => [a.id, a]));
    const exponent = currencyExponent(company.homeCurrency);
    const chosen: { budget: Budget & { entryType: "Monthly" | "Quarterly" | "Annually" }; months: string[] }[] = [];
    for (const b of budgets) {
      const skip = (reason: string) => skipped.push({ realmId: company.realmId, companyName: company.companyName, name: b.name, reason });
      const from = month(b.startDate);
      const to = month(b.endDate);
      if (!b.active) continue;
      if (to < year.from || from > year.to) continue;
      const entryType = b.entryType;
      if (b.budgetType !== "ProfitAndLoss") skip(`a ${b.budgetType} budget; only profit and loss budgets are compared with the consolidated P&L.`);
      else if (!isBudgetEntryType(entryType)) skip(`entered "${entryType}", which is not a QuickBooks budget period (Monthly, Quarterly or Annually); import it as CSV.`);
      else chosen.push({ budget: { ...b, entryType }, months: monthList(from, to) });
    }
    if (chosen.length === 0) {
      skipped.push({ realmId: company.realmId, companyName: company.companyName, name: null, reason: `No active profit and loss budget in QuickBooks for ${year.from} to ${year.to}; import one as CSV.` });
      continue;
    }
    const owner = new Map<string, string>();
    for (const { budget, months } of chosen) {
      for (const m of months) {
        const other = owner.get(m);
        if (other !== undefined) {
          throw errors.conflict("ambiguous_budgets", `${company.companyName} has two active budgets for ${m} in QuickBooks, "${other}" and "${budget.name}". Make one of them inactive in QuickBooks, then read again.`);
        }
        owner.set(m, budget.name);
      }
    }
    const batches = chosen.map(({ budget, months }) => {
      const sums = new Map<string, number>();
      const spans = new Map<string, number>();
      for (const d of budget.details) {
        const a = chart.get(d.accountId);
        if (!a) throw errors.conflict("budget_account_unknown", `${company.companyName}'s budget "${budget.name}" is on ${d.accountName ? `account ${d.accountName} (id ${d.accountId})` : `account id ${d.accountId}`}, which is not in its chart of accounts as last synced. Sync ${company.companyName}, then read again.`);
        if (!isBudgetClassification(a.classification)) continue; // QuickBooks keeps P&L budgets on P&L accounts only
        const span = budgetDetailSpan(budget.entryType, months[0]!, months.at(-1)!, d.budgetDate);
        if (!span) continue; // dated outside its own budget: QuickBooks keeps none such
        const m = span.month;
        const key = `${a.id}|${m}`;
        spans.set(m, span.months);
        let amount: number;
        try {
          amount = amountFromJsonNumber(d.amount, exponent);
        } catch (e) {
          if (!(e instanceof AmountError)) throw e;
          throw errors.conflict(
            "budget_amount_unreadable",
            `${company.companyName}'s budget "${budget.name}" has ${d.amount} on ${a.name} for ${m}, which is not an amount in ${company.homeCurrency} (at most ${exponent} decimal places). Correct it in QuickBooks, then read again.`,
          );
        }
        sums.set(key, (sums.get(key) ?? 0) + amount);
      }
      const lines = [...sums].map(([key, amount]) => {
        const [account, m] = key.split("|") as [string, string];
        return { realmId: company.realmId, account, month: m, months: spans.get(m)!, amount };
      });
      return { source: "quickbooks" as const, name: budget.name, entered: spanCadence(budget.entryType === "Monthly" ? 1 : budget.entryType === "Quarterly" ? 3 : months.length), months, lines };
    });
    plans.push({ company, batches });
  }
  for (const { company, batches } of plans) {
    await replaceLines(db, user, company.realmId, batches);
    for (const b of batches) imported.push({ realmId: company.realmId, companyName: company.companyName, name: b.name, entered: b.entered, lines: b.lines.length, from: b.months[0]!, to: b.months.at(-1)! });
  }
  return { imported, skipped, overview: await budgetOverview(db, user.accountId, body.fiscalYear) };
}

/**
 * A company's budget from a CSV file (account,month,amount): every bad line named in one 400,
 * nothing saved unless all are good; replaces the company's budget for the months in the file.
 */
export async function importBudgetCsv(db: Db, user: UserRow, realmId: string, text: string, fiscalYear: number, fileName = "CSV import"): Promise<BudgetImportResult> {
  const { companies } = await budgetCompanies(db, user.accountId);
  const company = companies.find((c) => c.realmId === realmId);
  if (!company) throw errors.notFound(`Company ${realmId} is not in your group.`);
  let records: string[][];
  try {
    records = parse(text, { skip_empty_lines: true, bom: true, relax_column_count: true }) as string[][];
  } catch (e) {
    throw errors.badRequest("invalid_csv", `The file is not valid CSV: ${e instanceof Error ? e.message : String(e)}`);
  }
  const chart = await chartOf(db, realmId);
  const { rows, errors: bad } = readBudgetRows(records, chart, currencyExponent(company.homeCurrency), company.companyName);
  if (bad.length) {
    const fields: FieldError[] = bad.map((e) => ({ path: `line ${e.line}`, message: e.message }));
    throw new AppError(400, "invalid_csv", fields.length === 1 ? fields[0]!.message : `${fields.length} problems in the file; nothing was imported.`, { fields });
  }
  const months = [...new Set(rows.map((r) => r.month))].sort();
  await replaceLines(db, user, realmId, [{ source: "csv", name: fileName, months, lines: rows.map((r) => ({ realmId, account: r.account, month: r.month, months: 1, amount: r.amount })) }]);
  return {
    imported: [{ realmId, companyName: company.companyName, name: fileName, entered: spanCadence(1), lines: rows.length, from: months[0]!, to: months.at(-1)! }],
    skipped: [],
    overview: await budgetOverview(db, user.accountId, fiscalYear),
  };
}

/** A company's budget template for the fiscal year: every active income and expense account by month, amounts blank. */
export async function budgetTemplate(db: Db, accountId: string, realmId: string, fiscalYear: number): Promise<{ name: string; csv: string }> {
  const { parent, companies } = await budgetCompanies(db, accountId);
  const company = companies.find((c) => c.realmId === realmId);
  if (!company) throw errors.notFound(`Company ${realmId} is not in your group.`);
  const { from, to } = fiscalMonths(parent, fiscalYear);
  return { name: `budget-template-${realmId}-FY${fiscalYear}.csv`, csv: toCsv(budgetTemplateRows(await chartOf(db, realmId), monthList(from, to))) };
}

const sectionOf = (classification: string): BudgetSection | null => (classification === "Revenue" ? "revenue" : classification === "Expense" ? "expenses" : null);

/**
 * The statement for a month or range within one fiscal year of the parent. 400 when the period
 * runs over two fiscal years or a member's currency has no budget rate for the year (named);
 * ok false with problems when the consolidation cannot be made or a budget line sits on an
 * account that is not mapped onto the parent's chart.
 */
export async function budgetVsActualReport(db: Db, accountId: string, query: BudgetVsActualQuery): Promise<BudgetVsActualReport> {
  const { from, to } = query;
  checkReportPeriod(query, "statement");
  const { parent, subsidiariesFor, intercompany, opening } = await reportGroup(db, accountId, from, "the statement is in the parent's currency and onto its chart of accounts");
  const fiscalYear = budgetFiscalYear(from, to, parent.fiscalYearStartMonth);
  if (fiscalYear === null) {
    throw errors.badRequest("period_spans_fiscal_years", `${from} to ${to} runs over two of ${parent.companyName}'s fiscal years, which have their own budget rates; choose months within one fiscal year.`);
  }
  const group = await loadGroup(db, accountId);
  const members = [parent, ...subsidiariesFor(to).map((r) => group.company(r))];
  const rates = await ratesOf(db, accountId, fiscalYear);
  const missing = missingBudgetRates(parent.homeCurrency, members.map((m) => m.homeCurrency), rates);
  if (missing.length) {
    const who = (c: string) => members.filter((m) => m.homeCurrency === c).map((m) => m.companyName).join(", ");
    throw errors.badRequest(
      "budget_rate_missing",
      `No budget rate for ${missing.map((c) => `${c} (${who(c)})`).join(" or ")} in fiscal year ${fiscalYear}: set it under Budget vs actual → Budget rates. Nothing was computed.`,
      { currencies: missing, fiscalYear },
    );
  }

  const base = { period: { from, to, label: periodLabel(from, to) }, parentCurrency: parent.homeCurrency, exponent: currencyExponent(parent.homeCurrency), fiscalYear };
  const built = await buildConsolidationInput(db, { accountId, subsidiaries: members.filter((m) => !m.isParent).map((m) => m.realmId), period: { from, to }, openingMonth: openingAnchor(opening, from), intercompany, groupAdjustments: true });
  const found: Problem[] = [...built.problems];
  const output = await consolidateBuilt(built.input, found);
  const warnings = [...built.warnings, ...(output?.warnings ?? [])];
  if (!output || found.length) return { ok: false, ...base, problems: found.map((p) => ({ code: p.code, message: p.message })), warnings, statement: null };

  // The parent's P&L accounts, in chart order, and any the consolidated P&L shows besides.
  const parentChart = (await chartOf(db, parent.realmId)).sort((a, b) => (a.acctNum ?? "").localeCompare(b.acctNum ?? "") || a.name.localeCompare(b.name));
  const accounts: BudgetStatementAccount[] = [];
  const known = new Map<string, BudgetSection>();
  const addAccount = (account: string, name: string, section: BudgetSection) => {
    if (known.has(account)) return;
    known.set(account, section);
    accounts.push({ account, name, section });
  };
  for (const a of parentChart) {
    const s = sectionOf(a.classification);
    if (s) addAccount(a.id, a.name, s);
  }
  const { incomeStatement } = output;
  for (const l of incomeStatement.revenue) addAccount(l.account, l.name, "revenue");
  for (const l of incomeStatement.expenses) addAccount(l.account, l.name, "expenses");
  const actual = new Map<string, number>();
  for (const l of incomeStatement.revenue) actual.set(l.account, (actual.get(l.account) ?? 0) + l.amount);
  for (const l of incomeStatement.expenses) actual.set(l.account, (actual.get(l.account) ?? 0) + l.amount);

  // Budgets: each company's lines for the period, whole months, quarters or years inside it, mapped onto the parent's chart.
  const overlapping = await linesOverlapping(db, accountId, from, to, members.map((m) => m.realmId));
  const lines = overlapping.filter((l) => spanFit(l, from, to) === "inside");
  const problems: { code: string; message: string }[] = [];
  const cut = overlapping.filter((l) => spanFit(l, from, to) === "cut");
  if (cut.length) {
    const suggestion = periodAround(from, to, cut);
    const suggestionWithinFiscalYear = budgetFiscalYear(suggestion.from, suggestion.to, parent.fiscalYearStartMonth) !== null;
    for (const m of members) {
      const own = cut.filter((l) => l.realmId === m.realmId);
      for (const name of [...new Set(own.map((l) => l.name))]) {
        const spans = [...new Map(own.filter((l) => l.name === name).map((l) => [l.month, { month: l.month, months: l.months }])).values()].sort((a, b) => a.month.localeCompare(b.month));
        problems.push({ code: "budget_period_cut", message: budgetCutMessage({ company: m.companyName, budget: name, from, to, cut: spans, suggestion, suggestionWithinFiscalYear }) });
      }
    }
  }
  const maps = await db.select().from(accountMaps).where(inArray(accountMaps.realmId, members.filter((m) => !m.isParent).map((m) => m.realmId)));
  const entities: BudgetEntity[] = [];
  /** Each member's budget for the period per own account, local minor units: the pairs' sides. */
  const ownBudget = new Map<string, Map<string, number>>();
  /** Each member's own account → the parent account it is mapped onto. */
  const targetOf = new Map<string, (account: string) => string | undefined>();
  for (const m of members) {
    const chart = new Map((await chartOf(db, m.realmId)).map((a) => [a.id, a]));
    const mapOf = new Map(maps.filter((r) => r.realmId === m.realmId).map((r) => [r.subAccountId, r.parentAccountId]));
    targetOf.set(m.realmId, (account) => (m.isParent ? account : mapOf.get(account)));
    const byOwnAccount = new Map<string, number>();
    ownBudget.set(m.realmId, byOwnAccount);
    const budget = new Map<string, number>();
    for (const l of lines.filter((x) => x.realmId === m.realmId)) {
      byOwnAccount.set(l.account, (byOwnAccount.get(l.account) ?? 0) + l.amount);
      const own = chart.get(l.account);
      const target = m.isParent ? l.account : mapOf.get(l.account);
      const section = target === undefined ? undefined : known.get(target);
      if (!target || !section) {
        const what = own ? `${own.acctNum ? `${own.acctNum} ` : ""}${own.name}` : `account ${l.account}`;
        const message = !target
          ? `${m.companyName}'s budget for ${what} cannot be consolidated: the account is not mapped onto ${parent.companyName}'s chart. Map it under Account Mapping.`
          : `${m.companyName}'s budget for ${what} is mapped onto a balance-sheet account of ${parent.companyName}; a budget is compared on profit and loss accounts.`;
        if (!problems.some((p) => p.message === message)) problems.push({ code: "budget_account_unmapped", message });
        continue;
      }
      budget.set(target, (budget.get(target) ?? 0) + l.amount);
    }
    const result = output.entities.find((e) => e.id === m.realmId);
    const actualLocal = new Map<string, number>();
    const actualTranslated = new Map<string, number>();
    for (const line of result?.lines ?? []) {
      if (line.account === null || line.special !== null) continue; // CTA, remeasurement: stay at the actual rates
      const section = sectionOf(line.classification);
      if (!section) continue;
      addAccount(line.parentAccount, line.name, section);
      const sign = known.get(line.parentAccount) === "revenue" ? -1 : 1;
      actualLocal.set(line.parentAccount, (actualLocal.get(line.parentAccount) ?? 0) + sign * line.local);
      actualTranslated.set(line.parentAccount, (actualTranslated.get(line.parentAccount) ?? 0) + sign * line.translated);
    }
    entities.push({ id: m.realmId, name: m.companyName, currency: m.homeCurrency, exponent: currencyExponent(m.homeCurrency), budget, actualLocal, actualTranslated });
    const covered = new Set(overlapping.filter((x) => x.realmId === m.realmId).flatMap(spanMonths));
    const without = monthList(from, to).filter((x) => !covered.has(x));
    if (without.length) warnings.push(`${m.companyName} has no budget for ${without.length === 1 ? without[0] : `${without.length} months (${without[0]} to ${without.at(-1)})`}: its budget counts as nil there. Read it from QuickBooks or import a CSV under Budget vs actual.`);
  }
  if (problems.length) return { ok: false, ...base, problems, warnings: [...new Set(warnings)], statement: null };
  const pairs = await budgetPairs(db, accountId, intercompany, members, known, ownBudget, targetOf, warnings);
  const statement = budgetVsActual({ parentCurrency: parent.homeCurrency, exponent: base.exponent, accounts, actual, entities, budgetRates: rates, pairs });
  return { ok: true, ...base, problems: [], warnings: [...new Set(warnings)], statement };
}

/**
 * The group's revenue/expense pairs (the eliminations configuration the consolidation eliminates
 * by: reportGroup's `intercompany`) whose two companies are members for the period, each side with
 * its company's budget on the paired account. A side limited to one customer or vendor cannot be
 * told apart in a budget kept per account, and a side mapped off the statement's revenue and
 * expense lines cannot be eliminated from them: such a pair is left out of the budget's
 * eliminations with a warning naming it, never guessed.
 */
async function budgetPairs(
  db: Db,
  accountId: string,
  intercompany: readonly IntercompanyPair[],
  members: readonly CompanyRow[],
  known: ReadonlyMap<string, BudgetSection>,
  ownBudget: ReadonlyMap<string, ReadonlyMap<string, number>>,
  targetOf: ReadonlyMap<string, (account: string) => string | undefined>,
  warnings: string[],
): Promise<BudgetPair[]> {
  const flows = intercompany.filter((p) => p.kind === "revenueExpense" && ownBudget.has(p.left.entity) && ownBudget.has(p.right.entity));
  if (flows.length === 0) return [];
  const tolerance = await toleranceOf(db, accountId);
  const names = new Map<string, string>();
  for (const m of members) for (const a of await chartOf(db, m.realmId)) names.set(`${m.realmId}:${a.id}`, a.acctNum ? `${a.acctNum} ${a.name}` : a.name);
  const out: BudgetPair[] = [];
  for (const p of flows) {
    const sides = [p.left, p.right].map((side) => {
      const account = targetOf.get(side.entity)!(side.account);
      return { entity: side.entity, account: account ?? "", accountName: names.get(`${side.entity}:${side.account}`) ?? `account ${side.account}`, local: ownBudget.get(side.entity)!.get(side.account) ?? 0, limited: side.name !== undefined };
    });
    const [left, right] = sides as [(typeof sides)[number], (typeof sides)[number]];
    const company = (id: string) => members.find((m) => m.realmId === id)!.companyName;
    if (left.local === 0 && right.local === 0) continue; // nothing budgeted on either side: nothing to eliminate
    if (left.limited || right.limited) {
      const side = left.limited ? left : right;
      warnings.push(`The intra-group pair "${p.name}" is not eliminated from the budget: its side in ${company(side.entity)} is only the part of ${side.accountName} with one customer or vendor, and a budget is kept per account. Budget the intra-group trade on an account of its own to have it eliminated.`);
      continue;
    }
    const sections = sides.map((x) => known.get(x.account));
    if (!sections.includes("revenue") || !sections.includes("expenses")) {
      warnings.push(`The intra-group pair "${p.name}" is not eliminated from the budget: ${company(left.entity)} ${left.accountName} and ${company(right.entity)} ${right.accountName} are not mapped onto one revenue and one expense account of the parent.`);
      continue;
    }
    out.push({ id: p.id, name: p.name, tolerance, left: { entity: left.entity, account: left.account, accountName: left.accountName, local: left.local }, right: { entity: right.entity, account: right.account, accountName: right.accountName, local: right.local } });
  }
  return out;
}
