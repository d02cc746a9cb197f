import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readOutlook, QBO_MONTHLY_READ_ALLOWANCE } from "@groupledger/contract";
import { qboCallCounts } from "../src/db/schema.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, bankAndExpense, connectCompany, drainJobs, expenseEntry } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

/** What the emulator answered for a realm since it started (`Sandbox#requestCounts`), as Intuit would meter it. */
function served(counts: Record<string, number>): { reads: number; writes: number } {
  let reads = 0;
  let writes = 0;
  for (const [route, n] of Object.entries(counts)) {
    if (route.startsWith("GET ") || route === "POST query" || route === "POST batch") reads += n;
    else writes += n;
  }
  return { reads, writes };
}

/** Issue 21 "Budget of calls": every request the product makes to QuickBooks is counted per company per UTC day. */
describe.each(drivers)("the count of QuickBooks calls on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);

  it("counts exactly the requests the emulator served for a company's connection and syncs, today and this month", async () => {
    const token = await signedInUser(t.app, "calls-count@northwind.example");
    const calls = async () => {
      const res = await get(t.app, "/api/companies/calls", token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const empty = await calls();
    expect(empty.companies).toEqual({});
    expect(empty.group).toEqual({ month: { reads: 0, writes: 0 }, projectedReads: 0, allowance: QBO_MONTHLY_READ_ALLOWANCE, warn: false });

    // Connecting reads CompanyInfo and Preferences, then the first sync reads the whole history.
    await connectCompany(t.app, sandbox, token, DEMO.retail);
    await drainJobs(t.app);
    const afterFirst = served(sandbox.requestCounts(DEMO.retail));
    expect(afterFirst.reads).toBeGreaterThan(5);
    expect(afterFirst.writes).toBe(0);
    const first = await calls();
    const now = new Date();
    expect(first.day).toBe(now.toISOString().slice(0, 10));
    expect(first.month).toBe(now.toISOString().slice(0, 7));
    expect(first.companies).toEqual({ [DEMO.retail]: { today: afterFirst, month: afterFirst } });

    // Someone books an entry through the product's client (a write), and the next sync reads what changed.
    const accounts = await bankAndExpense(t.app, token, DEMO.retail);
    await t.app.services.provider.client(DEMO.retail).createJournalEntry(expenseEntry(accounts, "2025-06-15", "USD", 4_200), "call-counts-test-1");
    expect((await post(t.app, `/api/companies/${DEMO.retail}/sync`, undefined, token)).statusCode).toBe(202);
    await drainJobs(t.app);
    const afterSecond = served(sandbox.requestCounts(DEMO.retail));
    expect(afterSecond.writes).toBe(1);
    expect(afterSecond.reads).toBeGreaterThan(afterFirst.reads);
    const second = await calls();
    expect(second.companies[DEMO.retail]).toEqual({ today: afterSecond, month: afterSecond });
    expect(second.group.month).toEqual(afterSecond);
    expect(second.group.projectedReads).toBe(readOutlook(afterSecond.reads, new Date()).projectedReads);
    expect(second.group.warn).toBe(false);
  });

  it("adds another day of the month to the month, leaves last month out, and warns when the month's reads head past 80 % of the allowance", async () => {
    const token = await signedInUser(t.app, "calls-month@northwind.example");
    await connectCompany(t.app, sandbox, token, DEMO.canada);
    await drainJobs(t.app);
    const today = served(sandbox.requestCounts(DEMO.canada));
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    // Another day of this month (the 1st, or the 2nd when today is the 1st), and the last day of the previous month.
    const otherDay = now.getUTCDate() === 1 ? `${month}-02` : `${month}-01`;
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
    await t.db.database.db.insert(qboCallCounts).values([
      { realmId: DEMO.canada, day: otherDay, reads: 100, writes: 3 },
      { realmId: DEMO.canada, day: lastMonth, reads: 1_000_000, writes: 9 },
    ]);
    const res = (await get(t.app, "/api/companies/calls", token)).json();
    expect(res.companies[DEMO.canada]).toEqual({ today, month: { reads: today.reads + 100, writes: today.writes + 3 } });
    expect(res.group.warn).toBe(false);

    // A month already at 450,000 reads passes 80 % of 500,000 whatever the day.
    await t.db.database.db
      .update(qboCallCounts)
      .set({ reads: 450_000 })
      .where(and(eq(qboCallCounts.realmId, DEMO.canada), eq(qboCallCounts.day, otherDay)));
    const warned = (await get(t.app, "/api/companies/calls", token)).json();
    expect(warned.group.month.reads).toBe(today.reads + 450_000);
    expect(warned.group.projectedReads).toBeGreaterThanOrEqual(warned.group.month.reads);
    expect(warned.group.warn).toBe(true);
  });
});
