import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { monthlyBalances } from "../src/db/schema.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, drainJobs, openingGroup, postOpening } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";

/**
 * What GroupLedger posts into the parent's QuickBooks (opening balances and runs under the
 * subsidiary's class, eliminations under "Interco") is not the parent's own books: a sync of the
 * parent after posting must read the same own balances as before, or the subsidiaries would be
 * counted twice and the parent's retained earnings would jump at the opening month.
 */
describe.each(drivers)("the parent's own books after GroupLedger posted into them, on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);

  it("a re-sync of the parent leaves its balances and the consolidated report exactly as before the postings", async () => {
    const token = await openingGroup(t.app, sandbox, "own-books@northwind.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2024-12", to: "2026-10" });
    const own = async () =>
      (await t.db.database.db.select().from(monthlyBalances).where(and(eq(monthlyBalances.realmId, DEMO.parent))))
        .filter((r) => r.amountMinor !== 0)
        .map((r) => `${r.qboAccountId}|${r.month}|${r.amountMinor}`)
        .sort();
    const before = await own();
    const report = async () => {
      const r = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", token)).json();
      expect(r.ok, JSON.stringify(r.problems)).toBe(true);
      return r.report.worksheet.rows;
    };
    const reportBefore = await report();

    await postOpening(t.app, token, DEMO.uk);
    for (const m of [1, 2]) {
      const res = await post(t.app, "/api/consolidation/post", { realmId: DEMO.uk, period: { kind: "month", year: 2026, month: m } }, token);
      expect(res.json().outcome, res.body).toBe("posted");
    }
    // The parent's QuickBooks now holds them: its own trial balance moved.
    const client = t.app.services.provider.client(DEMO.parent);
    const classes = (await client.classes()).filter((k) => k.name === "Northwind UK Ltd");
    expect(classes).toHaveLength(1);

    const sync = await post(t.app, `/api/companies/${DEMO.parent}/sync`, undefined, token);
    expect(sync.statusCode, sync.body).toBe(202);
    await drainJobs(t.app);
    expect((await get(t.app, "/api/companies/status", token)).json()[DEMO.parent].sync.state).toBe("succeeded");
    expect(await own()).toEqual(before);
    expect(await report()).toEqual(reportBefore);
  });
});
