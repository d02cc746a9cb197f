import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { testConfig, useSandboxApp } from "./app.ts";
import { DEMO, connectCompany, drainJobs, signedInGroup } from "./connect.ts";
import { createTestDatabase, drivers, type TestDatabase } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

type Status = Record<string, { connection: string; sync: { state: string } }>;
const statusOf = async (app: FastifyInstance, token: string, realmId: string) => ((await get(app, "/api/companies/status", token)).json() as Status)[realmId];

/** Issue #17.8: `npm start` restarted must keep the demo working. */
describe.each(drivers)("the built-in QuickBooks emulator across a restart, on %s", (driver) => {
  const dir = mkdtempSync(join(tmpdir(), "gl-restart-"));
  const config = testConfig({ dataDir: dir, qbo: { kind: "embedded", admin: false, stateDir: join(dir, "qbo-sandbox") } });
  let db: TestDatabase;
  const apps: FastifyInstance[] = [];
  const start = async () => {
    const app = await buildApp({ config, database: db.database, logger: false, webDist: false, qboRetry: { baseDelayMs: 2, maxDelayMs: 20, maxAttempts: 4 } });
    await app.ready();
    apps.push(app);
    return app;
  };
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps grants and books under DATA_DIR: after a restart the company syncs, stays connected, and what was posted is there", async () => {
    db = await createTestDatabase(driver);
    const first = await start();
    const token = await signedInUser(first, "restart@northwind.example");
    await connectCompany(first, first.services.provider.sandbox!, token, DEMO.parent);
    await drainJobs(first);
    await post(first, "/api/companies/parent", { realmId: DEMO.parent }, token);
    const account = await post(first, "/api/cta/account", { name: "CTA kept across restarts" }, token);
    expect(account.statusCode, account.body).toBe(200);
    const client = first.services.provider.client(DEMO.parent);
    const [cash, equity] = [(await client.accounts()).find((a) => a.accountType === "Bank")!, account.json().Id as string];
    const entry = await client.createJournalEntry(
      { txnDate: "2026-10-15", currency: "USD", docNumber: "RESTART-1", lines: [{ postingType: "Debit", amount: 12_345, accountId: cash.id }, { postingType: "Credit", amount: 12_345, accountId: equity }] },
      "restart-entry-1",
    );

    // Another process on the same DATA_DIR and database; the first was never shut down (as after kill -9).
    const second = await start();
    expect(second.services.provider.sandbox).not.toBe(first.services.provider.sandbox);
    const again = second.services.provider.client(DEMO.parent);
    expect((await again.readJournalEntry(entry.id)).docNumber).toBe("RESTART-1");
    expect((await again.accounts()).some((a) => a.id === equity && a.name === "CTA kept across restarts")).toBe(true);
    const sync = await post(second, `/api/companies/${DEMO.parent}/sync`, {}, token);
    expect(sync.statusCode, sync.body).toBe(202);
    await drainJobs(second);
    expect(await statusOf(second, token, DEMO.parent)).toMatchObject({ connection: "connected", sync: { state: "succeeded" } });
  });
});

describe.each(drivers)("a company whose token QuickBooks refuses, on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);

  it("shows as needing reconnection wherever the refusal happened, not 'connected'", async () => {
    const token = await signedInGroup(t.app, sandbox, "refused@northwind.example", [DEMO.parent, DEMO.uk]);
    const account = ((await get(t.app, `/api/companies/${DEMO.parent}/accounts`, token)).json() as { Id: string; name: string }[]).find((a) => a.name === "Petty Cash")!;
    expect(await statusOf(t.app, token, DEMO.parent)).toMatchObject({ connection: "connected" });

    // QuickBooks forgets every grant (what a lost emulator state, or a revoked app, looks like).
    sandbox.reset();
    const detail = await get(t.app, `/api/consolidation/transactions?account=${account.Id}&from=2026-01&to=2026-03&realmId=${DEMO.parent}`, token);
    expect(detail.statusCode, detail.body).toBe(409);
    expect(detail.json().error.code).toBe("qbo_reauthorization_required");
    expect(await statusOf(t.app, token, DEMO.parent)).toMatchObject({ connection: "needs_reauthorization" });
    // The UK was not asked anything yet: its status is what is known.
    expect(await statusOf(t.app, token, DEMO.uk)).toMatchObject({ connection: "connected" });
  });
});
