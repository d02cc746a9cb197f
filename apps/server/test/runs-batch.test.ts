import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { journalEntrySchema, QboClient } from "@groupledger/qbo";
import { afterEach, describe, expect, it, vi } from "vitest";
import { consolidationPostings, jobs } from "../src/db/schema.ts";
import { counterpartyNames } from "../src/modules/qbo/counterparties.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, DEMO_HISTORICAL_RATES, drainJobs, openingGroup, postOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";

/**
 * Issue 21 (c): a run posts its subsidiary-months in QuickBooks' batch requests, up to 30 entries
 * to a request, and still exactly once: a batch whose answer was lost (a crash after QuickBooks
 * made its entries, or before it was sent) is only ever sent again whole under its requestid,
 * by the run or by a single post of one of its periods, so QuickBooks replays its first answer.
 */

const SUBSIDIARIES = [DEMO.uk, DEMO.canada, DEMO.germany, DEMO.retail];
const docOf = (month: string, realmId: string) => `CR${month.replace("-", "")}-${realmId.slice(-6)}`;
const month = (m: string) => ({ kind: "month", year: Number(m.slice(0, 4)), month: Number(m.slice(5, 7)) });
type Item = { realmId: string; month: string; status: string; message: string | null };

async function parentEntries(app: FastifyInstance, docNumber: string) {
  return app.services.provider.client(DEMO.parent).query(`SELECT * FROM JournalEntry WHERE DocNumber = '${docNumber}'`, journalEntrySchema);
}

describe.each(drivers)("a run posted in batch requests on %s", (driver) => {
  // A lease longer than one sync's write of its balances: on PGlite (one connection) the worker's
  // heartbeat waits behind that transaction, 0.3–0.5 s under a loaded CI machine, and a 300 ms lease
  // then lapsed and the company's sync failed with "no longer held" (faults-run.test.ts uses 2 s too).
  // The crashes here are failed attempts retried by the worker, which no lease length changes.
  const { sandbox, t } = useSandboxApp(driver, { jobLeaseMs: 2000 });
  afterEach(() => vi.restoreAllMocks());

  /** The demo group's four subsidiaries with their opening balances posted (once for the describe: each test posts its own months). */
  let ready: Promise<string> | undefined;
  const group = () =>
    (ready ??= (async () => {
      const token = await openingGroup(t.app, sandbox, `batch-${driver}@runs.example`, DEMO_HISTORICAL_RATES, { from: "2024-12", to: "2026-10" });
      for (const realmId of SUBSIDIARIES) await postOpening(t.app, token, realmId);
      return token;
    })());

  /** Counts the batch requests of journal entries and the single creates the app sends from now on. */
  const countCalls = () => {
    const calls = { batches: [] as { requestId: string; docNumbers: (string | undefined)[] }[], singles: [] as (string | undefined)[] };
    const batch = QboClient.prototype.createJournalEntries;
    const single = QboClient.prototype.createJournalEntry;
    vi.spyOn(QboClient.prototype, "createJournalEntries").mockImplementation(async function (this: QboClient, ...args) {
      calls.batches.push({ requestId: args[1], docNumbers: args[0].map((e) => e.docNumber) });
      return batch.apply(this, args);
    });
    vi.spyOn(QboClient.prototype, "createJournalEntry").mockImplementation(async function (this: QboClient, ...args) {
      calls.singles.push(args[0].docNumber);
      return single.apply(this, args);
    });
    return calls;
  };

  /** The next batch request fails: `after` QuickBooks made its entries (the answer is lost), or before it is sent. */
  const dieAtNextBatch = (when: "after" | "before") => {
    const batch = QboClient.prototype.createJournalEntries;
    vi.spyOn(QboClient.prototype, "createJournalEntries").mockImplementationOnce(async function (this: QboClient, ...args) {
      if (when === "after") await batch.apply(this, args);
      throw new Error(`the process died ${when} the batch request`);
    });
  };

  const runOf = async (token: string, id: string) => (await get(t.app, `/api/multipleconsolidation/runs/${id}`, token)).json();
  /** Runs the queue until the run has ended; a job waiting out a retry's backoff is made due at once. */
  const untilEnded = async (token: string, id: string) => {
    for (let i = 0; i < 40; i++) {
      await t.db.database.db.update(jobs).set({ runAfter: new Date() }).where(eq(jobs.state, "queued"));
      await drainJobs(t.app);
      const run = await runOf(token, id);
      if (!["queued", "running"].includes(run.status)) return run;
    }
    throw new Error("the run did not end");
  };
  const startRun = async (token: string, from: string, to: string) => {
    const res = await post(t.app, "/api/multipleconsolidation/runs", { realmIds: SUBSIDIARIES, from, to }, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };
  /** Each subsidiary-month is in the parent's QuickBooks exactly once, and its one posted row names that entry. */
  const postedOnce = async (months: readonly string[]) => {
    for (const m of months) {
      for (const realmId of SUBSIDIARIES) {
        const entries = await parentEntries(t.app, docOf(m, realmId));
        expect(entries, docOf(m, realmId)).toHaveLength(1);
        const rows = await t.db.database.db
          .select()
          .from(consolidationPostings)
          .where(and(eq(consolidationPostings.realmId, realmId), eq(consolidationPostings.periodTo, m), eq(consolidationPostings.status, "posted")));
        expect(rows.map((r) => r.journalEntryId), docOf(m, realmId)).toEqual([entries[0]!.id]);
      }
    }
  };

  it("posts four subsidiaries × two months in two batch requests, one per month, each entry once", { timeout: 120_000 }, async () => {
    const token = await group();
    const calls = countCalls();
    const run = await untilEnded(token, await startRun(token, "2026-01", "2026-02"));
    expect(run, JSON.stringify(run.items)).toMatchObject({ status: "succeeded", progress: 1, counts: { total: 8, posted: 8, skipped: 0, failed: 0 } });
    // A subsidiary's next month waits for the next batch: its month before must be known to be posted.
    expect(calls.batches.map((b) => b.docNumbers)).toEqual(["2026-01", "2026-02"].map((m) => SUBSIDIARIES.map((r) => docOf(m, r))));
    expect(calls.singles).toEqual([]);
    expect(new Set(calls.batches.map((b) => b.requestId)).size).toBe(2);
    await postedOnce(["2026-01", "2026-02"]);
    const rows = await t.db.database.db.select().from(consolidationPostings).where(eq(consolidationPostings.runId, run.id));
    expect(rows.map((r) => [r.batchRequestId, r.batchIndex]).sort()).toEqual(
      calls.batches.flatMap((b) => b.docNumbers.map((_, i) => [b.requestId, i])).sort(),
    );
  });

  /** A run whose first batch request fails (`dieAtNextBatch`), worked until the job waits to retry: its id. */
  const crashedRun = async (token: string, when: "after" | "before", from: string, to: string) => {
    dieAtNextBatch(when);
    const id = await startRun(token, from, to);
    await drainJobs(t.app);
    vi.restoreAllMocks();
    return id;
  };

  /** The batch requestid and bIds the run's rows of `m` were written with. */
  const batchRows = async (m: string) =>
    (await t.db.database.db.select().from(consolidationPostings).where(eq(consolidationPostings.periodTo, m))).map((r) => ({ realmId: r.realmId, status: r.status, batch: r.batchRequestId, index: r.batchIndex }));

  it("a crash after QuickBooks made a batch's entries, then a restart, ends with each period posted once", { timeout: 120_000 }, async () => {
    const token = await group();
    const id = await crashedRun(token, "after", "2026-03", "2026-04"); // March's batch: made in QuickBooks, then the crash
    expect((await runOf(token, id)).counts).toMatchObject({ pending: 8, posted: 0 });
    const march = await batchRows("2026-03");
    expect(march.map((r) => r.status)).toEqual(["posting", "posting", "posting", "posting"]);
    for (const realmId of SUBSIDIARIES) expect(await parentEntries(t.app, docOf("2026-03", realmId))).toHaveLength(1);

    // The restart resends March's batch whole under its requestid (QuickBooks replays its answer), then posts April.
    const calls = countCalls();
    const run = await untilEnded(token, id);
    expect(run, JSON.stringify(run.items)).toMatchObject({ status: "succeeded", counts: { total: 8, posted: 8, skipped: 0, failed: 0 } });
    expect(run.items.every((i: Item) => i.message === null)).toBe(true);
    expect(calls.singles).toEqual([]);
    expect(calls.batches.map((b) => b.docNumbers)).toEqual(["2026-03", "2026-04"].map((m) => SUBSIDIARIES.map((r) => docOf(m, r))));
    expect(calls.batches[0]!.requestId).toBe(march[0]!.batch);
    await postedOnce(["2026-03", "2026-04"]);
  });

  it("a crash before a batch was sent, then a restart, ends with each period posted once", { timeout: 120_000 }, async () => {
    const token = await group();
    const id = await crashedRun(token, "before", "2026-09", "2026-09");
    const september = await batchRows("2026-09");
    expect(september.map((r) => [r.status, r.index])).toEqual([["posting", 0], ["posting", 1], ["posting", 2], ["posting", 3]]);
    for (const realmId of SUBSIDIARIES) expect(await parentEntries(t.app, docOf("2026-09", realmId))).toEqual([]);

    const calls = countCalls();
    const run = await untilEnded(token, id);
    expect(run, JSON.stringify(run.items)).toMatchObject({ status: "succeeded", counts: { total: 4, posted: 4, skipped: 0, failed: 0 } });
    expect(calls.singles).toEqual([]);
    expect(calls.batches).toEqual([{ requestId: september[0]!.batch, docNumbers: SUBSIDIARIES.map((r) => docOf("2026-09", r)) }]);
    await postedOnce(["2026-09"]);
  });

  it("an entry QuickBooks refuses inside a batch fails alone, and its subsidiary's later months are skipped", { timeout: 120_000 }, async () => {
    const token = await group();
    const receivables = counterpartyNames("Northwind UK Ltd").Customer;
    const setReceivablesActive = (active: boolean) => {
      const ledger = sandbox.ledger(DEMO.parent)!;
      const customer = ledger.partiesOf("Customer").find((c) => c.displayName === receivables);
      ledger.replaceParty({ ...customer!, active });
    };
    // The run looked the customer up for May; it is made inactive before June's batch is sent.
    const calls = countCalls();
    const batch = vi.mocked(QboClient.prototype.createJournalEntries).getMockImplementation()!;
    vi.mocked(QboClient.prototype.createJournalEntries).mockImplementation(async function (this: QboClient, ...args) {
      if (args[0].some((e) => e.docNumber === docOf("2026-06", DEMO.uk))) setReceivablesActive(false);
      return batch.apply(this, args);
    });
    const run = await untilEnded(token, await startRun(token, "2026-05", "2026-07"));
    setReceivablesActive(true);
    expect(run, JSON.stringify(run.items)).toMatchObject({ status: "finished_with_failures", counts: { total: 12, posted: 10, skipped: 1, failed: 1 } });
    const uk = (m: string) => run.items.find((i: Item) => i.realmId === DEMO.uk && i.month === m) as Item;
    expect(uk("2026-06").status).toBe("failed");
    expect(uk("2026-06").message).toMatch(/^QuickBooks refused the entry: Object Not Found \(.*\)\. Nothing was posted\. Make it active again in the parent's QuickBooks, then post again\.$/);
    expect(uk("2026-07")).toMatchObject({ status: "skipped", message: "Not posted: 2026-06 failed for this company, and posting later months would leave a gap." });
    expect(calls.batches.map((b) => b.docNumbers.length)).toEqual([4, 4, 3]);
    expect(await parentEntries(t.app, docOf("2026-06", DEMO.uk))).toEqual([]);
    const june = await t.db.database.db.select().from(consolidationPostings).where(and(eq(consolidationPostings.realmId, DEMO.uk), eq(consolidationPostings.periodTo, "2026-06")));
    expect(june.map((r) => [r.generation, r.status])).toEqual([[0, "refused"]]);
    for (const realmId of SUBSIDIARIES.slice(1)) for (const m of ["2026-05", "2026-06", "2026-07"]) expect(await parentEntries(t.app, docOf(m, realmId))).toHaveLength(1);

    // Posted again once the name is active: a new generation, once.
    const posted = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-06") }, token);
    expect(posted.statusCode, posted.body).toBe(200);
    expect((await parentEntries(t.app, docOf("2026-06", DEMO.uk))).map((e) => e.id)).toEqual([posted.json().posting.journalEntryId]);
  });

  it("a single post of a period left pending in a batch resends that batch, not a create of its own", { timeout: 120_000 }, async () => {
    const token = await group();
    const id = await crashedRun(token, "after", "2026-08", "2026-08");
    const [first] = await t.db.database.db.select().from(consolidationPostings).where(and(eq(consolidationPostings.realmId, DEMO.germany), eq(consolidationPostings.periodTo, "2026-08")));
    expect(first).toMatchObject({ status: "posting", batchIndex: 2 });

    const calls = countCalls();
    const res = await post(t.app, "/api/consolidation/post", { realmId: DEMO.germany, period: month("2026-08") }, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ outcome: "posted", posting: { status: "posted", docNumber: docOf("2026-08", DEMO.germany) } });
    expect(calls.singles).toEqual([]);
    expect(calls.batches).toEqual([{ requestId: first!.batchRequestId, docNumbers: SUBSIDIARIES.map((r) => docOf("2026-08", r)) }]);
    await postedOnce(["2026-08"]);

    // The run then finds its months posted by its own batch: posted, not duplicates.
    const run = await untilEnded(token, id);
    expect(run, JSON.stringify(run.items)).toMatchObject({ status: "succeeded", counts: { total: 4, posted: 4, skipped: 0 } });
    expect(calls.batches).toHaveLength(1);
    expect(calls.singles).toEqual([]);
    await postedOnce(["2026-08"]);
  });
});
