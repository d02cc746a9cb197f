import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { companies, monthlyBalances, qboAccounts } from "../src/db/schema.ts";
import { buildConsolidationInput } from "../src/modules/consolidation/index.ts";
import { booksKept } from "../src/modules/consolidation/books-cache.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, connectGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, signedInUser } from "./flows.ts";

/**
 * Each company's books (chart and monthly balances) are kept in memory by a books version that
 * statement triggers bump (migration 0030): a consolidation never reads books older than the
 * database's, whoever changes them, and a change to one company leaves the others' versions alone.
 */
describe.each(drivers)("books kept in memory by their version on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  const db = () => t.db.database.db;
  let accountId = "";
  const version = async (realmId: string) => (await db().select({ v: companies.booksVersion }).from(companies).where(eq(companies.realmId, realmId)))[0]!.v;
  const versions = async () => Object.fromEntries(await Promise.all([DEMO.parent, DEMO.uk].map(async (r) => [r, await version(r)] as const)));
  const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7));
  /** A series' amount in February 2026. */
  const feb = (s: { from: string; amounts: readonly number[] } | undefined) => (s ? (s.amounts[monthIndex("2026-02") - monthIndex(s.from)] ?? 0) : 0);
  const ukInput = async () => {
    const built = await buildConsolidationInput(db(), { accountId, subsidiaries: [DEMO.uk], period: { from: "2026-01", to: "2026-03" } });
    return built.input.entities.find((e) => e.id === DEMO.uk)!;
  };

  it("bumps a company's version once per statement that changes its balances or its chart, and no other company's", async () => {
    const token = await signedInUser(t.app, `books-cache-${driver}@northwind.example`);
    accountId = (await get(t.app, "/api/session", token)).json().accountId;
    await connectGroup(t.app, sandbox, token, [DEMO.parent, DEMO.uk]);
    const before = await versions();
    expect(before[DEMO.uk]).toBeGreaterThan(0); // the sync wrote its chart and balances

    // One statement touching many rows: one bump.
    await db().update(monthlyBalances).set({ amountMinor: sql`${monthlyBalances.amountMinor}` }).where(eq(monthlyBalances.realmId, DEMO.uk));
    expect(await versions()).toEqual({ ...before, [DEMO.uk]: before[DEMO.uk]! + 1 });
    await db().update(qboAccounts).set({ name: sql`${qboAccounts.name}` }).where(eq(qboAccounts.realmId, DEMO.parent));
    expect(await versions()).toEqual({ [DEMO.parent]: before[DEMO.parent]! + 1, [DEMO.uk]: before[DEMO.uk]! + 1 });
    // A statement that changes no row changes no version.
    await db().delete(monthlyBalances).where(and(eq(monthlyBalances.realmId, DEMO.uk), eq(monthlyBalances.month, "1990-01-01")));
    expect(await version(DEMO.uk)).toBe(before[DEMO.uk]! + 1);
  });

  it("a consolidation after a balance, a chart row or a whole month changes reads the new books, never the kept ones", async () => {
    const first = await ukInput();
    expect(booksKept().companies).toBeGreaterThanOrEqual(2);
    const series = first.balances.find((b) => b.amounts.some((x) => x !== 0))!;
    const [row] = await db()
      .select()
      .from(monthlyBalances)
      .where(and(eq(monthlyBalances.realmId, DEMO.uk), eq(monthlyBalances.qboAccountId, series.account), eq(monthlyBalances.month, "2026-02-01")));
    expect(row).toBeDefined();

    // Kept: the same books again, equal.
    expect(await ukInput()).toEqual(first);

    // One balance changed by any writer (here plain SQL, as an operator fixing data would).
    await db()
      .update(monthlyBalances)
      .set({ amountMinor: row!.amountMinor + 12_345 })
      .where(and(eq(monthlyBalances.realmId, DEMO.uk), eq(monthlyBalances.qboAccountId, series.account), eq(monthlyBalances.month, "2026-02-01")));
    const changed = await ukInput();
    const after = changed.balances.find((b) => b.account === series.account)!;
    expect(feb(after) - feb(series)).toBe(12_345);
    expect(changed).not.toEqual(first);

    // A chart row renamed: the input names it so.
    const where = and(eq(qboAccounts.realmId, DEMO.uk), eq(qboAccounts.qboId, series.account));
    const [stored] = await db().select().from(qboAccounts).where(where);
    await db().update(qboAccounts).set({ name: "Renamed by the books-cache test", fullyQualifiedName: "Renamed by the books-cache test" }).where(where);
    expect((await ukInput()).accounts.find((a) => a.id === series.account)!.name).toBe("Renamed by the books-cache test");
    await db().update(qboAccounts).set({ name: stored!.name, fullyQualifiedName: stored!.fullyQualifiedName }).where(where);

    // A month deleted: the consolidation says it is missing rather than using what was kept.
    await db().delete(monthlyBalances).where(and(eq(monthlyBalances.realmId, DEMO.uk), eq(monthlyBalances.month, "2026-02-01")));
    const without = await ukInput();
    expect(feb(without.balances.find((b) => b.account === series.account))).not.toBe(feb(after));
  });
});
