import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { journalEntrySchema, QboClient } from "@groupledger/qbo";
import { afterEach, describe, expect, it, vi } from "vitest";
import { consolidationPostings } from "../src/db/schema.ts";
import { counterpartyNames } from "../src/modules/qbo/counterparties.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, drainJobs, parentAndUk, lockOpening, postOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

const month = (m: string) => ({ kind: "month", year: Number(m.slice(0, 4)), month: Number(m.slice(5, 7)) });
const RECEIVABLES = counterpartyNames("Northwind UK Ltd").Customer;
const REFUSED = /^QuickBooks refused the entry: Object Not Found \(Object Not Found : Something you're trying to use has been made inactive\..*\)\. Nothing was posted\. /;

async function parentEntries(app: FastifyInstance, docNumber: string) {
  return app.services.provider.client(DEMO.parent).query(`SELECT * FROM JournalEntry WHERE DocNumber = '${docNumber}'`, journalEntrySchema);
}

/**
 * Someone makes the subsidiary's "(consolidated receivables)" customer inactive in the parent's
 * QuickBooks after GroupLedger looked it up (between the look-up and the create call, or during a
 * run, which keeps its look-ups): QuickBooks answers the create with 400, Fault 610 "Object Not
 * Found", and made nothing. It replays that answer to the same requestid, so the attempt must be
 * retired (refused): once the name is active again, the period posts under a new generation, once.
 */
describe.each(drivers)("an entry naming a customer made inactive in QuickBooks, on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  afterEach(() => vi.restoreAllMocks());
  let token = "";

  const setReceivablesActive = (active: boolean) => {
    const ledger = sandbox.ledger(DEMO.parent)!;
    const customer = ledger.partiesOf("Customer").find((c) => c.displayName === RECEIVABLES);
    ledger.replaceParty({ ...customer!, active });
  };
  /** Makes the customer inactive just before the create call of the entry with this DocNumber. */
  const inactiveBeforeCreating = (docNumber: string) => {
    const create = QboClient.prototype.createJournalEntry;
    vi.spyOn(QboClient.prototype, "createJournalEntry").mockImplementation(async function (this: QboClient, ...args) {
      if (args[0].docNumber === docNumber) setReceivablesActive(false);
      return create.apply(this, args);
    });
  };
  const attempts = async (periodTo: string) =>
    (await t.db.database.db.select().from(consolidationPostings).where(and(eq(consolidationPostings.realmId, DEMO.uk), eq(consolidationPostings.periodTo, periodTo))))
      .map((p) => [p.generation, p.status])
      .sort();

  it("a posting refused with 610 is retired, and posts under a new generation once the name is active again", async () => {
    token = await signedInUser(t.app, "inactive-name@runs.example");
    await parentAndUk(t.app, sandbox, token);
    await lockOpening(t.app, token);
    await postOpening(t.app, token, DEMO.uk);

    inactiveBeforeCreating("CR202601-384023");
    const refused = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token);
    expect(refused.statusCode, refused.body).toBe(502);
    expect(refused.json().error.code).toBe("qbo_refused");
    expect(refused.json().error.message).toMatch(REFUSED);
    expect(refused.json().error.message).toMatch(/Make it active again in the parent's QuickBooks, then post again\.$/);
    expect(await attempts("2026-01")).toEqual([[0, "refused"]]);
    vi.restoreAllMocks();

    // Still inactive: the next attempt is not a replay of the refusal but a look-up that names the customer.
    const stillInactive = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token);
    expect(stillInactive.statusCode, stillInactive.body).toBe(409);
    expect(stillInactive.json().error).toMatchObject({ code: "qbo_name_taken", message: expect.stringContaining(`has an inactive customer named "${RECEIVABLES}"`) });

    setReceivablesActive(true);
    const posted = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-01") }, token);
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ outcome: "posted", posting: { status: "posted" } });
    expect(await attempts("2026-01")).toEqual([[0, "refused"], [1, "posted"]]);
    const entries = await parentEntries(t.app, "CR202601-384023");
    expect(entries.map((e) => e.id)).toEqual([posted.json().posting.journalEntryId]);
  });

  it("a run whose cached customer was made inactive fails that month in words instead of retrying the refusal, and the month posts again later", async () => {
    setReceivablesActive(true); // as the first test leaves it
    // February looks the customer up and the run keeps it; it is made inactive before March is created.
    inactiveBeforeCreating("CR202603-384023");
    const started = (await post(t.app, "/api/multipleconsolidation/runs", { realmIds: [DEMO.uk], from: "2026-02", to: "2026-03" }, token)).json();
    await drainJobs(t.app);
    vi.restoreAllMocks();
    const run = (await get(t.app, `/api/multipleconsolidation/runs/${started.id}`, token)).json();
    expect(run, JSON.stringify(run)).toMatchObject({ status: "finished_with_failures", counts: { posted: 1, failed: 1 } });
    const march = run.items.find((i: { month: string }) => i.month === "2026-03");
    expect(march.status).toBe("failed");
    expect(march.message).toMatch(REFUSED);
    expect(await attempts("2026-03")).toEqual([[0, "refused"]]);
    expect(await parentEntries(t.app, "CR202603-384023")).toEqual([]);

    setReceivablesActive(true);
    const posted = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-03") }, token);
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json().outcome).toBe("posted");
    expect(await attempts("2026-03")).toEqual([[0, "refused"], [1, "posted"]]);
    expect((await parentEntries(t.app, "CR202603-384023")).map((e) => e.id)).toEqual([posted.json().posting.journalEntryId]);
    expect(await parentEntries(t.app, "CR202602-384023")).toHaveLength(1);
  });
});
