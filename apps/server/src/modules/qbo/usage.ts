import { and, gte, inArray, lte, sql } from "drizzle-orm";
import type { CallKind, CallObserver } from "@groupledger/qbo";
import { QBO_MONTHLY_READ_ALLOWANCE, readOutlook, type CallCounts, type QboCalls } from "@groupledger/contract";
import { lastDayOfMonth, monthOf } from "@groupledger/domain";
import type { Db } from "../../db/client.ts";
import { qboCallCounts } from "../../db/schema.ts";
import { loadGroup } from "../group/service.ts";

/** How often each process writes what it counted. */
export const FLUSH_INTERVAL_MS = 5_000;
/** Rows per INSERT (4 parameters each, PostgreSQL allows 65,535 in a statement). */
const ROWS_PER_STATEMENT = 1_000;

interface Pending {
  readonly realmId: string;
  /** UTC, "YYYY-MM-DD". */
  readonly day: string;
  reads: number;
  writes: number;
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const none = (): CallCounts => ({ reads: 0, writes: 0 });

/**
 * The count of requests made to QuickBooks, per company per UTC day, reads and writes apart (issue
 * 21). `observe` is told of every request (QboProvider.observe: every client the server uses, the
 * embedded emulator's in-process calls as real ones); the counts gather in memory and `flush`
 * adds them to `qbo_call_counts` in a few statements (an upsert that adds, so processes sharing the
 * database add to one row), every few seconds once started and on `close`. A write that fails keeps
 * its counts for the next one.
 */
export class CallCounter {
  private pending = new Map<string, Pending>();
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly onFlushFailure: (error: unknown) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  readonly observe: CallObserver = (call) => this.add(call.realmId, call.kind, this.now());

  /** One request made at `at`. */
  add(realmId: string, kind: CallKind, at: Date): void {
    this.addTo(realmId, utcDay(at), kind === "read" ? 1 : 0, kind === "write" ? 1 : 0);
  }

  private addTo(realmId: string, day: string, reads: number, writes: number): void {
    const key = `${realmId}\u0000${day}`;
    let row = this.pending.get(key);
    if (row === undefined) this.pending.set(key, (row = { realmId, day, reads: 0, writes: 0 }));
    row.reads += reads;
    row.writes += writes;
  }

  /** Calls counted and not yet written, for tests and the log. */
  get unwritten(): number {
    let n = 0;
    for (const row of this.pending.values()) n += row.reads + row.writes;
    return n;
  }

  /** Writes what was counted so far; flushes run one after another. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.write());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  start(intervalMs: number = FLUSH_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush().catch(this.onFlushFailure), intervalMs).unref();
  }

  /** Stops the timer and writes what is left (before the database closes). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    let written = 0;
    try {
      for (; written < rows.length; written += ROWS_PER_STATEMENT) {
        await this.db
          .insert(qboCallCounts)
          .values(rows.slice(written, written + ROWS_PER_STATEMENT).map(({ realmId, day, reads, writes }) => ({ realmId, day, reads, writes })))
          .onConflictDoUpdate({
            target: [qboCallCounts.realmId, qboCallCounts.day],
            set: { reads: sql`qbo_call_counts.reads + excluded.reads`, writes: sql`qbo_call_counts.writes + excluded.writes` },
          });
      }
    } catch (error) {
      // Each statement commits on its own: what the failed ones held is counted again, added to
      // whatever was counted meanwhile.
      for (const row of rows.slice(written)) this.addTo(row.realmId, row.day, row.reads, row.writes);
      throw error;
    }
  }

  /**
   * GET /api/companies/calls: the calls of each company of the account's group today and this
   * month (UTC), with this process's latest counts written first, and the group's month against
   * Intuit's read allowance (readOutlook).
   */
  async ofGroup(accountId: string): Promise<QboCalls> {
    await this.flush();
    const now = this.now();
    const day = utcDay(now);
    const month = monthOf(now);
    const realmIds = (await loadGroup(this.db, accountId)).companies.map((c) => c.realmId);
    const rows =
      realmIds.length === 0
        ? []
        : await this.db
            .select()
            .from(qboCallCounts)
            .where(and(inArray(qboCallCounts.realmId, realmIds), gte(qboCallCounts.day, `${month}-01`), lte(qboCallCounts.day, lastDayOfMonth(month))));
    const companies: QboCalls["companies"] = Object.fromEntries(realmIds.map((realmId) => [realmId, { today: none(), month: none() }]));
    const total = none();
    for (const row of rows) {
      const company = companies[row.realmId]!;
      company.month.reads += row.reads;
      company.month.writes += row.writes;
      if (row.day === day) company.today = { reads: row.reads, writes: row.writes };
      total.reads += row.reads;
      total.writes += row.writes;
    }
    const outlook = readOutlook(total.reads, now, QBO_MONTHLY_READ_ALLOWANCE);
    return { day, month, companies, group: { month: total, projectedReads: outlook.projectedReads, allowance: QBO_MONTHLY_READ_ALLOWANCE, warn: outlook.warn } };
  }
}
