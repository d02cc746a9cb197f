import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, translatedGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, signedInUser } from "./flows.ts";

type Amounts = Record<"shareCapital" | "retainedEarnings" | "translationReserve" | "otherReserves" | "parent" | "nci" | "total", number>;
type Row = { kind: string; label: string; amounts: Amounts };

/** Issue 23: the consolidated statement of changes in equity of the demo group, reconciled to the consolidated report's balance sheet. */
describe.each(drivers)("the statement of changes in equity on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";

  // Connecting and configuring the demo group takes most of this test (20 s on an idle machine).
  it("rolls the demo group's equity from the month before the period to its end and reconciles to the report's balance sheet", { timeout: 120_000 }, async () => {
    token = await translatedGroup(t.app, sandbox, "equity@northwind.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }, { realmId: DEMO.retail, historicalRate: "1" }], { from: "2024-11", to: "2026-10" });
    const res = await get(t.app, "/api/consolidation/report/changes-in-equity?from=2026-01&to=2026-03", token);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, parentCurrency: "USD", exponent: 2, period: { from: "2026-01", to: "2026-03", label: "2026-01 to 2026-03" } });
    const s = r.statement;
    expect(s.openingMonth).toBe("2025-12");
    expect(s.reconciles).toBe(true);
    expect(Object.values(s.difference.amounts)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const rows = s.rows as Row[];
    const closing = rows.at(-1)!;
    expect(closing.kind).toBe("closing");
    // Every movement but the subtotal adds up to the closing row, and each row's totals add across.
    for (const c of ["shareCapital", "retainedEarnings", "translationReserve", "otherReserves", "nci"] as const) {
      expect(rows.filter((x) => x.kind !== "closing" && x.kind !== "comprehensiveIncome").reduce((sum, x) => sum + x.amounts[c], 0), c).toBe(closing.amounts[c]);
    }
    for (const x of rows) expect(x.amounts.total, x.label).toBe(x.amounts.shareCapital + x.amounts.retainedEarnings + x.amounts.translationReserve + x.amounts.otherReserves + x.amounts.nci);

    // The same figures as the consolidated report of the period: its balance sheet's equity and NCI, its profit.
    const report = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", token)).json();
    const bs = report.report.balanceSheet;
    expect(closing.amounts.parent).toBe(bs.totalEquity);
    expect(closing.amounts.nci).toBe(bs.nonControllingInterests);
    const profit = rows.find((x) => x.kind === "profit")!.amounts;
    expect(profit.retainedEarnings).toBe(report.report.incomeStatement.attributableToParent);
    expect(profit.nci).toBe(report.report.incomeStatement.attributableToNci);
    // The UK's pounds move the translation reserve in the period.
    expect(rows.find((x) => x.kind === "translation")!.amounts.total).not.toBe(0);
  });

  it("refuses bad periods with the report's words; needs a parent and a session", async () => {
    const bad = async (query: string, message: string | RegExp) => {
      const res = await get(t.app, `/api/consolidation/report/changes-in-equity?${query}`, token);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(message);
    };
    await bad("from=2026-03&to=2026-01", "The report ends (2026-01) before it starts (2026-03).");
    await bad("from=2020-01&to=2026-01", "A report covers at most 60 months; 2020-01 to 2026-01 is 73.");
    await bad("from=2026-13&to=2026-14", /Use a month like 2026-03/);
    await bad("to=2026-02", "from is required: a month like 2026-03.");
    const other = await signedInUser(t.app, "other@equity.example");
    const res = await get(t.app, "/api/consolidation/report/changes-in-equity?from=2026-01&to=2026-03", other);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/^Choose a parent company first/);
    expect((await get(t.app, "/api/consolidation/report/changes-in-equity?from=2026-01&to=2026-03", undefined)).statusCode).toBe(401);
  });

  it("names what stops it instead of guessing (months without rates)", async () => {
    const r = (await get(t.app, "/api/consolidation/report/changes-in-equity?from=2027-01&to=2027-01", token)).json();
    expect(r.ok).toBe(false);
    expect(r.statement).toBeNull();
    expect(r.problems.map((p: { message: string }) => p.message).join("\n")).toMatch(/2027-01/);
  });
});
