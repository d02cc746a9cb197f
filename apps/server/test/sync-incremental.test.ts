import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { companies, monthlyBalances } from "../src/db/schema.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, bankAndExpense, connectCompany, drainJobs, expenseEntry } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

describe.each(drivers)("incremental sync on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);

  it("pulls again only the months from the earliest changed transaction, and picks the change up", async () => {
    const token = await signedInUser(t.app, "incremental@northwind.example");
    await connectCompany(t.app, sandbox, token, DEMO.retail);
    await drainJobs(t.app);
    const accountId = (await get(t.app, "/api/session", token)).json().accountId;
    const [first] = await t.app.services.queue.listForAccount(accountId);
    expect((first!.result as { months: { from: string } }).months.from).toBe("2023-01");

    // Someone books an adjustment dated June 2025 in QuickBooks.
    const accounts = await bankAndExpense(t.app, token, DEMO.retail);
    const { expense } = accounts;
    const before = await t.db.database.db
      .select()
      .from(monthlyBalances)
      .where(and(eq(monthlyBalances.realmId, DEMO.retail), eq(monthlyBalances.qboAccountId, expense.Id), eq(monthlyBalances.month, "2025-06-01")));
    await t.app.services.provider.client(DEMO.retail).createJournalEntry(expenseEntry(accounts, "2025-06-15", "USD", 12_345), "incremental-sync-test-1");

    expect((await post(t.app, `/api/companies/${DEMO.retail}/sync`, undefined, token)).statusCode).toBe(202);
    await drainJobs(t.app);
    const [second] = await t.app.services.queue.listForAccount(accountId);
    expect(second!.id).not.toBe(first!.id);
    expect((second!.result as { months: { from: string } }).months.from).toBe("2025-06");
    expect((second!.result as { calls: number }).calls).toBeLessThan((first!.result as { calls: number }).calls + 2);
    const after = await t.db.database.db
      .select()
      .from(monthlyBalances)
      .where(and(eq(monthlyBalances.realmId, DEMO.retail), eq(monthlyBalances.qboAccountId, expense.Id), eq(monthlyBalances.month, "2025-06-01")));
    expect(after[0]!.amountMinor - (before[0]?.amountMinor ?? 0)).toBe(12_345);
    expect((await get(t.app, "/api/companies/status", token)).json()[DEMO.retail].sync.state).toBe("succeeded");
    // Every request said minorversion 75 (Intuit's floor since August 2025).
    expect(Object.keys(sandbox.minorVersionsSeen())).toEqual(["75"]);
  });

  it("pulls the whole history when the last sync is more than 30 days old, since QuickBooks' CDC refuses to look back further", async () => {
    const token = await signedInUser(t.app, "incremental-old@northwind.example");
    await connectCompany(t.app, sandbox, token, DEMO.canada);
    await drainJobs(t.app);
    const accountId = (await get(t.app, "/api/session", token)).json().accountId;
    // The emulator refuses a CDC changedSince 31 days back, as QuickBooks does.
    const longAgo = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    await expect(t.app.services.provider.client(DEMO.canada).changeDataCapture(["JournalEntry"], longAgo)).rejects.toThrow(/invalid or unsupported property/);

    await t.db.database.db.update(companies).set({ lastSyncedAt: longAgo }).where(eq(companies.realmId, DEMO.canada));
    expect((await post(t.app, `/api/companies/${DEMO.canada}/sync`, undefined, token)).statusCode).toBe(202);
    await drainJobs(t.app);
    const [latest] = await t.app.services.queue.listForAccount(accountId);
    expect((latest!.result as { months: { from: string } }).months.from).toBe("2023-01");
    expect((await get(t.app, "/api/companies/status", token)).json()[DEMO.canada].sync.state).toBe("succeeded");
  });
});
