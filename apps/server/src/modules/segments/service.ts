import { and, eq, inArray, sql } from "drizzle-orm";
import { SEGMENTS_OFF, type SegmentQuery, type SegmentReport, type SegmentsEnabled } from "@groupledger/contract";
import { currencyExponent, lastDayOfMonth, type Problem, type SegmentActivity, segmentBalanceSheet, segmentStatement } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import type { Database } from "../../db/client.ts";
import { accounts, segmentBalances, segmentSyncs } from "../../db/schema.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { loadGroup } from "../group/service.ts";
import { enqueueSync } from "../sync/enqueue.ts";
import { buildConsolidationInput } from "../consolidation/input.ts";
import { consolidateBuilt } from "../consolidation/engine.ts";
import { checkReportPeriod, openingAnchor, periodLabel, reportGroup } from "../reports/report-period.ts";

/**
 * Segments (issue 23): the consolidated P&L (statement=income) or balance sheet (statement=balance)
 * by QuickBooks class or location. The group, its subsidiaries for the period and the opening
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
      period: { from, to, label: periodLabel(from, to) },
      parentCurrency: parent.homeCurrency,
      exponent: currencyExponent(parent.homeCurrency),
      by,
      kind,
      statement: null,
      balanceSheet: null,
    };
  }
  const subsidiaries = subsidiariesFor(to);
  const built = await buildConsolidationInput(db, { accountId, subsidiaries, period: { from, to }, openingMonth: openingAnchor(opening, from), intercompany, groupAdjustments: true });
  const problems: Problem[] = [...built.problems];
  const output = await consolidateBuilt(built.input, problems);
  const base = {
    problems: problems.map((p) => ({ code: p.code, message: p.message })),
    warnings: [...new Set([...built.warnings, ...(output?.warnings ?? [])])],
    period: { from, to, label: periodLabel(from, to) },
    parentCurrency: parent.homeCurrency,
    exponent: currencyExponent(parent.homeCurrency),
    by,
    kind,
  };
  if (!output || problems.length > 0) return { ok: false, ...base, statement: null, balanceSheet: null };
  const balance = kind === "balance";
  const rows = await db
    .select({ realmId: segmentBalances.realmId, account: segmentBalances.qboAccountId, segment: segmentBalances.segmentName, month: segmentBalances.month, amount: segmentBalances.amountMinor })
    .from(segmentBalances)
    .where(
      and(
        inArray(segmentBalances.realmId, [parent.realmId, ...subsidiaries]),
        eq(segmentBalances.dimension, by),
        eq(segmentBalances.kind, balance ? "closing" : "activity"),
        // The balance sheet: the closing balances at the end of the period's last month.
        balance ? eq(segmentBalances.month, `${to}-01`) : sql`${segmentBalances.month} between ${`${from}-01`} and ${lastDayOfMonth(to)}`,
      ),
    );
  // Companies whose classes and locations no sync has read yet (connected before segments existed).
  const realms = [parent.realmId, ...subsidiaries];
  const read = new Set((await db.select({ realmId: segmentSyncs.realmId }).from(segmentSyncs).where(inArray(segmentSyncs.realmId, realms))).map((r) => r.realmId));
  const unread = realms.filter((r) => !read.has(r)).map((r) => output.entities.find((e) => e.id === r)?.name ?? r);
  const notRead = unread.map((name) => `${name}'s classes and locations have not been read from QuickBooks yet: its next sync reads them (Sync now on Connected Companies). Until then its lines are in the "${by === "class" ? "No class" : "No location"}" column.`);
  if (balance) {
    const balanceSheet = segmentBalanceSheet({ output, balances: rows.map((r) => ({ entity: r.realmId, account: r.account, segment: r.segment, amount: r.amount })) });
    return { ok: balanceSheet.reconciles, ...base, warnings: [...notRead, ...base.warnings, ...balanceSheet.warnings], statement: null, balanceSheet };
  }
  const activity: SegmentActivity[] = rows.map((r) => ({ entity: r.realmId, account: r.account, segment: r.segment, month: r.month.slice(0, 7), amount: r.amount }));
  const statement = segmentStatement({ output, rates: built.input.rates ?? {}, activity });
  return { ok: statement.reconciles, ...base, warnings: [...notRead, ...base.warnings, ...statement.warnings], statement, balanceSheet: null };
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

