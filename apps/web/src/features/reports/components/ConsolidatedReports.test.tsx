import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CompanyAccount, ConsolidatedReport } from "@groupledger/contract";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, syncedStatuses, UK_CO } from "../../../test/fixtures.ts";
import { queryOf, renderRoutes } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { blockedFixture, monthFixture, reportFixture, UK_ID } from "./reportFixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./ReportsPage.tsx";

/** Pickers and tabs on a loaded CI machine: more than the 5 s default. */
const SLOW_UI = 30_000;
const P = PARENT_CO.realmId;

const CHART: CompanyAccount[] = [
  { Id: "1", name: "Cash", acctNum: "1000" },
  { Id: "2", name: "Accounts receivable", acctNum: "1100" },
  { Id: "30", name: "Sales", acctNum: "4000" },
].map((a) => ({
  ...a,
  fullyQualifiedName: a.name,
  accountType: "Bank",
  accountSubType: null,
  classification: "Asset",
  currency: "USD",
  active: true,
  everHadBalance: true,
  latestAmount: 0,
  latestMonth: "2026-10",
}));

interface Raw {
  url: string;
  headers: Record<string, string>;
}

/**
 * A signed-in user of the parent and its UK subsidiary. `answer` gives the report for a query (the
 * Q1 2026 fixture by default); the files answer from `files`. Every call is recorded with its URL.
 */
function signIn(opts: { answer?: (q: URLSearchParams) => ConsolidatedReport; companies?: typeof PARENT_CO[]; files?: (url: string) => Response; routes?: Record<string, unknown> } = {}) {
  const companies = opts.companies ?? [PARENT_CO, UK_CO];
  const answer = opts.answer ?? ((q: URLSearchParams) => (q.get("from") === q.get("to") ? monthFixture(q.get("from")!) : reportFixture()));
  signedIn({
    "GET /companies": companies,
    "GET /companies/status": syncedStatuses(companies, { lastSyncedAt: "2026-11-20T09:00:00.000Z" }),
    [`GET /companies/${P}/accounts`]: CHART,
    "GET /consolidation/report": (init: { url: string }) => ({ status: 200, body: answer(queryOf(init)) }),
    ...opts.routes,
  });
  const inner = globalThis.fetch;
  const raw: Raw[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    raw.push({ url, headers: (init.headers ?? {}) as Record<string, string> });
    if (/\/api\/consolidation\/report\.(xlsx|csv)/.test(url)) return opts.files?.(url) ?? new Response(null, { status: 404 });
    return inner(input, init);
  }) as typeof fetch;
  const reportCalls = () => raw.filter((c) => c.url.startsWith("/api/consolidation/report?")).map((c) => Object.fromEntries(new URL(c.url, "http://x").searchParams));
  return { raw, reportCalls };
}

const heading = (name: RegExp) => screen.findByRole("heading", { name });
const balanceSheet = () => screen.findByRole("table", { name: "Consolidated balance sheet" });
const rowOf = (testId: string) => screen.getByTestId(testId);
const cellsOf = (row: HTMLElement) => within(row).getAllByRole("cell").map((c) => c.textContent);

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByRole("textbox", { name: label }));
  await userEvent.click(await screen.findByRole("option", { name: option, hidden: true }));
}

/** jsdom has no layout: the worksheet's scroll box gets the size a browser would give it, so the virtualizer draws rows. */
function withWorksheetLayout() {
  const sizes = { clientHeight: 600, clientWidth: 1200, offsetHeight: 600, offsetWidth: 1200 } as const;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const [prop, value] of Object.entries(sizes)) {
    saved.set(prop, Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop));
    Object.defineProperty(HTMLElement.prototype, prop, {
      configurable: true,
      get(this: HTMLElement) {
        return this.dataset["testid"] === "worksheet" ? value : 0;
      },
    });
  }
  return () => {
    for (const [prop, d] of saved) {
      if (d) Object.defineProperty(HTMLElement.prototype, prop, d);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[prop];
    }
  };
}

// The report opens on the month before "today" (local time).
screenTestHooks({ today: "2026-11-21T12:00:00" });

describe("Consolidated reports: period and comparison", { timeout: SLOW_UI }, () => {
  it("opens on the latest complete month with no comparison", async () => {
    const { reportCalls } = signIn();
    renderRoutes(routes, "/consolidation/reports");
    await heading(/consolidated, October 2026$/);
    expect(reportCalls()[0]).toEqual({ from: "2026-10", to: "2026-10", compare: "none" });
    expect(screen.getByRole("button", { name: "Month" })).toHaveTextContent("October 2026");
    expect(screen.queryByTestId("in-progress")).toBeNull();
  });

  it("a fiscal quarter against the prior year: asks for those months, and writes them in the address", async () => {
    const { reportCalls } = signIn();
    const { router } = renderRoutes(routes, "/consolidation/reports");
    await heading(/October 2026$/);
    await userEvent.click(screen.getByRole("radio", { name: "Quarter" }));
    await choose("Fiscal quarter", "FY2026 Q1 (Jan – Mar 2026)");
    await choose("Compare with", "Prior year (same months)");
    await heading(/consolidated, FY2026 Q1 \(Jan – Mar 2026\)$/);
    await waitFor(() => expect(reportCalls().at(-1)).toEqual({ from: "2026-01", to: "2026-03", compare: "prior_year" }));
    const params = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(params)).toMatchObject({ reportPeriod: "quarter", reportFrom: "2026-01", reportTo: "2026-03", reportCompare: "prior_year" });
  });

  it("opens the report the address names, tab included", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/reports?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03&reportCompare=prior_year&reportView=entities");
    await heading(/FY2026 Q1/);
    expect(await screen.findByRole("table", { name: "Entities" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Entities" })).toHaveAttribute("aria-selected", "true");
  });

  it("a custom range that ends before it starts is refused before the server is asked", async () => {
    const { reportCalls } = signIn();
    const { router } = renderRoutes(routes, "/consolidation/reports?reportPeriod=custom&reportFrom=2026-01&reportTo=2026-03");
    await heading(/consolidated, Jan – Mar 2026$/);
    expect(screen.getByRole("button", { name: "From" })).toHaveTextContent("January 2026");
    const before = reportCalls().length;
    await userEvent.click(screen.getByRole("button", { name: "To" }));
    await userEvent.click(await screen.findByRole("button", { name: "Previous year", hidden: true }));
    await userEvent.click(await screen.findByRole("button", { name: "December 2025", hidden: true }));
    expect(new URLSearchParams(router.state.location.search).get("reportTo")).toBe("2025-12");
    expect(await screen.findByText("The period ends (Dec 2025) before it starts (Jan 2026).")).toBeInTheDocument();
    expect(reportCalls()).toHaveLength(before);
    expect(screen.getByRole("button", { name: "Download Excel" })).toBeDisabled();
  });

  it("says when the period is not over yet", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/reports?reportPeriod=month&reportFrom=2026-11&reportTo=2026-11");
    expect(await screen.findByTestId("in-progress")).toHaveTextContent("November 2026 is not over yet");
  });
});

describe("Consolidated reports: the statements", { timeout: SLOW_UI }, () => {
  const q1 = "/consolidation/reports?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03&reportCompare=prior_year";

  it("the balance sheet: sections, totals, NCI and the Balanced badge, beside the prior year with the change", async () => {
    signIn();
    renderRoutes(routes, q1);
    const table = await balanceSheet();
    const r = reportFixture();
    const b = r.report!.balanceSheet;
    const prior = r.comparison!.balanceSheet!;
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Account", "Jan – Mar 2026", "Jan – Mar 2025", "Change", "%"]);
    expect(screen.getByTestId("balanced")).toHaveTextContent("Balanced");
    const usd = (n: number) => new Intl.NumberFormat(undefined, { style: "currency", currency: "USD", currencySign: "accounting" }).format(n / 100);
    expect(cellsOf(rowOf("total-assets")).slice(0, 3)).toEqual(["Total assets", usd(b.totalAssets), usd(prior.totalAssets)]);
    expect(cellsOf(rowOf("line-nci"))[1]).toBe(usd(b.nonControllingInterests));
    expect(cellsOf(rowOf("line-total-liabilities-equity"))[1]).toBe(usd(b.totalAssets));
    // The account number from the parent's chart, then the name.
    expect(within(table).getByText("1000").closest("tr")).toHaveTextContent("Cash");
  });

  it("statement figures open the transactions of their account over their period; computed lines do not", async () => {
    signIn();
    const { router } = renderRoutes(routes, q1);
    const table = await balanceSheet();
    const cashRow = within(table).getByText("Cash").closest("tr")!;
    const [current, prior] = within(cashRow).getAllByRole("link");
    expect(current).toHaveAttribute("href", "/consolidation/transaction-detail?account=1&from=2026-01&to=2026-03");
    expect(prior).toHaveAttribute("href", "/consolidation/transaction-detail?account=1&from=2025-01&to=2025-03");
    const profitRow = within(table).getByText("Net income for the period attributable to owners of the parent").closest("tr")!;
    expect(within(profitRow).queryAllByRole("link")).toHaveLength(0);
    expect(within(rowOf("total-assets")).queryAllByRole("link")).toHaveLength(0);
    await userEvent.click(current!);
    await waitFor(() => expect(router.state.location.pathname).toBe("/consolidation/transaction-detail"));
    expect(router.state.location.search).toBe("?account=1&from=2026-01&to=2026-03");
  });

  it("the income statement: revenue, expenses, net income and its attribution", async () => {
    signIn();
    renderRoutes(routes, q1);
    await balanceSheet();
    await userEvent.click(screen.getByRole("tab", { name: "Income statement" }));
    const table = await screen.findByRole("table", { name: "Consolidated income statement" });
    const p = reportFixture().report!.incomeStatement;
    const usd = (n: number) => new Intl.NumberFormat(undefined, { style: "currency", currency: "USD", currencySign: "accounting" }).format(n / 100);
    expect(within(table).getByTestId("line-net-income")).toHaveTextContent(usd(p.netIncome));
    expect(within(table).getByTestId("line-attributable-nci")).toHaveTextContent(usd(p.attributableToNci));
    expect(within(table).getByTestId("line-attributable-parent")).toHaveTextContent(usd(p.attributableToParent));
    expect(within(table).getByTestId("total-revenue")).toHaveTextContent(usd(p.revenue.reduce((s, l) => s + l.amount, 0)));
  });

  it("leaves a comparison the server could not compute out, and says why", async () => {
    const base = reportFixture();
    signIn({ answer: () => ({ ...base, comparison: { ...base.comparison!, ok: false, balanceSheet: null, incomeStatement: null, problems: [{ code: "missing_rate", message: "No GBP closing rate for 2025-03." }] } }) });
    renderRoutes(routes, q1);
    const table = await balanceSheet();
    expect(within(table).getAllByRole("columnheader")).toHaveLength(2);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("The comparison period (Jan – Mar 2025) cannot be computed, so it is left out");
    expect(within(alert).getByRole("link", { name: "Enter the rates in FOREX Management" })).toHaveAttribute("href", "/consolidation/fx_rates");
  });
});

describe("Consolidated reports: problems", { timeout: SLOW_UI }, () => {
  it("lists what stops the consolidation with links to where it is fixed, and offers no file", async () => {
    signIn({ answer: blockedFixture });
    renderRoutes(routes, "/consolidation/reports");
    const problems = await screen.findByTestId("report-problems");
    expect(problems).toHaveTextContent("cannot be computed yet");
    expect(within(problems).getByRole("link", { name: "Enter the rates in FOREX Management" })).toHaveAttribute("href", "/consolidation/fx_rates");
    expect(within(problems).getByRole("link", { name: "Fix the pair in Interco Eliminations" })).toHaveAttribute("href", "/consolidation/elimination");
    expect(within(problems).getAllByRole("link")).toHaveLength(2);
    expect(problems).toHaveTextContent("books of Northwind UK Ltd do not balance");
    expect(screen.getByRole("button", { name: "Download Excel" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Download CSV" })).toBeDisabled();
    expect(screen.queryByRole("tab", { name: "Balance sheet" })).toBeNull();
  });

  it("shows what to read with the figures, such as a subsidiary whose acquisition is not recorded, with the way to Acquisitions", async () => {
    const warning = "No acquisition is recorded for Northwind UK Ltd: Northwind Holdings Inc.'s investment in it and its equity at acquisition are not eliminated, so both stay in the consolidated balance sheet. Confirm the acquisition on Setup → Acquisitions.";
    signIn({ answer: () => ({ ...reportFixture(), warnings: [warning] }) });
    renderRoutes(routes, "/consolidation/reports");
    const warnings = await screen.findByTestId("report-warnings");
    expect(warnings).toHaveTextContent(warning);
    expect(within(warnings).getByRole("link", { name: "Open Acquisitions" })).toHaveAttribute("href", "/setup/acquisitions");
    expect(await screen.findByRole("tab", { name: "Balance sheet" })).toBeInTheDocument();
  });

  it("names intercompany accounts left out of the eliminations, with the way to Interco Eliminations", async () => {
    const warning =
      'Northwind UK Ltd\'s intercompany accounts 2120 "Amounts Owed to Northwind Holdings", 2410 "Loan from Northwind Holdings" hold amounts in 2026-01 but are in no intercompany pair, so they are not eliminated and stay in the consolidated statements. Pair them on Interco Eliminations.';
    signIn({ answer: () => ({ ...reportFixture(), warnings: [warning] }) });
    renderRoutes(routes, "/consolidation/reports");
    const warnings = await screen.findByTestId("report-warnings");
    expect(warnings).toHaveTextContent(warning);
    expect(within(warnings).getByRole("link", { name: "Open Interco Eliminations" })).toHaveAttribute("href", "/consolidation/elimination");
    expect(within(warnings).queryByRole("link", { name: "Open Acquisitions" })).toBeNull();
  });

  it("without a parent company, says to choose one and asks for no report", async () => {
    const { reportCalls } = signIn({ companies: [{ ...UK_CO }] });
    renderRoutes(routes, "/consolidation/reports");
    expect(await screen.findByText("Choose a parent company first")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Set the parent on Connected Companies" })).toHaveAttribute("href", "/setup/companies");
    expect(reportCalls()).toHaveLength(0);
  });
});

describe("Consolidated reports: the worksheet", { timeout: SLOW_UI }, () => {
  const worksheetUrl = "/consolidation/reports?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03&reportCompare=none&reportView=worksheet";

  it("shows each entity, the eliminations, NCI and the consolidated column, with debit and credit totals that agree", async () => {
    signIn();
    renderRoutes(routes, worksheetUrl);
    const sheet = await screen.findByRole("table", { name: "Consolidation worksheet" });
    const headers = within(sheet).getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["Account", "Class", "Northwind Holdings Inc. (USD)", "Northwind UK Ltd (GBP → USD)", "Eliminations", "Non-controlling interests", "Consolidated"]);
    // Prepaid insurance and the unmapped sundry account have nothing in any column: hidden until asked.
    expect(within(sheet).queryByText("Prepaid insurance")).toBeNull();
    await userEvent.click(screen.getByRole("switch", { name: "Show accounts with no amounts (2)", hidden: true }));
    expect(within(sheet).getByText("Prepaid insurance")).toBeInTheDocument();
    const debits = within(screen.getByTestId("worksheet-debits")).getAllByRole("cell").slice(1).map((c) => c.textContent);
    const credits = within(screen.getByTestId("worksheet-credits")).getAllByRole("cell").slice(1).map((c) => c.textContent);
    expect(debits).toHaveLength(5);
    expect(credits.map((c) => c?.replace(/[()]/g, ""))).toEqual(debits);
    expect(screen.queryByText(/Debits and credits differ/)).toBeNull();
  });

  it("an entity's figure opens that company's transactions; the consolidated one the group's; computed rows have no link", async () => {
    signIn();
    const { router } = renderRoutes(routes, worksheetUrl);
    const sheet = await screen.findByRole("table", { name: "Consolidation worksheet" });
    const cash = sheet.querySelector<HTMLElement>('[data-account="1"]')!;
    const links = within(cash).getAllByRole("link");
    expect(links.map((l) => l.getAttribute("href"))).toEqual([
      "/consolidation/transaction-detail?account=1&from=2026-01&to=2026-03&realmId=9341453172384015",
      `/consolidation/transaction-detail?account=1&from=2026-01&to=2026-03&realmId=${UK_ID}`,
      "/consolidation/transaction-detail?account=1&from=2026-01&to=2026-03",
    ]);
    const nciProfit = sheet.querySelector<HTMLElement>('[data-account="(nci share of profit)"]')!;
    expect(within(nciProfit).queryAllByRole("link")).toHaveLength(0);
    await userEvent.click(links[1]!);
    await waitFor(() => expect(router.state.location.pathname).toBe("/consolidation/transaction-detail"));
    expect(new URLSearchParams(router.state.location.search).get("realmId")).toBe(UK_ID);
  });

  it("renders only the rows on screen when the worksheet is long", async () => {
    const base = reportFixture();
    const ws = base.report!.worksheet;
    const many = Array.from({ length: 400 }, (_, i) => ({ account: `x${i}`, name: `Account ${i}`, classification: "Asset", role: "account" as const, amounts: ws.columns.map((_, c) => (c === 0 || c === 4 ? 100 : 0)) }));
    const balancing = { account: "eq", name: "Balancing equity", classification: "Equity", role: "account" as const, amounts: ws.columns.map((_, c) => (c === 0 || c === 4 ? -40_000 : 0)) };
    signIn({ answer: () => ({ ...base, comparison: null, report: { ...base.report!, worksheet: { columns: ws.columns, rows: [...many, balancing] } } }) });
    const restore = withWorksheetLayout();
    onTestFinished(restore);
    renderRoutes(routes, worksheetUrl);
    const sheet = await screen.findByRole("table", { name: "Consolidation worksheet" });
    expect(sheet).toHaveAttribute("data-virtualized", "true");
    expect(sheet).toHaveAttribute("aria-rowcount", String(401 + 3));
    const drawn = sheet.querySelectorAll("[data-account]").length;
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(100);
  });
});

describe("Consolidated reports: entities and trend", { timeout: SLOW_UI }, () => {
  it("entities: currency, method, net income local and translated, CTA change and NCI", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/reports?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03&reportCompare=none&reportView=entities");
    const table = await screen.findByRole("table", { name: "Entities" });
    const uk = table.querySelector<HTMLElement>(`[data-entity="${UK_ID}"]`)!;
    const cells = within(uk).getAllByRole("cell").map((c) => c.textContent);
    expect(cells.slice(0, 3)).toEqual(["Northwind UK Ltd", "GBP", "Current rate"]);
    expect(cells[3]).toContain("£");
    expect(cells[6]).toBe("20%");
  });

  it("the trend asks for each month of the period once and charts them", async () => {
    const { reportCalls } = signIn();
    renderRoutes(routes, "/consolidation/reports?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03&reportCompare=none&reportView=trend");
    const table = await screen.findByRole("table", { name: "Key figures by month" });
    expect(within(table).getAllByRole("row")).toHaveLength(4);
    const monthly = reportCalls().filter((c) => c.from === c.to);
    expect(monthly.map((c) => c.from).sort()).toEqual(["2026-01", "2026-02", "2026-03"]);
    expect(monthly.every((c) => c.compare === "none")).toBe(true);
    expect(screen.getAllByRole("img", { name: /by month/ })).toHaveLength(2);
  });
});

describe("Consolidated reports: files", { timeout: SLOW_UI }, () => {
  const q1 = "/consolidation/reports?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03&reportCompare=prior_year";

  it("downloads the workbook with the session token and saves it under the server's name", async () => {
    const saved: string[] = [];
    vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:report");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { raw } = signIn({
      files: () => new Response(new Blob(["PK"]), { status: 200, headers: { "content-disposition": 'attachment; filename="consolidation-2026-01to2026-03.xlsx"' } }),
    });
    renderRoutes(routes, q1);
    await balanceSheet();
    await userEvent.click(screen.getByRole("button", { name: "Download Excel" }));
    expect(await screen.findByTestId("download-result")).toHaveTextContent("Saved consolidation-2026-01to2026-03.xlsx.");
    expect(saved).toEqual(["consolidation-2026-01to2026-03.xlsx"]);
    const call = raw.find((c) => c.url.includes("report.xlsx"))!;
    expect(call.url).toBe("/api/consolidation/report.xlsx?from=2026-01&to=2026-03&compare=prior_year");
    expect(call.headers["authorization"]).toMatch(/^Bearer /);
  });

  it("emails the workbook to the report delivery address", async () => {
    signIn({ routes: { "POST /consolidation/report/email": { sentTo: "close-team@northwind.example", filename: "consolidation-2026-01to2026-03.xlsx" } } });
    renderRoutes(routes, q1);
    await balanceSheet();
    await userEvent.click(screen.getByRole("button", { name: "Email Excel" }));
    expect(await screen.findByTestId("download-result")).toHaveTextContent("Sent consolidation-2026-01to2026-03.xlsx to close-team@northwind.example.");
  });

  it("a report address that is not verified yet: the server's words and a link to where the code is entered", async () => {
    const message =
      "close-team@northwind.example is not verified yet, so no report is sent to it. Enter the code we mailed to it under Account settings → Report delivery (or send a new code from there).";
    signIn({ routes: { "POST /consolidation/report/email": { status: 409, body: { error: { code: "report_email_unverified", message } } } } });
    renderRoutes(routes, q1);
    await balanceSheet();
    await userEvent.click(screen.getByRole("button", { name: "Email Excel" }));
    expect(await screen.findByTestId("download-result")).toHaveTextContent(message);
    expect(within(screen.getByTestId("download-result")).getByRole("link", { name: "Verify the address in Account settings" })).toHaveAttribute("href", "/settings");
  });

  it("a refused file says why in the server's words", async () => {
    signIn({
      files: () =>
        new Response(JSON.stringify({ error: { code: "report_blocked", message: "The consolidation for 2026-01 to 2026-03 cannot be computed yet: No GBP closing rate for 2026-03." } }), {
          status: 409,
        }),
    });
    renderRoutes(routes, q1);
    await balanceSheet();
    await userEvent.click(screen.getByRole("button", { name: "Download CSV" }));
    expect(await screen.findByTestId("download-result")).toHaveTextContent("cannot be computed yet: No GBP closing rate for 2026-03.");
  });
});
