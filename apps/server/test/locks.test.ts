import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { journalEntrySchema } from "@groupledger/qbo";
import { Sandbox } from "@groupledger/qbo-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { fromPool, type Database } from "../src/db/client.ts";
import { LockBusyError } from "../src/db/locks.ts";
import { useTestApp, testConfig } from "./app.ts";
import { DEMO, connectCompany, openingGroup, postOpening } from "./connect.ts";
import { createTestDatabase, drivers, type TestDatabase } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

/**
 * Issue 17 item 1: `withLock` must never spend a pool connection on waiting. It used to hold one
 * per waiter while blocked in pg_advisory_lock; ten waiters on a pool of ten left the holder (and
 * every other request, /api/health included, of every tenant) waiting for a connection forever.
 */

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Fails instead of hanging when the work never finishes (the bug this file is about). */
async function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Calls `probe` every `everyMs` until stopped; the latencies in ms. */
function sampler(probe: () => Promise<void>, everyMs = 50) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      await probe();
      latencies.push(performance.now() - start);
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return latencies;
    },
  };
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { n: sorted.length, p50: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0), max: Math.round(sorted.at(-1) ?? 0) };
};

/** Counts who is inside each key's section, and the most at once per key and overall. */
function occupancy() {
  const inside = new Map<string, number>();
  let total = 0;
  const most = { perKey: 0, overall: 0 };
  return {
    most,
    async run(key: string, work: () => Promise<void>) {
      inside.set(key, (inside.get(key) ?? 0) + 1);
      total++;
      most.perKey = Math.max(most.perKey, inside.get(key)!);
      most.overall = Math.max(most.overall, total);
      try {
        await work();
      } finally {
        inside.set(key, inside.get(key)! - 1);
        total--;
      }
    },
  };
}

describe.each(drivers)("Database.withLock on %s", (driver) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(driver, { lockWaitMs: 3_000 });
  });
  afterAll(() => db?.drop());

  /** Work that needs the pool inside the section, as every locked section of the product does. */
  const queries = async (database: Database) => {
    await database.db.execute(sql`select 1`);
    await sleep(2);
    await database.db.execute(sql`select 1`);
  };

  it("40 waiters on one key and 40 more over 8 keys, on a pool of 5: one holder per key, FIFO, and the pool stays free", async () => {
    const { database } = db;
    const seen = occupancy();
    const order: number[] = [];
    const health = sampler(() => database.ping(), 20);
    const oneKey = range(40).map((i) =>
      database.withLock("k:one", "Busy.", () =>
        seen.run("k:one", async () => {
          order.push(i);
          await queries(database);
        }),
      ),
    );
    const manyKeys = range(40).map((i) => database.withLock(`k:${i % 8}`, "Busy.", () => seen.run(`k:${i % 8}`, () => queries(database))));
    await within(15_000, Promise.all([...oneKey, ...manyKeys]), "80 locked sections");
    const pings = stats(await health.stop());
    expect(seen.most.perKey).toBe(1);
    // Different keys do not wait for each other.
    expect(seen.most.overall).toBeGreaterThan(1);
    expect(order).toEqual(range(40));
    expect(pings.max, JSON.stringify(pings)).toBeLessThan(1_000);
  });

  it("gives up after the bounded wait with a LockBusyError carrying the caller's message, and the key works again after", async () => {
    const { database } = db;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holder = database.withLock("k:held", "Busy.", () => held);
    await sleep(20);
    const start = performance.now();
    const waited = await database.withLock("k:held", "Another posting of Northwind UK Ltd is in progress", async () => "ran").catch((e: unknown) => e);
    const elapsed = performance.now() - start;
    expect(waited).toBeInstanceOf(LockBusyError);
    expect((waited as LockBusyError).busy).toBe("Another posting of Northwind UK Ltd is in progress");
    expect(elapsed).toBeGreaterThanOrEqual(2_950);
    expect(elapsed).toBeLessThan(5_000);
    // The waiter that gave up left the queue: the next one runs as soon as the holder is done.
    const next = database.withLock("k:held", "Busy.", async () => "ran");
    release();
    await holder;
    expect(await within(2_000, next, "the next waiter")).toBe("ran");
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("withLock across processes on PostgreSQL", () => {
  let db: TestDatabase;
  let other: Database;
  beforeAll(async () => {
    db = await createTestDatabase("postgres", { lockWaitMs: 1_500 });
    other = fromPool(new pg.Pool({ connectionString: db.url, max: 5 }), { lockWaitMs: 1_500 });
  });
  afterAll(async () => {
    await other?.close();
    await db?.drop();
  });

  it("two instances (two pools) never hold one key at once", async () => {
    const seen = occupancy();
    const work = (database: Database) =>
      database.withLock("x:shared", "Busy.", () =>
        seen.run("x:shared", async () => {
          await database.db.execute(sql`select 1`);
          await sleep(3);
        }),
      );
    await within(20_000, Promise.all(range(20).flatMap(() => [work(db.database), work(other)])), "40 sections over two instances");
    expect(seen.most.perKey).toBe(1);
  });

  it("waits, within its bound, for a lock another process holds, and gives up with LockBusyError past it", async () => {
    const elsewhere = new pg.Client({ connectionString: db.url });
    await elsewhere.connect();
    try {
      await elsewhere.query("select pg_advisory_lock(hashtextextended($1, 0))", ["x:elsewhere"]);
      const started = performance.now();
      const late = db.database.withLock("x:elsewhere", "Busy.", async () => performance.now() - started);
      await sleep(300);
      await elsewhere.query("select pg_advisory_unlock(hashtextextended($1, 0))", ["x:elsewhere"]);
      expect(await late).toBeGreaterThanOrEqual(290);

      await elsewhere.query("select pg_advisory_lock(hashtextextended($1, 0))", ["x:elsewhere"]);
      const refused = await db.database.withLock("x:elsewhere", "Busy.", async () => "ran").catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(LockBusyError);
      // Meanwhile the pool served others.
      await within(500, db.database.ping(), "a ping");
    } finally {
      await elsewhere.end();
    }
  });

  it("a lost lock connection is replaced, and the locks it held are free again", async () => {
    const { database } = db;
    let release!: () => void;
    const holding = database.withLock("x:lost", "Busy.", () => new Promise<void>((resolve) => (release = resolve)));
    await sleep(50);
    // Someone (a failover, an administrator) ends the lock connection while a lock is held.
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        "select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and application_name = 'groupledger-locks' and pid <> pg_backend_pid()",
      );
      expect(killed.rows.length).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await sleep(100);
    // Another instance can take it: the server released it with the session.
    expect(await within(3_000, other.withLock("x:lost", "Busy.", async () => "taken"), "the other instance")).toBe("taken");
    release();
    await holding;
    // And this instance locks again on a new connection.
    expect(await within(3_000, database.withLock("x:again", "Busy.", async () => "ran"), "a new lock")).toBe("ran");
  });
});

/**
 * The probe through the API: 50 concurrent requests that take the lock, over three
 * tenants, on a pool of 5 connections: 20 posts of one subsidiary-month, and 15 CTA account
 * creations in each of two parents. Before the fix nothing answered and health timed out.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("50 concurrent locked requests over three tenants on PostgreSQL", () => {
  const sandbox = new Sandbox();
  const t = useTestApp("postgres", { sandbox });
  const CTA_NAME = "Accumulated OCI – Translation";
  const month = { kind: "month", year: 2026, month: 1 };

  async function aloneAsParent(app: FastifyInstance, email: string, realmId: string) {
    const token = await signedInUser(app, email);
    await connectCompany(app, sandbox, token, realmId);
    expect((await post(app, "/api/companies/parent", { realmId }, token)).statusCode).toBe(200);
    return token;
  }

  it("stays healthy, answers every request, and posts or creates each thing once", async () => {
    const { app } = t;
    const group = await openingGroup(app, sandbox, "group@locks.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2024-12", to: "2026-02" });
    await postOpening(app, group, DEMO.uk);
    const canada = await aloneAsParent(app, "canada@locks.example", DEMO.canada);
    const germany = await aloneAsParent(app, "germany@locks.example", DEMO.germany);
    const accountsNamed = (realm: string) => sandbox.ledger(realm)!.accounts.filter((a) => a.name === CTA_NAME).length;
    expect([accountsNamed(DEMO.canada), accountsNamed(DEMO.germany)]).toEqual([0, 0]);

    const requests = range(50).map((i) => {
      if (i % 5 < 2) return { kind: "post", go: () => post(app, "/api/consolidation/post", { realmId: DEMO.uk, period: month }, group) };
      const [token, realm] = i % 2 === 0 ? [canada, DEMO.canada] : [germany, DEMO.germany];
      return { kind: realm, go: () => post(app, "/api/cta/account", {}, token) };
    });
    expect(requests.map((r) => r.kind).filter((k) => k === "post")).toHaveLength(20);
    expect(requests.map((r) => r.kind).filter((k) => k === DEMO.canada)).toHaveLength(15);

    const health = sampler(async () => {
      const res = await app.inject({ method: "GET", url: "/api/health" });
      expect(res.statusCode).toBe(200);
    });
    const started = performance.now();
    const answers = await within(25_000, Promise.all(requests.map((r) => r.go())), "50 concurrent locked requests");
    const elapsed = Math.round(performance.now() - started);
    const during = stats(await health.stop());
    const afterward: number[] = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      expect((await app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
      afterward.push(performance.now() - start);
    }
    const after = stats(afterward).p50;
    console.log(`50 concurrent locked requests over 3 tenants on PostgreSQL (pool of 5): ${elapsed} ms; /api/health during: ${JSON.stringify(during)} ms; after (median of 5): ${after} ms`);

    for (const a of answers) expect(a.statusCode, a.body).toBeLessThan(500);
    const posts = answers.filter((_, i) => requests[i]!.kind === "post");
    for (const p of posts) expect(p.statusCode, p.body).toBe(200);
    expect(posts.map((p) => p.json().outcome).sort()).toEqual(["posted", ...range(19).map(() => "duplicate")].sort());
    const entries = await app.services.provider.client(DEMO.parent).query("SELECT * FROM JournalEntry WHERE DocNumber = 'CR202601-384023'", journalEntrySchema);
    expect(entries).toHaveLength(1);

    for (const realm of [DEMO.canada, DEMO.germany]) {
      const mine = answers.filter((_, i) => requests[i]!.kind === realm);
      expect(mine.filter((a) => a.statusCode === 200), realm).toHaveLength(1);
      for (const a of mine.filter((x) => x.statusCode !== 200)) expect(a.json().error.code, a.body).toBe("duplicate_account_name");
      expect(accountsNamed(realm), realm).toBe(1);
    }
    expect(during.max, JSON.stringify(during)).toBeLessThan(2_000);
    expect(after).toBeLessThan(500);
  });

  it("a request that cannot get its lock within the bound is a 409 saying what is in progress, and the server stays healthy", async () => {
    const { app, db } = t;
    const group = (await post(app, "/api/session/token", { email: "group@locks.example", password: "Ledger#2026x" })).json().token as string;
    const accountId = (await get(app, "/api/session", group)).json().accountId as string;
    // A second instance on the same database that waits at most 1 s for a lock.
    const quick = fromPool(new pg.Pool({ connectionString: db.url, max: 3 }), { lockWaitMs: 1_000 });
    const b = await buildApp({ config: testConfig(), database: quick, logger: false, webDist: false, sandbox });
    const elsewhere = new pg.Client({ connectionString: db.url });
    await elsewhere.connect();
    try {
      // Another process is in the middle of posting the UK's entries.
      await elsewhere.query("select pg_advisory_lock(hashtextextended($1, 0))", [`consolidation-post:${accountId}:${DEMO.uk}`]);
      const feb = { kind: "month", year: 2026, month: 2 };
      const refused = await post(b, "/api/consolidation/post", { realmId: DEMO.uk, period: feb }, group);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toEqual({
        code: "operation_in_progress",
        message: "Another posting of Northwind UK Ltd is in progress and has not finished within 1 second. Wait a moment and try again; reload first to see whether it has finished.",
      });
      expect(refused.headers["retry-after"]).toBe("5");
      expect((await b.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
      await elsewhere.query("select pg_advisory_unlock(hashtextextended($1, 0))", [`consolidation-post:${accountId}:${DEMO.uk}`]);
      const posted = await post(b, "/api/consolidation/post", { realmId: DEMO.uk, period: feb }, group);
      expect(posted.statusCode, posted.body).toBe(200);
      expect(posted.json().outcome).toBe("posted");
    } finally {
      await elsewhere.end();
      await b.close();
      await quick.close();
    }
  });
});
