import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { journalEntrySchema } from "@groupledger/qbo";
import { startSandbox, type RunningSandbox } from "@groupledger/qbo-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { fromPool, type Database } from "../src/db/client.ts";
import { standaloneQboProvider } from "../src/services/qbo-provider.ts";
import { testConfig } from "./config.ts";
import { DEMO, configureForTranslation, connectCompany, confirmOpening } from "./connect.ts";
import { createTestDatabase, type TestDatabase } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

/**
 * Scale-out (issue 11): two app instances, each with its own connection pool and its own job
 * worker, against one PostgreSQL and one QuickBooks (the emulator over real HTTP), serve the same
 * user with requests alternating between them as a load balancer would. A sync and a multi-period
 * run are each executed by exactly one worker; killing the one running the run lets the other
 * finish it, with every month posted once.
 */
const LEASE_MS = 600;

describe.skipIf(!process.env.TEST_DATABASE_URL)("two app instances against one PostgreSQL", () => {
  let qbo: RunningSandbox;
  let db: TestDatabase;
  let database2: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    qbo = await startSandbox();
    db = await createTestDatabase("postgres");
    database2 = fromPool(new pg.Pool({ connectionString: db.url, max: 5 }));
    const instance = (database: Parameters<typeof buildApp>[0]["database"]) =>
      buildApp({
        config: testConfig(),
        database,
        logger: false,
        webDist: false,
        jobLeaseMs: LEASE_MS,
        qboProvider: (tokens) => standaloneQboProvider(qbo.url, qbo.sandbox, tokens),
      });
    a = await instance(db.database);
    b = await instance(database2);
    await Promise.all([a.ready(), b.ready()]);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database2?.close();
    await db?.drop();
    await qbo?.close();
  });

  /** Both workers poll at once until neither finds work. */
  async function drainBoth() {
    for (;;) {
      const [x, y] = await Promise.all([a.services.worker.poll(), b.services.worker.poll()]);
      await Promise.all([a.services.worker.idle(), b.services.worker.idle()]);
      if (x + y === 0) return;
    }
  }

  it("serves one user from either instance, and each sync runs on exactly one worker", async () => {
    const token = await signedInUser(a, "scale@northwind.example");
    // The session issued by A works on B; a connection started on B completes on A.
    expect((await get(b, "/api/session", token)).json().email).toBe("scale@northwind.example");
    await connectCompany(b, qbo.sandbox, token, DEMO.parent);
    await connectCompany(a, qbo.sandbox, token, DEMO.uk);
    await drainBoth();
    const accountId = (await get(a, "/api/session", token)).json().accountId as string;
    const jobs = await a.services.queue.listForAccount(accountId);
    expect(jobs.map((j) => j.state)).toEqual(["succeeded", "succeeded"]);
    // Claimed once each, though both workers were polling for them all along.
    for (const j of jobs) expect(j.attempts).toBe(1);
    const status = (await get(b, "/api/companies/status", token)).json();
    expect(Object.values(status).map((s) => (s as { sync: { state: string } }).sync.state)).toEqual(["succeeded", "succeeded"]);
  });

  it("a multi-period run killed on one instance is finished by the other, every month posted once", async () => {
    const token = (await post(b, "/api/session/token", { email: "scale@northwind.example", password: "Ledger#2026x" })).json().token as string;
    await post(a, "/api/companies/parent", { realmId: DEMO.parent }, token);
    await post(b, "/api/obal", { year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 }, token);
    await configureForTranslation(a, token, [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2024-12", to: "2026-06" });
    await confirmOpening(b, token, DEMO.uk);
    // Double submission across instances: one opening entry.
    const posts = await Promise.all([post(a, `/api/balances/post/${DEMO.uk}`, undefined, token), post(b, `/api/balances/post/${DEMO.uk}`, undefined, token)]);
    for (const p of posts) expect(p.statusCode, p.body).toBe(200);

    const run = (await post(a, "/api/multipleconsolidation/runs", { realmIds: [DEMO.uk], from: "2026-01", to: "2026-06" }, token)).json();
    qbo.sandbox.setFaults({ latencyMs: 120 });
    // Only A works at first; it is killed once two months are in.
    await a.services.worker.poll();
    for (let i = 0; i < 400; i++) {
      if ((await get(b, `/api/multipleconsolidation/runs/${run.id}`, token)).json().counts.posted >= 2) break;
      await sleep(25);
    }
    await a.services.worker.stop();
    const midway = (await get(b, `/api/multipleconsolidation/runs/${run.id}`, token)).json();
    expect(midway.status).toBe("running");
    expect(midway.counts.pending).toBeGreaterThan(0);
    qbo.sandbox.setFaults({});

    // B polls until the lease A held runs out, then takes the run over.
    const deadline = Date.now() + 20_000;
    for (;;) {
      await b.services.worker.poll();
      await b.services.worker.idle();
      const now = (await get(a, `/api/multipleconsolidation/runs/${run.id}`, token)).json();
      if (now.status === "succeeded" || Date.now() > deadline) break;
      await sleep(LEASE_MS / 3);
    }
    const done = (await get(a, `/api/multipleconsolidation/runs/${run.id}`, token)).json();
    expect(done).toMatchObject({ status: "succeeded", counts: { posted: 6, failed: 0, pending: 0 } });
    const accountId = (await get(a, "/api/session", token)).json().accountId as string;
    const runJob = (await a.services.queue.listForAccount(accountId)).find((j) => j.kind === "consolidation.run")!;
    // Claimed twice: by A, then, A's worker being gone, by B.
    expect(runJob).toMatchObject({ state: "succeeded", attempts: 2 });

    const parent = b.services.provider.client(DEMO.parent);
    expect(await parent.query("SELECT * FROM JournalEntry WHERE DocNumber = 'OB202512-384023'", journalEntrySchema)).toHaveLength(1);
    for (const m of ["202601", "202602", "202603", "202604", "202605", "202606"]) {
      expect(await parent.query(`SELECT * FROM JournalEntry WHERE DocNumber = 'CR${m}-384023'`, journalEntrySchema), m).toHaveLength(1);
    }
  });
});
