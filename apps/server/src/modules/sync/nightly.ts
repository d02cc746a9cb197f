import { and, eq, exists, isNull, lt, or, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { Ticker } from "../../jobs/ticker.ts";
import { NIGHTLY_SYNC_DEFAULTS, subscriptionAccess } from "@groupledger/contract";
import type { Database, Db } from "../../db/client.ts";
import { accounts, companies } from "../../db/schema.ts";
import { JobQueue } from "../../jobs/queue.ts";
import { PermanentJobError, type JobHandler } from "../../jobs/worker.ts";
import { loadGroup } from "../group/service.ts";
import { enqueueNightlyReplace } from "../reconsolidation/nightly.ts";
import { enqueueSync } from "./enqueue.ts";

/** The group's nightly sync: queues the sync of each of its connected companies. */
export const NIGHTLY_JOB = "group.nightly-sync";
/** How often the scheduler looks for groups whose time has come. */
export const NIGHTLY_TICK_MS = 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant's date and time of day on the wall clocks of `timeZone` (IANA), daylight saving
 * included: { date: "2026-03-08", time: "06:00" }. Throws a RangeError for a zone the runtime does not know.
 */
export function localDateTime(at: Date, timeZone: string): { date: string; time: string } {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return { date: `${parts["year"]}-${parts["month"]}-${parts["day"]}`, time: `${parts["hour"]}:${parts["minute"]}` };
}

export interface NightlySetting {
  /** "HH:MM", 24-hour. */
  time: string;
  timeZone: string;
  /** The local date the nightly sync last ran, or null. */
  lastRunDate: string | null;
  /**
   * When the group first had a connected company (that connection's own sync read the books). Until
   * the first run, a day whose time had passed by then counts as run: a group connected in the evening
   * is first synced the next morning, not at the scheduler's next tick.
   */
  connectedSince?: Date | null;
}

/**
 * The local date whose nightly sync is due at `at`, or null: once per local day, at or after the
 * set time on the zone's clock. Comparing wall-clock times is what makes it right on the days the
 * clocks change: a time skipped in spring (02:30 when 02:00 jumps to 03:00) runs at the first
 * minute after it, and a time met twice in autumn runs the first time only (the day is taken).
 */
export function nightlyDueDate(setting: NightlySetting, at: Date): string | null {
  const local = localDateTime(at, setting.timeZone);
  if (local.time < setting.time) return null;
  const lastRun = setting.lastRunDate ?? firstDayCounted(setting);
  if (lastRun !== null && lastRun >= local.date) return null;
  return local.date;
}

/** Before any run: the local day of the group's first connection if its time had already passed then. */
function firstDayCounted(setting: NightlySetting): string | null {
  if (!setting.connectedSince) return null;
  const connected = localDateTime(setting.connectedSince, setting.timeZone);
  return connected.time >= setting.time ? connected.date : null;
}

/**
 * Queues each group's nightly sync when its time has come, in every process that runs workers:
 * claiming a group's day is one conditional update of `accounts.nightly_sync_last_date`, in the
 * same transaction as the job (dedupe key `nightly:<accountId>:<local date>`), so however many
 * processes tick at once, each group's day is queued once and never lost to a crash between the two.
 * Groups without a connected company and accounts whose trial lapsed (read-only) are left alone.
 */
export class NightlyScheduler extends Ticker {
  constructor(
    private readonly database: Database,
    log?: FastifyBaseLogger,
    intervalMs = NIGHTLY_TICK_MS,
  ) {
    super("scheduling nightly syncs", log, intervalMs);
  }

  /** Queues the nightly sync of every group due at `at`; answers which (tests drive it with a fake clock). */
  async tick(at: Date = new Date()): Promise<{ accountId: string; localDate: string }[]> {
    const { db } = this.database;
    const rows = await db
      .select({
        id: accounts.id,
        time: accounts.nightlySyncTime,
        timeZone: accounts.nightlySyncTimeZone,
        lastRunDate: accounts.nightlySyncLastDate,
        status: accounts.subscriptionStatus,
        trialEndsAt: accounts.trialEndsAt,
        // Column names spelled out: drizzle leaves columns unqualified in a select's sql, which would not
        // reach the outer accounts row from inside the subquery.
        connectedSince: sql<Date | string | null>`(select min(c.created_at) from ${companies} c where c.account_id = ${accounts}.id and c.connection = 'connected')`,
      })
      .from(accounts)
      .where(
        and(
          eq(accounts.nightlySyncEnabled, true),
          exists(
            db
              .select({ one: companies.realmId })
              .from(companies)
              .where(and(eq(companies.accountId, accounts.id), eq(companies.connection, "connected"))),
          ),
        ),
      );
    const queued: { accountId: string; localDate: string }[] = [];
    for (const row of rows) {
      if (subscriptionAccess(row.status, row.trialEndsAt, at).readOnly) continue;
      const setting = { ...row, connectedSince: row.connectedSince === null ? null : new Date(row.connectedSince) };
      const localDate = this.dueDate(setting, at);
      if (localDate === null) continue;
      if (await claim(db, row.id, localDate, setting)) queued.push({ accountId: row.id, localDate });
    }
    if (queued.length > 0) this.log?.info({ groups: queued.length }, "queued nightly syncs");
    return queued;
  }

  private dueDate(row: NightlySetting & { id: string }, at: Date): string | null {
    try {
      return nightlyDueDate(row, at);
    } catch (err) {
      // A zone this runtime does not know (the setting is checked when saved): the default zone's clock.
      this.log?.warn({ err, accountId: row.id, timeZone: row.timeZone }, `unknown time zone for the nightly sync; using ${NIGHTLY_SYNC_DEFAULTS.timeZone}`);
      return nightlyDueDate({ ...row, timeZone: NIGHTLY_SYNC_DEFAULTS.timeZone }, at);
    }
  }
}

/** Takes the group's local day and queues its job, both or neither; false when another process had it. */
async function claim(db: Db, accountId: string, localDate: string, setting: NightlySetting): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [won] = await tx
      .update(accounts)
      .set({ nightlySyncLastDate: localDate })
      .where(and(eq(accounts.id, accountId), or(isNull(accounts.nightlySyncLastDate), lt(accounts.nightlySyncLastDate, localDate))))
      .returning({ id: accounts.id });
    if (!won) return false;
    await new JobQueue(tx).enqueue({
      kind: NIGHTLY_JOB,
      accountId,
      payload: { localDate, time: setting.time, timeZone: setting.timeZone },
      dedupeKey: `nightly:${accountId}:${localDate}`,
      maxAttempts: 5,
    });
    return true;
  });
}

/**
 * The nightly job: one sync per connected company of the group (one already queued or running
 * counts), then, if the group's setting asks for it, the replacement of what they find changed
 * once they have all ended (reconsolidation/nightly.ts).
 */
export function nightlyHandler(deps: { database: Database; queue: JobQueue }): JobHandler {
  return async (ctx) => {
    const accountId = ctx.job.accountId;
    if (!accountId) throw new PermanentJobError("a nightly sync names no account");
    const { db } = deps.database;
    const group = await loadGroup(db, accountId);
    const queued: string[] = [];
    const alreadyQueued: string[] = [];
    const jobIds: string[] = [];
    for (const company of group.companies.filter((c) => c.connection === "connected")) {
      const { jobId, alreadyRunning } = await enqueueSync(deps.database, deps.queue, company);
      (alreadyRunning ? alreadyQueued : queued).push(company.realmId);
      jobIds.push(jobId);
    }
    const localDate = String(ctx.job.payload["localDate"] ?? "");
    const [setting] = await db.select({ replace: accounts.nightlyReplaceChanged }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
    if (setting?.replace) await enqueueNightlyReplace(deps.queue, accountId, localDate, jobIds);
    return { localDate, queued, alreadyQueued, ...(setting?.replace ? { replaceAfter: true } : {}) };
  };
}
