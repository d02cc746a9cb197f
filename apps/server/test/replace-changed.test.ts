import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { journalEntrySchema, QboClient } from "@groupledger/qbo";
import { afterEach, describe, expect, it, vi } from "vitest";
import { companies, consolidationPostings, jobs } from "../src/db/schema.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, dieAfterNextEntry, drainJobs, openingGroup, postOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";

/**
 * "Replace all changed" (issue 21): one approval replaces every changed entry in period order, as a
 * resumable run, each period ending posted once whatever stops it mid-way; and the nightly setting
 * that approves it in advance and mails a summary.
 */

type Posting = { id: string; realmId: string; period: { label: string }; status: string; docNumber: string; journalEntryId: string; stale: { detectedAt: string } | null };
const UK_MONTHS = ["2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06"];
const docOf = (month: string) => `CR${month.replace("-", "")}-384023`;

async function parentEntries(app: FastifyInstance, docNumber: string) {
  return app.services.provider.client(DEMO.parent).query(`SELECT * FROM JournalEntry WHERE DocNumber = '${docNumber}'`, journalEntrySchema);
}

/** Books a late entry in the UK company's QuickBooks (a sale received in cash): once synced, the posted months from `date` on differ. */
async function bookLateUkSale(app: FastifyInstance, date: string, amount: number, requestId: string) {
  const uk = app.services.provider.client(DEMO.uk);
  const accounts = await uk.accounts();
  const bank = accounts.find((a) => a.accountType === "Bank")!;
  const income = accounts.find((a) => a.classification === "Revenue")!;
  await uk.createJournalEntry({ txnDate: date, currency: "GBP", lines: [{ postingType: "Debit", amount, accountId: bank.id }, { postingType: "Credit", amount, accountId: income.id }] }, requestId);
}

/** The test app of a describe, and the steps its tests share. */
function replacingApp(driver: (typeof drivers)[number]) {
  // A lease longer than one sync's write of its balances: on PGlite (one connection) the worker's
  // heartbeat waits behind that transaction, 0.3–0.5 s under a loaded CI machine, and a 300 ms lease
  // then lapsed and the company's sync failed with "no longer held" (faults-run.test.ts uses 2 s too).
  // The crashes here are failed attempts retried by the worker, which no lease length changes.
  const { sandbox, t } = useSandboxApp(driver, { jobLeaseMs: 2000 });
  afterEach(() => vi.restoreAllMocks());

  const postings = async (token: string): Promise<Posting[]> => (await get(t.app, "/api/consolidation/postings", token)).json().postings;
  const changed = async (token: string) => (await postings(token)).filter((p) => p.status === "posted" && p.stale !== null);
  /** Runs the queue until the run has ended; a job waiting out a retry's backoff is made due at once. */
  const untilEnded = async (token: string, runId: string) => {
    for (let i = 0; i < 40; i++) {
      await t.db.database.db.update(jobs).set({ runAfter: new Date() }).where(eq(jobs.state, "queued"));
      await drainJobs(t.app);
      const run = (await get(t.app, `/api/multipleconsolidation/runs/${runId}`, token)).json();
      if (!["queued", "running"].includes(run.status)) return run;
    }
    throw new Error("the run did not end");
  };
  /** The UK's months Jan–Jun 2026 posted by a run. */
  const postedGroup = async (email: string) => {
    const token = await openingGroup(t.app, sandbox, email, [{ realmId: DEMO.uk, historicalRate: "1.2650" }, { realmId: DEMO.retail, historicalRate: "1" }], { from: "2024-12", to: "2026-10" });
    await postOpening(t.app, token, DEMO.uk);
    const run = (await post(t.app, "/api/multipleconsolidation/runs", { realmIds: [DEMO.uk], from: "2026-01", to: "2026-06" }, token)).json();
    expect((await untilEnded(token, run.id)).counts.posted).toBe(6);
    return token;
  };
  return { t, postings, changed, untilEnded, postedGroup };
}

describe.each(drivers)("replace all changed on %s", (driver) => {
  const { t, postings, changed, untilEnded, postedGroup } = replacingApp(driver);

  it("one approval replaces every changed entry in period order; a crash after QuickBooks made an entry, and one before it was sent, end with each period posted once", { timeout: 120_000 }, async () => {
    const token = await postedGroup("replace-all@runs.example");
    const before = await postings(token);
    await bookLateUkSale(t.app, "2026-03-20", 125_000, "late-march-sale-0001");
    expect((await post(t.app, `/api/companies/${DEMO.uk}/sync`, undefined, token)).statusCode).toBeLessThan(300);
    await drainJobs(t.app);
    const flagged = await changed(token);
    expect(flagged.map((p) => p.period.label)).toEqual(["2026-06", "2026-05", "2026-04", "2026-03"]);
    const approval = (list: Posting[]) => ({ approve: true, postings: list.map((p) => ({ id: p.id, detectedAt: p.stale!.detectedAt })) });

    // What is approved is what was reviewed: anything else is refused, and nothing starts.
    const refusals = [
      [{ postings: approval(flagged).postings }, 400, /Approve the replacements/],
      [{ approve: true, postings: [] }, 400, /at least one changed entry/],
      [{ approve: true, postings: [...approval(flagged).postings, approval(flagged).postings[0]] }, 400, /listed twice/],
      [{ approve: true, postings: [{ id: flagged[0]!.id, detectedAt: "2020-01-01T00:00:00.000Z" }] }, 409, /changed again since you reviewed it/],
      [{ approve: true, postings: [{ id: before.find((p) => p.period.label === "2026-01")!.id, detectedAt: "x" }] }, 409, /no longer differs from the books/],
      [{ approve: true, postings: [{ id: "00000000-0000-4000-8000-000000000000", detectedAt: "x" }] }, 404, /No such posted entry/],
    ] as const;
    for (const [body, status, message] of refusals) {
      const res = await post(t.app, "/api/consolidation/replace-changed", body, token);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.message).toMatch(message);
    }
    expect((await get(t.app, "/api/multipleconsolidation/runs", token)).json().runs).toHaveLength(1);

    // The first replacement's entry is made in QuickBooks, then the process dies before recording it;
    // the second one's process dies before its entry is sent.
    dieAfterNextEntry();
    const started = await post(t.app, "/api/consolidation/replace-changed", approval(flagged), token);
    expect(started.statusCode, started.body).toBe(200);
    const run = started.json();
    expect(run).toMatchObject({ kind: "replace", trigger: "user", status: "queued", counts: { total: 4, pending: 4 } });
    expect(run.items.map((i: { label: string }) => i.label)).toEqual(["2026-03", "2026-04", "2026-05", "2026-06"]);
    const again = await post(t.app, "/api/consolidation/replace-changed", approval(flagged), token);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe("run_in_progress");

    await drainJobs(t.app); // March: made in QuickBooks, then the crash
    vi.restoreAllMocks();
    const create = QboClient.prototype.createJournalEntry;
    vi.spyOn(QboClient.prototype, "createJournalEntry").mockImplementation(async function (this: QboClient, ...args) {
      if (args[0].docNumber === docOf("2026-04")) {
        vi.mocked(QboClient.prototype.createJournalEntry).mockRestore();
        throw new Error("the process died before sending");
      }
      return create.apply(this, args);
    });
    const ended = await untilEnded(token, run.id);
    expect(ended, JSON.stringify(ended.items)).toMatchObject({ status: "succeeded", counts: { posted: 4, skipped: 0, failed: 0 } });
    expect(ended.items.map((i: { message: string }) => i.message)).toEqual(["2026-03", "2026-04", "2026-05", "2026-06"].map((m) => `Entry ${docOf(m)} replaced by ${docOf(m)}.`));

    // Each month is in the parent's QuickBooks once: the changed ones replaced, the others untouched.
    const now = await postings(token);
    for (const month of UK_MONTHS) {
      const entries = await parentEntries(t.app, docOf(month));
      expect(entries, month).toHaveLength(1);
      const live = now.filter((p) => p.realmId === DEMO.uk && p.period.label === month && p.status === "posted");
      expect(live, month).toHaveLength(1);
      expect(live[0]!.stale, month).toBeNull();
      expect(live[0]!.journalEntryId).toBe(entries[0]!.id);
      const old = before.find((p) => p.realmId === DEMO.uk && p.period.label === month)!;
      expect(entries[0]!.id === old.journalEntryId, month).toBe(month < "2026-03");
    }
    expect(await changed(token)).toEqual([]);
    // The run's entries are its own: a second look finds nothing to replace.
    const rows = await t.db.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(consolidationPostings)
      .where(and(eq(consolidationPostings.runId, run.id), eq(consolidationPostings.status, "posted")));
    expect(Number(rows[0]!.n)).toBe(4);
  });

});

describe.each(drivers)("replace changed after the nightly sync on %s", (driver) => {
  const { t, changed, postedGroup } = replacingApp(driver);

  it("the nightly setting replaces what the nightly sync found changed, and mails the admins a summary; off, the entries wait", { timeout: 120_000 }, async () => {
    const token = await postedGroup("nightly-replace@runs.example");
    const accountId = (await get(t.app, "/api/session", token)).json().accountId as string;
    // This test's nights are in mid-2026: the group connected its companies before them.
    await t.db.database.db.update(companies).set({ createdAt: new Date("2026-01-01T00:00:00Z") }).where(eq(companies.accountId, accountId));
    const setting = { enabled: true, time: "06:00", timeZone: "Europe/London" };
    expect((await t.app.inject({ method: "PUT", url: "/api/settings/nightly-sync", headers: { authorization: `Bearer ${token}` }, payload: setting })).json()).toMatchObject({
      replaceChanged: false,
    });
    const night = async (iso: string) => {
      const queued = await t.app.services.nightly.tick(new Date(iso));
      expect(queued.map((q) => q.accountId)).toContain(accountId);
      await untilQueueEmpty();
    };
    const untilQueueEmpty = async () => {
      for (let i = 0; i < 40; i++) {
        await t.db.database.db.update(jobs).set({ runAfter: new Date() }).where(eq(jobs.state, "queued"));
        await drainJobs(t.app);
        const left = await t.db.database.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.state, "queued"));
        if (left.length === 0) return;
      }
      throw new Error("the queue did not empty");
    };

    /** The summaries of nightly replacements in the admin's mailbox. */
    const summaries = async () =>
      ((await get(t.app, "/api/dev/mailbox?to=nightly-replace%40runs.example")).json().messages as { subject: string; text: string }[]).filter((m) => /replaced after the nightly sync/.test(m.subject));

    // Off (the default): a late May sale is found by the nightly sync and flagged; nothing is replaced or mailed.
    await bookLateUkSale(t.app, "2026-05-12", 40_000, "late-may-sale-0001");
    await night("2026-07-01T06:30:00Z");
    expect((await changed(token)).map((p) => p.period.label)).toEqual(["2026-06", "2026-05"]);
    expect((await get(t.app, "/api/multipleconsolidation/runs", token)).json().runs).toHaveLength(1);
    expect(await summaries()).toEqual([]);

    // On: the next night replaces them, in order, and the admin gets what was replaced.
    const on = await t.app.inject({ method: "PUT", url: "/api/settings/nightly-sync", headers: { authorization: `Bearer ${token}` }, payload: { ...setting, replaceChanged: true } });
    expect(on.json()).toMatchObject({ replaceChanged: true });
    await night("2026-07-02T06:30:00Z");
    const runs = (await get(t.app, "/api/multipleconsolidation/runs", token)).json().runs;
    expect(runs[0]).toMatchObject({ kind: "replace", trigger: "nightly", createdBy: null, status: "succeeded", counts: { posted: 2, failed: 0 } });
    expect(await changed(token)).toEqual([]);
    for (const month of UK_MONTHS) expect(await parentEntries(t.app, docOf(month)), month).toHaveLength(1);
    const [mail, ...more] = await summaries();
    expect(more).toEqual([]);
    expect(mail?.subject).toMatch(/^GroupLedger: 2 changed entries replaced after the nightly sync/);
    expect(mail?.text).toContain(`2026-05: Entry ${docOf("2026-05")} replaced by ${docOf("2026-05")}.`);
    expect(mail?.text).toContain("2 replaced, 0 skipped, 0 failed.");

    // A night that finds nothing changed starts no run and sends no mail.
    await night("2026-07-03T06:30:00Z");
    expect((await get(t.app, "/api/multipleconsolidation/runs", token)).json().runs).toHaveLength(2);
    expect(await summaries()).toHaveLength(1);
  });
});
