import { and, eq, inArray, sql } from "drizzle-orm";
import { SEGMENTS_OFF, type SegmentQuery, type SegmentReport, type SegmentsEnabled } from "@groupledger/contract";
import {
  consolidatedCashFlow,
  type ConsolidationOutput,
  currencyExponent,
  type Problem,
  type SegmentActivity,
  segmentBalanceSheet,
  segmentCashFlow,
  segmentChangesInEquity,
  segmentMovements,
  segmentStatement,
  shiftMonth,
} from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import type { Database } from "../../db/client.ts";
import { accounts, segmentBalances, segmentSyncs } from "../../db/schema.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { loadGroup } from "../group/service.ts";
import { enqueueSync } from "../sync/enqueue.ts";
import { buildConsolidationInput } from "../consolidation/input.ts";
import { consolidateBuilt } from "../consolidation/engine.ts";
import { checkReportPeriod, openingAnchor, periodLabel, reportGroup } from "../reports/report-period.ts";
import { changesInEquitySources } from "../reports/changes-in-equity.ts";
import { cashFlowClassOf, cashFlowSources } from "../cash-flow/service.ts";

/**
 * Segments (issue 23): the consolidated P&L (statement=income), balance sheet (statement=balance),
 * statement of cash flows (statement=cashflow) or changes in equity (statement=equity) by QuickBooks
 * class or location. The cash flow and the changes in equity take their consolidations, and their
 * total column, from the consolidated statements' own services (cash-flow/service.ts,
 * reports/changes-in-equity.ts). The group, its subsidiaries for the period and the opening
 * month are the consolidated report's (reports/report-period.ts), so the Total column is the
 * report's P&L or balance sheet; each company's segment activity (or closing balances at the
 * period's end) comes from segment_balances (sync/segments.ts) and is split by the domain's
 * segmentStatement or segmentBalanceSheet (packages/domain statements/segments.ts).
 */
export async function segmentReport(db: Db, accountId: string, query: SegmentQuery): Promise<SegmentReport> {
  const { from, to, by } = query;
  const kind = query.statement;
  checkReportPeriod(query, "statement");
  const { parent, subsidiariesFor, intercompany, opening } = await reportGroup(db, accountId, from, "the statement is in the parent's currency and onto its chart of accounts");
  const [account] = await db.select({ segments: accounts.segmentsEnabled }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  const header = { period: { from, to, label: periodLabel(from, to) }, parentCurrency: parent.homeCurrency, exponent: currencyExponent(parent.homeCurrency), by, kind };
  const none = { statement: null, balanceSheet: null, cashFlow: null, changesInEquity: null };
  if (account?.segments !== true) {
    return {
      ok: false,
      problems: [
        {
          code: SEGMENTS_OFF,
          message:
            "This group does not read its classes and locations from QuickBooks yet. Read them to see the statement by class or location: each company is synced now, and every later sync reads each class and location in use (a few more QuickBooks calls per company).",
        },
      ],
      warnings: [],
      ...header,
      ...none,
    };
  }
  const subsidiaries = subsidiariesFor(to);
  const realms = [parent.realmId, ...subsidiaries];
  /** The companies' segment amounts of a kind in a range of months (as stored: "YYYY-MM-01"). */
  const amounts = (stored: "activity" | "closing", months: { from: string; to: string }) =>
    db
      .select({ entity: segmentBalances.realmId, account: segmentBalances.qboAccountId, segment: segmentBalances.segmentName, month: segmentBalances.month, amount: segmentBalances.amountMinor })
      .from(segmentBalances)
      .where(and(inArray(segmentBalances.realmId, realms), eq(segmentBalances.dimension, by), eq(segmentBalances.kind, stored), sql`${segmentBalances.month} between ${`${months.from}-01`} and ${`${months.to}-01`}`))
      .then((rows) => rows.map((r) => ({ ...r, month: r.month.slice(0, 7) })));
  // Companies whose classes and locations no sync has read yet (connected before segments existed).
  const read = new Set((await db.select({ realmId: segmentSyncs.realmId }).from(segmentSyncs).where(inArray(segmentSyncs.realmId, realms))).map((r) => r.realmId));
  const notRead = (output: ConsolidationOutput) =>
    realms
      .filter((r) => !read.has(r))
      .map((r) => output.entities.find((e) => e.id === r)?.name ?? r)
      .map((name) => `${name}'s classes and locations have not been read from QuickBooks yet: its next sync reads them (Sync now on Connected Companies). Until then its lines are in the "${by === "class" ? "No class" : "No location"}" column.`);
  const answer = (problems: readonly Problem[], warnings: readonly string[]) => ({ problems: problems.map((p) => ({ code: p.code, message: p.message })), warnings: [...new Set(warnings)], ...header });
  const before = shiftMonth(from, -1);

  if (kind === "cashflow") {
    // The consolidated statement of cash flows' own consolidations (cash-flow/service.ts), with the companies' own beside them.
    const run = await cashFlowSources(db, accountId, { from, to }, { companies: true });
    if (!run.sources || !run.companies || run.problems.length > 0) return { ok: false, ...answer(run.problems, run.warnings), ...none };
    const { input, opening: start, closing } = run.sources;
    const [activity, balances] = await Promise.all([amounts("activity", { from, to }), amounts("closing", { from: before, to })]);
    const profit = segmentStatement({ output: closing, rates: input.rates, activity });
    const movements = segmentMovements({ input, opening: start, closing, balances, activity, classOf: run.sources.classOf });
    const cashFlow = segmentCashFlow({ movements, profit, total: consolidatedCashFlow(run.sources), companies: consolidatedCashFlow(run.companies), closing });
    return { ok: cashFlow.reconciles, ...answer([], [...notRead(closing), ...run.warnings, ...profit.warnings, ...cashFlow.warnings]), ...none, cashFlow };
  }
  if (kind === "equity") {
    // The consolidated statement of changes in equity's own consolidations (reports/changes-in-equity.ts).
    const run = await changesInEquitySources(db, accountId, { from, to });
    if (!run.sources || run.problems.length > 0) return { ok: false, ...answer(run.problems, run.warnings), ...none };
    const { input, start, closing, statement } = run.sources;
    const [activity, balances, classOf] = await Promise.all([amounts("activity", { from, to }), amounts("closing", { from: before, to }), cashFlowClassOf(db, accountId, parent.realmId)]);
    const profit = segmentStatement({ output: closing, rates: input.rates, activity });
    const movements = segmentMovements({ input, opening: start, closing, balances, activity, classOf });
    const at = (month: string) => balances.filter((b) => b.month === month);
    const openingSheet = segmentBalanceSheet({ output: start, balances: at(before) });
    const closingSheet = segmentBalanceSheet({ output: closing, balances: at(to) });
    const changesInEquity = segmentChangesInEquity({ statement, movements, profit, openingSheet, closingSheet });
    return { ok: changesInEquity.reconciles, ...answer([], [...notRead(closing), ...run.warnings, ...profit.warnings, ...movements.warnings]), ...none, changesInEquity };
  }

  const built = await buildConsolidationInput(db, { accountId, subsidiaries, period: { from, to }, openingMonth: openingAnchor(opening, from), intercompany, groupAdjustments: true });
  const problems: Problem[] = [...built.problems];
  const output = await consolidateBuilt(built.input, problems);
  const warnings = [...built.warnings, ...(output?.warnings ?? [])];
  if (!output || problems.length > 0) return { ok: false, ...answer(problems, warnings), ...none };
  if (kind === "balance") {
    // The balance sheet: the closing balances at the end of the period's last month.
    const balanceSheet = segmentBalanceSheet({ output, balances: await amounts("closing", { from: to, to }) });
    return { ok: balanceSheet.reconciles, ...answer([], [...notRead(output), ...warnings, ...balanceSheet.warnings]), ...none, balanceSheet };
  }
  const activity: SegmentActivity[] = await amounts("activity", { from, to });
  const statement = segmentStatement({ output, rates: built.input.rates ?? {}, activity });
  return { ok: statement.reconciles, ...answer([], [...notRead(output), ...warnings, ...statement.warnings]), ...none, statement };
}

/**
 * Turns segments on for the group and syncs each connected company now: the sync reads the
 * classes and locations in use for the company's whole history once (sync/segments.ts), then each
 * later sync reads them for the months it reads. Asking again re-queues nothing that is running.
 */
export async function enableSegments(database: Database, queue: JobQueue, accountId: string): Promise<SegmentsEnabled> {
  await database.db.update(accounts).set({ segmentsEnabled: true }).where(eq(accounts.id, accountId));
  const group = await loadGroup(database.db, accountId);
  const syncs: SegmentsEnabled["syncs"] = [];
  for (const company of group.companies.filter((c) => c.connection === "connected")) {
    const { jobId, alreadyRunning } = await enqueueSync(database, queue, company);
    syncs.push({ realmId: company.realmId, jobId, alreadyRunning });
  }
  return { enabled: true, syncs };
}

