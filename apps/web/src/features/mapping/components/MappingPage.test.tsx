import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CompanyMap } from "@groupledger/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, shellApi, syncedStatus, UK_CO } from "../../../test/fixtures.ts";
import { callsTo, fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import { optionsOf } from "../../../test/select.ts";
import type { ApiCall } from "../../../test/render.tsx";
import { saveToken } from "../../session/tokenStore.ts";
import { acct, bigCharts, companyMap } from "./testData.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./MappingPage.tsx";

const P = PARENT_CO.realmId;
const UK = UK_CO.realmId;
const base = `/companies/${UK}`;

const PARENT_CHART = [
  acct("p-bank", "Operating Account", { acctNum: "1000" }),
  acct("p-bank-old", "Old Bank", { acctNum: "1005", active: false }),
  acct("p-ar", "Accounts Receivable", { acctNum: "1200", accountType: "Accounts Receivable", accountSubType: "AccountsReceivable" }),
  acct("p-sales", "Sales", { acctNum: "4000", classification: "Revenue", accountType: "Income", accountSubType: "SalesOfProductIncome" }),
  acct("p-rent", "Rent Expense", { acctNum: "6000", classification: "Expense", accountType: "Expense", accountSubType: "RentOrLeaseOfBuildings" }),
];
const UK_CHART = [
  acct("u-bank", "Barclays Current", { acctNum: "1010", currency: "GBP", latestAmount: 123456 }),
  acct("u-sales", "Sales UK", { acctNum: "4010", currency: "GBP", classification: "Revenue", accountType: "Income", accountSubType: "SalesOfProductIncome", latestAmount: -9683065 }),
  acct("u-rent", "Office Rent", { acctNum: "6010", currency: "GBP", classification: "Expense", accountType: "Expense", accountSubType: "RentOrLeaseOfBuildings" }),
  acct("u-nab", "Suspense", { acctNum: "9999", currency: "GBP", everHadBalance: false, latestAmount: null }),
];
const SUGGESTIONS = {
  "u-bank": [{ parentAccountId: "p-bank", score: 0.71, reasons: ["same type (Bank)", "same subtype (Checking)"], confident: true, caution: null }],
  "u-sales": [{ parentAccountId: "p-sales", score: 0.9, reasons: ["same type (Income)", "similar name (80%)"], confident: true, caution: null }],
};
/** Two accounts whose best suggestion is not confident, as the server marks them (issue #18). */
const UK_FOR_REVIEW = [
  acct("u-hire", "Equipment Hire", { acctNum: "7700", currency: "GBP", classification: "Expense", accountType: "Expense", accountSubType: "EquipmentRental" }),
  acct("u-ic", "Loan from Northwind Holdings", { acctNum: "2410", currency: "GBP", classification: "Liability", accountType: "Long Term Liability", accountSubType: "OtherLongTermLiabilities" }),
];
const FOR_REVIEW = {
  "u-hire": [{ parentAccountId: "p-rent", score: 0.29, reasons: ["same type (Expense)", "similar name (35%)"], confident: false, caution: "Low confidence: detail type differs" }],
  "u-ic": [{ parentAccountId: "p-loan", score: 0.25, reasons: ["same type (Long Term Liability)"], confident: false, caution: "Intercompany: no matching account in the parent" }],
};
const PARENT_LOAN = acct("p-loan", "Term Loan - Chase", { acctNum: "2700", classification: "Liability", accountType: "Long Term Liability", accountSubType: "NotesPayable" });

interface State {
  map: CompanyMap;
  step: number;
}

/** A signed-in user with a parent and the UK subsidiary; the map answers follow `state`, mutable by the test. */
function setup(state: State, over: Record<string, unknown> = {}) {
  saveToken(fakeToken(inOneHour()));
  const shell = shellApi({ account: { onboarding: true, onboardingStep: state.step } });
  return mockApi({
    ...shell,
    "GET /account": () => ({ status: 200, body: { ...shell["GET /account"], onboardingStep: state.step } }),
    "PATCH /account": (init: RequestInit) => {
      state.step = (JSON.parse(String(init.body)) as { onboardingStep: number }).onboardingStep;
      return { status: 200, body: { ...shell["GET /account"], onboardingStep: state.step } };
    },
    "GET /companies": [PARENT_CO, UK_CO],
    "GET /companies/status": { [P]: syncedStatus(), [UK]: syncedStatus() },
    [`GET /companies/${P}/accounts`]: PARENT_CHART,
    [`GET ${base}/accounts`]: UK_CHART,
    [`GET ${base}/map`]: () => ({ status: 200, body: state.map }),
    "GET /companies/maps": () => ({ status: 200, body: { [UK]: state.map } }),
    [`GET ${base}/map/suggestions`]: () => ({
      status: 200,
      body: { suggestions: Object.fromEntries(Object.entries(SUGGESTIONS).filter(([id]) => !(id in state.map.map))) },
    }),
    ...over,
  });
}

const count = (calls: ApiCall[], method: string, path: string) => callsTo(calls, method, path).length;
const row = (id: string) => document.querySelector<HTMLElement>(`[data-row-id="${id}"]`);
const rowOf = async (id: string) => {
  await waitFor(() => expect(row(id)).not.toBeNull());
  return row(id)!;
};
const mapOf = (m: Record<string, string>, over: Partial<CompanyMap> = {}) => companyMap(UK, m, { toMap: 3, ...over });

/** POST /map as the server answers it: what is sent is added to the company's map (`over` its counts), which comes back. */
const addsToMap = (state: State, over: (next: Record<string, string>) => Partial<CompanyMap> = () => ({})) => (init: RequestInit) => {
  const next = { ...state.map.map, ...(JSON.parse(String(init.body)) as { map: Record<string, string> }).map };
  state.map = mapOf(next, over(next));
  return { status: 200, body: state.map };
};

// jsdom has no layout: give the grid's scroll box and its rows the sizes a browser would, so the virtualizer renders rows.
const sizes = { clientHeight: 560, clientWidth: 1200, offsetHeight: 52, offsetWidth: 1200 } as const;
const saved = new Map<string, PropertyDescriptor | undefined>();
beforeAll(() => {
  for (const [prop, value] of Object.entries(sizes)) {
    saved.set(prop, Object.getOwnPropertyDescriptor(HTMLElement.prototype, prop));
    Object.defineProperty(HTMLElement.prototype, prop, {
      configurable: true,
      get(this: HTMLElement) {
        const scroll = this.dataset["testid"] === "mapping-grid-scroll";
        if (prop.startsWith("client")) return scroll ? value : 0;
        return this.dataset["rowId"] !== undefined || scroll ? value : 0;
      },
    });
  }
});
afterAll(() => {
  for (const [prop, d] of saved) if (d) Object.defineProperty(HTMLElement.prototype, prop, d);
});

// Mantine's selects render slowly in jsdom, and slower on a shared machine: these flows get room.
const SLOW = { timeout: 30_000 };

describe("COA Mapping: the grid", SLOW, () => {
  it("shows each account with number, type, classification, currency, balance, never-a-balance, and the progress", async () => {
    setup({ map: mapOf({ "u-rent": "p-rent" }), step: 2.1 });
    renderRoutes(routes, "/setup/coa");
    const bank = await rowOf("u-bank");
    expect(bank).toHaveTextContent("1010");
    expect(bank).toHaveTextContent("Barclays Current");
    expect(bank).toHaveTextContent("Bank");
    expect(bank).toHaveTextContent("Asset");
    expect(bank).toHaveTextContent("GBP");
    expect(bank).toHaveTextContent("£1,234.56");
    expect(await rowOf("u-sales")).toHaveTextContent("(£96,830.65)");
    expect(await rowOf("u-nab")).toHaveTextContent("Never a balance");
    expect(within(await rowOf("u-rent")).getByRole("button", { name: "Parent account for 6010 Office Rent: 6000 · Rent Expense" })).toBeInTheDocument();
    expect(within(await rowOf("u-bank")).getByRole("button", { name: "Parent account for 1010 Barclays Current: not mapped" })).toBeInTheDocument();
    expect(screen.getByTestId("mapping-progress")).toHaveTextContent("1 of 3 mapped");
    expect(screen.getByRole("tab", { name: /Northwind UK Ltd/ })).toHaveTextContent("1 / 3");
  });

  it("renders only the rows on screen: 2,000 accounts, at most a few dozen rows in the DOM", async () => {
    const big = bigCharts(2000);
    setup({ map: companyMap(UK, big.map, { toMap: 2000 }), step: 3 }, {
      [`GET ${base}/accounts`]: big.sub,
      [`GET /companies/${P}/accounts`]: big.parent,
      [`GET ${base}/map/suggestions`]: { suggestions: big.suggestions },
    });
    renderRoutes(routes, "/setup/coa");
    await rowOf("s0");
    const rendered = document.querySelectorAll("[data-row-id]").length;
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(40);
    expect(screen.getByText("2,000 accounts shown · 0 selected")).toBeInTheDocument();
  });

  it("offers only compatible parent accounts; an inactive one is disabled with the reason", async () => {
    setup({ map: mapOf({}), step: 3 });
    renderRoutes(routes, "/setup/coa");
    await userEvent.click(within(await rowOf("u-bank")).getByRole("button", { name: /Parent account for 1010/ }));
    const input = await within(row("u-bank")!).findByRole("textbox", { name: "Parent account for 1010 Barclays Current" });
    await userEvent.click(input);
    expect(input).toHaveAttribute("data-expanded", "true");
    // The open picker's list: the only one holding parent accounts (the filters' lists hold classifications and types).
    const listbox = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('[role="listbox"]')].find((l) => l.textContent?.includes("Operating Account"));
      expect(found).toBeDefined();
      return found!;
    });
    const options = within(listbox).getAllByRole("option", { hidden: true });
    const names = options.map((o) => o.textContent);
    expect(names.some((n) => n?.includes("Operating Account"))).toBe(true);
    expect(names.some((n) => n?.includes("Accounts Receivable"))).toBe(true);
    // Revenue and expense accounts of the parent are never offered for a bank account.
    expect(names.some((n) => n?.includes("Sales") || n?.includes("Rent"))).toBe(false);
    const old = options.find((o) => o.textContent?.includes("Old Bank"));
    expect(old).toHaveAttribute("data-combobox-disabled", "true");
    expect(old).toHaveTextContent("inactive in QuickBooks");
  });

  it("filters: unmapped only, classification and search", async () => {
    setup({ map: mapOf({ "u-rent": "p-rent" }), step: 3 });
    renderRoutes(routes, "/setup/coa");
    await rowOf("u-rent");
    await userEvent.click(screen.getByRole("switch", { name: "Unmapped only" }));
    await waitFor(() => expect(row("u-rent")).toBeNull());
    expect(row("u-bank")).not.toBeNull();
    await userEvent.type(screen.getByRole("textbox", { name: "Search" }), "barclays");
    await waitFor(() => expect(row("u-sales")).toBeNull());
    expect(row("u-bank")).not.toBeNull();
    await userEvent.clear(screen.getByRole("textbox", { name: "Search" }));
    await userEvent.click(screen.getByRole("textbox", { name: "Classification" }));
    await userEvent.click(await screen.findByRole("option", { name: "Revenue", hidden: true }));
    await waitFor(() => expect(row("u-bank")).toBeNull());
    expect(row("u-sales")).not.toBeNull();
  });

  it("a company with sub-accounts and without account numbers (issue #20): each sub-account on its own row under its parent, by full name, no Number column", async () => {
    const parentChart = [
      ...PARENT_CHART,
      acct("p-wages", "Salaries and Wages", { acctNum: "6100", classification: "Expense", accountType: "Expense", accountSubType: "PayrollExpenses" }),
      acct("p-staff", "Staff", { acctNum: "6200", classification: "Expense", accountType: "Expense", accountSubType: "PayrollExpenses" }),
      acct("p-staff-wages", "Wages", { acctNum: "6210", fullyQualifiedName: "Staff:Wages", classification: "Expense", accountType: "Expense", accountSubType: "PayrollExpenses" }),
    ];
    const expense = { currency: "GBP", classification: "Expense", accountType: "Expense", accountSubType: "PayrollExpenses" } as const;
    // As the server lists a chart without numbers: by full name, so a sub-account follows its parent.
    const chart = [
      acct("u-bank", "Barclays Current", { currency: "GBP" }),
      acct("u-wages", "Wages and Salaries", expense),
      acct("u-toronto", "Wages - Toronto", { ...expense, fullyQualifiedName: "Wages and Salaries:Wages - Toronto" }),
      acct("u-vancouver", "Wages - Vancouver", { ...expense, fullyQualifiedName: "Wages and Salaries:Wages - Vancouver" }),
    ];
    setup({ map: mapOf({ "u-wages": "p-wages" }), step: 3 }, {
      [`GET /companies/${P}/accounts`]: parentChart,
      [`GET ${base}/accounts`]: chart,
      [`GET ${base}/map/suggestions`]: {
        suggestions: { "u-toronto": [{ parentAccountId: "p-wages", score: 0.81, reasons: ["same detail type (PayrollExpenses)", "similar name (83%)"], confident: true, caution: null }] },
      },
    });
    renderRoutes(routes, "/setup/coa");
    const toronto = await rowOf("u-toronto");
    // In chart order, the sub-accounts one level under their parent account, each with its own map and suggestion.
    expect([...document.querySelectorAll("[data-row-id]")].map((r) => r.getAttribute("data-row-id"))).toEqual(["u-bank", "u-wages", "u-toronto", "u-vancouver"]);
    expect(row("u-wages")!.querySelector("[data-depth]")).toHaveAttribute("data-depth", "0");
    expect(toronto.querySelector("[data-depth]")).toHaveAttribute("data-depth", "1");
    expect(within(toronto).getByTitle("Wages and Salaries:Wages - Toronto")).toHaveTextContent("Wages - Toronto, sub-account of Wages and Salaries");
    expect(within(row("u-wages")!).getByRole("button", { name: "Parent account for Wages and Salaries: 6100 · Salaries and Wages" })).toBeInTheDocument();
    expect(within(toronto).getByRole("button", { name: "Parent account for Wages and Salaries:Wages - Toronto: not mapped" })).toBeInTheDocument();
    expect(within(toronto).getByRole("button", { name: "Accept 6100 · Salaries and Wages for Wages and Salaries:Wages - Toronto" })).toBeInTheDocument();
    // No account has a number: no Number column.
    expect(screen.queryByRole("columnheader", { name: "Number" })).toBeNull();
    expect(screen.getByRole("columnheader", { name: "Account" })).toBeInTheDocument();
    // The parent's own sub-account is offered by its full name, right after its parent.
    await userEvent.click(within(toronto).getByRole("button", { name: /Parent account for/ }));
    const input = await within(row("u-toronto")!).findByRole("textbox", { name: "Parent account for Wages and Salaries:Wages - Toronto" });
    await userEvent.click(input);
    const listbox = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('[role="listbox"]')].find((l) => l.textContent?.includes("Staff:Wages"));
      expect(found).toBeDefined();
      return found!;
    });
    const names = within(listbox).getAllByRole("option", { hidden: true }).map((o) => o.textContent);
    expect(names.filter((n) => n?.startsWith("62"))).toEqual(["6200 · Staff", "6210 · Staff:Wages"]);
  });

  it("keyboard: arrows move the active row, Space selects it, A accepts its suggestion", async () => {
    const state = { map: mapOf({}), step: 3 };
    const calls = setup(state, { [`POST ${base}/map`]: addsToMap(state) });
    renderRoutes(routes, "/setup/coa");
    await rowOf("u-bank");
    const grid = screen.getByRole("grid");
    grid.focus();
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    expect(grid).toHaveAttribute("aria-activedescendant", "map-row-u-sales");
    fireEvent.keyDown(grid, { key: " " });
    expect(row("u-sales")).toHaveAttribute("aria-selected", "true");
    expect(row("u-bank")).toHaveAttribute("aria-selected", "false");
    fireEvent.keyDown(grid, { key: "a" });
    await waitFor(() => expect(calls.find((c) => c.method === "POST" && c.path === `${base}/map`)?.body).toEqual({ map: { "u-sales": "p-sales" } }));
    fireEvent.keyDown(grid, { key: "End" });
    expect(grid).toHaveAttribute("aria-activedescendant", "map-row-u-nab");
  });
});

describe("COA Mapping: changes", SLOW, () => {
  it("Accept maps the top suggestion (POST /map) and re-fetches the company's map", async () => {
    const state = { map: mapOf({}), step: 3 };
    const calls = setup(state, { [`POST ${base}/map`]: addsToMap(state) });
    renderRoutes(routes, "/setup/coa");
    const bank = await rowOf("u-bank");
    expect(bank).toHaveTextContent("1000 · Operating Account");
    expect(bank).toHaveTextContent("same type (Bank), same subtype (Checking)");
    const before = count(calls, "GET", `${base}/map`);
    await userEvent.click(within(bank).getByRole("button", { name: /Accept 1000 · Operating Account/ }));
    await waitFor(() => expect(count(calls, "GET", `${base}/map`)).toBeGreaterThan(before));
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({ map: { "u-bank": "p-bank" } });
    await waitFor(() => expect(within(row("u-bank")!).getByRole("button", { name: /Parent account/ })).toHaveAccessibleName("Parent account for 1010 Barclays Current: 1000 · Operating Account"));
    expect(screen.getByRole("status")).toHaveTextContent("1010 · Barclays Current now maps to 1000 · Operating Account.");
  });

  it("Accept all suggestions sends every shown suggestion in one POST /map", async () => {
    const calls = setup({ map: mapOf({}), step: 3 }, { [`POST ${base}/map`]: mapOf({ "u-bank": "p-bank", "u-sales": "p-sales" }) });
    renderRoutes(routes, "/setup/coa");
    await rowOf("u-bank");
    await userEvent.click(screen.getByRole("button", { name: "Accept all suggestions (2)" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")?.body).toEqual({ map: { "u-bank": "p-bank", "u-sales": "p-sales" } }));
  });

  it("Accept all takes only confident suggestions: the others stay unmapped, each with the reason beside it", async () => {
    const state = { map: mapOf({}), step: 3 };
    const calls = setup(state, {
      [`GET ${base}/accounts`]: [...UK_CHART, ...UK_FOR_REVIEW],
      [`GET /companies/${P}/accounts`]: [...PARENT_CHART, PARENT_LOAN],
      [`GET ${base}/map/suggestions`]: () => ({
        status: 200,
        body: { suggestions: Object.fromEntries(Object.entries({ ...SUGGESTIONS, ...FOR_REVIEW }).filter(([id]) => !(id in state.map.map))) },
      }),
      [`POST ${base}/map`]: addsToMap(state, () => ({ toMap: 5 })),
    });
    renderRoutes(routes, "/setup/coa");
    // Before: the low-confidence rows say why, and the button counts only the confident ones.
    expect(within(await rowOf("u-hire")).getByRole("note")).toHaveTextContent("Low confidence: detail type differs");
    expect(within(await rowOf("u-ic")).getByRole("note")).toHaveTextContent("Intercompany: no matching account in the parent");
    expect(within(row("u-bank")!).queryByRole("note")).toBeNull();
    expect(screen.getByTestId("review-count")).toHaveTextContent("2 low-confidence suggestions left for review");

    await userEvent.click(screen.getByRole("button", { name: "Accept all suggestions (2)" }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST")?.body).toEqual({ map: { "u-bank": "p-bank", "u-sales": "p-sales" } }));
    expect(await screen.findByRole("status")).toHaveTextContent("2 suggested maps were accepted. 2 low-confidence suggestions left for review: the reason is beside each.");
    // After: the confident rows are mapped, the others still unmapped with their reason and their own Accept.
    await waitFor(() => expect(within(row("u-bank")!).getByRole("button", { name: /Parent account/ })).toHaveAccessibleName("Parent account for 1010 Barclays Current: 1000 · Operating Account"));
    for (const [id, reason] of [["u-hire", "Low confidence: detail type differs"], ["u-ic", "Intercompany: no matching account in the parent"]] as const) {
      const r = row(id)!;
      expect(within(r).getByRole("button", { name: /Parent account/ })).toHaveAccessibleName(/: not mapped$/);
      expect(within(r).getByRole("note")).toHaveTextContent(reason);
      expect(within(r).getByRole("button", { name: /^Accept / })).toBeEnabled();
    }
    expect(screen.queryByRole("button", { name: /^Accept all suggestions \(/ })).toBeNull();
    expect(screen.getByRole("button", { name: "Accept all suggestions" })).toBeDisabled();
  });

  it("a 400 invalid_mapping shows the server's reason next to the row, and a general message", async () => {
    const reason = 'A subsidiary asset account 1010 "Barclays Current" cannot map to the parent\'s revenue account 4000 "Sales": an Asset must map to an Asset.';
    setup({ map: mapOf({}), step: 3 }, {
      [`POST ${base}/map`]: refusal(400, "invalid_mapping", reason, { fields: [{ path: "map.u-bank", message: reason }] }),
    });
    renderRoutes(routes, "/setup/coa");
    const bank = await rowOf("u-bank");
    await userEvent.click(within(bank).getByRole("button", { name: /Accept/ }));
    await waitFor(() => expect(within(row("u-bank")!).getByText(reason)).toBeInTheDocument());
    expect(screen.getByRole("alert")).toHaveTextContent(reason);
    expect(row("u-sales")).not.toHaveTextContent(reason);
  });

  it("several rows refused: each reason lands on its row", async () => {
    setup({ map: mapOf({}), step: 3 }, {
      [`POST ${base}/map`]: refusal(400, "invalid_mapping", "2 accounts cannot be mapped as asked; nothing was changed.", {
        fields: [{ path: "map.u-bank", message: "Bank reason." }, { path: "map.u-sales", message: "Sales reason." }],
      }),
    });
    renderRoutes(routes, "/setup/coa");
    await rowOf("u-bank");
    await userEvent.click(screen.getByRole("button", { name: "Accept all suggestions (2)" }));
    await waitFor(() => expect(within(row("u-bank")!).getByText("Bank reason.")).toBeInTheDocument());
    expect(within(row("u-sales")!).getByText("Sales reason.")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("2 accounts cannot be mapped as asked; nothing was changed. The reasons are shown next to the 2 accounts.");
  });

  it("multimap: selected rows map to one parent account (POST /multimap keyed by the parent)", async () => {
    const extra = acct("u-bank2", "HSBC Savings", { acctNum: "1020", currency: "GBP", accountSubType: "Savings" });
    const calls = setup({ map: mapOf({}), step: 3 }, {
      [`GET ${base}/accounts`]: [...UK_CHART, extra],
      [`POST ${base}/multimap`]: mapOf({ "u-bank": "p-bank", "u-bank2": "p-bank" }),
    });
    renderRoutes(routes, "/setup/coa");
    await userEvent.click(within(await rowOf("u-bank")).getByRole("checkbox", { name: /Select 1010/ }));
    await userEvent.click(within(await rowOf("u-bank2")).getByRole("checkbox", { name: /Select 1020/ }));
    await userEvent.click(screen.getByRole("button", { name: "Map selected to… (2)" }));
    const target = await screen.findByRole("textbox", { name: "Parent account for 2 selected accounts", hidden: true });
    await userEvent.click(target);
    const options = await optionsOf(target);
    // Only asset accounts that are active suit both bank accounts.
    expect(options.map((o) => o.textContent)).toEqual(["1000 · Operating Account", "1200 · Accounts Receivable"]);
    await userEvent.click(options[0]!);
    await userEvent.click(screen.getByRole("button", { name: "Map 2", hidden: true }));
    await waitFor(() => expect(calls.find((c) => c.method === "POST" && c.path === `${base}/multimap`)?.body).toEqual({ map: { "p-bank": ["u-bank", "u-bank2"] } }));
  });

  it("multimap refuses a selection that mixes classifications", async () => {
    setup({ map: mapOf({}), step: 3 });
    renderRoutes(routes, "/setup/coa");
    await userEvent.click(within(await rowOf("u-bank")).getByRole("checkbox", { name: /Select 1010/ }));
    await userEvent.click(within(await rowOf("u-sales")).getByRole("checkbox", { name: /Select 4010/ }));
    await userEvent.click(screen.getByRole("button", { name: "Map selected to… (2)" }));
    expect(await screen.findByText(/The selection mixes Asset, Revenue accounts/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Map 2" })).toBeNull();
  });

  it("invalid maps: a banner with each reason, and 'Unmap invalid maps' posts their ids", async () => {
    const invalid = [{ accountId: "u-rent", parentAccountId: "p-gone", reason: "The parent account it maps to is no longer in the parent's QuickBooks chart." }];
    const calls = setup({ map: mapOf({ "u-rent": "p-gone" }, { invalid }), step: 3 }, { [`POST ${base}/unmap/invalidmaps`]: mapOf({}) });
    renderRoutes(routes, "/setup/coa");
    const banner = await screen.findByTestId("invalid-maps");
    expect(banner).toHaveTextContent("1 map of Northwind UK Ltd cannot be used");
    expect(banner).toHaveTextContent("6010 · Office Rent: The parent account it maps to is no longer in the parent's QuickBooks chart.");
    expect(await rowOf("u-rent")).toHaveTextContent("no longer in the parent's QuickBooks chart");
    await userEvent.click(within(banner).getByRole("button", { name: "Unmap invalid maps" }));
    await waitFor(() => expect(calls.find((c) => c.path === `${base}/unmap/invalidmaps`)?.body).toEqual({ accountIds: ["u-rent"] }));
  });

  it("unmap one row (POST /unmap) and remove all maps after confirming (DELETE /map)", async () => {
    const calls = setup({ map: mapOf({ "u-rent": "p-rent", "u-bank": "p-bank" }), step: 3 }, {
      [`POST ${base}/unmap`]: mapOf({ "u-bank": "p-bank" }),
      [`DELETE ${base}/map`]: mapOf({}),
    });
    renderRoutes(routes, "/setup/coa");
    await userEvent.click(within(await rowOf("u-rent")).getByRole("button", { name: "Unmap 6010 · Office Rent" }));
    await waitFor(() => expect(calls.find((c) => c.path === `${base}/unmap`)?.body).toEqual({ accountIds: ["u-rent"] }));
    await userEvent.click(screen.getByRole("button", { name: "Remove all maps" }));
    const dialog = await screen.findByRole("dialog", { name: "Remove every map of Northwind UK Ltd?" });
    expect(count(calls, "DELETE", `${base}/map`)).toBe(0);
    await userEvent.click(within(dialog).getByRole("button", { name: "Remove all maps" }));
    await waitFor(() => expect(count(calls, "DELETE", `${base}/map`)).toBe(1));
  });
});

describe("COA Mapping: onboarding step 2", SLOW, () => {
  const postMap = (state: State, complete: (m: Record<string, string>) => boolean) => addsToMap(state, (next) => ({ complete: complete(next) }));

  it("the first mapping sets 2.1 and opens its modal", async () => {
    const state: State = { map: mapOf({}), step: 2 };
    const calls = setup(state, { [`POST ${base}/map`]: postMap(state, () => false) });
    renderRoutes(routes, "/setup/coa");
    await userEvent.click(within(await rowOf("u-bank")).getByRole("button", { name: /Accept/ }));
    expect(await screen.findByRole("dialog", { name: /You've started mapping your chart of accounts/ })).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.method === "PATCH").map((c) => c.body)).toEqual([{ onboardingStep: 2.1 }]));
  });

  it("one company fully mapped sets 2.2 with the exact modal text; its only subsidiary makes it 2.3", async () => {
    const state: State = { map: mapOf({}), step: 2.1 };
    const calls = setup(state, { [`POST ${base}/map`]: postMap(state, (m) => Object.keys(m).length >= 2) });
    renderRoutes(routes, "/setup/coa");
    await rowOf("u-bank");
    await userEvent.click(screen.getByRole("button", { name: "Accept all suggestions (2)" }));
    expect(await screen.findByRole("dialog", { name: "You've completed the chart-of-accounts mapping for your first company!" })).toBeInTheDocument();
    // The only subsidiary is the first company: both milestones at once, saved as 2.3.
    await waitFor(() => expect(calls.filter((c) => c.method === "PATCH").map((c) => c.body)).toEqual([{ onboardingStep: 2.3 }]));
  });

  it("at 2.3 'Continue' saves step 3 and goes to /setup/obal", async () => {
    const state: State = { map: mapOf({ "u-bank": "p-bank" }, { complete: true }), step: 2.3 };
    const calls = setup(state, { "GET /obal": { year: null, month: null, naturalYear: null, naturalMonth: null, reviewed: {}, confirmed: {}, posted: {}, trialBalanceJournalEntryUrl: "" } });
    const { router } = renderRoutes(routes, "/setup/coa");
    const done = await screen.findByText("Every subsidiary is mapped");
    await userEvent.click(within(done.closest<HTMLElement>("[role=status]")!).getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/setup/obal"));
    expect(calls.filter((c) => c.method === "PATCH").map((c) => c.body)).toEqual([{ onboardingStep: 3 }]);
  });

  it("without a subsidiary the screen says what to do first", async () => {
    setup({ map: mapOf({}), step: 3 }, { "GET /companies": [PARENT_CO] });
    renderRoutes(routes, "/setup/coa");
    expect(await screen.findByText("Connect a subsidiary first")).toBeInTheDocument();
    expect(screen.queryByRole("grid")).toBeNull();
  });
});
