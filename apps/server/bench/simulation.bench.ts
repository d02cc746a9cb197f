// Issue #21, beyond one group: 1,000 groups' nightly syncs through the job queue against the
// emulator, time compressed. Every group's companies are generated (qbo-sandbox `generatedGroup`,
// 2 to 4 companies, a few months of books) and served by one standalone emulator in a process of its
// own (Intuit is elsewhere too); the database holds each company connected and synced the night
// before, each group with the default nightly setting (06:00 UTC). The product's nightly scheduler
// then ticks once past that time: it queues each group's nightly job, which queues a sync of each of
// its companies, and the production worker of each app instance (8 syncs at a time, app.ts's sync
// lane) drains the queue with the product's sync handler: CDC, then only the months it touches.
// Time is compressed by SIM_TIME_SCALE (20): each QuickBooks call takes 100/20 = 5 ms instead of
// 100, the worker is polled every 500/20 ms (in production a freed slot is refilled at once, and an
// enqueue in the process wakes the worker), and a realm's requests are counted per 60/20 s, Intuit's
// minute in compressed time (the limiters themselves keep their real minute, 20 times stricter
// than needed, so nothing throttled here would pass in real time). CPU is not compressed: the
// bench prints the queue's throughput as measured, the CPU a sync costs, and what both make of
// the night at Intuit's real 100 ms.
// Sizes: SIM_GROUPS (1000), SIM_MAX_COMPANIES (4), SIM_MONTHS (3), SIM_INSTANCES (1 app instance on
// the database), SIM_TIME_SCALE (20). PGlite, and PostgreSQL too with BENCH_DATABASE_URL or TEST_DATABASE_URL.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { monthOf, shiftMonth } from "@groupledger/domain";
import { sandboxEndpoints } from "@groupledger/qbo";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.ts";
import { openDatabase, rowsOf, type Database } from "../src/db/client.ts";
import { accounts, companies } from "../src/db/schema.ts";
import { QboProvider, SANDBOX_CLIENT } from "../src/services/qbo-provider.ts";
import { testConfig } from "../test/config.ts";
import { benchDatabase, benchDrivers, serverCpuBetween, serverCpuByProcess, type BenchDriver } from "./databases.ts";
import type { SimEmulatorOptions, SimRealm, TrafficReport } from "./sim-emulator.ts";
import { loadAverage, runQueueMs } from "./machine.ts";
import { INTUIT } from "./qbo-traffic.ts";

const GROUPS = Number(process.env.SIM_GROUPS ?? 1000);
const MAX_COMPANIES = Number(process.env.SIM_MAX_COMPANIES ?? 4);
const MONTHS = Number(process.env.SIM_MONTHS ?? 3);
const INSTANCES = Number(process.env.SIM_INSTANCES ?? 1);
const SCALE = Number(process.env.SIM_TIME_SCALE ?? 20);
const LATENCY_MS = 100;
const POLL_MS = 500;
/** Sync slots of the production worker (app.ts: the `company.sync` lane). */
const SLOTS = 8;

const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
/** Last night's sync, before yesterday's bookings: tonight's finds them by CDC. */
const lastNight = new Date(`${yesterday}T02:00:00.000Z`);
const sizes = Array.from({ length: GROUPS }, (_, g) => 2 + ((g * 7) % Math.max(1, MAX_COMPANIES - 1)));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: readonly number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
const s = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
/** The emulator process: its URL, every realm with tokens, and its traffic report on request. */
async function startEmulator() {
  const options: SimEmulatorOptions = { sizes, firstMonth: shiftMonth(monthOf(today), -(MONTHS - 1)), months: MONTHS, until: yesterday, latencyMs: LATENCY_MS / SCALE, windowMs: INTUIT.windowMs / SCALE };
  const child = fork(fileURLToPath(new URL("./sim-emulator.ts", import.meta.url)), [JSON.stringify(options)], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const ready = await new Promise<{ url: string; realms: SimRealm[] }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { url: string; realms: SimRealm[] }));
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code})`)));
  });
  const ask = <T>(message: object) =>
    new Promise<T>((resolve) => {
      child.once("message", (m) => resolve(m as T));
      child.send(message);
    });
  return {
    ...ready,
    mark: () => ask<{ marked: true }>({ mark: true }),
    report: async () => (await ask<{ report: TrafficReport }>({ report: true })).report,
    close: () => child.disconnect(),
  };
}

/** Each group an account, each company connected and synced last night with its tokens (what connecting and a first sync leave). */
async function seed(app: FastifyInstance, database: Database, realms: readonly SimRealm[]): Promise<void> {
  const byGroup = new Map<number, SimRealm[]>();
  for (const r of realms) byGroup.set(r.group, [...(byGroup.get(r.group) ?? []), r]);
  const groupIds = [...byGroup.keys()];
  const accountIds = new Map<number, string>();
  for (let i = 0; i < groupIds.length; i += 500) {
    const chunk = groupIds.slice(i, i + 500);
    const rows = await database.db.insert(accounts).values(chunk.map((g) => ({ name: `Group ${g}` }))).returning({ id: accounts.id });
    chunk.forEach((g, j) => accountIds.set(g, rows[j]!.id));
  }
  const rows = realms.map((r) => ({
    accountId: accountIds.get(r.group)!,
    realmId: r.realmId,
    companyName: r.companyName,
    country: r.country,
    homeCurrency: r.currency,
    isParent: r.isParent,
    earliestTransactionDate: r.startDate,
    syncState: "succeeded" as const,
    syncProgress: "1",
    syncMessage: "Up to date",
    lastSyncedAt: lastNight,
    // Connected last night too: a group first connected today after its nightly time counts today
    // as run (nightly.ts), so a seed stamped with the bench's own clock queued nothing whenever the
    // bench ran after 06:00 UTC.
    createdAt: lastNight,
  }));
  for (let i = 0; i < rows.length; i += 500) await database.db.insert(companies).values(rows.slice(i, i + 500));
  const now = Date.now();
  for (const r of realms) {
    await app.services.tokenStore.save(r.realmId, {
      accessToken: r.tokens.accessToken,
      refreshToken: r.tokens.refreshToken,
      tokenType: "bearer",
      accessTokenExpiresAt: now + r.tokens.expiresIn * 1000,
      refreshTokenExpiresAt: now + r.tokens.refreshExpiresIn * 1000,
    });
  }
}

async function onDriver(driver: BenchDriver, emulator: Awaited<ReturnType<typeof startEmulator>>): Promise<void> {
  const db = await benchDatabase(driver);
  const pools: Database[] = [];
  const apps: FastifyInstance[] = [];
  try {
    for (let i = 0; i < INSTANCES; i++) {
      // PGlite serves one process: every instance shares it. PostgreSQL: a pool of 10 each, as each process opens.
      const database = db.url && i > 0 ? await openDatabase({ kind: "postgres", url: db.url }) : db.database;
      if (database !== db.database) pools.push(database);
      const app = await buildApp({
        config: testConfig(),
        database,
        logger: false,
        webDist: false,
        qboProvider: (tokens) => new QboProvider("standalone", sandboxEndpoints(emulator.url), SANDBOX_CLIENT.id, SANDBOX_CLIENT.secret, null, globalThis.fetch, null, tokens),
      });
      await app.ready();
      apps.push(app);
    }
    await seed(apps[0]!, db.database, emulator.realms);
    const xacts = async () =>
      db.driver === "postgres" ? Number(rowsOf<{ n: string }>(await db.database.db.execute(sql`select xact_commit as n from pg_stat_database where datname = current_database()`))[0]?.n ?? 0) : 0;

    // The nightly scheduler's tick after 06:00 UTC: every group's nightly job is queued.
    const xactsBefore = await xacts();
    const serverBefore = await serverCpuByProcess(db);
    await emulator.mark();
    const cpu = process.cpuUsage();
    const waited = runQueueMs();
    const queuedAt = Date.now();
    const nightlies = await apps[0]!.services.nightly.tick(new Date(`${today}T07:00:00.000Z`));
    const enqueueMs = Date.now() - queuedAt;
    let stopped = false;
    const loops = apps.map(async (app) => {
      while (!stopped) {
        await app.services.worker.poll();
        await sleep(POLL_MS / SCALE);
      }
      await app.services.worker.idle();
    });
    for (;;) {
      const [row] = rowsOf<{ n: number }>(await db.database.db.execute(sql`select count(*)::int as n from jobs where state in ('queued', 'running')`));
      if (Number(row?.n ?? 0) === 0) break;
      await sleep(250);
    }
    stopped = true;
    await Promise.all(loops);
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const waitedMs = runQueueMs() - waited;
    const transactions = (await xacts()) - xactsBefore;
    const serverCpuMs = serverCpuBetween(serverBefore, await serverCpuByProcess(db));
    const all = rowsOf<{ kind: string; created: Date; started: Date; finished: Date; state: string; attempts: number; calls: number | null }>(
      await db.database.db.execute(sql`select kind, created_at as created, started_at as started, finished_at as finished, state, attempts, (result->>'calls')::int as calls from jobs`),
    ).map((j) => ({ ...j, created: new Date(j.created), started: new Date(j.started), finished: new Date(j.finished) }));
    const jobs = all.filter((j) => j.kind === "company.sync");
    const traffic = await emulator.report();

    const firstStart = Math.min(...all.map((j) => j.started.getTime()));
    const lastFinish = Math.max(...all.map((j) => j.finished.getTime()));
    /** From the first claim to the last finish: the queue at work (the workers start once every sync is queued). */
    const drainMs = lastFinish - firstStart;
    const syncs = jobs.length;
    const failed = all.filter((j) => j.state !== "succeeded").length;
    const retried = all.filter((j) => j.attempts > 1).length;
    const runMs = jobs.map((j) => j.finished.getTime() - j.started.getTime());
    const waitMs = jobs.map((j) => j.started.getTime() - j.created.getTime());
    const calls = jobs.reduce((sum, j) => sum + Number(j.calls ?? 0), 0);
    const cpuPerSync = cpuMs / syncs;
    const callsPerSync = calls / syncs;

    console.log(
      `\n-- ${driver}, ${INSTANCES} app instance(s) × ${SLOTS} worker slots; ${GROUPS} groups, ${syncs} companies (${Math.min(...sizes)} to ${Math.max(...sizes)} a group), ` +
        `time ×${SCALE} (${LATENCY_MS / SCALE} ms a call, ${POLL_MS / SCALE} ms poll); load average ${loadAverage()}`,
    );
    console.log(
      `the nightly scheduler's tick queued ${nightlies.length} groups' nightly jobs in ${s(enqueueMs)}; they queued ${syncs} syncs; ` +
        `the workers drained all ${all.length} jobs in ${s(drainMs)} from the first claim to the last finish`,
    );
    console.log(
      `queue throughput: ${(syncs / (drainMs / 1000)).toFixed(1)} syncs/s measured; a sync ${Math.round(pct(runMs, 50))} ms p50, ${Math.round(pct(runMs, 99))} ms p99 running; ` +
        `a sync waited in the queue ${s(pct(waitMs, 50))} p50, ${s(pct(waitMs, 100))} the last; ${failed} jobs failed, ${retried} retried`,
    );
    console.log(
      `cost of a nightly sync: ${callsPerSync.toFixed(1)} QuickBooks calls, ${cpuPerSync.toFixed(0)} ms of this process's CPU (server, ${driver === "pglite" ? "PGlite included" : "PostgreSQL apart"}), ` +
        `${driver === "postgres" ? `${(transactions / syncs).toFixed(0)} PostgreSQL transactions and ${(serverCpuMs / syncs).toFixed(0)} ms of its CPU (${s(serverCpuMs)} in all, at least), ` : ""}` +
        `the process waited ${s(waitedMs)} for a core in all`,
    );
    console.log(
      `Intuit's limits (compressed minute = ${INTUIT.windowMs / SCALE / 1000} s): ${traffic.calls} calls to ${traffic.realms} realms; a realm's busiest minute ${traffic.peakPerMinute.max} requests ` +
        `(median realm ${traffic.peakPerMinute.median}) of 500, ${traffic.peakBatchesPerMinute} batches of 40, at most ${traffic.peakConcurrent} in flight of 10; ${traffic.throttled} throttled; ` +
        `every realm together ${traffic.allRealmsPeakPerMinute} in the busiest minute (Intuit limits realms, not apps)`,
    );
    // At Intuit's real pace: a sync waits on its calls' round trips one after another (what it reads
    // before the reports together, then the reports) and uses the CPU it used here; a freed slot is
    // refilled at once (the worker is woken when a job ends), so a slot turns once a sync.
    const realSyncMs = traffic.roundTrips * LATENCY_MS + cpuPerSync;
    const slotCycleMs = realSyncMs;
    const latencyBound = (SLOTS * 1000) / slotCycleMs;
    const cpuBound = 1000 / cpuPerSync;
    const perInstance = Math.min(latencyBound, cpuBound);
    const slotIdleMs = (SLOTS * INSTANCES * (lastFinish - firstStart) - all.reduce((sum, j) => sum + j.finished.getTime() - j.started.getTime(), 0)) / all.length;
    console.log(
      `at Intuit's real ${LATENCY_MS} ms: a sync ≈ ${traffic.roundTrips.toFixed(1)} round trips + ${cpuPerSync.toFixed(0)} ms CPU = ${realSyncMs.toFixed(0)} ms, a freed slot refilled at once ` +
        `(here, compressed and polled: ${slotIdleMs.toFixed(0)} ms idle a job); one instance does min(${SLOTS} slots / ${slotCycleMs.toFixed(0)} ms = ${latencyBound.toFixed(1)}/s, ` +
        `one core / ${cpuPerSync.toFixed(0)} ms = ${cpuBound.toFixed(1)}/s) = ${perInstance.toFixed(1)} syncs/s: these ${syncs} nightly syncs take ${s((syncs / perInstance) * 1000 / INSTANCES)} ` +
        `on ${INSTANCES} instance(s); ${Math.round(perInstance * 3600)} companies an hour an instance`,
    );
    if (failed > 0 || traffic.throttled > 0) process.exitCode = 1;
    // A night that queued no sync measured nothing: every figure above would be NaN or Infinity.
    if (syncs !== emulator.realms.length) {
      console.error(`FAILED: ${emulator.realms.length} companies were due tonight; the scheduler and workers synced ${syncs}`);
      process.exitCode = 1;
    }
  } finally {
    for (const app of apps) await app.close();
    for (const pool of pools) await pool.close();
    await db.close();
  }
}

const emulator = await startEmulator();
try {
  for (const driver of benchDrivers()) await onDriver(driver, emulator);
} finally {
  emulator.close();
}
