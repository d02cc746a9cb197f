import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { qboAccounts, segmentBalances, segmentSyncs } from "../src/db/schema.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, drainJobs, parentAndUk } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post, signedInUser } from "./flows.ts";

type Amounts = { segments: number[]; unallocated: number; eliminations: number; otherAdjustments: number; total: number };
type Row = Amounts & { account: string; name: string };
type Statement = { segments: { name: string; members: { entity: string; entityName: string; name: string }[] }[]; revenue: Row[]; expenses: Row[]; netIncome: Amounts; hasOtherAdjustments: boolean; reconciles: boolean; warnings: string[] };
type BalanceAmounts = { segments: number[]; unallocated: number; eliminations: number; group: number; total: number };
type BalanceRow = BalanceAmounts & { account: string; name: string };
type BalanceSheet = { segments: Statement["segments"]; asAt: string; assets: BalanceRow[]; liabilities: BalanceRow[]; equity: BalanceRow[]; totalAssets: BalanceAmounts; totalLiabilities: BalanceAmounts; totalEquity: BalanceAmounts; totalLiabilitiesAndEquity: BalanceAmounts; reconciles: boolean };
type CashAmounts = { segments: number[]; unallocated: number; eliminations: number; total: number };
type CashRow = CashAmounts & { account: string; name: string };
type CashFlow = {
  segments: Statement["segments"];
  operating: { profit: CashAmounts; adjustments: CashRow[]; workingCapital: CashRow[]; total: CashAmounts };
  investing: { lines: CashRow[]; total: CashAmounts };
  financing: { lines: CashRow[]; total: CashAmounts };
  netCashFlow: CashAmounts;
  exchangeEffect: CashAmounts;
  openingCash: CashAmounts;
  closingCash: CashAmounts;
  difference: CashAmounts;
  reconciles: boolean;
};
const cashSum = (a: CashAmounts) => a.segments.reduce((s, v) => s + v, 0) + a.unallocated + a.eliminations;
const sum = (a: Amounts | BalanceAmounts) => a.segments.reduce((s, v) => s + v, 0) + a.unallocated + a.eliminations + ("group" in a ? a.group : a.otherAdjustments);

/** Issue 23, Segments: the consolidated P&L by class or location, over the demo parent and its UK subsidiary with their management fees paired. */
describe.each(drivers)("segments on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";
  const PERIOD = "from=2026-01&to=2026-03";

  it("syncs each class's and location's monthly P&L as QuickBooks reports it", async () => {
    token = await signedInUser(t.app, "segments@northwind.example");
    const { parentAccount, ukAccount } = await parentAndUk(t.app, sandbox, token);
    const db0 = t.db.database.db;
    // Off until asked for: the syncs read no class or location, and the statement says how to start.
    expect(await db0.select().from(segmentBalances)).toEqual([]);
    const off = (await get(t.app, `/api/consolidation/segments?${PERIOD}&by=class`, token)).json();
    expect(off).toMatchObject({ ok: false, statement: null, problems: [{ code: "segments_off", message: expect.stringMatching(/^This group does not read its classes and locations/) }] });
    const on = await post(t.app, "/api/consolidation/segments/enable", undefined, token);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().syncs.map((x: { realmId: string }) => x.realmId).sort()).toEqual([DEMO.parent, DEMO.uk].sort());
    await drainJobs(t.app);
    const fees = await post(t.app, "/api/eliminations/pairs", { name: "UK management fees", kind: "revenueExpense", left: { realmId: DEMO.parent, accountId: parentAccount("Management Fee Income - Intercompany") }, right: { realmId: DEMO.uk, accountId: ukAccount("Management Charges - Group") } }, token);
    expect(fees.statusCode, fees.body).toBe(200);
    // What the sync stored for the parent's Wholesale class in the quarter is QuickBooks' by-class P&L's Wholesale column (debit positive).
    const db = t.db.database.db;
    const [stored] = await db
      .select({ total: sql<string>`sum(${segmentBalances.amountMinor})` })
      .from(segmentBalances)
      .where(and(eq(segmentBalances.realmId, DEMO.parent), eq(segmentBalances.kind, "activity"), eq(segmentBalances.dimension, "class"), eq(segmentBalances.segmentName, "Wholesale"), sql`${segmentBalances.month} between '2026-01-01' and '2026-03-31'`));
    const pl = await t.app.services.provider.client(DEMO.parent).report("ProfitAndLoss", { start_date: "2026-01-01", end_date: "2026-03-31", summarize_column_by: "Classes" });
    const column = pl.columns.findIndex((c) => c.title === "Wholesale");
    expect(column).toBeGreaterThanOrEqual(0);
    const netIncome = pl.rows.find((r) => r.kind === "summary" && r.group === "NetIncome")!;
    expect(-Number(stored!.total)).toBe(netIncome.amounts[column]);
    expect(Number(stored!.total)).not.toBe(0);
    const locations = await db.select({ name: segmentBalances.segmentName }).from(segmentBalances).where(and(eq(segmentBalances.realmId, DEMO.uk), eq(segmentBalances.dimension, "location"))).groupBy(segmentBalances.segmentName);
    expect(locations.map((l) => l.name).sort()).toEqual(["London", "Manchester"]);
  });

  it("splits the consolidated P&L by class: segments matched by name, eliminations in their own column, every row adding up to the report's figure", async () => {
    const res = await get(t.app, `/api/consolidation/segments?${PERIOD}&by=class`, token);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as { ok: boolean; problems: unknown[]; by: string; statement: Statement };
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, by: "class", parentCurrency: "USD", period: { label: "2026-01 to 2026-03" } });
    const s = r.statement;
    expect(s.reconciles).toBe(true);
    expect(s.hasOtherAdjustments).toBe(false);
    // The parent's Wholesale, Online, Services and Corporate, the UK's Wholesale and Retail: Wholesale is one segment.
    expect(s.segments.map((c) => c.name)).toEqual(["Corporate", "Online", "Retail", "Services", "Wholesale"]);
    expect(s.segments.find((c) => c.name === "Wholesale")!.members.map((m) => m.entityName)).toEqual(["Northwind Holdings Inc.", "Northwind UK Ltd"]);
    const report = (await get(t.app, `/api/consolidation/report?${PERIOD}`, token)).json().report;
    expect(s.netIncome.total).toBe(report.incomeStatement.netIncome);
    expect(sum(s.netIncome)).toBe(s.netIncome.total);
    for (const row of [...s.revenue, ...s.expenses]) expect(sum(row), row.name).toBe(row.total);
    for (const line of report.incomeStatement.revenue as { account: string; amount: number }[]) expect(s.revenue.find((x) => x.account === line.account)?.total).toBe(line.amount);
    // The management fees: charged by the parent, eliminated against the UK's charge.
    const fee = s.revenue.find((x) => x.name === "Management Fee Income - Intercompany")!;
    expect(fee.eliminations).toBeLessThan(0);
    expect(fee.eliminations).toBe(-(fee.segments.reduce((a, v) => a + v, 0) + fee.unallocated));
    expect(fee.total).toBe(0);
    expect(s.expenses.some((x) => x.eliminations < 0)).toBe(true);
    // A revenue/expense pair takes out both sides (its difference to the FX line): the column nets to the profit it moves.
    const eliminated = s.revenue.reduce((a, x) => a + x.eliminations, 0) - s.expenses.reduce((a, x) => a + x.eliminations, 0);
    expect(s.netIncome.eliminations).toBe(eliminated);
  });

  it("by location: each company's own offices, the same total", async () => {
    const r = (await get(t.app, `/api/consolidation/segments?${PERIOD}&by=location`, token)).json() as { ok: boolean; statement: Statement };
    expect(r.ok).toBe(true);
    expect(r.statement.segments.map((c) => c.name)).toEqual(["London", "Manchester", "Reno Warehouse", "Seattle HQ"]);
    const byClass = (await get(t.app, `/api/consolidation/segments?${PERIOD}&by=class`, token)).json() as { statement: Statement };
    expect(r.statement.netIncome.total).toBe(byClass.statement.netIncome.total);
    expect(r.statement.netIncome.eliminations).toBe(byClass.statement.netIncome.eliminations);
  });

  it("a class renamed in QuickBooks is renamed in every month synced before, though the next sync reads only the last months", async () => {
    const retail = sandbox.ledger(DEMO.uk)!.classes.find((c) => c.name === "Retail")!;
    // Renamed in the emulator's books, as QuickBooks' screen would (the class keeps its id).
    Object.assign(retail, { name: "Retail (UK)", updateTime: Date.now() });
    expect((await post(t.app, `/api/companies/${DEMO.uk}/sync`, undefined, token)).statusCode).toBe(202);
    await drainJobs(t.app);
    const names = await t.db.database.db
      .select({ name: segmentBalances.segmentName, months: sql<string>`count(*)` })
      .from(segmentBalances)
      .where(and(eq(segmentBalances.realmId, DEMO.uk), eq(segmentBalances.dimension, "class"), eq(segmentBalances.segmentId, retail.id)))
      .groupBy(segmentBalances.segmentName);
    expect(names.map((n) => n.name)).toEqual(["Retail (UK)"]);
    const r = (await get(t.app, `/api/consolidation/segments?${PERIOD}&by=class`, token)).json() as { statement: Statement };
    expect(r.statement.segments.map((c) => c.name)).toContain("Retail (UK)");
    expect(r.statement.reconciles).toBe(true);
  });

  it("a company synced before segments existed gets its whole history's segments on its next (incremental) sync, once", async () => {
    const db = t.db.database.db;
    const count = async () => Number((await db.select({ n: sql<string>`count(*)` }).from(segmentBalances).where(eq(segmentBalances.realmId, DEMO.parent)))[0]!.n);
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await db.delete(segmentBalances).where(eq(segmentBalances.realmId, DEMO.parent));
    await db.delete(segmentSyncs).where(eq(segmentSyncs.realmId, DEMO.parent));
    const unread = (await get(t.app, `/api/consolidation/segments?${PERIOD}&by=class`, token)).json() as { warnings: string[]; statement: Statement };
    expect(unread.warnings).toContain(
      'Northwind Holdings Inc.\'s classes and locations have not been read from QuickBooks yet: its next sync reads them (Sync now on Connected Companies). Until then its lines are in the "No class" column.',
    );
    expect(unread.statement.segments.find((c) => c.name === "Wholesale")!.members.map((m) => m.entityName)).toEqual(["Northwind UK Ltd"]);
    const sync = async () => {
      expect((await post(t.app, `/api/companies/${DEMO.parent}/sync`, undefined, token)).statusCode).toBe(202);
      await drainJobs(t.app);
    };
    await sync();
    expect(await count()).toBe(before);
    const [mark] = await db.select().from(segmentSyncs).where(eq(segmentSyncs.realmId, DEMO.parent));
    expect(mark!.fromMonth).toBe("2023-01-01");
    expect(((await get(t.app, `/api/consolidation/segments?${PERIOD}&by=class`, token)).json() as { warnings: string[] }).warnings.filter((w) => w.includes("not been read"))).toEqual([]);
    // The next sync reads only what changed: the segments of 2026-01 stay as they were.
    const calls = sandbox.requestCounts(DEMO.parent);
    await sync();
    expect(await count()).toBe(before);
    const again = sandbox.requestCounts(DEMO.parent);
    const reports = (c: Record<string, number>) => Object.entries(c).filter(([route]) => route.startsWith("GET reports")).reduce((a, [, n]) => a + n, 0);
    // One chunk: its balance sheet and P&L, the parent's posted ones, both by class and by location, and per class or location in use its P&L and balance sheet.
    const read = reports(again) - reports(calls);
    expect(read).toBeGreaterThan(8);
    expect(read).toBeLessThan(25);
  });

  it("syncs each class's month-end balance sheet as QuickBooks reports it", async () => {
    // The parent's Wholesale class at 2026-03-31: QuickBooks' balance sheet by Classes, its Wholesale column (assets, debit positive).
    const db = t.db.database.db;
    const bs = await t.app.services.provider.client(DEMO.parent).report("BalanceSheet", { start_date: "2026-03-01", end_date: "2026-03-31", summarize_column_by: "Classes" });
    const column = bs.columns.findIndex((c) => c.title === "Wholesale");
    expect(column).toBeGreaterThanOrEqual(0);
    const totalAssets = bs.rows.find((r) => r.kind === "summary" && r.group === "TotalAssets")!;
    const stored = await db
      .select({ account: segmentBalances.qboAccountId, amount: segmentBalances.amountMinor })
      .from(segmentBalances)
      .where(and(eq(segmentBalances.realmId, DEMO.parent), eq(segmentBalances.kind, "closing"), eq(segmentBalances.dimension, "class"), eq(segmentBalances.segmentName, "Wholesale"), eq(segmentBalances.month, "2026-03-01")));
    const chart = await db.select({ id: qboAccounts.qboId }).from(qboAccounts).where(and(eq(qboAccounts.realmId, DEMO.parent), eq(qboAccounts.classification, "Asset")));
    const assets = new Set(chart.map((a) => a.id));
    expect(stored.filter((r) => assets.has(r.account)).reduce((a, r) => a + r.amount, 0)).toBe(totalAssets.amounts[column]);
    expect(totalAssets.amounts[column]).not.toBe(0);
  });

  it("splits the consolidated balance sheet by class at the period's end: assets and liabilities by segment, equity unsplit, adding up to the report's balance sheet", async () => {
    for (const by of ["class", "location"] as const) {
      const res = await get(t.app, `/api/consolidation/segments?${PERIOD}&by=${by}&statement=balance`, token);
      expect(res.statusCode, res.body).toBe(200);
      const r = res.json() as { ok: boolean; kind: string; statement: unknown; balanceSheet: BalanceSheet; problems: unknown[] };
      expect(r.problems).toEqual([]);
      expect(r).toMatchObject({ ok: true, kind: "balance", statement: null });
      const s = r.balanceSheet;
      expect(s.reconciles).toBe(true);
      expect(s.asAt).toBe("2026-03");
      const report = (await get(t.app, `/api/consolidation/report?${PERIOD}`, token)).json().report;
      const bs = report.balanceSheet as { assets: { account: string; amount: number }[]; liabilities: { account: string; amount: number }[]; equity: { account: string; amount: number }[]; totalAssets: number; totalLiabilities: number; totalEquity: number; nonControllingInterests: number };
      for (const row of [...s.assets, ...s.liabilities, ...s.equity]) expect(sum(row), row.name).toBe(row.total);
      for (const [lines, rows] of [[bs.assets, s.assets], [bs.liabilities, s.liabilities], [bs.equity, s.equity]] as const) {
        for (const line of lines) expect(rows.find((x) => x.account === line.account)?.total, line.account).toBe(line.amount);
      }
      expect(s.totalAssets.total).toBe(bs.totalAssets);
      expect(s.totalLiabilities.total).toBe(bs.totalLiabilities);
      expect(s.totalEquity.total).toBe(bs.totalEquity + bs.nonControllingInterests);
      expect(s.totalLiabilitiesAndEquity.total).toBe(s.totalAssets.total);
      for (const t of [s.totalAssets, s.totalLiabilities, s.totalEquity]) expect(sum(t)).toBe(t.total);
      // Segments hold assets; equity is not split.
      expect(s.segments.length).toBeGreaterThan(1);
      expect(s.totalAssets.segments.some((v) => v !== 0)).toBe(true);
      for (const row of s.equity) expect(row.segments.every((v) => v === 0), row.name).toBe(true);
    }
    const byClass = (await get(t.app, `/api/consolidation/segments?${PERIOD}&by=class&statement=balance`, token)).json() as { balanceSheet: BalanceSheet };
    expect(byClass.balanceSheet.segments.map((c) => c.name)).toContain("Wholesale");
    expect(byClass.balanceSheet.segments.find((c) => c.name === "Wholesale")!.members.map((m) => m.entityName)).toContain("Northwind Holdings Inc.");
  });

  it("gives the statement of cash flows by class: the consolidated statement in the total column, every row and every column's cash reconciling", async () => {
    const res = await get(t.app, `/api/consolidation/segments?${PERIOD}&by=class&statement=cashflow`, token);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as { ok: boolean; kind: string; problems: unknown[]; cashFlow: CashFlow; statement: unknown; balanceSheet: unknown };
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, kind: "cashflow", statement: null, balanceSheet: null });
    const s = r.cashFlow;
    expect(s.reconciles).toBe(true);
    const cf = (await get(t.app, `/api/consolidation/cash-flow?${PERIOD}`, token)).json().statement as { operating: { profit: number; total: number }; investing: { total: number }; financing: { total: number }; netCashFlow: number; exchangeEffect: { total: number }; openingCash: number; closingCash: number };
    expect([s.operating.profit.total, s.operating.total.total, s.investing.total.total, s.financing.total.total, s.netCashFlow.total, s.exchangeEffect.total, s.openingCash.total, s.closingCash.total]).toEqual([
      cf.operating.profit,
      cf.operating.total,
      cf.investing.total,
      cf.financing.total,
      cf.netCashFlow,
      cf.exchangeEffect.total,
      cf.openingCash,
      cf.closingCash,
    ]);
    const rows = [s.operating.profit, ...s.operating.adjustments, ...s.operating.workingCapital, ...s.investing.lines, ...s.financing.lines, s.netCashFlow, s.exchangeEffect, s.openingCash, s.closingCash];
    for (const row of rows) expect(cashSum(row)).toBe(row.total);
    expect(s.difference).toMatchObject({ unallocated: 0, eliminations: 0, total: 0 });
    expect(s.difference.segments.every((v) => v === 0)).toBe(true);
    // The segments have cash flows of their own (the demo tags its invoices and bills by class).
    expect(s.segments.map((c) => c.name)).toContain("Wholesale");
    expect(s.operating.profit.segments.some((v) => v !== 0)).toBe(true);
  });

  it("gives the changes in equity by location: each segment's net assets rolled forward, the consolidated statement's total equity in the total column", async () => {
    const res = await get(t.app, `/api/consolidation/segments?${PERIOD}&by=location&statement=equity`, token);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as { ok: boolean; kind: string; problems: unknown[]; changesInEquity: { rows: (CashAmounts & { kind: string })[]; reconciles: boolean; balanceSheetDifference: number } };
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, kind: "equity" });
    const e = r.changesInEquity;
    expect(e.reconciles).toBe(true);
    for (const row of e.rows) expect(cashSum(row), row.kind).toBe(row.total);
    const soce = (await get(t.app, `/api/consolidation/report/changes-in-equity?${PERIOD}`, token)).json().statement as { rows: { kind: string; amounts: { total: number } }[] };
    const total = (kind: string) => soce.rows.find((x) => x.kind === kind)?.amounts.total ?? 0;
    expect(e.rows.find((x) => x.kind === "opening")!.total).toBe(total("opening"));
    expect(e.rows.find((x) => x.kind === "closing")!.total).toBe(total("closing"));
    expect(e.rows.find((x) => x.kind === "profit")!.total).toBe(total("profit"));
  });

  it("answers bad input with a clear 400", async () => {
    const statement = await get(t.app, `/api/consolidation/segments?${PERIOD}&statement=cash`, token);
    expect(statement.statusCode).toBe(400);
    expect(statement.body).toMatch(/statement is income .* cashflow .* or equity/);
    const by = await get(t.app, `/api/consolidation/segments?${PERIOD}&by=department`, token);
    expect(by.statusCode).toBe(400);
    expect(by.body).toMatch(/by is class or location/);
    const backwards = await get(t.app, "/api/consolidation/segments?from=2026-03&to=2026-01", token);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error).toMatchObject({ code: "invalid_period" });
  });
});
