import { createHmac } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { QboClient } from "@groupledger/qbo";
import { Sandbox } from "@groupledger/qbo-sandbox";
import { describe, expect, it, vi } from "vitest";
import { webhookVerifierToken } from "../src/config.ts";
import type { Database } from "../src/db/client.ts";
import { jobs, obalCompanies } from "../src/db/schema.ts";
import { SYNC_AGAIN_JOB, SYNC_JOB } from "../src/modules/sync/enqueue.ts";
import { WEBHOOK_BODY_LIMIT } from "../src/modules/webhooks/routes.ts";
import { testConfig, useTestApp } from "./app.ts";
import { DEMO, bankAndExpense, connectCompany, drainJobs, expenseEntry, openingGroup, postOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

/**
 * QuickBooks' webhooks (issue 21): POST /api/qbo/webhooks, called by Intuit without a session,
 * proven by `intuit-signature` (base64 HMAC-SHA256 of the raw body with the verifier token), and
 * answered once the syncs of the companies named are queued, one per company.
 */
const TOKEN = webhookVerifierToken(testConfig()) as string;
const UNKNOWN_REALM = "123145000000001";

const sign = (body: string | Buffer, token = TOKEN) => createHmac("sha256", token).update(body).digest("base64");

function payload(realms: readonly string[]) {
  return {
    eventNotifications: realms.map((realmId, i) => ({
      realmId,
      dataChangeEvent: { entities: [{ name: "JournalEntry", id: String(100 + i), operation: "Create", lastUpdated: "2026-03-02T10:00:00.000Z" }] },
    })),
  };
}

/** The realms of the queued or running jobs of `kind`. */
async function activeRealms(database: Database, kind: string): Promise<string[]> {
  const rows = await database.db
    .select({ realmId: sql<string>`${jobs.payload}->>'realmId'` })
    .from(jobs)
    .where(and(eq(jobs.kind, kind), sql`${jobs.state} in ('queued', 'running')`));
  return rows.map((j) => j.realmId).sort();
}

/** Posts a notification as Intuit does: the exact text, and its signature unless told otherwise. */
function notify(app: FastifyInstance, body: string | Buffer | undefined, signature: string | null | undefined = body === undefined ? undefined : sign(body)) {
  return app.inject({
    method: "POST",
    url: "/api/qbo/webhooks",
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(signature === null || signature === undefined ? {} : { "intuit-signature": signature }) },
    ...(body === undefined ? {} : { payload: body }),
  });
}

describe.each(drivers)("QuickBooks webhooks on %s", (driver) => {
  const sandbox = new Sandbox();
  const t = useTestApp(driver, { sandbox });

  /** Every job in the queue by kind, realm and state: what a webhook may have added. */
  const allJobs = async () =>
    (await t.db.database.db.select({ kind: jobs.kind, payload: jobs.payload, state: jobs.state }).from(jobs)).map((j) => `${j.kind} ${String(j.payload["realmId"] ?? "")} ${j.state}`).sort();
  const active = (kind: string) => activeRealms(t.db.database, kind);

  let token: string;
  it("connects the parent and the UK subsidiary and syncs them", async () => {
    token = await signedInUser(t.app, `webhooks-${driver}@northwind.example`);
    await connectCompany(t.app, sandbox, token, DEMO.parent);
    await connectCompany(t.app, sandbox, token, DEMO.uk);
    await drainJobs(t.app);
    expect(await active(SYNC_JOB)).toEqual([]);
  });

  it("a missing or bad signature is 401 and queues nothing, whatever the body", async () => {
    const before = await allJobs();
    const body = JSON.stringify(payload([DEMO.parent, DEMO.uk]));
    const reserialized = JSON.stringify(JSON.parse(body), null, 2);
    const attempts: [string, Awaited<ReturnType<typeof notify>>][] = [
      ["no signature", await notify(t.app, body, null)],
      ["empty signature", await notify(t.app, body, "")],
      ["another verifier token", await notify(t.app, body, sign(body, "not-the-verifier-token"))],
      ["the signature of the same JSON written otherwise", await notify(t.app, reserialized, sign(body))],
      ["hex instead of base64", await notify(t.app, body, createHmac("sha256", TOKEN).update(body).digest("hex"))],
      ["a signature but no body", await notify(t.app, undefined, sign(body))],
      ["bad JSON with a bad signature", await notify(t.app, "{not json", sign("{"))],
    ];
    for (const [what, res] of attempts) {
      expect(res.statusCode, what).toBe(401);
      expect(res.json().error.code, what).toBe("invalid_signature");
    }
    expect(await allJobs()).toEqual(before);
  });

  it("a good one queues one sync per connected realm, even sent twice at once; unknown realms are ignored", async () => {
    const body = JSON.stringify(payload([DEMO.parent, DEMO.uk, DEMO.parent, UNKNOWN_REALM]));
    // No session: Intuit sends none.
    const [first, second] = await Promise.all([notify(t.app, body), notify(t.app, body)]);
    for (const res of [first!, second!]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ received: 4 });
    }
    expect(await active(SYNC_JOB)).toEqual([DEMO.parent, DEMO.uk].sort());
    expect((await allJobs()).filter((j) => j.includes(UNKNOWN_REALM))).toEqual([]);
    // Once more while those wait: still one each.
    expect((await notify(t.app, JSON.stringify(payload([DEMO.uk])))).statusCode).toBe(200);
    expect(await active(SYNC_JOB)).toEqual([DEMO.parent, DEMO.uk].sort());
    expect(await active(SYNC_AGAIN_JOB)).toEqual([]);

    await drainJobs(t.app);
    const status = (await get(t.app, "/api/companies/status", token)).json();
    expect(status[DEMO.uk].sync).toMatchObject({ state: "succeeded", lastChanges: { kind: "incremental", reason: null } });
  });

  it("a signed body that is not JSON, or not a notification, is 400; one over the size limit 413; nothing queued", async () => {
    const before = await allJobs();
    const notJson = await notify(t.app, "{not json");
    expect(notJson.statusCode).toBe(400);
    const wrongShape = await notify(t.app, JSON.stringify({ eventNotifications: [{ dataChangeEvent: {} }] }));
    expect(wrongShape.statusCode).toBe(400);
    expect(JSON.stringify(wrongShape.json().error)).toContain("realmId");
    const tooDeep = await notify(t.app, `${"[".repeat(100)}${"]".repeat(100)}`);
    expect(tooDeep.json().error.code).toBe("too_deeply_nested");
    const huge = JSON.stringify({ ...payload([DEMO.uk]), padding: "x".repeat(WEBHOOK_BODY_LIMIT) });
    expect((await notify(t.app, huge)).statusCode).toBe(413);
    expect(await allJobs()).toEqual(before);
  });

  it("a notification while a sync runs queues the next sync once it has ended, so no change is missed", async () => {
    const { queue, worker } = t.app.services;
    // A sync of the UK company is under way on another worker (it may have read CDC already).
    const running = await post(t.app, `/api/companies/${DEMO.uk}/sync`, undefined, token);
    expect(running.statusCode).toBe(202);
    const claimed = await queue.claim([SYNC_JOB], "another-worker");
    expect(claimed?.payload["realmId"]).toBe(DEMO.uk);

    expect((await notify(t.app, JSON.stringify(payload([DEMO.uk])))).statusCode).toBe(200);
    expect(await active(SYNC_AGAIN_JOB)).toEqual([DEMO.uk]);
    const due = () => t.db.database.db.update(jobs).set({ runAfter: new Date(Date.now() - 1000) }).where(eq(jobs.kind, SYNC_AGAIN_JOB));

    // While it runs, the follow-up waits (it fails and is retried with backoff)…
    await due();
    await worker.poll();
    await worker.idle();
    const [waiting] = await t.db.database.db.select().from(jobs).where(eq(jobs.kind, SYNC_AGAIN_JOB));
    expect(waiting).toMatchObject({ state: "queued", attempts: 1, error: expect.stringMatching(/still running/) });
    expect(await active(SYNC_JOB)).toEqual([DEMO.uk]);

    // …and once it has ended, queues the next sync, which runs.
    await queue.complete(claimed!.id, "another-worker");
    await due();
    await drainJobs(t.app);
    const [done] = await t.db.database.db.select().from(jobs).where(eq(jobs.kind, SYNC_AGAIN_JOB));
    expect(done).toMatchObject({ state: "succeeded", attempts: 2 });
    const syncs = await t.db.database.db.select().from(jobs).where(and(eq(jobs.kind, SYNC_JOB), sql`${jobs.payload}->>'realmId' = ${DEMO.uk}`));
    expect(syncs.filter((j) => j.createdAt > claimed!.createdAt && j.state === "succeeded")).toHaveLength(1);
  });
  it("a change booked while a sync runs, after it asked CDC, is read by the next sync: a company is fresh as of its sync's start", async () => {
    const client = t.app.services.provider.client(DEMO.uk);
    const accounts = await bankAndExpense(t.app, token, DEMO.uk);
    // Someone books an entry in QuickBooks as the sync asks CDC what changed: it reaches QuickBooks
    // just after CDC has answered (every call takes 50 ms here), while the sync reads its reports.
    let booking: Promise<{ id: string }> | undefined;
    const noteRequest = sandbox.noteRequest.bind(sandbox);
    sandbox.setFaults({ latencyMs: 50 });
    sandbox.noteRequest = (realmId, route) => {
      noteRequest(realmId, route);
      if (realmId === DEMO.uk && route === "GET cdc" && booking === undefined) {
        booking = client.createJournalEntry(expenseEntry(accounts, "2025-06-15", "GBP", 777), `booked-during-sync-${driver}`);
      }
    };
    try {
      expect((await post(t.app, `/api/companies/${DEMO.uk}/sync`, undefined, token)).statusCode).toBe(202);
      await drainJobs(t.app);
    } finally {
      sandbox.noteRequest = noteRequest;
      sandbox.setFaults({});
    }
    const made = await booking!;
    const accountId = (await get(t.app, "/api/session", token)).json().accountId as string;
    const [during] = (await t.app.services.queue.listForAccount(accountId)).filter((j) => j.kind === SYNC_JOB);
    expect(sandbox.ledger(DEMO.uk)!.entry(made.id)!.createTime).toBeLessThan(during!.finishedAt!.getTime());
    expect((during!.result as { changes: { changed: Record<string, number> } }).changes.changed).toEqual({});

    expect((await post(t.app, `/api/companies/${DEMO.uk}/sync`, undefined, token)).statusCode).toBe(202);
    await drainJobs(t.app);
    const next = (await get(t.app, "/api/companies/status", token)).json()[DEMO.uk].sync;
    expect(next.lastChanges).toMatchObject({ kind: "incremental", from: "2025-06", changed: { JournalEntry: 1 } });
  });
});

describe.each(drivers)("QuickBooks webhooks from the embedded emulator on %s", (driver) => {
  const sandbox = new Sandbox();
  // As the server runs by default: the emulator tells /api/qbo/webhooks about changes (a short window here).
  const t = useTestApp(driver, { sandbox, config: { qbo: { kind: "embedded", admin: false, stateDir: undefined, webhooks: { windowMs: 10 } }, rateLimits: { webhooksPerMinute: 5 } } });

  it("a journal entry booked in QuickBooks reaches the server as a signed webhook, whose sync reads the change and says what it found", async () => {
    const token = await signedInUser(t.app, `emulator-webhooks-${driver}@northwind.example`);
    await connectCompany(t.app, sandbox, token, DEMO.retail);
    await drainJobs(t.app);
    expect((await get(t.app, "/api/companies/status", token)).json()[DEMO.retail].sync.lastChanges).toMatchObject({ kind: "full", reason: "first_sync", from: "2023-01", changed: {}, deleted: 0 });
    expect(sandbox.webhooks.current).toMatchObject({ url: "http://embedded-qbo.invalid/api/qbo/webhooks", windowMs: 10 });

    const accounts = await bankAndExpense(t.app, token, DEMO.retail);
    const made = await t.app.services.provider.client(DEMO.retail).createJournalEntry(expenseEntry(accounts, "2025-06-15", "USD", 4_200), "emulator-webhook-test-1");
    await sandbox.webhooks.flush();
    expect(sandbox.webhooks.deliveries().at(-1)).toMatchObject({ realmId: DEMO.retail, delivered: true, status: 200, entities: [{ name: "JournalEntry", id: made.id, operation: "Create" }] });
    const queued = (await get(t.app, "/api/companies/status", token)).json()[DEMO.retail].sync;
    expect(queued.state).toBe("queued");

    await drainJobs(t.app);
    const synced = (await get(t.app, "/api/companies/status", token)).json()[DEMO.retail].sync;
    expect(synced).toMatchObject({ state: "succeeded", lastChanges: { kind: "incremental", reason: null, from: "2025-06", changed: { JournalEntry: 1 }, deleted: 0 } });
    expect(synced.lastChanges.months).toBeGreaterThan(1);
  });

  it("the endpoint has its own rate limit per IP: past it, 429 and nothing queued", async () => {
    const body = JSON.stringify(payload([UNKNOWN_REALM]));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await notify(t.app, body)).statusCode);
    // The emulator's own delivery above counted once in this minute.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe.each(drivers)("QuickBooks webhooks about GroupLedger's own entries on %s", (driver) => {
  const sandbox = new Sandbox();
  // The embedded emulator tells /api/qbo/webhooks about every change, GroupLedger's own postings included.
  const t = useTestApp(driver, { sandbox, config: { qbo: { kind: "embedded", admin: false, stateDir: undefined, webhooks: { windowMs: 10 } } } });
  const activeSyncs = () => activeRealms(t.db.database, SYNC_JOB);
  /** What the emulator told the server about the parent since `from` deliveries. */
  const parentNews = (from: number) =>
    sandbox.webhooks
      .deliveries()
      .slice(from)
      .filter((d) => d.realmId === DEMO.parent)
      .flatMap((d) => d.entities.map((e) => `${e.name} ${e.id} ${e.operation}`))
      .sort();
  const entity = (name: string, id: string, operation: string) => ({ name, id, operation, lastUpdated: "2026-03-02T10:00:00.000Z" });
  const notifyParent = (entities: ReturnType<typeof entity>[]) => notify(t.app, JSON.stringify({ eventNotifications: [{ realmId: DEMO.parent, dataChangeEvent: { entities } }] }));
  type Posting = { id: string; journalEntryId: string; status: string; period: { from: string; label: string } };
  const postings = async (token: string) => (await get(t.app, `/api/consolidation/postings?realmId=${DEMO.uk}`, token)).json().postings as Posting[];

  let token = "";
  let opening = "";
  let january = "";
  it("the entries GroupLedger posts itself queue no sync of the parent; the classes and names it creates do", async () => {
    token = await openingGroup(t.app, sandbox, `own-entries-${driver}@northwind.example`, [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2024-12", to: "2026-10" });
    await sandbox.webhooks.flush();
    await drainJobs(t.app);
    expect(await activeSyncs()).toEqual([]);

    // The opening entry comes with the class and the names it needs, made in the parent at the same time.
    let seen = sandbox.webhooks.deliveries().length;
    await postOpening(t.app, token, DEMO.uk);
    await sandbox.webhooks.flush();
    const [row] = await t.db.database.db.select().from(obalCompanies).where(eq(obalCompanies.realmId, DEMO.uk));
    opening = row!.journalEntryId!;
    expect(parentNews(seen)).toEqual(expect.arrayContaining([`JournalEntry ${opening} Create`, expect.stringMatching(/^Class \d+ Create$/), expect.stringMatching(/^Customer \d+ Create$/)]));
    expect(await activeSyncs()).toEqual([DEMO.parent]);
    await drainJobs(t.app);

    // A month's entry reuses them: QuickBooks tells only of the entry, which is GroupLedger's own.
    seen = sandbox.webhooks.deliveries().length;
    const posted = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: { kind: "month", year: 2026, month: 1 } }, token);
    expect(posted.json().outcome, posted.body).toBe("posted");
    january = posted.json().posting.journalEntryId;
    await sandbox.webhooks.flush();
    expect(parentNews(seen)).toEqual([`JournalEntry ${january} Create`]);
    expect(await activeSyncs()).toEqual([]);
    // So is the opening entry's creation, told again.
    expect((await notifyParent([entity("JournalEntry", opening, "Create"), entity("JournalEntry", january, "Create")])).statusCode).toBe(200);
    expect(await activeSyncs()).toEqual([]);
  }, 120_000);

  it("a user's update or delete of one of those entries, or anything else in the same notification, still queues the parent's sync", async () => {
    for (const entities of [
      [entity("JournalEntry", january, "Update")],
      [entity("JournalEntry", opening, "Delete")],
      [entity("JournalEntry", january, "Delete")],
      [entity("JournalEntry", january, "Create"), entity("JournalEntry", "99999", "Create")],
      [entity("JournalEntry", january, "Create"), entity("Account", "1", "Update")],
    ]) {
      expect((await notifyParent(entities)).statusCode).toBe(200);
      expect(await activeSyncs(), JSON.stringify(entities)).toEqual([DEMO.parent]);
      await drainJobs(t.app);
    }
  });

  it("replacing a changed entry (the old one deleted, a new one created) queues no sync of the parent", async () => {
    // A late January entry in the UK's books: its webhook syncs the UK, which flags January.
    const uk = t.app.services.provider.client(DEMO.uk);
    const accounts = await bankAndExpense(t.app, token, DEMO.uk);
    await uk.createJournalEntry(expenseEntry(accounts, "2026-01-20", "GBP", 52_500), `late-january-${driver}`);
    await sandbox.webhooks.flush();
    await drainJobs(t.app);
    const stale = (await postings(token)).find((p) => p.journalEntryId === january) as Posting & { stale: unknown };
    expect(stale.stale).not.toBeNull();

    const seen = sandbox.webhooks.deliveries().length;
    const replaced = await post(t.app, `/api/consolidation/postings/${stale.id}/repost`, { approve: true }, token);
    expect(replaced.json().outcome, replaced.body).toBe("posted");
    const again = replaced.json().posting.journalEntryId as string;
    await sandbox.webhooks.flush();
    expect(parentNews(seen)).toEqual([`JournalEntry ${again} Create`, `JournalEntry ${january} Delete`].sort());
    expect(await activeSyncs()).toEqual([]);
    // The new entry deleted by someone in QuickBooks is theirs to tell about.
    expect((await notifyParent([entity("JournalEntry", again, "Delete")])).statusCode).toBe(200);
    expect(await activeSyncs()).toEqual([DEMO.parent]);
    await drainJobs(t.app);
  });

  it("a notification that arrives before the posting has recorded its entry's id waits for it", async () => {
    // QuickBooks has made the entry and tells of it while GroupLedger is still recording the answer.
    const create = QboClient.prototype.createJournalEntry;
    const spy = vi.spyOn(QboClient.prototype, "createJournalEntry").mockImplementationOnce(async function (this: QboClient, ...args) {
      const made = await create.apply(this, args);
      void sandbox.webhooks.flush();
      await sleep(300);
      return made;
    });
    // From an empty queue, so that what an earlier test left behind is not taken for this one's sync.
    await drainJobs(t.app);
    try {
      const seen = sandbox.webhooks.deliveries().length;
      const posted = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: { kind: "month", year: 2026, month: 2 } }, token);
      expect(posted.json().outcome, posted.body).toBe("posted");
      await sandbox.webhooks.flush();
      expect(parentNews(seen)).toEqual([`JournalEntry ${posted.json().posting.journalEntryId} Create`]);
      expect(await activeSyncs()).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it("a replacement's Delete told before the old row is marked replaced queues no sync either", async () => {
    await drainJobs(t.app);
    const uk = t.app.services.provider.client(DEMO.uk);
    const accounts = await bankAndExpense(t.app, token, DEMO.uk);
    await uk.createJournalEntry(expenseEntry(accounts, "2026-02-20", "GBP", 31_000), `late-february-${driver}`);
    await sandbox.webhooks.flush();
    await drainJobs(t.app);
    const february = (await postings(token)).find((p) => p.status === "posted" && p.period.from.startsWith("2026-02")) as Posting & { stale: unknown };
    expect(february.stale).not.toBeNull();

    // A replacement QuickBooks could not be asked leaves the entry GroupLedger's live one: a Delete
    // told of it afterwards is a user's, and syncs the parent.
    const failing = vi.spyOn(QboClient.prototype, "readJournalEntry").mockRejectedValueOnce(new Error("socket hang up"));
    try {
      const refused = await post(t.app, `/api/consolidation/postings/${february.id}/repost`, { approve: true }, token);
      expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode).toBeLessThan(600);
    } finally {
      failing.mockRestore();
    }
    expect((await notifyParent([entity("JournalEntry", february.journalEntryId, "Delete")])).statusCode).toBe(200);
    expect(await activeSyncs()).toEqual([DEMO.parent]);
    await drainJobs(t.app);

    // QuickBooks has deleted the old entry and tells of it while GroupLedger is still to mark the row replaced.
    const remove = QboClient.prototype.deleteJournalEntry;
    const spy = vi.spyOn(QboClient.prototype, "deleteJournalEntry").mockImplementationOnce(async function (this: QboClient, ...args) {
      const gone = await remove.apply(this, args);
      await sandbox.webhooks.flush();
      return gone;
    });
    try {
      const seen = sandbox.webhooks.deliveries().length;
      const replaced = await post(t.app, `/api/consolidation/postings/${february.id}/repost`, { approve: true }, token);
      expect(replaced.json().outcome, replaced.body).toBe("posted");
      await sandbox.webhooks.flush();
      expect(parentNews(seen)).toEqual([`JournalEntry ${february.journalEntryId} Delete`, `JournalEntry ${replaced.json().posting.journalEntryId} Create`].sort());
      expect(await activeSyncs()).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });
});
