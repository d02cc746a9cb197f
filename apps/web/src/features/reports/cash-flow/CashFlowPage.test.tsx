import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CashFlowClasses, CashFlowReport } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, syncedStatuses, UK_CO } from "../../../test/fixtures.ts";
import { callsTo, queryOf, refusal, renderRoutes } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { cashFlowRows, reconciliationText } from "./model.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./CashFlowPage.tsx";

const SLOW_UI = 30_000;

/** The PwC FSP 6.11 figures (packages/domain statements/cash-flow.test.ts), as the server answers them. */
function statementFixture(over: Partial<NonNullable<CashFlowReport["statement"]>> = {}): CashFlowReport {
  return {
    ok: true,
    problems: [],
    warnings: [],
    period: { from: "2026-10", to: "2026-10", label: "2026-10" },
    parentCurrency: "USD",
    exponent: 2,
    statement: {
      period: { from: "2026-10", to: "2026-10" },
      currency: "USD",
      exponent: 2,
      operating: {
        profit: 364_500_00,
        adjustments: [],
        workingCapital: [
          { account: "ar", name: "Accounts receivable", amount: -37_500_00 },
          { account: "ap", name: "Accounts payable", amount: 60_000_00 },
        ],
        total: 387_000_00,
      },
      investing: { lines: [{ account: "ppe", name: "Property, plant and equipment", amount: -75_000_00 }], total: -75_000_00 },
      financing: { lines: [{ account: "debt", name: "Debt", amount: -10_500_00 }], total: -10_500_00 },
      netCashFlow: 301_500_00,
      exchangeEffect: {
        total: 35_650_00,
        entities: [
          {
            entity: UK_CO.realmId,
            name: "UK Ltd",
            currency: "GBP",
            openingCashLocal: 256_000_00,
            closingCashLocal: 457_000_00,
            openingRate: "1.45",
            closingRate: "1.55",
            openingCash: 371_200_00,
            closingCash: 708_350_00,
            netCashFlow: 301_500_00,
            onOpeningCash: 25_600_00,
            onCashFlows: 10_050_00,
            total: 35_650_00,
          },
        ],
      },
      openingCash: 371_200_00,
      closingCash: 708_350_00,
      cashAccounts: [{ account: "cash", name: "Cash", opening: 371_200_00, closing: 708_350_00 }],
      reconciliation: { computedClosingCash: 708_350_00, difference: 0, reconciles: true },
      ...over,
    },
  };
}

const CLASSES: CashFlowClasses = {
  accounts: [
    { account: "1", name: "Checking", accountNumber: "1000", classification: "Asset", accountType: "Bank", accountSubType: "Checking", defaultClass: "cash", chosenClass: null, cashFlowClass: "cash" },
    { account: "2", name: "Accounts receivable", accountNumber: "1100", classification: "Asset", accountType: "Accounts Receivable", accountSubType: null, defaultClass: "operating", chosenClass: null, cashFlowClass: "operating" },
  ],
  fixed: [{ account: "9", name: "Retained Earnings", reason: "Retained earnings: the period's profit (operating) and the dividends paid (financing)." }],
};

function signIn(answer: (q: URLSearchParams) => CashFlowReport = () => statementFixture(), put?: (body: unknown) => { status: number; body?: unknown }) {
  const companies = [PARENT_CO, UK_CO];
  return signedIn({
    "GET /companies": companies,
    "GET /companies/status": syncedStatuses(companies, { lastSyncedAt: "2026-11-20T09:00:00.000Z" }),
    "GET /consolidation/cash-flow": (init: { url: string }) => ({ status: 200, body: answer(queryOf(init)) }),
    "GET /consolidation/cash-flow/classes": CLASSES,
    "PUT /consolidation/cash-flow/classes": (init: { body?: unknown }) => put?.(JSON.parse(String(init.body))) ?? { status: 200, body: CLASSES },
  });
}

/** Opens the account's class picker and picks in its own list (every row has one). */
async function chooseClass(account: string, option: string) {
  const box = await screen.findByRole("textbox", { name: `Cash-flow class of ${account}` });
  await userEvent.click(box);
  const list = document.getElementById(box.getAttribute("aria-controls") ?? "");
  await userEvent.click(within(list!).getByRole("option", { name: option, hidden: true }));
}

screenTestHooks({ today: "2026-11-21T12:00:00" });

describe("statement of cash flows: rows and reconciliation (model)", () => {
  it("lays the statement out as IAS 7 does, the exchange effect on its own line before opening and closing cash", () => {
    const rows = cashFlowRows(statementFixture().statement!);
    expect(rows.map((r) => r.key)).toEqual([
      "operating", "profit", "working-capital", "working:ar", "working:ap", "operating-total",
      "investing", "investing:ppe", "investing-total", "financing", "financing:debt", "financing-total",
      "net", "fx", "opening", "closing",
    ]);
    expect(rows.find((r) => r.key === "fx")).toMatchObject({ label: "Effect of exchange rate changes on cash and cash equivalents", amount: 35_650_00 });
  });

  it("says the statement reconciles to the cent, or shows the difference", () => {
    expect(reconciliationText(statementFixture().statement!)).toEqual({
      ok: true,
      text: "Opening cash + net change + exchange effect = closing cash: $371,200.00 + $301,500.00 + $35,650.00 = $708,350.00. Reconciles to the cent.",
    });
    const off = statementFixture({ closingCash: 708_350_01, reconciliation: { computedClosingCash: 708_350_00, difference: 1, reconciles: false } }).statement!;
    expect(reconciliationText(off)).toEqual({
      ok: false,
      text: "Opening cash + net change + exchange effect = $708,350.00, but the closing cash is $708,350.01: does not reconcile, a difference of $0.01.",
    });
  });
});

describe("Consolidated reports → Cash flow", { timeout: SLOW_UI }, () => {
  it("is a tab of the reports area; shows the statement for the period in the address with the reconciliation", async () => {
    const asked: string[] = [];
    signIn((q) => {
      asked.push(q.toString());
      return statementFixture();
    });
    renderRoutes(routes, "/consolidation/reports/cash-flow?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10");
    expect(await screen.findByRole("tab", { name: "Cash flow" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Consolidated report" })).toHaveAttribute("aria-selected", "false");
    const table = await screen.findByRole("table", { name: "Consolidated statement of cash flows" });
    expect(within(table).getByTestId("cf-fx")).toHaveTextContent("Effect of exchange rate changes on cash and cash equivalents$35,650.00");
    expect(within(table).getByTestId("cf-investing:ppe")).toHaveTextContent("($75,000.00)");
    expect(screen.getByTestId("cash-flow-reconciliation")).toHaveTextContent("Reconciles to the cent.");
    expect(screen.getByRole("table", { name: "Effect of exchange rate changes on cash by subsidiary" })).toHaveTextContent("£256,000.00 at 1.45 = $371,200.00");
    expect(asked[0]).toBe("from=2026-10&to=2026-10");
    expect(screen.queryByRole("textbox", { name: "Compare with" })).toBeNull();
  });

  it("names the problems instead of a statement when the consolidation cannot be computed", async () => {
    signIn(() => ({ ...statementFixture(), ok: false, statement: null, problems: [{ code: "missing_rate", message: "No GBP rates for 2026-10." }] }));
    renderRoutes(routes, "/consolidation/reports/cash-flow?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10");
    expect(await screen.findByText("No GBP rates for 2026-10.")).toBeInTheDocument();
    expect(screen.queryByTestId("cash-flow-reconciliation")).toBeNull();
  });

  it("changes an account's class and says so when the server refuses", async () => {
    const sent: unknown[] = [];
    const calls = signIn(undefined, (body) => {
      sent.push(body);
      return sent.length === 1 ? { status: 200, body: CLASSES } : refusal(400, "fixed_cash_flow_class", "Retained Earnings has a fixed place in the statement of cash flows.");
    });
    renderRoutes(routes, "/consolidation/reports/cash-flow?reportPeriod=month&reportFrom=2026-10&reportTo=2026-10");
    await chooseClass("Accounts receivable", "Investing");
    await waitFor(() => expect(sent).toEqual([{ classes: [{ account: "2", cashFlowClass: "investing" }] }]));
    await waitFor(() => expect(callsTo(calls, "GET", "/consolidation/cash-flow").length).toBeGreaterThan(1));
    await chooseClass("Accounts receivable", "Financing");
    expect(await screen.findByText("Retained Earnings has a fixed place in the statement of cash flows.")).toBeInTheDocument();
  });
});
