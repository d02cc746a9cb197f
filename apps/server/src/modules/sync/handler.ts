import { and, eq, inArray, sql } from "drizzle-orm";
import type { SyncChanges } from "@groupledger/contract";
import { QboError } from "@groupledger/qbo";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import { accounts as accountsTable, companies, monthlyBalances, qboAccounts } from "../../db/schema.ts";
import { PermanentJobError, type JobHandler } from "../../jobs/worker.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { byQboId, lastDayOfMonth, monthCount, monthOf, shiftMonth } from "@groupledger/domain";
import { classificationOf, saveAccounts } from "../companies/chart.ts";
import { monthlyAmounts } from "./balances.ts";
import { type ForeignAccount, foreignLedgerParams, foreignMonthEnds, saveForeignBalances } from "./foreign.ts";
import { namesInPairs, readNames, saveNames, syncNameBalances } from "./names.ts";
import { groupLedgerClassIds, withoutPosted } from "./own-books.ts";
import { insertColumns } from "../../db/bulk-insert.ts";
import { chunkMonths, inChunk } from "./months.ts";
import { markSegmentsRead, readSegmentChunk, renameSegments, segmentColumnsRequests, segmentsOf, segmentsReadFrom, writeSegmentBalances } from "./segments.ts";

/** Months per report call: QBO answers wide reports, but smaller spans checkpoint more often. */
export const CHUNK_MONTHS = 36;
/** With no CompanyStartDate, how far back a first sync looks. */
const DEFAULT_HISTORY_YEARS = 5;
/** Transactions whose date they carry tell which months an incremental sync must pull again. */
const CDC_ENTITIES = ["JournalEntry", "Invoice", "SalesReceipt", "Payment", "Bill", "BillPayment", "Purchase", "Deposit", "Transfer", "CreditMemo", "VendorCredit", "RefundReceipt"];
/** Intuit keeps change data for 30 days; older syncs start over. */
const CDC_WINDOW_MS = 30 * 24 * 3600 * 1000;

export const REAUTHORIZE_MESSAGE =
  "QuickBooks Online asked for this company to be re-authorized (errorCode 003200). Reconnect it to continue syncing.";

interface Checkpoint extends Record<string, unknown> {
  from: string;
  to: string;
  doneThrough: string | null;
  /**
   * When the sync began (ISO), before it asked CDC what changed: the company is fresh as of then,
   * and the next sync asks CDC from then, so a change made while this one ran is not missed.
   * Absent in checkpoints written before it was kept.
   */
  asOf?: string;
  /** What the plan found changed (the company's `lastSyncChanges` without the months). */
  changes?: Omit<SyncChanges, "from" | "to" | "months">;
}

/**
 * Something built from a company's synced books that must look again once they changed
 * (re-consolidation: the periods posted for a subsidiary, the group adjustments). The composition
 * root (app.ts) hands these in, so sync, which the features build on, imports none of them. A
 * check that fails is logged and runs again after the next sync.
 */
export interface AfterSyncCheck {
  /** What is checked, for the log: "posted periods". */
  readonly what: string;
  /** Where the check's answer goes in the job's result (null when it failed), if anywhere. */
  readonly resultKey?: string;
  check(accountId: string, realmId: string): Promise<unknown>;
}

export function syncHandler(deps: { database: Database; provider: QboProvider; afterSync: readonly AfterSyncCheck[]; log?: FastifyBaseLogger; now?: () => Date }): JobHandler {
  const { database, provider } = deps;
  const { db } = database;
  const now = deps.now ?? (() => new Date());

  const setCompany = (realmId: string, set: Partial<typeof companies.$inferInsert>) =>
    db.update(companies).set({ ...set, updatedAt: new Date() }).where(eq(companies.realmId, realmId));

  return async (ctx) => {
    const startedAt = now();
    const realmId = String(ctx.job.payload["realmId"] ?? "");
    const [company] = await db.select().from(companies).where(eq(companies.realmId, realmId)).limit(1);
    if (!company) return { skipped: "the company was removed" };
    if (company.connection !== "connected") throw new PermanentJobError("the company is not connected");

    const progress = async (fraction: number, message: string, checkpoint?: Checkpoint) => {
      await ctx.progress(fraction, message, checkpoint);
      await setCompany(realmId, { syncState: "running", syncProgress: fraction.toFixed(4), syncMessage: message });
    };
    let calls = 0;
    const client = provider.client(realmId, { onCall: () => void calls++ });

    try {
      await progress(0.02, "Reading the chart of accounts, customers and vendors");
      // Everything read before the reports depends on nothing else read, so it is asked at once (one
      // round trip, 7 calls of the realm's 10 in flight): the chart, the preferences (the closing
      // date, "Close the books", may have moved since the last sync), customers and vendors, what
      // changed (CDC, or CompanyInfo for a full read), the classes (the parent's GroupLedger classes
      // among them) and the locations. Nothing is written until all have answered, then in the order
      // it always was.
      const current = monthOf(now());
      const resumed = ctx.checkpoint as Checkpoint | null;
      // Classes and locations cost calls on every sync: read only for a group that asked for its
      // segments (accounts.segments_enabled); the parent's classes are read always (its own books
      // are told from GroupLedger's entries by them).
      const [account] = await db.select({ segments: accountsTable.segmentsEnabled }).from(accountsTable).where(eq(accountsTable.id, company.accountId)).limit(1);
      const withSegments = account?.segments === true;
      const [chart, prefs, named, plan, classes, departments] = await Promise.all([
        client.accounts(),
        client.preferences(),
        readNames(client),
        resumed ?? planRange(client, company, current, startedAt),
        withSegments || company.isParent ? client.classes() : [],
        withSegments ? client.departments() : [],
      ]);
      const postedClasses = await groupLedgerClassIds(database, classes, company);
      // Classes and locations (segments.ts): each one's P&L is read per chunk beside the company's.
      const segments = withSegments ? segmentsOf(classes, departments, postedClasses) : [];
      await saveAccounts(db, realmId, chart, company.homeCurrency);
      if ((prefs.bookCloseDate ?? null) !== company.bookCloseDate) await setCompany(realmId, { bookCloseDate: prefs.bookCloseDate ?? null });
      const classification = new Map(chart.map((a) => [a.id, classificationOf(a)]));
      const names = await saveNames(database, realmId, named);

      const chunks = chunkMonths(plan.from, plan.to, CHUNK_MONTHS).filter((c) => !plan.doneThrough || c.to > plan.doneThrough);
      const total = chunkMonths(plan.from, plan.to, CHUNK_MONTHS).length;
      let unknown = 0;
      // Foreign-currency accounts (multicurrency): what they hold in their own currency, read once
      // from the company's first month, alongside the first chunk's reports (it needs only the chart
      // and the plan); saved after the balances, as before.
      const foreign: ForeignAccount[] = chart
        .filter((a) => a.currency !== undefined && a.currency !== company.homeCurrency)
        .map((a) => ({ id: a.id, currency: a.currency as string, creditNatured: ["Liability", "Equity"].includes(classificationOf(a)) }));
      const ledgerFrom = [plan.from, company.earliestTransactionDate ? monthOf(company.earliestTransactionDate) : plan.from].sort()[0]!;
      const ledger = foreign.length > 0 ? client.report("GeneralLedger", foreignLedgerParams(foreign, ledgerFrom, plan.to)) : null;
      // Awaited below; a failure before then (a report refused, the sync stopped) fails the sync, not this.
      ledger?.catch(() => undefined);
      for (const [i, chunk] of chunks.entries()) {
        if (ctx.signal.aborted) throw new Error("sync stopped");
        const done = total - chunks.length + i;
        await progress(0.05 + (0.9 * done) / total, `Fetching balances ${chunk.from} to ${chunk.to}`, { ...plan, doneThrough: plan.doneThrough });
        const params = { start_date: `${chunk.from}-01`, end_date: lastDayOfMonth(chunk.to), accounting_method: "Accrual", summarize_column_by: "Month" } as const;
        // The parent: what GroupLedger posted under its classes is not the parent's own books, so the
        // same reports filtered by those classes are read alongside (one round trip) and subtracted.
        const classed = postedClasses.length > 0 ? { ...params, class: postedClasses.join(",") } : null;
        const [bs, pl, postedBs, postedPl, ...segmentColumns] = await Promise.all([
          client.report("BalanceSheet", params),
          client.report("ProfitAndLoss", params),
          classed ? client.report("BalanceSheet", classed) : null,
          classed ? client.report("ProfitAndLoss", classed) : null,
          ...segmentColumnsRequests(client, params, segments),
        ]);
        // The classes and locations with lines in the chunk, each read month by month (segments.ts).
        const bySegment = await readSegmentChunk(client, params, segments, segmentColumns, (id) => classification.get(id));
        // Stopping (shutdown or a lost lease): leave this chunk to whoever resumes from the checkpoint.
        if (ctx.signal.aborted) throw new Error("sync stopped");
        const fromBs = monthlyAmounts(bs, (id) => classification.get(id));
        const fromPl = monthlyAmounts(pl, (id) => classification.get(id));
        unknown += fromBs.unknownAccounts.length + fromPl.unknownAccounts.length;
        const posted = [postedBs, postedPl].flatMap((r) => (r ? monthlyAmounts(r, (id) => classification.get(id)).amounts : []));
        const amounts = withoutPosted([...fromBs.amounts, ...fromPl.amounts], posted);
        await writeBalances(database, realmId, chunk, amounts);
        if (withSegments) await writeSegmentBalances(database, realmId, chunk, bySegment);
        plan.doneThrough = chunk.to;
        await ctx.progress(0.05 + (0.9 * (done + 1)) / total, `Fetched balances through ${chunk.to}`, { ...plan });
      }

      // A company whose earlier months' segments were never read (synced before segments existed,
      // and now read incrementally): those months' segments alone, chunk by chunk, once.
      const historyFrom = [plan.from, company.earliestTransactionDate ? monthOf(company.earliestTransactionDate) : plan.from].sort()[0]!;
      const segmentsFrom = withSegments ? await segmentsReadFrom(database, realmId) : null;
      if (withSegments && segments.length > 0 && historyFrom < plan.from && (segmentsFrom === null || segmentsFrom > historyFrom)) {
        for (const chunk of chunkMonths(historyFrom, shiftMonth(segmentsFrom !== null && segmentsFrom < plan.from ? segmentsFrom : plan.from, -1), CHUNK_MONTHS)) {
          if (ctx.signal.aborted) throw new Error("sync stopped");
          await progress(0.95, `Fetching classes and locations ${chunk.from} to ${chunk.to}`);
          const params = { start_date: `${chunk.from}-01`, end_date: lastDayOfMonth(chunk.to), accounting_method: "Accrual", summarize_column_by: "Month" } as const;
          const columns = await Promise.all(segmentColumnsRequests(client, params, segments));
          await writeSegmentBalances(database, realmId, chunk, await readSegmentChunk(client, params, segments, columns, (id) => classification.get(id)));
        }
      }
      if (withSegments) {
        await markSegmentsRead(database, realmId, historyFrom);
        await renameSegments(database, realmId, segments);
      }
      if (ledger) {
        await progress(0.95, `Reading ${foreign.length} foreign-currency account${foreign.length === 1 ? "" : "s"} in ${[...new Set(foreign.map((f) => f.currency))].join(", ")}`);
        await saveForeignBalances(database, realmId, foreignMonthEnds(await ledger, foreign, plan.to).balances);
      } else {
        await saveForeignBalances(database, realmId, []);
      }

      // Customers and vendors that intercompany pairs are limited to: their own balances.
      const paired = await namesInPairs(database, company.accountId, realmId);
      if (paired.length > 0) {
        const historyFrom = [plan.from, company.earliestTransactionDate ? monthOf(company.earliestTransactionDate) : plan.from].sort()[0]!;
        await syncNameBalances(
          database,
          realmId,
          client,
          paired,
          { changedFrom: plan.from, historyFrom, to: plan.to },
          (id) => classification.get(id),
          CHUNK_MONTHS,
          (done, of) => progress(0.95 + (0.02 * done) / of, `Fetching balances of ${paired.length} intercompany customer${paired.length === 1 ? "" : "s"} and vendor${paired.length === 1 ? "" : "s"} (${done} of ${of})`),
        );
      }

      await progress(0.97, "Finding accounts that never had a balance");
      const summary = await finish(database, company.accountId, realmId);
      const changes: SyncChanges | null = plan.changes ? { ...plan.changes, from: plan.from, to: plan.to, months: monthCount(plan.from, plan.to) } : null;
      await setCompany(realmId, {
        syncState: "succeeded",
        syncProgress: "1",
        syncMessage: unknown > 0 ? `Up to date (${unknown} report rows named accounts missing from the chart)` : "Up to date",
        lastSyncedAt: plan.asOf ? new Date(plan.asOf) : (ctx.job.startedAt ?? startedAt),
        ...(changes ? { lastSyncChanges: changes } : {}),
        earliestTransactionDate: summary.earliestMonth ? `${summary.earliestMonth}-01` : company.earliestTransactionDate,
      });
      const checked: Record<string, unknown> = {};
      for (const after of deps.afterSync) {
        const result = await after.check(company.accountId, realmId).catch((err: unknown) => {
          deps.log?.warn({ err, realmId }, `checking ${after.what} for changes failed; they are checked again on the next sync`);
          return null;
        });
        if (after.resultKey) checked[after.resultKey] = result;
      }
      await ctx.progress(1, "Up to date");
      return { calls, months: { from: plan.from, to: plan.to }, ...(changes ? { changes } : {}), accounts: chart.length, names, pairedNames: paired.length, neverABalance: summary.neverABalance.length, ...checked };
    } catch (err) {
      if (err instanceof QboError && err.kind === "reauthorize") {
        // The token store already marked the company for reconnection (PgTokenStore.refused).
        await setCompany(realmId, { syncState: "failed", syncMessage: REAUTHORIZE_MESSAGE });
        throw new PermanentJobError(REAUTHORIZE_MESSAGE);
      }
      const message = err instanceof Error ? err.message : String(err);
      await setCompany(realmId, { syncState: "failed", syncMessage: `Sync failed: ${message}. It will be retried.` });
      throw err;
    }
  };

  /**
   * A first sync covers the company's whole history; a later one only the months from the
   * earliest changed transaction (CDC) to now, or everything when CDC cannot say.
   */
  async function planRange(
    client: ReturnType<QboProvider["client"]>,
    company: typeof companies.$inferSelect,
    current: string,
    at: Date,
  ): Promise<Checkpoint> {
    const asOf = at.toISOString();
    const synced = company.lastSyncedAt && company.earliestTransactionDate ? company.lastSyncedAt : null;
    let full: Omit<SyncChanges, "kind" | "from" | "to" | "months"> = { reason: synced ? "cdc_window_passed" : "first_sync", changed: {}, deleted: 0 };
    if (synced && company.earliestTransactionDate && at.getTime() - synced.getTime() < CDC_WINDOW_MS) {
      const changes = await client.changeDataCapture(CDC_ENTITIES, synced);
      const records = Object.values(changes).flat();
      const deleted = records.filter((r) => r.deleted).length;
      const changed: Record<string, number> = {};
      for (const [entity, list] of Object.entries(changes)) {
        const count = list.filter((r) => !r.deleted).length;
        if (count > 0) changed[entity] = count;
      }
      const dates = records.map((r) => r.record["TxnDate"]).filter((d): d is string => typeof d === "string");
      if (deleted === 0) {
        const earliestChanged = dates.length > 0 ? monthOf(dates.sort()[0]!) : current;
        // The month last synced may have been incomplete then: always pull it again.
        const lastSynced = monthOf(synced);
        const from = [earliestChanged, lastSynced].sort()[0]!;
        return {
          from: from < monthOf(company.earliestTransactionDate) ? monthOf(company.earliestTransactionDate) : from,
          to: current,
          doneThrough: null,
          asOf,
          changes: { kind: "incremental", reason: null, changed, deleted: 0 },
        };
      }
      full = { reason: "transactions_deleted", changed, deleted };
    }
    const info = await client.companyInfo();
    const start = info.companyStartDate ? monthOf(info.companyStartDate) : shiftMonth(current, -12 * DEFAULT_HISTORY_YEARS);
    return { from: start, to: current, doneThrough: null, asOf, changes: { kind: "full", ...full } };
  }
}

/** Replaces the chunk's months in one transaction, so a re-run or a crash never leaves a mix. */
async function writeBalances(
  database: Database,
  realmId: string,
  chunk: { from: string; to: string },
  amounts: readonly { qboAccountId: string; month: string; kind: "closing" | "activity"; amountMinor: number }[],
): Promise<void> {
  await database.db.transaction(async (tx) => {
    await tx.delete(monthlyBalances).where(and(eq(monthlyBalances.realmId, realmId), inChunk(monthlyBalances.month, chunk)));
    const rows = amounts.map((a) => ({ realmId, qboAccountId: a.qboAccountId, month: `${a.month}-01`, kind: a.kind, amountMinor: a.amountMinor }));
    await insertColumns(tx, monthlyBalances, ["realmId", "qboAccountId", "month", "kind", "amountMinor"], rows);
  });
}

/** Never-a-balance flags (and the account record's nabAccounts entry) and the earliest month with a balance. */
async function finish(database: Database, accountId: string, realmId: string) {
  const { db } = database;
  const withBalance = await db
    .selectDistinct({ id: monthlyBalances.qboAccountId })
    .from(monthlyBalances)
    .where(and(eq(monthlyBalances.realmId, realmId), sql`${monthlyBalances.amountMinor} <> 0`));
  const ids = withBalance.map((r) => r.id);
  await db.update(qboAccounts).set({ everHadBalance: false }).where(eq(qboAccounts.realmId, realmId));
  if (ids.length > 0) {
    await db.update(qboAccounts).set({ everHadBalance: true }).where(and(eq(qboAccounts.realmId, realmId), inArray(qboAccounts.qboId, ids)));
  }
  const never = await db
    .select({ id: qboAccounts.qboId })
    .from(qboAccounts)
    .where(and(eq(qboAccounts.realmId, realmId), eq(qboAccounts.everHadBalance, false)));
  const neverABalance = never.map((r) => r.id).sort(byQboId);
  await db.transaction(async (tx) => {
    const [account] = await tx.select({ nab: accountsTable.nabAccounts }).from(accountsTable).where(eq(accountsTable.id, accountId)).for("update");
    const others = (account?.nab ?? []).filter((e) => e.realmId !== realmId);
    await tx
      .update(accountsTable)
      .set({ nabAccounts: [...others, { realmId, neverABalanceAccountsForCompany: neverABalance }], updatedAt: new Date() })
      .where(eq(accountsTable.id, accountId));
  });
  const [earliest] = await db
    .select({ month: sql<string>`to_char(min(${monthlyBalances.month}), 'YYYY-MM')` })
    .from(monthlyBalances)
    .where(and(eq(monthlyBalances.realmId, realmId), sql`${monthlyBalances.amountMinor} <> 0`));
  return { neverABalance, earliestMonth: earliest?.month ?? null };
}
