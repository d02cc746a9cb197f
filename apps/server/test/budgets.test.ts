import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountMaps } from "../src/db/schema.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, drainJobs, translatedGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";
import { addMember } from "./team-helpers.ts";

type Overview = { rates: { currency: string; rate: string | null }[]; companies: { realmId: string; sources: { source: string; name: string; from: string; to: string; months: number; lines: number; total: number }[]; missingMonths: string[] }[] };
type Columns = { actual: number; budget: number; actualAtBudgetRate: number; variance: number; constantCurrencyVariance: number; fxEffect: number };

describe.each(drivers)("budget vs actual on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);
  let token = "";
  const put = (url: string, payload: unknown, as = token) => t.app.inject({ method: "PUT", url, payload: payload as object, headers: { authorization: `Bearer ${as}` } });
  const csv = (realmId: string, text: string, name = "retail-2026.csv") =>
    t.app.inject({ method: "POST", url: `/api/budgets/${realmId}/csv?fiscalYear=2026&name=${encodeURIComponent(name)}`, payload: text, headers: { authorization: `Bearer ${token}`, "content-type": "text/csv" } });
  const overview = async (): Promise<Overview> => (await get(t.app, "/api/budgets?fiscalYear=2026", token)).json();
  const retailAccountId = (name: string) => sandbox.ledger(DEMO.retail)!.accounts.find((a) => a.name === name)!.id;
  const report = (from: string, to: string) => get(t.app, `/api/consolidation/budget-vs-actual?from=${from}&to=${to}`, token);

  it("refuses the statement without a budget rate for the UK's pounds, naming the currency; admins set rates, bad ones are 400s", async () => {
    token = await translatedGroup(
      t.app,
      sandbox,
      "budgets@northwind.example",
      [{ realmId: DEMO.uk, historicalRate: "1.2650" }, { realmId: DEMO.germany, historicalRate: "1.0800" }, { realmId: DEMO.retail, historicalRate: "1" }],
      { from: "2025-11", to: "2026-10" },
    );
    const before = await overview();
    expect(before.rates).toEqual([{ currency: "EUR", rate: null }, { currency: "GBP", rate: null }]);
    expect(before.companies.map((c) => [c.realmId, c.missingMonths.length])).toEqual([[DEMO.parent, 12], [DEMO.germany, 12], [DEMO.retail, 12], [DEMO.uk, 12]]);

    const missing = await report("2026-01", "2026-03");
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: "budget_rate_missing",
      message: expect.stringMatching(/^No budget rate for EUR \(Northwind Deutschland GmbH\) or GBP \(Northwind UK Ltd\) in fiscal year 2026: .* Nothing was computed\.$/),
      details: { currencies: ["EUR", "GBP"], fiscalYear: 2026 },
    });

    const member = await addMember(t.app, token, "analyst@northwind.example", 0);
    const refused = await put("/api/budgets/rates", { fiscalYear: 2026, rates: [{ currency: "GBP", rate: "1.27" }] }, member);
    expect(refused.statusCode).toBe(403);
    const bad = await put("/api/budgets/rates", { fiscalYear: 2026, rates: [{ currency: "GBP", rate: "1,27" }, { currency: "CHF", rate: "1.1" }, { currency: "USD", rate: "1" }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.fields).toEqual([
      { path: "rates.0.rate", message: expect.stringMatching(/^GBP: A rate must be a positive number/) },
      { path: "rates.1.currency", message: "No company of the group keeps its books in CHF." },
      { path: "rates.2.currency", message: "USD is the parent's currency: its budget rate is 1." },
    ]);
    expect((await overview()).rates).toEqual([{ currency: "EUR", rate: null }, { currency: "GBP", rate: null }]);
    const set = await put("/api/budgets/rates", { fiscalYear: 2026, rates: [{ currency: "gbp", rate: "1.2700" }, { currency: "EUR", rate: "1.08" }] });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().rates).toEqual([{ currency: "EUR", rate: "1.08" }, { currency: "GBP", rate: "1.27" }]);
  });

  it("reads the parent's, Germany's and the UK's budgets from QuickBooks in one query each; Northwind Retail keeps none", async () => {
    const calls = () => [DEMO.parent, DEMO.uk, DEMO.germany, DEMO.retail].map((realm) => Object.values(sandbox.requestCounts(realm)).reduce((a, n) => a + n, 0));
    const before = calls();
    const res = await post(t.app, "/api/budgets/quickbooks", { fiscalYear: 2026 }, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(calls().map((n, i) => n - before[i]!)).toEqual([1, 1, 1, 1]);
    const r = res.json();
    expect(r.imported.map((i: { realmId: string; name: string; entered: string; from: string; to: string }) => [i.realmId, i.name, i.entered, i.from, i.to])).toEqual([
      [DEMO.parent, "FY2026 Budget", "monthly", "2026-01", "2026-12"],
      [DEMO.germany, "Budget 2026", "monthly", "2026-01", "2026-12"],
      [DEMO.uk, "FY2026 Budget (Apr 2025 - Mar 2026)", "monthly", "2025-04", "2026-03"],
      [DEMO.uk, "FY2027 Budget (Apr 2026 - Mar 2027)", "monthly", "2026-04", "2027-03"],
    ]);
    expect(r.skipped).toEqual([{ realmId: DEMO.retail, companyName: "Northwind Retail LLC", name: null, reason: "No active profit and loss budget in QuickBooks for 2026-01 to 2026-12; import one as CSV." }]);
    const o = r.overview as Overview;
    expect(o.companies.map((c) => [c.realmId, c.missingMonths.length])).toEqual([[DEMO.parent, 0], [DEMO.germany, 0], [DEMO.retail, 12], [DEMO.uk, 0]]);
    // Exactly what QuickBooks holds: the parent's FY2026 budget in cents.
    const parentBudget = sandbox.ledger(DEMO.parent)!.budgets.find((b) => b.name === "FY2026 Budget")!;
    expect(o.companies[0]!.sources).toEqual([{ source: "quickbooks", name: "FY2026 Budget", from: "2026-01", to: "2026-12", months: 12, entered: "monthly", lines: parentBudget.details.length, total: parentBudget.details.reduce((a, d) => a + d.amount, 0) }]);
  });

  it("a budget CSV with an unknown account or a formula is a 400 naming each line, and nothing is saved", async () => {
    const bad = await csv(DEMO.retail, "account,month,amount\r\nStore Sales,2026-01,1000\r\n9999,2026-01,50\r\n=cmd|' /C calc'!A0,2026-02,1\r\n");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: "invalid_csv", message: "2 problems in the file; nothing was imported." });
    expect(bad.json().error.details.fields).toEqual([
      { path: "line 3", message: 'Line 3: "9999" is not an account of Northwind Retail LLC (by number or name).' },
      { path: "line 4", message: expect.stringMatching(/^Line 4: the account cell starts like a spreadsheet formula/) },
    ]);
    const retail = async () => (await overview()).companies.find((c) => c.realmId === DEMO.retail)!;
    expect((await retail()).missingMonths.length).toBe(12);
    const notCsv = await csv(DEMO.retail, 'account,month,amount\r\n"4000,2026-01,1\r\n');
    expect(notCsv.statusCode).toBe(400);
    expect(notCsv.json().error.code).toBe("invalid_csv");
    const stranger = await csv("1234567890", "account,month,amount\r\n4000,2026-01,1\r\n");
    expect(stranger.statusCode).toBe(404);
    // The template: every active income and expense account by name (Retail keeps no numbers) and month, blank.
    const template = await get(t.app, `/api/budgets/${DEMO.retail}/template.csv?fiscalYear=2026`, token);
    expect(template.statusCode).toBe(200);
    expect(template.headers["content-disposition"]).toBe(`attachment; filename="budget-template-${DEMO.retail}-FY2026.csv"`);
    const lines = template.body.split("\r\n");
    expect(lines[0]).toBe("account,month,amount");
    expect(lines).toContain("Store Sales,2026-01,");
    expect(lines).toContain("Store Wages,2026-12,");
    expect(lines.filter((l) => l.startsWith("Store Sales,")).length).toBe(12);
    // Sent back untouched, it imports nothing and says why.
    const blank = await csv(DEMO.retail, template.body);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.message).toBe("Every amount in the file is empty: there is no budget to import.");
    expect((await retail()).missingMonths.length).toBe(12);
  });

  it("imports Northwind Retail's budget from CSV, and the statement sets the consolidated P&L against every company's budget", async () => {
    // Northwind Retail keeps no account numbers: its accounts go by name.
    const rows = ["2026-01", "2026-02", "2026-03"].flatMap((m) => [`Store Sales,${m},25000.00`, `"store wages",${m},4000.5`]);
    const ok = await csv(DEMO.retail, `account,month,amount\r\n${rows.join("\r\n")}\r\n`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().overview.companies.find((c: { realmId: string }) => c.realmId === DEMO.retail)).toMatchObject({ sources: [{ source: "csv", name: "retail-2026.csv", from: "2026-01", to: "2026-03", months: 3, lines: 6, total: 3 * (2_500_000 + 400_050) }], missingMonths: expect.arrayContaining(["2026-04", "2026-12"]) });

    const res = await report("2026-01", "2026-03");
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, fiscalYear: 2026, parentCurrency: "USD", period: { from: "2026-01", to: "2026-03" } });
    const s = r.statement;
    // Actual at the actual rates is the consolidated report's P&L.
    const consolidated = (await get(t.app, "/api/consolidation/report?from=2026-01&to=2026-03", token)).json();
    expect(s.netIncome.actual).toBe(consolidated.report.incomeStatement.netIncome);
    // Budgets: each company's profit budget in its own currency, exactly what was imported.
    const profitOf = (realm: string, months: string[]) => {
      const ledger = sandbox.ledger(realm)!;
      let total = 0;
      for (const b of ledger.budgets.filter((x) => x.active)) {
        for (const d of b.details) {
          if (!months.includes(d.budgetDate.slice(0, 7))) continue;
          const a = ledger.account(d.accountId)!;
          total += ["Income", "Other Income"].includes(a.type) ? d.amount : -d.amount;
        }
      }
      return total;
    };
    const q1 = ["2026-01", "2026-02", "2026-03"];
    const entity = (id: string) => s.entities.find((e: { id: string }) => e.id === id);
    expect(entity(DEMO.parent)).toMatchObject({ currency: "USD", budgetRate: "1", budgetLocal: profitOf(DEMO.parent, q1) });
    expect(entity(DEMO.parent).budget).toBe(entity(DEMO.parent).budgetLocal);
    expect(entity(DEMO.uk)).toMatchObject({ currency: "GBP", budgetRate: "1.27", budgetLocal: profitOf(DEMO.uk, q1) });
    // At 1.27, one rounding per account: within half a cent per line of the whole at once.
    expect(Math.abs(entity(DEMO.uk).budget - Math.round(entity(DEMO.uk).budgetLocal * 1.27))).toBeLessThanOrEqual(40);
    expect(entity(DEMO.retail)).toMatchObject({ budgetLocal: 3 * (2_500_000 - 400_050), budget: 3 * (2_500_000 - 400_050) });
    expect(entity(DEMO.germany)).toMatchObject({ currency: "EUR", budgetRate: "1.08", budgetLocal: profitOf(DEMO.germany, q1) });
    expect(s.netIncome.budget).toBe(entity(DEMO.parent).budget + entity(DEMO.uk).budget + entity(DEMO.germany).budget + entity(DEMO.retail).budget);
    // The three columns and their variances add up, on every line and in total.
    const all: Columns[] = [...s.revenue.lines, ...s.expenses.lines, s.revenue.total, s.expenses.total, s.netIncome];
    for (const l of all) {
      expect(l.variance).toBe(l.actual - l.budget);
      expect(l.constantCurrencyVariance).toBe(l.actualAtBudgetRate - l.budget);
      expect(l.fxEffect).toBe(l.variance - l.constantCurrencyVariance);
    }
    expect(s.netIncome.budget).toBe(s.revenue.total.budget - s.expenses.total.budget);
    // Only the UK and Germany are re-translated: the FX effect is their actual profit at the actual rates less at 1.27 and 1.08.
    const netOf = (id: string) => consolidated.report.entities.find((e: { id: string }) => e.id === id).netIncome;
    expect(entity(DEMO.uk).actualLocal).toBe(netOf(DEMO.uk).local);
    expect(entity(DEMO.germany).actualLocal).toBe(netOf(DEMO.germany).local);
    expect(s.netIncome.fxEffect).toBe(netOf(DEMO.uk).translated - entity(DEMO.uk).actualAtBudgetRate + netOf(DEMO.germany).translated - entity(DEMO.germany).actualAtBudgetRate);
    // Retail's budget months after March are missing: a warning, not a guess.
    expect(r.warnings.filter((w: string) => /no budget/.test(w))).toEqual([]);
    const year = (await report("2026-01", "2026-06")).json();
    expect(year.warnings).toContain("Northwind Retail LLC has no budget for 3 months (2026-04 to 2026-06): its budget counts as nil there. Read it from QuickBooks or import a CSV under Budget vs actual.");
  });

  it("eliminates Germany's intra-group sales against the UK's purchases in the budget by the group's pair, their disagreement on its own line; a pair limited to a vendor is named, not guessed", async () => {
    const accountOf = (realm: string, name: string) => sandbox.ledger(realm)!.accounts.find((a) => a.name === name)!.id;
    const sales = accountOf(DEMO.germany, "Steuerfreie innergemeinschaftliche Lieferungen");
    const purchases = accountOf(DEMO.uk, "Purchases - Group Companies");
    const before = (await report("2026-01", "2026-03")).json().statement;
    expect(before.eliminations).toEqual([]);
    const pair = await post(t.app, "/api/eliminations/pairs", { name: "Germany to UK goods", kind: "revenueExpense", left: { realmId: DEMO.germany, accountId: sales }, right: { realmId: DEMO.uk, accountId: purchases } }, token);
    expect(pair.statusCode, pair.body).toBe(200);
    try {
      const res = await report("2026-01", "2026-03");
      expect(res.statusCode, res.body).toBe(200);
      const s = res.json().statement;
      // Each side's budget is what the company's QuickBooks budget holds on the paired account for the quarter.
      const budgetOn = (realm: string, account: string) =>
        sandbox.ledger(realm)!.budgets.filter((b) => b.active).flatMap((b) => b.details).filter((d) => d.accountId === account && d.budgetDate >= "2026-01" && d.budgetDate < "2026-04").reduce((a, d) => a + d.amount, 0);
      const atRate = (local: number, rate: bigint) => {
        const x = BigInt(local) * rate; // rate in hundredths
        return Number((x + (x >= 0n ? 50n : -50n)) / 100n);
      };
      const deLocal = budgetOn(DEMO.germany, sales);
      const ukLocal = budgetOn(DEMO.uk, purchases);
      expect(deLocal).toBeGreaterThan(0);
      expect(ukLocal).toBeGreaterThan(0);
      expect(s.eliminations).toHaveLength(1);
      const e = s.eliminations[0];
      expect(e).toMatchObject({
        name: "Germany to UK goods",
        revenue: { entity: DEMO.germany, entityName: "Northwind Deutschland GmbH", currency: "EUR", local: deLocal, translated: atRate(deLocal, 108n), accountName: expect.stringMatching(/Steuerfreie innergemeinschaftliche Lieferungen$/) },
        expense: { entity: DEMO.uk, entityName: "Northwind UK Ltd", currency: "GBP", local: ukLocal, translated: atRate(ukLocal, 127n), accountName: "5010 Purchases - Group Companies" },
      });
      expect(e.difference).toBe(e.expense.translated - e.revenue.translated);
      expect(e.match).toBe(Math.abs(e.difference) <= 100 ? (e.difference === 0 ? "matched" : "withinTolerance") : "unmatched");
      const lines: (Columns & { account: string; name: string; budgetCompanies: number; budgetEliminations: number })[] = [...s.revenue.lines, ...s.expenses.lines];
      for (const l of lines) expect(l.budget).toBe(l.budgetCompanies - l.budgetEliminations);
      // The companies' budgets are what they were; only the eliminations column is new.
      const was = new Map<string, number>([...before.revenue.lines, ...before.expenses.lines].map((l: { account: string; budget: number }) => [l.account, l.budget]));
      for (const l of lines) expect(l.budgetCompanies).toBe(was.get(l.account) ?? 0);
      expect(s.revenue.total.budgetEliminations).toBe(e.revenue.translated);
      const difference = lines.find((l) => l.account === "intragroup-budget-difference");
      if (e.difference === 0) expect(difference).toBeUndefined();
      else expect(difference).toMatchObject({ name: "Intra-group budgets that disagree", budget: e.difference, budgetCompanies: 0, actual: 0 });
      // Eliminating changes no profit: the group's budgeted profit is the companies'.
      expect(s.netIncome.budget).toBe(before.netIncome.budget);
      expect(s.netIncome.variance).toBe(s.netIncome.constantCurrencyVariance + s.netIncome.fxEffect);
    } finally {
      expect((await t.app.inject({ method: "DELETE", url: `/api/eliminations/pairs/${pair.json().id}`, headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    }
    // Limited to the UK's vendor for Germany, the purchases side is a part of an account a budget cannot tell apart.
    const names = (await get(t.app, `/api/eliminations/names?realmId=${DEMO.uk}`, token)).json().names as { kind: string; id: string; displayName: string }[];
    const vendor = names.find((n) => n.kind === "Vendor" && n.displayName === "Northwind Deutschland GmbH")!;
    const limited = await post(t.app, "/api/eliminations/pairs", { name: "Goods by vendor", kind: "revenueExpense", left: { realmId: DEMO.germany, accountId: sales }, right: { realmId: DEMO.uk, accountId: purchases, name: { kind: "Vendor", id: vendor.id } } }, token);
    expect(limited.statusCode, limited.body).toBe(200);
    await drainJobs(t.app); // a name paired for the first time has the UK synced for its per-name balances: let it finish
    try {
      const r = (await report("2026-01", "2026-03")).json();
      expect(r.statement.eliminations).toEqual([]);
      expect(r.warnings).toContain(
        'The intra-group pair "Goods by vendor" is not eliminated from the budget: its side in Northwind UK Ltd is only the part of 5010 Purchases - Group Companies with one customer or vendor, and a budget is kept per account. Budget the intra-group trade on an account of its own to have it eliminated.',
      );
    } finally {
      await t.app.inject({ method: "DELETE", url: `/api/eliminations/pairs/${limited.json().id}`, headers: { authorization: `Bearer ${token}` } });
    }
  });

  it("reads a quarterly and an annual QuickBooks budget without spreading them: whole quarters or the whole year compare, a period that cuts one says which to choose", async () => {
    const ledger = sandbox.ledger(DEMO.retail)!;
    const storeSales = retailAccountId("Store Sales");
    const quarterly = {
      id: "7",
      name: "Retail FY2026 by quarter",
      startDate: "2026-01-01",
      endDate: "2026-12-31",
      budgetType: "ProfitAndLoss" as const,
      entryType: "Quarterly" as const,
      active: true,
      details: ["2026-01-01", "2026-04-01", "2026-07-01", "2026-10-01"].map((budgetDate, i) => ({ budgetDate, amount: 70_000_00 + i * 1_000_00, accountId: storeSales })),
      createTime: Date.parse("2025-12-01T00:00:00Z"),
      updateTime: Date.parse("2025-12-01T00:00:00Z"),
      syncToken: 0,
    };
    ledger.budgets.push(quarterly);
    try {
      const read = await post(t.app, "/api/budgets/quickbooks", { fiscalYear: 2026, realmId: DEMO.retail }, token);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().imported).toEqual([{ realmId: DEMO.retail, companyName: "Northwind Retail LLC", name: "Retail FY2026 by quarter", entered: "quarterly", lines: 4, from: "2026-01", to: "2026-12" }]);
      const retail = read.json().overview.companies.find((c: { realmId: string }) => c.realmId === DEMO.retail);
      // The quarterly budget replaced the CSV's Q1 months; every month of the year is covered by a quarter.
      expect(retail).toMatchObject({ sources: [{ source: "quickbooks", name: "Retail FY2026 by quarter", from: "2026-01", to: "2026-12", months: 12, entered: "quarterly", lines: 4, total: 4 * 70_000_00 + 6_000_00 }], missingMonths: [] });
      const h1 = (await report("2026-01", "2026-06")).json();
      expect(h1.ok, JSON.stringify(h1.problems)).toBe(true);
      expect(h1.statement.entities.find((e: { id: string }) => e.id === DEMO.retail).budgetLocal).toBe(70_000_00 + 71_000_00);
      // Two months of a quarter: refused for the statement, naming the company, the budget and the period to choose.
      const cut = await report("2026-02", "2026-03");
      expect(cut.statusCode).toBe(200);
      expect(cut.json()).toMatchObject({
        ok: false,
        statement: null,
        problems: [
          {
            code: "budget_period_cut",
            message: 'Northwind Retail LLC\'s budget "Retail FY2026 by quarter" is entered quarterly in QuickBooks: 2026-02 to 2026-03 cuts its quarter 2026-01 to 2026-03, and its amounts are not spread over months. Choose 2026-01 to 2026-03, or a period of whole quarters.',
          },
        ],
      });
      // Entered annually: one amount for the year, compared over the whole fiscal year only.
      ledger.budgets.pop();
      ledger.budgets.push({ ...quarterly, name: "Retail FY2026", entryType: "Annually", details: [{ budgetDate: "2026-01-01", amount: 290_000_00, accountId: storeSales }] });
      const annual = await post(t.app, "/api/budgets/quickbooks", { fiscalYear: 2026, realmId: DEMO.retail }, token);
      expect(annual.json().imported[0]).toMatchObject({ name: "Retail FY2026", entered: "annually", lines: 1 });
      const q1 = (await report("2026-01", "2026-03")).json();
      expect(q1.problems.map((p: { message: string }) => p.message)).toEqual([
        'Northwind Retail LLC\'s budget "Retail FY2026" is entered annually in QuickBooks: 2026-01 to 2026-03 cuts its year 2026-01 to 2026-12, and its amounts are not spread over months. Choose 2026-01 to 2026-12, or a period of whole years.',
      ]);
      // The whole year holds it (the books here are synced only to November, which the statement says; the year's amount is not refused).
      const year = (await report("2026-01", "2026-12")).json();
      expect(year.problems.filter((p: { code: string }) => p.code === "budget_period_cut")).toEqual([]);
    } finally {
      ledger.budgets.pop();
    }
  });

  it("answers bad periods and ambiguous QuickBooks budgets with a clear 4xx, changing nothing", async () => {
    const span = await report("2025-12", "2026-01");
    expect(span.statusCode).toBe(400);
    expect(span.json().error.code).toBe("period_spans_fiscal_years");
    const noRate = await report("2025-01", "2025-03");
    expect(noRate.statusCode).toBe(400);
    expect(noRate.json().error.message).toMatch(/^No budget rate for EUR \(Northwind Deutschland GmbH\) or GBP \(Northwind UK Ltd\) in fiscal year 2025/);
    const backwards = await report("2026-03", "2026-01");
    expect(backwards.statusCode).toBe(400);

    const ledger = sandbox.ledger(DEMO.parent)!;
    const fy2026 = ledger.budgets.find((b) => b.name === "FY2026 Budget")!;
    ledger.budgets.push({ ...fy2026, id: "99", name: "FY2026 Stretch", details: fy2026.details.map((d) => ({ ...d, amount: d.amount * 2 })) });
    try {
      const before = await overview();
      const res = await post(t.app, "/api/budgets/quickbooks", { fiscalYear: 2026 }, token);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: "ambiguous_budgets", message: 'Northwind Holdings Inc. has two active budgets for 2026-01 in QuickBooks, "FY2026 Budget" and "FY2026 Stretch". Make one of them inactive in QuickBooks, then read again.' });
      expect(await overview()).toEqual(before);
    } finally {
      ledger.budgets.pop();
    }
    // A budget on an account the synced chart does not have (made in QuickBooks since the last sync) asks for a sync.
    const ukLedger = sandbox.ledger(DEMO.uk)!;
    const ukBudget = ukLedger.budgets[1]!;
    (ukBudget.details as unknown[]).push({ budgetDate: "2026-05-01", amount: 100_00, accountId: "9999" });
    try {
      const before = await overview();
      const res = await post(t.app, "/api/budgets/quickbooks", { fiscalYear: 2026 }, token);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: "budget_account_unknown", message: 'Northwind UK Ltd\'s budget "FY2027 Budget (Apr 2026 - Mar 2027)" is on account id 9999, which is not in its chart of accounts as last synced. Sync Northwind UK Ltd, then read again.' });
      expect(await overview()).toEqual(before);
    } finally {
      (ukBudget.details as unknown[]).pop();
    }
    // A file over 2 MB is refused before it is read.
    const huge = await csv(DEMO.retail, `account,month,amount\r\n${"Store Sales,2026-01,1\r\n".repeat(110_000)}`);
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe("body_too_large");
  });

  it("a budget on an account that is not mapped onto the parent's chart names it, and nothing is computed", async () => {
    // Gift Card Breakage never had a balance, so the group is consolidated without its map; a budget on it cannot be.
    await t.db.database.db.delete(accountMaps).where(and(eq(accountMaps.realmId, DEMO.retail), eq(accountMaps.subAccountId, retailAccountId("Gift Card Breakage"))));
    const ok = await csv(DEMO.retail, "account,month,amount\r\nStore Sales,2026-01,25000\r\nGift Card Breakage,2026-01,100\r\n");
    expect(ok.statusCode, ok.body).toBe(200);
    const res = await report("2026-01", "2026-01");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: false,
      statement: null,
      problems: [{ code: "budget_account_unmapped", message: "Northwind Retail LLC's budget for Gift Card Breakage cannot be consolidated: the account is not mapped onto Northwind Holdings Inc.'s chart. Map it under Account Mapping." }],
    });
  });
});
