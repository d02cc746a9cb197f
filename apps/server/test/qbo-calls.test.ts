import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, DEMO_HISTORICAL_RATES, configureForTranslation, connectCompany, drainJobs, lockOpening, confirmOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

const month = (m: string) => ({ kind: "month", year: Number(m.slice(0, 4)), month: Number(m.slice(5, 7)) });

/**
 * Calls into the parent's QuickBooks, counted by the emulator (`Sandbox#requestCounts`), for the
 * whole demo group: four opening balances, a three-month run of the four subsidiaries, three
 * months of eliminations, a single posting, and Verify. Issue 20 item 6 / issue 21: the class and
 * name look-ups a posting needs go as one batch (a run looks them up once per subsidiary), the
 * missing ones are created in one more, and Verify reads every posted entry back in one call.
 *
 * Measured before (one call per look-up, per creation and per entry read back): 7 calls per
 * opening balance (28), 48 for the run (4 per posting), 3 + 2 + 2 for the eliminations, 20 for
 * Verify (19 entries + the trial balance): 103. After: 12 + 16 + 7 + 2 = 37.
 */
describe.each(drivers)("calls into QuickBooks on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);

  /** The parent's requests made by `fn`, by route, and their total. */
  const counted = async (fn: () => Promise<void>): Promise<{ total: number; byRoute: Record<string, number> }> => {
    const before = sandbox.requestCounts(DEMO.parent);
    await fn();
    const after = sandbox.requestCounts(DEMO.parent);
    const byRoute: Record<string, number> = {};
    for (const [route, n] of Object.entries(after)) if (n - (before[route] ?? 0) > 0) byRoute[route] = n - (before[route] ?? 0);
    return { total: Object.values(byRoute).reduce((s, n) => s + n, 0), byRoute };
  };

  it("posts the demo group's entries and verifies them in as few calls as QuickBooks allows", async () => {
    const token = await signedInUser(t.app, "calls@northwind.example");
    for (const realm of Object.values(DEMO)) await connectCompany(t.app, sandbox, token, realm);
    await drainJobs(t.app);
    await post(t.app, "/api/companies/parent", { realmId: DEMO.parent }, token);
    const subsidiaries = DEMO_HISTORICAL_RATES.map((s) => s.realmId);
    await configureForTranslation(t.app, token, DEMO_HISTORICAL_RATES, { from: "2024-11", to: "2026-10" });
    type Account = { Id: string; name: string };
    const chart = async (realm: string): Promise<Account[]> => (await get(t.app, `/api/companies/${realm}/accounts`, token)).json();
    const [parentChart, ukChart] = [await chart(DEMO.parent), await chart(DEMO.uk)];
    const pair = await post(
      t.app,
      "/api/eliminations/pairs",
      {
        name: "UK loan",
        kind: "receivablePayable",
        left: { realmId: DEMO.parent, accountId: parentChart.find((a) => a.name === "Intercompany Loan - Northwind UK")!.Id },
        right: { realmId: DEMO.uk, accountId: ukChart.find((a) => a.name === "Loan from Northwind Holdings")!.Id },
      },
      token,
    );
    expect(pair.statusCode, pair.body).toBe(200);
    await lockOpening(t.app, token);

    // Opening balances: each subsidiary's first entry, so its class and names are created too.
    const openings: number[] = [];
    for (const realmId of subsidiaries) {
      await confirmOpening(t.app, token, realmId);
      const calls = await counted(async () => {
        const res = await post(t.app, `/api/balances/post/${realmId}`, undefined, token);
        expect(res.statusCode, res.body).toBe(200);
      });
      openings.push(calls.total);
    }

    // A run: twelve subsidiary-months whose class and names exist.
    const run = await counted(async () => {
      const started = await post(t.app, "/api/multipleconsolidation/runs", { realmIds: subsidiaries, from: "2026-01", to: "2026-03" }, token);
      expect(started.statusCode, started.body).toBe(200);
      await drainJobs(t.app);
      expect((await get(t.app, `/api/multipleconsolidation/runs/${started.json().id}`, token)).json()).toMatchObject({ status: "succeeded", counts: { posted: 12 } });
    });

    // Eliminations, month by month.
    const eliminations: number[] = [];
    for (const m of ["2026-01", "2026-02", "2026-03"]) {
      const calls = await counted(async () => {
        const res = await post(t.app, "/api/eliminations/post", { period: month(m) }, token);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().outcome).toBe("posted");
      });
      eliminations.push(calls.total);
    }

    // Verify reads back 4 opening entries, 12 subsidiary-months and 3 elimination entries.
    const verify = await counted(async () => {
      const res = await get(t.app, "/api/consolidation/verify?year=2026&month=3", token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().subsidiaries.map((s: { status: string }) => s.status)).toEqual(["ok", "ok", "ok", "ok"]);
    });

    // A subsidiary's first entry: one batch of look-ups (class, customer, vendor), one batch
    // creating them, the entry.
    expect(openings).toEqual([3, 3, 3, 3]);
    // The four subsidiaries' look-ups together in one batch, once for the whole run, and the
    // twelve entries in three batch requests, one a month (a subsidiary's next month waits for
    // the next batch): no entry on its own.
    expect(run.byRoute).toEqual({ "POST batch": 4 });
    // The elimination entry has no receivable or payable line: its class alone is looked up (one
    // query, created the first time), then the entry. The first also makes the dollar counterpart
    // of the parent's GBP loan account (posting/foreign-accounts.ts), once.
    expect(eliminations).toEqual([4, 2, 2]);
    // Every posted entry at once, and the parent's trial balance.
    expect(verify.byRoute).toEqual({ "GET query": 1, "GET reports/:name": 1 });

    // A posting on its own (not in a run): its look-ups in one batch, then the entry.
    const single = await counted(async () => {
      const res = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: month("2026-04") }, token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().outcome).toBe("posted");
    });
    expect(single.byRoute).toEqual({ "POST batch": 1, "POST journalentry": 1 });
  });
});
