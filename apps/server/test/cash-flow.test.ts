import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, translatedGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";

type Line = { account: string; name: string; amount: number };
type Account = { account: string; name: string; accountType: string; defaultClass: string; chosenClass: string | null; cashFlowClass: string };

describe.each(drivers)("consolidated statement of cash flows on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";
  const put = (payload: unknown) => t.app.inject({ method: "PUT", url: "/api/consolidation/cash-flow/classes", payload: payload as object, headers: { authorization: `Bearer ${token}` } });

  it("reconciles the demo group's opening to closing cash to the cent, the UK's exchange effect computed from its own cash", async () => {
    token = await translatedGroup(t.app, sandbox, "cashflow@northwind.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }, { realmId: DEMO.retail, historicalRate: "1" }], { from: "2024-11", to: "2026-10" });
    const res = await get(t.app, "/api/consolidation/cash-flow?from=2026-01&to=2026-03", token);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, parentCurrency: "USD", exponent: 2, period: { from: "2026-01", to: "2026-03", label: "2026-01 to 2026-03" } });
    const s = r.statement;
    expect(s.reconciliation).toEqual({ computedClosingCash: s.closingCash, difference: 0, reconciles: true });
    const sum = (lines: Line[]) => lines.reduce((a, l) => a + l.amount, 0);
    expect(s.operating.total).toBe(s.operating.profit + sum(s.operating.adjustments) + sum(s.operating.workingCapital));
    expect(s.netCashFlow).toBe(s.operating.total + s.investing.total + s.financing.total);
    expect(s.openingCash + s.netCashFlow + s.exchangeEffect.total).toBe(s.closingCash);
    expect(s.closingCash).toBeGreaterThan(0);
    // The same profit as the consolidated report's P&L for the period.
    const report = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", token)).json();
    expect(s.operating.profit).toBe(report.report.incomeStatement.netIncome);
    // The closing cash is the report's: the Bank accounts of its balance sheet.
    const bank = (report.report.balanceSheet.assets as Line[]).filter((a) => s.cashAccounts.some((c: { account: string }) => c.account === a.account));
    expect(sum(bank)).toBe(s.closingCash);
    // Only the UK is translated: its effect is its cash at the closing rate less the opening cash at the opening rate less its flows as reported.
    expect(s.exchangeEffect.entities.map((e: { entity: string }) => e.entity)).toEqual([DEMO.uk]);
    const uk = s.exchangeEffect.entities[0];
    expect(uk).toMatchObject({ currency: "GBP" });
    expect(uk.total).toBe(uk.closingCash - uk.openingCash - uk.netCashFlow);
    expect(uk.onOpeningCash + uk.onCashFlows).toBe(uk.total);
    expect(s.exchangeEffect.total).toBe(uk.total);
  });

  it("lists the parent's balance-sheet accounts with their default class from the QuickBooks type, and changes one", async () => {
    const res = await get(t.app, "/api/consolidation/cash-flow/classes", token);
    expect(res.statusCode, res.body).toBe(200);
    const { accounts, fixed } = res.json() as { accounts: Account[]; fixed: { account: string; reason: string }[] };
    const bank = accounts.find((a) => a.accountType === "Bank")!;
    expect(bank).toMatchObject({ defaultClass: "cash", chosenClass: null, cashFlowClass: "cash" });
    expect(accounts.filter((a) => a.accountType === "Fixed Asset").every((a) => a.defaultClass === "investing" || a.defaultClass === "nonCash")).toBe(true);
    expect(fixed.some((f) => /Retained earnings/.test(f.reason))).toBe(true);

    const receivable = accounts.find((a) => a.accountType === "Accounts Receivable")!;
    expect(receivable.defaultClass).toBe("operating");
    const before = (await get(t.app, "/api/consolidation/cash-flow?from=2026-01&to=2026-03", token)).json().statement;
    const changed = await put({ classes: [{ account: receivable.account, cashFlowClass: "investing" }] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json().accounts as Account[]).find((a) => a.account === receivable.account)).toMatchObject({ chosenClass: "investing", cashFlowClass: "investing" });
    const after = (await get(t.app, "/api/consolidation/cash-flow?from=2026-01&to=2026-03", token)).json().statement;
    const moved = (before.operating.workingCapital as Line[]).find((l) => l.account === receivable.account);
    if (moved) {
      expect((after.investing.lines as Line[]).find((l) => l.account === receivable.account)).toEqual(moved);
      expect(after.investing.total).toBe(before.investing.total + moved.amount);
    }
    expect(after.reconciliation.reconciles).toBe(true);
    expect(after.netCashFlow).toBe(before.netCashFlow);
    const back = await put({ classes: [{ account: receivable.account, cashFlowClass: null }] });
    expect((back.json().accounts as Account[]).find((a) => a.account === receivable.account)).toMatchObject({ chosenClass: null, cashFlowClass: "operating" });
  });

  it("answers bad input with a clear 4xx and changes nothing", async () => {
    const unknown = await put({ classes: [{ account: "no-such-account", cashFlowClass: "investing" }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: "unknown_account", message: expect.stringMatching(/^Account no-such-account is not in .+'s chart of accounts\.$/) });
    const badClass = await put({ classes: [{ account: "1", cashFlowClass: "sideways" }] });
    expect(badClass.statusCode).toBe(400);
    expect(badClass.body).toMatch(/class is one of cash, operating, nonCash, investing, financing/);
    const { fixed } = (await get(t.app, "/api/consolidation/cash-flow/classes", token)).json() as { fixed: { account: string }[] };
    const fixedOne = await put({ classes: [{ account: fixed[0]!.account, cashFlowClass: "operating" }] });
    expect(fixedOne.statusCode).toBe(400);
    expect(fixedOne.json().error.code).toBe("fixed_cash_flow_class");
    const backwards = await get(t.app, "/api/consolidation/cash-flow?from=2026-03&to=2026-01", token);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error).toMatchObject({ code: "invalid_period", message: "The statement ends (2026-01) before it starts (2026-03)." });
    const notMonth = await get(t.app, "/api/consolidation/cash-flow?from=2026-13&to=2026-14", token);
    expect(notMonth.statusCode).toBe(400);
    // Nothing was saved by the refused requests.
    const { accounts } = (await get(t.app, "/api/consolidation/cash-flow/classes", token)).json() as { accounts: Account[] };
    expect(accounts.every((a) => a.chosenClass === null)).toBe(true);
  });

  it("eliminates the intra-group loan in pounds once paired: the parent's loan receivable shows no flow, and it still reconciles", async () => {
    const accountId = async (realmId: string, name: string) =>
      ((await get(t.app, `/api/companies/${realmId}/accounts`, token)).json() as { Id: string; name: string }[]).find((a) => a.name === name)!.Id;
    const receivable = await accountId(DEMO.parent, "Intercompany Loan - Northwind UK");
    const before = (await get(t.app, "/api/consolidation/cash-flow?from=2026-01&to=2026-03", token)).json().statement;
    const all = (x: { operating: { adjustments: Line[]; workingCapital: Line[] }; investing: { lines: Line[] }; financing: { lines: Line[] } }) => [...x.operating.adjustments, ...x.operating.workingCapital, ...x.investing.lines, ...x.financing.lines];
    const pair = await post(
      t.app,
      "/api/eliminations/pairs",
      { name: "UK loan", kind: "receivablePayable", left: { realmId: DEMO.parent, accountId: receivable }, right: { realmId: DEMO.uk, accountId: await accountId(DEMO.uk, "Loan from Northwind Holdings") } },
      token,
    );
    expect(pair.statusCode, pair.body).toBe(200);
    const res = await get(t.app, "/api/consolidation/cash-flow?from=2026-01&to=2026-03", token);
    const s = res.json().statement;
    expect(s.reconciliation).toEqual({ computedClosingCash: s.closingCash, difference: 0, reconciles: true });
    expect(all(s).find((l) => l.account === receivable)).toBeUndefined();
    // The row the UK's loan payable lands on (mapped onto the parent's own term loan) keeps only the
    // parent's flows: the UK's loan did not move in pounds, and the elimination takes out its dollar
    // amounts and their exchange differences alike, so the line is what it was before the pair.
    const report = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", token)).json();
    const elimination = (report.report.eliminations as { kind: string; lines: { account: string; amount: number }[] }[]).find((e) => e.kind === "receivablePayable")!;
    const payableRow = elimination.lines[1]!.account;
    expect(elimination.lines[1]!.amount).not.toBe(0);
    expect(all(s).find((l) => l.account === payableRow)).toEqual(all(before).find((l) => l.account === payableRow));
    // The group's cash and its exchange effect do not change: the loan is inside the group.
    expect(s.closingCash).toBe(before.closingCash);
    expect(s.exchangeEffect.total).toBe(before.exchangeEffect.total);
    expect(s.netCashFlow).toBe(before.netCashFlow);
  });

  it("says what stops the statement, e.g. months without rates, instead of a figure", async () => {
    const r = (await get(t.app, "/api/consolidation/cash-flow?from=2027-01&to=2027-01", token)).json();
    expect(r.ok).toBe(false);
    expect(r.statement).toBeNull();
    expect(r.problems.map((p: { message: string }) => p.message).join("\n")).toMatch(/2027-01|2026-1[12]/);
  });
});
