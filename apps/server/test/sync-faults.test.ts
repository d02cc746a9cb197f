import { sql } from "drizzle-orm";
import { Sandbox } from "@groupledger/qbo-sandbox";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/client.ts";
import { REAUTHORIZE_MESSAGE } from "../src/modules/sync/handler.ts";
import { useTestApp, type TestApp } from "./app.ts";
import { DEMO, connectCompany, drainJobs } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, signedInUser } from "./flows.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every synced balance of a realm, in a stable order: what "identical data" means. */
async function snapshot(t: Pick<TestApp, "db">, realmId: string): Promise<string> {
  const rows = rowsOf(
    await t.db.database.db.execute(
      sql`select qbo_account_id, to_char(month, 'YYYY-MM') as month, kind, amount_minor::text as amount from monthly_balances where realm_id = ${realmId} order by 1, 2`,
    ),
  );
  return JSON.stringify(rows);
}

describe.each(drivers)("sync under faults on %s", (driver) => {
  const clean = useTestApp(driver, { sandbox: new Sandbox() });
  const stormSandbox = new Sandbox({ faults: { rate429: 0.25, rate5xx: 0.1, seed: 42 } });
  const storm = useTestApp(driver, { sandbox: stormSandbox });
  // Access tokens that expire within the client's refresh margin: every call path refreshes.
  const shortTokens = useTestApp(driver, { sandbox: new Sandbox({ accessTokenTtlSeconds: 30 }) });
  const revokeSandbox = new Sandbox();
  const revoked = useTestApp(driver, { sandbox: revokeSandbox });
  const restartSandbox = new Sandbox();
  const restart = useTestApp(driver, { sandbox: restartSandbox, jobLeaseMs: 300 });

  it("completes through a storm of 429s and 5xx with exactly the data of a clean sync", async () => {
    const a = await signedInUser(clean.app, "clean@faults.example");
    await connectCompany(clean.app, clean.app.services.provider.sandbox!, a, DEMO.germany);
    await drainJobs(clean.app);

    const b = await signedInUser(storm.app, "storm@faults.example");
    stormSandbox.setFaults({});
    await connectCompany(storm.app, stormSandbox, b, DEMO.germany);
    stormSandbox.setFaults({ rate429: 0.25, rate5xx: 0.1, seed: 42 });
    await drainJobs(storm.app);
    stormSandbox.setFaults({});

    expect((await get(storm.app, "/api/companies/status", b)).json()[DEMO.germany].sync.state).toBe("succeeded");
    const expected = await snapshot(clean, DEMO.germany);
    expect(expected.length).toBeGreaterThan(1000);
    expect(await snapshot(storm, DEMO.germany)).toBe(expected);
    // The storm really happened: retries made the faulty sync take more calls than the clean one.
    const callsOf = async (app: TestApp["app"], token: string) => {
      const accountId = (await get(app, "/api/session", token)).json().accountId;
      const [job] = await app.services.queue.listForAccount(accountId);
      return Number((job!.result as { calls: number }).calls);
    };
    expect(await callsOf(storm.app, b)).toBeGreaterThan(await callsOf(clean.app, a));
  });

  it("refreshes tokens during a sync and keeps the newest refresh token", async () => {
    const token = await signedInUser(shortTokens.app, "refresh@faults.example");
    const sandbox = shortTokens.app.services.provider.sandbox!;
    await connectCompany(shortTokens.app, sandbox, token, DEMO.retail);
    const before = await shortTokens.app.services.tokenStore.load(DEMO.retail);
    await drainJobs(shortTokens.app);
    const after = await shortTokens.app.services.tokenStore.load(DEMO.retail);
    expect((await get(shortTokens.app, "/api/companies/status", token)).json()[DEMO.retail].sync.state).toBe("succeeded");
    expect(after?.refreshToken).not.toBe(before?.refreshToken);
    expect(after!.accessTokenExpiresAt).toBeGreaterThan(before!.accessTokenExpiresAt);
  });

  it("flags a company QuickBooks no longer authorizes (3200) and syncs the others", async () => {
    const token = await signedInUser(revoked.app, "revoked@faults.example");
    await connectCompany(revoked.app, revokeSandbox, token, DEMO.uk);
    await connectCompany(revoked.app, revokeSandbox, token, DEMO.canada);
    // The grant is revoked at QuickBooks behind our back (e.g. from the QuickBooks app-management page).
    const tokens = await revoked.app.services.tokenStore.load(DEMO.uk);
    await revoked.app.services.provider.oauth("http://localhost/qbo/auth/complete").revoke(tokens!.refreshToken);
    await drainJobs(revoked.app);

    const status = (await get(revoked.app, "/api/companies/status", token)).json();
    expect(status[DEMO.uk]).toMatchObject({ connection: "needs_reauthorization", sync: { state: "failed", message: REAUTHORIZE_MESSAGE } });
    expect(REAUTHORIZE_MESSAGE).toContain("errorCode 003200");
    expect(status[DEMO.canada]).toMatchObject({ connection: "connected", sync: { state: "succeeded" } });
    const jobs = await revoked.app.services.queue.listForAccount((await get(revoked.app, "/api/session", token)).json().accountId);
    const ukJob = jobs.find((j) => j.payload["realmId"] === DEMO.uk);
    expect(ukJob).toMatchObject({ state: "failed", attempts: 1 });
  });

  it("resumes a sync stopped mid-way (a restart) from its checkpoint, with nothing duplicated", async () => {
    const token = await signedInUser(restart.app, "restart@faults.example");
    restartSandbox.setFaults({});
    await connectCompany(restart.app, restartSandbox, token, DEMO.parent);
    // Slow answers keep the second chunk of months in flight while the worker is stopped.
    restartSandbox.setFaults({ latencyMs: 400 });
    const { worker, queue } = restart.app.services;
    await worker.poll();
    // Wait until the first chunk of months is stored, then "kill" the worker.
    const accountId = (await get(restart.app, "/api/session", token)).json().accountId;
    for (let i = 0; i < 200; i++) {
      const [job] = await queue.listForAccount(accountId);
      if (job?.checkpoint && (job.checkpoint as { doneThrough: string | null }).doneThrough) break;
      await sleep(25);
    }
    await worker.stop();
    const [stopped] = await queue.listForAccount(accountId);
    expect(stopped?.state).toBe("running");
    const resumeFrom = (stopped!.checkpoint as { doneThrough: string }).doneThrough;
    expect(resumeFrom).toMatch(/^\d{4}-\d{2}$/);

    // A new process: its worker takes the job over once the lease runs out.
    restartSandbox.setFaults({});
    await sleep(400);
    await drainJobs(restart.app);
    const [finished] = await queue.listForAccount(accountId);
    expect(finished).toMatchObject({ state: "succeeded", attempts: 2 });
    expect((finished!.result as { months: { from: string } }).months.from).toBe("2023-01");

    const duplicates = rowsOf<{ n: number }>(
      await restart.db.database.db.execute(
        sql`select count(*)::int as n from (select qbo_account_id, month from monthly_balances where realm_id = ${DEMO.parent} group by 1, 2 having count(*) > 1) d`,
      ),
    );
    expect(duplicates[0]!.n).toBe(0);
    const cleanToken = await signedInUser(clean.app, "parent-clean@faults.example");
    await connectCompany(clean.app, clean.app.services.provider.sandbox!, cleanToken, DEMO.parent);
    await drainJobs(clean.app);
    expect(await snapshot(restart, DEMO.parent)).toBe(await snapshot(clean, DEMO.parent));
  });
});
