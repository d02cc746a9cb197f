import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, drainJobs, translatedGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get } from "./flows.ts";

type Row = { account: string; name: string; amounts: number[] };
type Elim = { id: string; kind: string; description: string; lines: { account: string; name: string; amount: number }[]; details: Record<string, number | string> };

describe.each(drivers)("intra-group stock and dividends on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";
  const put = (url: string, payload: unknown) => t.app.inject({ method: "PUT", url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
  const accounts = async (realm: string) => (await get(t.app, `/api/companies/${realm}/accounts`, token)).json() as { Id: string; name: string; classification: string }[];
  const report = async (from: string, to: string) => (await get(t.app, `/api/consolidation/report?from=${from}&to=${to}`, token)).json();

  it("proposes where the parent books each subsidiary's dividends, and its inventory and cost of sales accounts", async () => {
    token = await translatedGroup(t.app, sandbox, "intragroup@northwind.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }, { realmId: DEMO.germany, historicalRate: "1.07" }], { from: "2024-11", to: "2026-10" });
    const res = await get(t.app, "/api/intragroup", token);
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json();
    const parent = await accounts(DEMO.parent);
    const id = (name: string) => parent.find((a) => a.name === name)!.Id;
    expect(v.proposedInventoryAccountId).toBe(id("Inventory Asset"));
    expect(parent.find((a) => a.Id === v.proposedCogsAccountId)!.classification).toBe("Expense");
    const uk = v.dividends.find((d: { realmId: string }) => d.realmId === DEMO.uk);
    expect(uk.saved).toBeNull();
    expect(uk.proposal.incomeAccountId).toBe(id("Dividend Income - Subsidiaries"));
    const customer = v.parentCustomers.find((c: { id: string }) => c.id === uk.proposal.nameId);
    expect(customer.displayName).toBe("Northwind UK Ltd");
    expect(uk.reasons.join(" ")).toMatch(/Dividend Income - Subsidiaries/);
  });

  it("eliminates a subsidiary's dividends against what the parent booked for it, the difference explained", async () => {
    const uk = (await get(t.app, "/api/intragroup", token)).json().dividends.find((d: { realmId: string }) => d.realmId === DEMO.uk);
    const saved = await put(`/api/intragroup/dividends/${DEMO.uk}`, uk.proposal);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().saved).toEqual(uk.proposal);
    await drainJobs(t.app); // the parent's per-customer balances are fetched
    // Northwind UK declares its dividend in September (its fiscal year starts in April).
    const r = await report("2026-07", "2026-09");
    expect(r.problems).toEqual([]);
    const elim = (r.report.eliminations as Elim[]).find((e) => e.kind === "dividend")!;
    expect(elim.description).toBe("Eliminate Northwind UK Ltd's dividends received by Northwind Holdings Inc.");
    expect(Number(elim.details["parentBooked"])).toBeGreaterThan(0);
    expect(elim.lines.reduce((s, l) => s + l.amount, 0)).toBe(0);
    // Only the UK's dividend fell in the quarter: the parent's dividend income is gone from the group.
    const income = (r.report.worksheet.rows as Row[]).find((x) => x.name === "Dividend Income - Subsidiaries")!;
    expect(income.amounts.at(-1)).toBe(0);
    expect(Number(elim.details["parentBooked"]) - Number(elim.details["parentShare"])).toBe(Number(elim.details["fxDifferenceCreditPositive"]));

    const adjustments = (await get(t.app, "/api/consolidation/adjustments?kind=quarter&year=2026&month=9", token)).json();
    const shown = adjustments.adjustments.find((a: { kind: string }) => a.kind === "dividend");
    expect(shown.lines.map((l: { explanation: string }) => l.explanation).join("\n")).toMatch(/a transfer within the group, not income/);
  });

  it("eliminates the profit in stock one group company holds from another, and realises it the month after", async () => {
    const parent = await accounts(DEMO.parent);
    const view = (await get(t.app, "/api/intragroup", token)).json();
    const line = { sellerRealmId: DEMO.germany, buyerRealmId: DEMO.uk, month: "2026-03", inventory: 10_000_00, margin: "0.25", inventoryAccountId: view.proposedInventoryAccountId, cogsAccountId: view.proposedCogsAccountId };
    const bad: [unknown, string, RegExp][] = [
      [{ ...line, margin: "1.2" }, "margin", /below 1/],
      [{ ...line, buyerRealmId: DEMO.germany }, "buyerRealmId", /another company than the seller/],
      [{ ...line, sellerRealmId: "nope" }, "sellerRealmId", /not in your account/],
      [{ ...line, inventoryAccountId: parent.find((a) => a.classification === "Liability")!.Id }, "inventoryAccountId", /the stock held is an asset/],
      [{ ...line, inventory: -5 }, "inventory", /cannot be negative/],
    ];
    for (const [payload, path, message] of bad) {
      const res = await put("/api/intragroup/inventory", payload);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
      const fields = (res.json().error.details?.fields ?? []) as { path: string | (string | number)[]; message: string }[];
      const field = fields.find((f) => (Array.isArray(f.path) ? f.path.join(".") : f.path) === path);
      expect(field?.message, `${path}: ${res.body}`).toMatch(message);
    }
    expect((await get(t.app, "/api/intragroup", token)).json().inventory).toEqual([]);

    const saved = await put("/api/intragroup/inventory", line);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ sellerName: "Northwind Deutschland GmbH", buyerName: "Northwind UK Ltd", currency: "GBP", unrealisedProfit: 2_500_00 });

    const march = await report("2026-03", "2026-03");
    expect(march.problems).toEqual([]);
    const held = (march.report.eliminations as Elim[]).find((e) => e.kind === "unrealisedProfit")!;
    const profit = Number(held.details["closingProfitEliminated"]);
    expect(held.details["closingUnrealisedLocal"]).toBe(2_500_00);
    expect(profit).toBeGreaterThan(2_500_00); // pounds at more than a dollar each
    const cogs = held.lines.find((l) => l.account === line.cogsAccountId)!;
    expect(cogs.amount).toBe(profit);
    const april = await report("2026-04", "2026-04");
    const realised = (april.report.eliminations as Elim[]).find((e) => e.kind === "unrealisedProfit")!;
    expect(realised.details["openingProfitRealised"]).toBe(profit);
    expect(realised.lines.find((l) => l.account === line.cogsAccountId)!.amount).toBe(-profit);
    // The quarter that starts after it realises it too; one that ends before it knows nothing of it.
    const q2 = await report("2026-04", "2026-06");
    expect((q2.report.eliminations as Elim[]).find((e) => e.kind === "unrealisedProfit")!.details["openingProfitRealised"]).toBe(profit);
    const feb = await report("2026-02", "2026-02");
    expect((feb.report.eliminations as Elim[]).some((e) => e.kind === "unrealisedProfit")).toBe(false);

    const id = saved.json().id;
    const del = await t.app.inject({ method: "DELETE", url: `/api/intragroup/inventory/${id}`, headers: { authorization: `Bearer ${token}` } });
    expect(del.statusCode).toBe(204);
    const again = await t.app.inject({ method: "DELETE", url: `/api/intragroup/inventory/${id}`, headers: { authorization: `Bearer ${token}` } });
    expect(again.statusCode).toBe(404);
  });
});
