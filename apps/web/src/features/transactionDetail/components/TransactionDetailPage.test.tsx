import type { TransactionDetail } from "@groupledger/contract";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { recordingQueries, refusal, renderRoutes } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { GROUP_API, PARENT, UK } from "../../eliminations/components/eliminationsFixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./TransactionDetailPage.tsx";

const txn = (date: string, docNumber: string, memo: string, local: number, rate: string | null, translated: number | null) => ({
  date,
  type: "Journal Entry",
  txnId: docNumber,
  docNumber,
  name: null,
  memo,
  accountId: "22",
  accountName: "2110 Amounts Owed to Northwind Deutschland",
  local,
  rate,
  translated,
  url: null,
});

/** The term loan line: the parent's own repayment, and two UK postings mapped onto it whose month translates a cent away from their own amounts. */
const DETAIL: TransactionDetail = {
  account: { id: "42", name: "Term Loan - Chase", classification: "Liability" },
  period: { from: "2026-01", to: "2026-03" },
  parentCurrency: "USD",
  problems: [],
  companies: [
    {
      realmId: PARENT,
      companyName: "Northwind Holdings Inc.",
      currency: "USD",
      accounts: [{ id: "42", name: "Term Loan - Chase" }],
      transactions: [{ ...txn("2026-02-28", "2602-041", "Loan repayment", 25_000_00, "1", 25_000_00), accountId: "42", accountName: "2700 Term Loan - Chase", url: "https://app.qbo.intuit.com/app/journal?txnId=1721" }],
      totalLocal: 25_000_00,
      totalTranslated: 25_000_00,
    },
    {
      realmId: UK,
      companyName: "Northwind UK Ltd",
      currency: "GBP",
      accounts: [{ id: "22", name: "Amounts Owed to Northwind Deutschland" }],
      transactions: [
        txn("2026-01-18", "2601-037", "Goods purchased from Northwind Deutschland", -43_220_06, "1.2724640909", -54_995_97),
        txn("2026-01-31", "2601-038", "Revaluation of euro payable", 54_68, "1.2724640909", 69_58),
      ],
      totalLocal: -43_165_38,
      // The month translated as one sum: 0.01 away from the transactions' own amounts.
      totalTranslated: -54_926_38,
    },
  ],
};

const signIn = (over: Record<string, unknown> = {}) => signedIn({ ...GROUP_API, "GET /consolidation/transactions": DETAIL, ...over });

screenTestHooks({ today: "2026-11-21T12:00:00Z" });

describe("Transaction Detail", () => {
  it("reads account, range and company from the link and asks for exactly that", async () => {
    const { asked, handler } = recordingQueries(DETAIL);
    signIn({ "GET /consolidation/transactions": handler });
    renderRoutes(routes, `/consolidation/transaction-detail?account=42&from=2026-01&to=2026-03&realmId=${UK}`);
    await screen.findByRole("region", { name: "Northwind UK Ltd" });
    expect(asked).toEqual([`?account=42&from=2026-01&to=2026-03&realmId=${UK}`]);
    const controls = screen.getByRole("region", { name: "What to show" });
    await waitFor(() => expect(within(controls).getByRole("textbox", { name: "Parent account" })).toHaveValue("2700 · Term Loan - Chase"));
    expect(within(controls).getByRole("textbox", { name: "Company" })).toHaveValue("Northwind UK Ltd (GBP)");
  });

  it("lists each company's transactions in its currency and the parent's, with the rounding line, subtotals and the total", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/transaction-detail?account=42&from=2026-01&to=2026-03");
    const summary = await screen.findByRole("region", { name: "Summary" });
    await waitFor(() => expect(within(summary).getByRole("heading", { level: 2 })).toHaveTextContent("2700 · Term Loan - Chase"));
    expect(summary).toHaveTextContent("LiabilityJan 2026 – Mar 2026");
    expect(within(summary).getByTestId("summary")).toHaveTextContent("3 transactions in 2 companies, ($29,926.38) in USD.");

    const uk = screen.getByRole("region", { name: "Northwind UK Ltd" });
    expect(uk).toHaveTextContent("Account behind this line: Amounts Owed to Northwind Deutschland. Each transaction in USD at the average rate of its month.");
    const table = within(uk).getByRole("table", { name: "Northwind UK Ltd transactions" });
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Date",
      "Type",
      "Num",
      "Name",
      "Memo",
      "Account",
      "Amount (GBP)",
      "Rate",
      "Amount (USD)",
      "Link",
    ]);
    expect(within(table).getByRole("row", { name: /2601-037/ })).toHaveTextContent(
      "2026-01-18Journal Entry2601-037Goods purchased from Northwind Deutschland2110 Amounts Owed to Northwind Deutschland(£43,220.06)1.2724640909($54,995.97)",
    );
    // -54,995.97 + 69.58 = -54,926.39 over the transactions; the consolidation's -54,926.38 is 0.01 more.
    expect(within(table).getByTestId("rounding")).toHaveTextContent("Rounding");
    expect(within(table).getByTestId("rounding")).toHaveTextContent("$0.01");
    expect(within(table).getByTestId("company-total")).toHaveTextContent("Total Northwind UK Ltd(£43,165.38)($54,926.38)");

    const parent = screen.getByRole("region", { name: "Northwind Holdings Inc." });
    const parentTable = within(parent).getByRole("table", { name: "Northwind Holdings Inc. transactions" });
    // The parent's own currency: one amount column, and the entry opens in QuickBooks.
    expect(within(parentTable).queryByRole("columnheader", { name: "Rate" })).toBeNull();
    expect(within(parentTable).getByRole("link", { name: /Open Journal Entry 2602-041 in QuickBooks/ })).toHaveAttribute("href", "https://app.qbo.intuit.com/app/journal?txnId=1721");
    expect(within(parentTable).queryByTestId("rounding")).toBeNull();
    expect(screen.getByTestId("grand-total")).toHaveTextContent("($29,926.38)");
  });

  it("without an account asks for one, searchable over the parent's chart; picking it shows its transactions", async () => {
    const all = signIn();
    const { router } = renderRoutes(routes, "/consolidation/transaction-detail");
    expect(await screen.findByTestId("choose-account")).toHaveTextContent("Choose a parent account");
    expect(all.some((c) => c.path === "/consolidation/transactions")).toBe(false);
    const input = screen.getByRole("textbox", { name: "Parent account" });
    await waitFor(() => expect(input).toBeEnabled());
    await userEvent.type(input, "term");
    await userEvent.click(await screen.findByRole("option", { name: "2700 · Term Loan - Chase", hidden: true }));
    await screen.findByRole("region", { name: "Northwind UK Ltd" });
    // The month being closed, November 2026 minus one, until another range is chosen; kept in the URL to share.
    expect(router.state.location.search).toBe("?account=42&from=2026-10&to=2026-10");
  });

  it("shows what could not be translated, and a company with nothing in the range", async () => {
    signIn({
      "GET /consolidation/transactions": {
        ...DETAIL,
        problems: [{ code: "missing_rate", message: "No average rate for GBP 2026-01: Northwind UK Ltd's transactions of that month are shown in GBP only." }],
        companies: [
          { ...DETAIL.companies[0]!, transactions: [], totalLocal: 0, totalTranslated: 0 },
          { ...DETAIL.companies[1]!, transactions: DETAIL.companies[1]!.transactions.map((t) => ({ ...t, rate: null, translated: null })), totalTranslated: null },
        ],
      },
    });
    renderRoutes(routes, "/consolidation/transaction-detail?account=42&from=2026-01&to=2026-03");
    expect(await screen.findByTestId("problems")).toHaveTextContent("No average rate for GBP 2026-01");
    expect(screen.getByRole("link", { name: "Enter the rates in FOREX Management" })).toBeInTheDocument();
    expect(within(screen.getByRole("region", { name: "Northwind Holdings Inc." })).getByTestId("no-transactions")).toHaveTextContent("No transactions in this range.");
    const uk = screen.getByRole("region", { name: "Northwind UK Ltd" });
    expect(within(uk).getByRole("row", { name: /2601-037/ })).toHaveTextContent("(£43,220.06)No rate—");
    expect(within(uk).queryByTestId("rounding")).toBeNull();
    expect(screen.getByTestId("grand-total")).toHaveTextContent("— (a rate is missing)");
  });

  it("says the server's refusal, and a range that ends before it starts without asking", async () => {
    signIn({ "GET /consolidation/transactions": refusal(404, "not_found", "Account 999 is not in Northwind Holdings Inc.'s chart of accounts.") });
    const { unmount } = renderRoutes(routes, "/consolidation/transaction-detail?account=999&from=2026-01&to=2026-03");
    expect(await screen.findByText("Account 999 is not in Northwind Holdings Inc.'s chart of accounts.")).toBeInTheDocument();
    unmount();

    const all = signIn();
    renderRoutes(routes, "/consolidation/transaction-detail?account=42&from=2026-05&to=2026-03");
    expect(await screen.findByText("The range ends (2026-03) before it starts (2026-05).")).toBeInTheDocument();
    expect(all.some((c) => c.path === "/consolidation/transactions")).toBe(false);
  });
});
