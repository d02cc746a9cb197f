import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { BudgetOverview, BudgetVsActualReport } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, syncedStatuses, UK_CO } from "../../../test/fixtures.ts";
import { callsTo, queryOf, refusal, renderRoutes } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { budgetRows, percentText, varianceMark } from "./model.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./BudgetVsActualPage.tsx";

const SLOW_UI = 30_000;
const URL = "/consolidation/reports/budget?reportPeriod=custom&reportFrom=2026-01&reportTo=2026-03";

const columns = (actual: number, budget: number, actualAtBudgetRate: number, section: "revenue" | "expenses" | "net", budgetEliminations = 0) => {
  const variance = actual - budget;
  const sign = section === "expenses" ? -1 : 1;
  return {
    actual,
    budgetCompanies: budget + budgetEliminations,
    budgetEliminations,
    budget,
    actualAtBudgetRate,
    variance,
    variancePercent: budget === 0 ? null : ((variance / Math.abs(budget)) * 100).toFixed(1),
    constantCurrencyVariance: actualAtBudgetRate - budget,
    fxEffect: actual - actualAtBudgetRate,
    favourable: variance === 0 ? null : variance * sign > 0,
  };
};

/** Choi & Meek's Korean affiliate (packages/domain budgets test), in dollars, as the server answers it. */
function reportFixture(): BudgetVsActualReport {
  const sales = columns(216_000_00, 256_000_00, 288_000_00, "revenue");
  const expenses = columns(168_000_00, 204_800_00, 224_000_00, "expenses");
  return {
    ok: true,
    problems: [],
    warnings: ["Northwind UK Ltd has no budget for 2026-03: its budget counts as nil there. Read it from QuickBooks or import a CSV under Budget vs actual."],
    period: { from: "2026-01", to: "2026-03", label: "2026-01 to 2026-03" },
    parentCurrency: "USD",
    exponent: 2,
    fiscalYear: 2026,
    statement: {
      currency: "USD",
      exponent: 2,
      revenue: { lines: [{ account: "40", name: "Sales", section: "revenue", ...sales }], total: sales },
      expenses: { lines: [{ account: "60", name: "Expenses", section: "expenses", ...expenses }], total: expenses },
      netIncome: columns(48_000_00, 51_200_00, 64_000_00, "net"),
      eliminations: [],
      entities: [{ id: UK_CO.realmId, name: "Northwind UK Ltd", currency: "GBP", budgetRate: "1.27", budgetLocal: 40_314_96, budget: 51_200_00, actualLocal: 50_393_70, actualAtBudgetRate: 64_000_00 }],
    },
  };
}

const OVERVIEW: BudgetOverview = {
  fiscalYear: 2026,
  months: { from: "2026-01", to: "2026-12" },
  parentCurrency: "USD",
  rates: [{ currency: "GBP", rate: null }],
  companies: [
    { realmId: PARENT_CO.realmId, companyName: PARENT_CO.companyName, currency: "USD", isParent: true, sources: [{ source: "quickbooks", name: "FY2026 Budget", from: "2026-01", to: "2026-12", months: 12, entered: "monthly", lines: 400, total: 1 }], missingMonths: [] },
    { realmId: UK_CO.realmId, companyName: UK_CO.companyName, currency: "GBP", isParent: false, sources: [], missingMonths: Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, "0")}`) },
  ],
};

function signIn(over: Record<string, unknown> = {}, permissionLevel = 1) {
  const companies = [PARENT_CO, { ...UK_CO, homeCurrency: "GBP" }];
  return signedIn(
    {
      "GET /companies": companies,
      "GET /companies/status": syncedStatuses(companies, { lastSyncedAt: "2026-11-20T09:00:00.000Z" }),
      "GET /consolidation/budget-vs-actual": { status: 200, body: reportFixture() },
      "GET /budgets": OVERVIEW,
      ...over,
    },
    { user: { permissionLevel } },
  );
}

screenTestHooks({ today: "2026-11-21T12:00:00" });

describe("budget vs actual (model)", () => {
  it("lays the statement out as the P&L: revenue, its total, expenses, theirs, then net income", () => {
    const s = reportFixture().statement!;
    expect(budgetRows(s).map((r) => [r.key, r.kind])).toEqual([
      ["revenue", "heading"], ["revenue:40", "line"], ["revenue-total", "total"],
      ["expenses", "heading"], ["expenses:60", "line"], ["expenses-total", "total"], ["net-income", "total"],
    ]);
    expect(varianceMark(s.revenue.total)).toBe("A");
    expect(varianceMark(s.expenses.total)).toBe("F");
    expect(percentText(s.netIncome)).toBe("-6.3%");
    expect(percentText({ ...s.netIncome, variancePercent: null })).toBe("n/a");
  });
});

describe("Consolidated reports → Budget vs actual", { timeout: SLOW_UI }, () => {
  it("is a tab of the reports area and shows actual, budget, variance, variance %, the constant-currency variance and the FX effect", async () => {
    const asked: string[] = [];
    const years: string[] = [];
    signIn({
      "GET /consolidation/budget-vs-actual": (init: { url: string }) => {
        asked.push(queryOf(init).toString());
        return { status: 200, body: reportFixture() };
      },
      "GET /budgets": (init: { url: string }) => {
        years.push(queryOf(init).toString());
        return { status: 200, body: OVERVIEW };
      },
    });
    renderRoutes(routes, URL);
    expect(await screen.findByRole("tab", { name: "Budget vs actual" })).toHaveAttribute("aria-selected", "true");
    const table = await screen.findByRole("table", { name: "Budget vs actual" });
    expect(within(table).getByTestId("bva-net-income")).toHaveTextContent("Net income$48,000.00$51,200.00($3,200.00) A-6.3%$64,000.00$12,800.00($16,000.00)");
    expect(within(table).getByTestId("bva-expenses:60")).toHaveTextContent("Expenses$168,000.00$204,800.00($36,800.00) F");
    expect(screen.getByRole("table", { name: "Profit by company at the budget rate" })).toHaveTextContent("Northwind UK Ltd1.27 USD/GBP£40,314.96 = $51,200.00£50,393.70 = $64,000.00");
    expect(screen.getByText(/Northwind UK Ltd has no budget for 2026-03/)).toBeInTheDocument();
    expect(asked[0]).toBe("from=2026-01&to=2026-03");
    expect(years[0]).toBe("fiscalYear=2026");
    expect(within(screen.getByTestId(`budget-company-${UK_CO.realmId}`)).getByText("All 12")).toBeInTheDocument();
    // No intra-group pair has a budget: no eliminations columns or table.
    expect(within(table).queryByRole("columnheader", { name: "Budget eliminations" })).toBeNull();
    expect(screen.queryByRole("table", { name: "Intra-group budgets eliminated" })).toBeNull();
  });

  it("shows the budget's eliminations in their own column, the budgets' disagreement on its own line, and each pair's two budgets", async () => {
    const base = reportFixture();
    const sales = columns(216_000_00, 256_000_00, 288_000_00, "revenue", 12_960_00);
    const purchases = { account: "50", name: "Purchases - group", section: "expenses" as const, ...columns(0, 0, 0, "expenses", 12_978_00) };
    const difference = { account: "intragroup-budget-difference", name: "Intra-group budgets that disagree", section: "expenses" as const, ...columns(0, 180_00, 0, "expenses", -180_00) };
    const expenses = base.statement!.expenses;
    const report: BudgetVsActualReport = {
      ...base,
      statement: {
        ...base.statement!,
        revenue: { lines: [{ account: "40", name: "Sales", section: "revenue", ...sales }], total: sales },
        expenses: { lines: [...expenses.lines, purchases, difference], total: expenses.total },
        eliminations: [
          {
            id: "p1",
            name: "Germany to UK goods",
            revenue: { entity: "de", entityName: "Northwind Deutschland GmbH", currency: "EUR", account: "40", accountName: "4125 Intra-group sales", local: 12_000_00, translated: 12_960_00 },
            expense: { entity: UK_CO.realmId, entityName: "Northwind UK Ltd", currency: "GBP", account: "50", accountName: "5010 Purchases - Group Companies", local: 10_300_00, translated: 12_978_00 },
            difference: 18_00,
            match: "unmatched",
          },
        ],
      },
    };
    signIn({ "GET /consolidation/budget-vs-actual": { status: 200, body: report } });
    renderRoutes(routes, URL);
    const table = await screen.findByRole("table", { name: "Budget vs actual" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Account", "Actual", "Companies' budgets", "Budget eliminations", "Budget", "Variance", "Variance %", "Actual at budget rate", "Constant-currency variance", "FX effect",
    ]);
    // Companies' budgets + eliminations (a deduction, in brackets) = budget.
    expect(within(table).getByTestId("bva-revenue:40")).toHaveTextContent(/^Sales\$216,000\.00\$268,960\.00\(\$12,960\.00\)\$256,000\.00/);
    expect(within(table).getByTestId("bva-expenses:50")).toHaveTextContent(/^Purchases - group\$0\.00\$12,978\.00\(\$12,978\.00\)\$0\.00/);
    // Its variance is the disagreement, neither favourable nor adverse.
    expect(within(table).getByTestId("bva-expenses:intragroup-budget-difference")).toHaveTextContent(/^Intra-group budgets that disagree\$0\.00\$0\.00\$180\.00\$180\.00\(\$180\.00\) \$0\.00/);
    expect(screen.getByText(/what their budgets differ by at the budget rates is on the line/)).toBeInTheDocument();
    expect(screen.getByText(/Budget = the companies' budgets − the eliminations of the group's intra-group pairs/)).toBeInTheDocument();
    const pair = within(screen.getByRole("table", { name: "Intra-group budgets eliminated" })).getByTestId("bva-pair-p1");
    expect(pair).toHaveTextContent("Germany to UK goodsNorthwind Deutschland GmbH 4125 Intra-group sales€12,000.00 = $12,960.00Northwind UK Ltd 5010 Purchases - Group Companies£10,300.00 = $12,978.00Disagree by $18.00: Northwind UK Ltd budgets more");
  });

  it("a period that cuts a quarterly budget shows the server's message naming the company and the period to choose; the panel says how each budget is entered", async () => {
    const message = 'Northwind UK Ltd\'s budget "FY2026 by quarter" is entered quarterly in QuickBooks: 2026-02 to 2026-03 cuts its quarter 2026-01 to 2026-03, and its amounts are not spread over months. Choose 2026-01 to 2026-03, or a period of whole quarters.';
    const overview: BudgetOverview = {
      ...OVERVIEW,
      companies: [OVERVIEW.companies[0]!, { ...OVERVIEW.companies[1]!, sources: [{ source: "quickbooks", name: "FY2026 by quarter", from: "2026-01", to: "2026-12", months: 12, entered: "quarterly", lines: 40, total: 1 }], missingMonths: [] }],
    };
    signIn({ "GET /consolidation/budget-vs-actual": { status: 200, body: { ...reportFixture(), ok: false, statement: null, warnings: [], problems: [{ code: "budget_period_cut", message }] } }, "GET /budgets": overview });
    renderRoutes(routes, "/consolidation/reports/budget?reportPeriod=custom&reportFrom=2026-02&reportTo=2026-03");
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "Budget vs actual" })).toBeNull();
    expect(await within(screen.getByTestId(`budget-company-${UK_CO.realmId}`)).findByText("FY2026 by quarter, 2026-01 to 2026-12, entered quarterly (compared over whole quarters)")).toBeInTheDocument();
  });

  it("shows the server's refusal when a budget rate is missing, and an admin sets it", async () => {
    const sent: unknown[] = [];
    const calls = signIn({
      "GET /consolidation/budget-vs-actual": refusal(400, "budget_rate_missing", "No budget rate for GBP (Northwind UK Ltd) in fiscal year 2026: set it under Budget vs actual → Budget rates. Nothing was computed."),
      "PUT /budgets/rates": (init: { body?: unknown }) => {
        sent.push(JSON.parse(String(init.body)));
        return { status: 200, body: { ...OVERVIEW, rates: [{ currency: "GBP", rate: "1.27" }] } };
      },
    });
    renderRoutes(routes, URL);
    expect(await screen.findByText(/No budget rate for GBP \(Northwind UK Ltd\) in fiscal year 2026/)).toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "Budget vs actual" })).toBeNull();
    const rate = await screen.findByRole("textbox", { name: "GBP budget rate" });
    expect(screen.getByText("Not set: the statement needs it.")).toBeInTheDocument();
    await userEvent.type(rate, "1.27");
    await userEvent.click(screen.getByRole("button", { name: "Save rates" }));
    await waitFor(() => expect(sent).toEqual([{ fiscalYear: 2026, rates: [{ currency: "GBP", rate: "1.27" }] }]));
    await waitFor(() => expect(callsTo(calls, "GET", "/consolidation/budget-vs-actual").length).toBeGreaterThan(1));
  });

  it("a member reads the rates but cannot change them", async () => {
    signIn({}, 0);
    renderRoutes(routes, URL);
    const rate = await screen.findByRole("textbox", { name: "GBP budget rate" });
    expect(rate).toHaveAttribute("readonly");
    expect(screen.getByRole("button", { name: "Save rates" })).toBeDisabled();
    expect(document.querySelector('[data-admin-only="true"]')).toHaveAttribute("aria-label", expect.stringMatching(/^Only an admin can change the budget rates\./));
    expect(screen.getByText(/Only an admin can change them/)).toBeInTheDocument();
  });

  it("imports a company's budget from CSV and lists every line the server refused", async () => {
    const bodies: string[] = [];
    const urls: string[] = [];
    signIn({
      [`POST /budgets/${UK_CO.realmId}/csv`]: (init: { body?: unknown; url: string }) => {
        bodies.push(String(init.body));
        urls.push(queryOf(init).toString());
        return refusal(400, "invalid_csv", "2 problems in the file; nothing was imported.", {
          fields: [
            { path: "line 3", message: 'Line 3: "9999" is not an account of Northwind UK Ltd (by number or name).' },
            { path: "line 4", message: "Line 4: the account cell starts like a spreadsheet formula (\"=1+2\"); write the plain value." },
          ],
        });
      },
    });
    renderRoutes(routes, URL);
    const section = await screen.findByRole("region", { name: "Import a budget from CSV" });
    await userEvent.click(within(section).getByRole("textbox", { name: "Company" }));
    await userEvent.click(await screen.findByRole("option", { name: "Northwind UK Ltd", hidden: true }));
    expect(within(section).getByRole("button", { name: "Download the template for Northwind UK Ltd" })).toBeInTheDocument();
    const file = new File(["account,month,amount\r\n4000,2026-01,1\r\n9999,2026-01,2\r\n=1+2,2026-01,3\r\n"], "uk-budget.csv", { type: "text/csv" });
    const input = section.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(input, file);
    await userEvent.click(within(section).getByRole("button", { name: "Import" }));
    const errors = await screen.findByTestId("budget-import-errors");
    expect(errors).toHaveTextContent('Line 3: "9999" is not an account of Northwind UK Ltd (by number or name).');
    expect(errors).toHaveTextContent("Line 4: the account cell starts like a spreadsheet formula");
    expect(bodies[0]).toContain("9999,2026-01,2");
    expect(urls).toEqual(["fiscalYear=2026&name=uk-budget.csv"]);
  });
});
