import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { Sandbox } from "@groupledger/qbo-sandbox";
import { afterAll, describe, expect, it } from "vitest";
import { fromPool, rowsOf, type Database } from "../src/db/client.ts";
import { accounts, companies, jobs } from "../src/db/schema.ts";
import { SYNC_JOB } from "../src/modules/sync/enqueue.ts";
import { NIGHTLY_JOB, NightlyScheduler } from "../src/modules/sync/nightly.ts";
import { useTestApp } from "./app.ts";
import { DEMO, connectCompany, drainJobs } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, signedInUser } from "./flows.ts";
import { addMember } from "./team-helpers.ts";

/**
 * The nightly sync per group (issue 21): a time of day and an IANA time zone in the group's
 * settings; the scheduler queues each group's company syncs once per local day at or after that
 * time, on the zone's clock (daylight saving included), once however many processes tick.
 */
function putNightly(app: FastifyInstance, token: string, body: unknown) {
  return app.inject({ method: "PUT", url: "/api/settings/nightly-sync", headers: { authorization: `Bearer ${token}` }, payload: body as object });
}

describe.each(drivers)("nightly sync per group on %s", (driver) => {
  const sandbox = new Sandbox();
  const t = useTestApp(driver, { sandbox });
  let second: { database: Database; close(): Promise<void> } | undefined;
  afterAll(async () => second?.close());

  /** The scheduler of a second process: its own connection pool on PostgreSQL; PGlite serves one process. */
  function otherProcess(): NightlyScheduler {
    if (t.db.url) {
      const database = fromPool(new pg.Pool({ connectionString: t.db.url, max: 3 }));
      second = { database, close: () => database.close() };
      return new NightlyScheduler(database);
    }
    return new NightlyScheduler(t.db.database);
  }

  const ids: Record<"newYork" | "berlin" | "empty", string> = { newYork: "", berlin: "", empty: "" };
  const tokens: Record<"newYork" | "berlin", string> = { newYork: "", berlin: "" };
  const tick = async (iso: string) => (await t.app.services.nightly.tick(new Date(iso))).map((q) => `${name(q.accountId)} ${q.localDate}`).sort();
  const name = (accountId: string) => Object.entries(ids).find(([, id]) => id === accountId)?.[0] ?? accountId;
  const nightlyJobs = async () =>
    (await t.db.database.db.select({ accountId: jobs.accountId, key: jobs.dedupeKey }).from(jobs).where(eq(jobs.kind, NIGHTLY_JOB)))
      .map((j) => `${name(j.accountId!)} ${j.key!.split(":")[2]}`)
      .sort();

  it("each group has the setting, 06:00 UTC and on by default; admins set the time and an IANA zone, checked", async () => {
    tokens.newYork = await signedInUser(t.app, `nightly-ny-${driver}@northwind.example`);
    tokens.berlin = await signedInUser(t.app, `nightly-berlin-${driver}@northwind.example`);
    const empty = await signedInUser(t.app, `nightly-empty-${driver}@northwind.example`);
    ids.newYork = (await get(t.app, "/api/session", tokens.newYork)).json().accountId;
    ids.berlin = (await get(t.app, "/api/session", tokens.berlin)).json().accountId;
    ids.empty = (await get(t.app, "/api/session", empty)).json().accountId;

    const initial = await get(t.app, "/api/settings/nightly-sync", tokens.newYork);
    expect(initial.json()).toEqual({ enabled: true, time: "06:00", timeZone: "UTC", lastRunDate: null, replaceChanged: false });

    const badTime = await putNightly(t.app, tokens.newYork, { enabled: true, time: "6:00", timeZone: "UTC" });
    expect(badTime.statusCode).toBe(400);
    expect(badTime.json().error.details.fields).toEqual([{ path: "time", message: expect.stringMatching(/HH:MM/) }]);
    const badZone = await putNightly(t.app, tokens.newYork, { enabled: true, time: "06:00", timeZone: "Mars/Olympus" });
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json().error.details.fields).toEqual([{ path: "timeZone", message: expect.stringMatching(/IANA/) }]);
    const badReplace = await putNightly(t.app, tokens.newYork, { enabled: true, time: "06:00", timeZone: "UTC", replaceChanged: "yes" });
    expect(badReplace.statusCode).toBe(400);
    expect(badReplace.json().error.details.fields).toEqual([{ path: "replaceChanged", message: "replaceChanged must be true or false." }]);
    // An alias is stored under the zone's own name.
    const alias = await putNightly(t.app, tokens.newYork, { enabled: true, time: "06:00", timeZone: "US/Eastern" });
    expect(alias.statusCode, alias.body).toBe(200);
    expect(alias.json()).toEqual({ enabled: true, time: "06:00", timeZone: "America/New_York", lastRunDate: null, replaceChanged: false });
    expect((await putNightly(t.app, tokens.berlin, { enabled: true, time: "06:00", timeZone: "Europe/Berlin" })).statusCode).toBe(200);

    // A member reads it but cannot change it.
    const member = await addMember(t.app, tokens.berlin, `nightly-member-${driver}@northwind.example`, 0);
    expect((await get(t.app, "/api/settings/nightly-sync", member)).json()).toMatchObject({ timeZone: "Europe/Berlin" });
    const refused = await putNightly(t.app, member, { enabled: false, time: "06:00", timeZone: "UTC" });
    expect(refused.statusCode).toBe(403);

    await connectCompany(t.app, sandbox, tokens.newYork, DEMO.parent);
    await connectCompany(t.app, sandbox, tokens.berlin, DEMO.uk);
    await drainJobs(t.app);
  });

  it("does not run a group at the tick after it connected in the evening: its first night is the next morning", async () => {
    // The clock of these tests is March 2026: both groups connected on Friday 6 March at 21:00Z
    // (16:00 in New York, 22:00 in Berlin), after the day's 06:00; the connection's sync read the books.
    await t.db.database.db.update(companies).set({ createdAt: new Date("2026-03-06T21:00:00Z") }).where(inArray(companies.accountId, [ids.newYork, ids.berlin]));
    expect(await tick("2026-03-06T21:01:00Z")).toEqual([]);
    expect(await tick("2026-03-06T23:59:00Z")).toEqual([]);
    expect(await nightlyJobs()).toEqual([]);
  });

  it("runs in each group's time zone, on the zone's clock across New York's change to daylight saving", async () => {
    // Saturday 7 March, 07:00 in New York and 13:00 in Berlin: both groups' time has passed today and neither has run.
    expect(await tick("2026-03-07T12:00:00Z")).toEqual(["berlin 2026-03-07", "newYork 2026-03-07"]);
    await drainJobs(t.app);
    // Sunday 8 March 2026: New York moves from EST (UTC-5) to EDT (UTC-4) at 02:00; Berlin stays on CET (UTC+1).
    expect(await tick("2026-03-08T04:59:00Z")).toEqual([]); // 23:59 on the 7th in New York, 05:59 in Berlin
    expect(await tick("2026-03-08T05:00:00Z")).toEqual(["berlin 2026-03-08"]); // 06:00 in Berlin
    expect(await tick("2026-03-08T05:30:00Z")).toEqual([]);
    expect(await tick("2026-03-08T09:59:00Z")).toEqual([]); // 05:59 EDT (04:59 had the clocks not moved)
    expect(await tick("2026-03-08T10:00:00Z")).toEqual(["newYork 2026-03-08"]); // 06:00 EDT
    expect(await tick("2026-03-08T23:59:00Z")).toEqual([]);
    // The group without a connected company has nothing to sync.
    expect((await nightlyJobs()).filter((j) => j.startsWith("empty"))).toEqual([]);
    expect((await get(t.app, "/api/settings/nightly-sync", tokens.newYork)).json().lastRunDate).toBe("2026-03-08");

    // The nightly job queues the syncs of the group's companies, which run.
    await drainJobs(t.app);
    const results = await t.db.database.db
      .select({ accountId: jobs.accountId, state: jobs.state, result: jobs.result })
      .from(jobs)
      .where(and(eq(jobs.kind, NIGHTLY_JOB), sql`${jobs.payload}->>'localDate' = '2026-03-08'`));
    expect(results.map((r) => [name(r.accountId!), r.state, r.result]).sort()).toEqual([
      ["berlin", "succeeded", { localDate: "2026-03-08", queued: [DEMO.uk], alreadyQueued: [] }],
      ["newYork", "succeeded", { localDate: "2026-03-08", queued: [DEMO.parent], alreadyQueued: [] }],
    ]);
    const syncs = await t.db.database.db.select().from(jobs).where(and(eq(jobs.kind, SYNC_JOB), eq(jobs.state, "succeeded")));
    expect(syncs.filter((j) => j.payload["realmId"] === DEMO.parent)).toHaveLength(3); // at connect, on the 7th and on the 8th
  });

  it("queues each group's day once when two processes tick at the same moment", async () => {
    const other = otherProcess();
    const at = new Date("2026-03-09T10:00:00Z"); // 06:00 EDT, 11:00 CET: both groups are due for the 9th
    const [mine, theirs] = await Promise.all([t.app.services.nightly.tick(at), other.tick(at)]);
    expect([...mine, ...theirs].map((q) => `${name(q.accountId)} ${q.localDate}`).sort()).toEqual(["berlin 2026-03-09", "newYork 2026-03-09"]);
    const again = await Promise.all([t.app.services.nightly.tick(at), other.tick(new Date("2026-03-09T12:00:00Z"))]);
    expect(again.flat()).toEqual([]);
    expect(await nightlyJobs()).toEqual(["berlin 2026-03-07", "berlin 2026-03-08", "berlin 2026-03-09", "newYork 2026-03-07", "newYork 2026-03-08", "newYork 2026-03-09"]);
  });

  it("a group switched off, or whose trial lapsed, is left alone; a later time the same day does not run it twice", async () => {
    expect((await putNightly(t.app, tokens.newYork, { enabled: false, time: "06:00", timeZone: "America/New_York" })).statusCode).toBe(200);
    await t.db.database.db.update(accounts).set({ trialEndsAt: new Date("2026-03-01T00:00:00Z") }).where(eq(accounts.id, ids.berlin));
    expect(await tick("2026-03-10T12:00:00Z")).toEqual([]);

    await t.db.database.db.update(accounts).set({ trialEndsAt: new Date("2099-01-01T00:00:00Z") }).where(eq(accounts.id, ids.berlin));
    expect((await putNightly(t.app, tokens.newYork, { enabled: true, time: "20:00", timeZone: "America/New_York" })).statusCode).toBe(200);
    expect(await tick("2026-03-10T12:00:00Z")).toEqual(["berlin 2026-03-10"]); // 08:00 in New York: before 20:00
    expect(await tick("2026-03-11T00:00:00Z")).toEqual(["newYork 2026-03-10"]); // 20:00 EDT on the 10th
    // Moving the time later after tonight's run does not run the group again tonight.
    expect((await putNightly(t.app, tokens.newYork, { enabled: true, time: "22:00", timeZone: "America/New_York" })).json().lastRunDate).toBe("2026-03-10");
    expect(await tick("2026-03-11T03:00:00Z")).toEqual([]);
    const audit = await t.db.database.db.execute(sql`select count(*)::int as n from audit_log where action = 'settings.nightly_sync_set' and account_id = ${ids.newYork}`);
    expect(rowsOf<{ n: number }>(audit)[0]?.n).toBe(4);
  });
});
