import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CompanyAccount } from "@groupledger/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { ACCOUNT, PARENT_CO, shellApi, syncedStatus, UK_CO } from "../../../test/fixtures.ts";
import { callsTo, fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import type { ApiCall } from "../../../test/render.tsx";
import { saveToken } from "../../session/tokenStore.ts";
// Loaded up front so the route's lazy import resolves at once and the first test is not a race with it.
import "./CompaniesPage.tsx";

type Routes = Record<string, unknown>;

function signIn(over: Routes = {}, account: Partial<typeof ACCOUNT> = {}) {
  saveToken(fakeToken(inOneHour()));
  return mockApi({ ...shellApi({ account }), ...over });
}

/** A pop-up window as window.open returns it. */
function fakePopup() {
  const win = { closed: false, focus: vi.fn(), close: vi.fn(() => (win.closed = true)) };
  return win;
}

function post(data: unknown, origin = window.location.origin) {
  act(() => {
    window.dispatchEvent(new MessageEvent("message", { data, origin }));
  });
}

const count = (calls: ApiCall[], method: string, path: string) => callsTo(calls, method, path).length;

async function openRowMenu(name: string) {
  await userEvent.click(await screen.findByRole("button", { name: `Actions for ${name}` }));
  // jsdom never finishes the dropdown's transition, so its content counts as hidden (see AppLayout.test.tsx).
  return screen.findByRole("menu", { hidden: true });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Connected Companies: connecting through the pop-up", () => {
  it("opens /setup/connect in a 600x544 pop-up from the empty state", async () => {
    signIn();
    const open = vi.spyOn(window, "open").mockReturnValue(fakePopup() as unknown as Window);
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: "Connect company" }));
    expect(open).toHaveBeenCalledTimes(1);
    const [url, name, features] = open.mock.calls[0] ?? [];
    expect(url).toBe("/setup/connect");
    expect(name).toBe("groupledger-qbo-connect");
    expect(features).toMatch(/^width=600,height=544,/);
    expect(await screen.findByText(/Finish in the QuickBooks window/)).toBeInTheDocument();
  });

  it("says so when the browser blocks the pop-up", async () => {
    signIn();
    vi.spyOn(window, "open").mockReturnValue(null);
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: "Connect company" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The QuickBooks window could not open");
    expect(alert).toHaveTextContent("Your browser blocked the QuickBooks window. Allow pop-ups for this site");
  });

  it("AUTHORIZATION_COMPLETE from this origin: closes the pop-up, refetches companies and status, says it worked", async () => {
    let companies: unknown[] = [];
    const calls = signIn({ "GET /companies": () => ({ status: 200, body: companies }) });
    const popup = fakePopup();
    vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: "Connect company" }));
    const before = { list: count(calls, "GET", "/companies"), status: count(calls, "GET", "/companies/status") };

    companies = [{ ...PARENT_CO, parent: false }];
    post({ type: "AUTHORIZATION_COMPLETE", realmId: PARENT_CO.realmId, companyName: PARENT_CO.companyName });
    expect(await screen.findByText("Northwind Holdings Inc. is connected")).toBeInTheDocument();
    expect(popup.close).toHaveBeenCalled();
    await waitFor(() => expect(count(calls, "GET", "/companies")).toBeGreaterThan(before.list));
    expect(count(calls, "GET", "/companies/status")).toBeGreaterThan(before.status);
    expect(await screen.findByTestId(`company-${PARENT_CO.realmId}`)).toBeInTheDocument();
    expect(screen.queryByText(/Finish in the QuickBooks window/)).toBeNull();
  });

  it("AUTHORIZATION_FAILED shows the error the pop-up sent", async () => {
    signIn();
    vi.spyOn(window, "open").mockReturnValue(fakePopup() as unknown as Window);
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: "Connect company" }));
    post({ type: "AUTHORIZATION_FAILED", error: "This QuickBooks company is already connected to another GroupLedger account." });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The company was not connected");
    expect(alert).toHaveTextContent("already connected to another GroupLedger account");
  });

  it("ignores messages from another origin and messages that are not the pop-up's", async () => {
    const calls = signIn();
    vi.spyOn(window, "open").mockReturnValue(fakePopup() as unknown as Window);
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: "Connect company" }));
    const listCalls = count(calls, "GET", "/companies");
    post({ type: "AUTHORIZATION_COMPLETE", realmId: "1", companyName: "Evil Corp" }, "https://evil.example");
    post({ type: "AUTHORIZATION_COMPLETE", realmId: 1 });
    post("AUTHORIZATION_COMPLETE");
    post({ type: "SOMETHING_ELSE" });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/is connected/)).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(count(calls, "GET", "/companies")).toBe(listCalls);
    // Still waiting for the real answer.
    expect(screen.getByText(/Finish in the QuickBooks window/)).toBeInTheDocument();
  });

  it("a pop-up closed without an answer stops the waiting", async () => {
    signIn();
    const popup = fakePopup();
    vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: "Connect company" }));
    expect(screen.getByRole("button", { name: "Connect company" })).toBeDisabled();
    popup.closed = true;
    await waitFor(() => expect(screen.queryByText(/Finish in the QuickBooks window/)).toBeNull(), { timeout: 2000 });
    expect(screen.getByRole("button", { name: "Connect company" })).toBeEnabled();
  });
});

describe("Connected Companies: the table", () => {
  it("lists parent first with country, currency, ownership, connection and live sync progress", async () => {
    signIn({
      "GET /companies": [UK_CO, { ...PARENT_CO, bookCloseDate: "2023-12-31" }],
      "GET /companies/status": {
        [PARENT_CO.realmId]: syncedStatus(),
        [UK_CO.realmId]: syncedStatus({ state: "running", progress: 0.427, message: "Fetching balances 2025-01 to 2025-12" }),
      },
    });
    renderRoutes(routes, "/setup/companies");
    const table = await screen.findByRole("table", { name: "Connected companies" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows[0]).toHaveTextContent("Northwind Holdings Inc.");
    expect(rows[0]).toHaveTextContent("Parent");
    expect(rows[0]).toHaveTextContent("United States");
    expect(rows[0]).toHaveTextContent("Synced");
    expect(rows[0]).toHaveTextContent(/Last synced Mar 1, 2026/);
    // QuickBooks' "Close the books": nothing can be posted into the parent on or before it.
    expect(within(rows[0]!).getByTestId("book-close-date")).toHaveTextContent("Books closed through Dec 31, 2023");
    expect(within(rows[1]!).queryByTestId("book-close-date")).toBeNull();
    expect(rows[1]).toHaveTextContent("Northwind UK Ltd");
    expect(rows[1]).toHaveTextContent("Subsidiary");
    expect(rows[1]).toHaveTextContent("United Kingdom");
    expect(rows[1]).toHaveTextContent("GBP");
    expect(rows[1]).toHaveTextContent("80%");
    expect(rows[1]).toHaveTextContent("Syncing 42%");
    expect(rows[1]).toHaveTextContent("Fetching balances 2025-01 to 2025-12");
    expect(within(rows[1]!).getByRole("progressbar", { name: "Sync of Northwind UK Ltd" })).toHaveAttribute("aria-valuenow", "42");
  });

  it("says what each company's last sync found changed and read again", async () => {
    signIn({
      "GET /companies": [PARENT_CO, UK_CO],
      "GET /companies/status": {
        [PARENT_CO.realmId]: syncedStatus({ lastChanges: { kind: "incremental", reason: null, from: "2026-01", to: "2026-03", months: 3, changed: { JournalEntry: 2, Invoice: 1 }, deleted: 0 } }),
        [UK_CO.realmId]: syncedStatus({ lastChanges: { kind: "full", reason: "first_sync", from: "2023-01", to: "2026-03", months: 39, changed: {}, deleted: 0 } }),
      },
    });
    renderRoutes(routes, "/setup/companies");
    const table = await screen.findByRole("table", { name: "Connected companies" });
    const [parent, uk] = within(table).getAllByRole("row").slice(1);
    expect(within(parent!).getByTestId("sync-changes")).toHaveTextContent("2 journal entries, 1 invoice changed; read Jan 2026 – Mar 2026 (3 months)");
    expect(within(uk!).getByTestId("sync-changes")).toHaveTextContent("Whole history read (first sync): Jan 2023 – Mar 2026 (39 months)");
  });

  it("polls the status every second while a sync runs, and stops when it ends", async () => {
    let polls = 0;
    signIn({
      "GET /companies": [PARENT_CO],
      "GET /companies/status": () => {
        polls += 1;
        const sync = polls < 3 ? { state: "running" as const, progress: polls / 3, message: "Fetching accounts" } : { state: "succeeded" as const };
        return { status: 200, body: { [PARENT_CO.realmId]: syncedStatus(sync) } };
      },
    });
    renderRoutes(routes, "/setup/companies");
    expect(await screen.findByText("Syncing 33%")).toBeInTheDocument();
    expect(await screen.findByText("Syncing 66%", {}, { timeout: 2500 })).toBeInTheDocument();
    // A sync watched to its end keeps a full bar at 100%.
    expect(await screen.findByText("Sync complete 100%", {}, { timeout: 2500 })).toBeInTheDocument();
    const settled = polls;
    await new Promise((r) => setTimeout(r, 1300));
    expect(polls).toBe(settled);
  });

  it("shows a failed sync's error, and Reconnect for a company that needs re-authorization", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue(fakePopup() as unknown as Window);
    signIn({
      "GET /companies": [PARENT_CO, UK_CO],
      "GET /companies/status": {
        [PARENT_CO.realmId]: syncedStatus({ state: "failed", message: "QuickBooks answered 500 three times" }),
        [UK_CO.realmId]: syncedStatus({}, "needs_reauthorization"),
      },
    });
    renderRoutes(routes, "/setup/companies");
    const parentRow = await screen.findByTestId(`company-${PARENT_CO.realmId}`);
    expect(parentRow).toHaveTextContent("Sync failed");
    expect(parentRow).toHaveTextContent("QuickBooks answered 500 three times");
    const ukRow = screen.getByTestId(`company-${UK_CO.realmId}`);
    expect(ukRow).toHaveTextContent("Needs re-authorization");
    await userEvent.click(within(ukRow).getByRole("button", { name: "Reconnect" }));
    expect(open).toHaveBeenCalledWith("/setup/connect", "groupledger-qbo-connect", expect.stringContaining("width=600,height=544"));
  });

  it("expands a company to its accounts, formatted from minor units in their currency", async () => {
    const accounts: CompanyAccount[] = [
      {
        Id: "7",
        name: "Freehold Property",
        fullyQualifiedName: "Freehold Property",
        acctNum: "0060",
        accountType: "FixedAsset",
        accountSubType: "Buildings",
        classification: "Asset",
        currency: "GBP",
        active: true,
        everHadBalance: false,
        latestAmount: null,
        latestMonth: null,
      },
      {
        Id: "3",
        name: "Bank",
        fullyQualifiedName: "Bank:Current",
        acctNum: "1200",
        accountType: "Bank",
        accountSubType: "Checking",
        classification: "Asset",
        currency: "GBP",
        active: true,
        everHadBalance: true,
        latestAmount: 12345678,
        latestMonth: "2026-02",
      },
      {
        Id: "9",
        name: "Tokyo office",
        fullyQualifiedName: "Tokyo office",
        acctNum: null,
        accountType: "OtherCurrentLiability",
        accountSubType: null,
        classification: "Liability",
        currency: "JPY",
        active: false,
        everHadBalance: true,
        latestAmount: -150000,
        latestMonth: "2026-02",
      },
    ];
    const calls = signIn({
      "GET /companies": [PARENT_CO, UK_CO],
      "GET /companies/status": { [PARENT_CO.realmId]: syncedStatus(), [UK_CO.realmId]: syncedStatus() },
      [`GET /companies/${UK_CO.realmId}/accounts`]: accounts,
    });
    renderRoutes(routes, "/setup/companies");
    const toggle = await screen.findByRole("button", { name: "Show accounts of Northwind UK Ltd" });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(toggle);
    const table = await screen.findByRole("table", { name: "Accounts of Northwind UK Ltd" });
    expect(screen.getByRole("button", { name: "Hide accounts of Northwind UK Ltd" })).toHaveAttribute("aria-expanded", "true");
    expect(calls.some((c) => c.path === `/companies/${UK_CO.realmId}/accounts`)).toBe(true);
    const rows = within(table).getAllByRole("row").slice(1);
    // In chart order: numbered accounts first.
    expect(rows.map((r) => within(r).getAllByRole("cell")[0]?.textContent)).toEqual(["0060", "1200", "—"]);
    expect(rows[0]).toHaveTextContent("Never a balance");
    expect(rows[0]).toHaveTextContent("Fixed Asset");
    expect(rows[1]).toHaveTextContent("£123,456.78");
    expect(rows[1]).not.toHaveTextContent("Never a balance");
    expect(rows[2]).toHaveTextContent("(¥150,000)");
    expect(rows[2]).toHaveTextContent("No");
    expect(screen.getByText("1 never had a balance · 1 inactive")).toBeInTheDocument();
    expect(screen.getByText("Balance: balance-sheet accounts at the end of Feb 2026.")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("£123,456.78")).toHaveAttribute("title", "Balance at the end of Feb 2026");
  });
});

describe("Connected Companies: actions", () => {
  const twoCompanies = (extra: Routes = {}) =>
    signIn({
      "GET /companies": [PARENT_CO, UK_CO],
      "GET /companies/status": { [PARENT_CO.realmId]: syncedStatus(), [UK_CO.realmId]: syncedStatus() },
      ...extra,
    });

  it("'Set a parent' when no company is the parent", async () => {
    const calls = signIn({
      "GET /companies": [{ ...PARENT_CO, parent: false }, UK_CO],
      "GET /companies/status": {},
      "POST /companies/parent": [PARENT_CO, UK_CO],
    });
    renderRoutes(routes, "/setup/companies");
    const next = await screen.findByRole("region", { name: "Next step" });
    // No parent yet: no company is called a subsidiary.
    const table = await screen.findByRole("table", { name: "Connected companies" });
    expect(within(table).queryByText("Subsidiary")).toBeNull();
    expect(within(table).getAllByText("Role not set")).toHaveLength(2);
    await userEvent.click(within(next).getByRole("button", { name: "Set a parent" }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Northwind Holdings Inc.", hidden: true }));
    await waitFor(() => expect(calls.find((c) => c.path === "/companies/parent")?.body).toEqual({ realmId: PARENT_CO.realmId }));
    expect(await screen.findByText("Northwind Holdings Inc. is now the parent company.")).toBeInTheDocument();
  });

  it("'Connect a subsidiary' is the next step when only the parent is connected", async () => {
    signIn({ "GET /companies": [PARENT_CO], "GET /companies/status": { [PARENT_CO.realmId]: syncedStatus() } });
    vi.spyOn(window, "open").mockReturnValue(fakePopup() as unknown as Window);
    renderRoutes(routes, "/setup/companies");
    const next = await screen.findByRole("region", { name: "Next step" });
    expect(next).toHaveTextContent("Northwind Holdings Inc. is the parent company.");
    await userEvent.click(within(next).getByRole("button", { name: "Connect a subsidiary" }));
    expect(window.open).toHaveBeenCalledTimes(1);
  });

  it("Disconnect asks first, then revokes and refetches", async () => {
    const calls = twoCompanies({ [`PUT /companies/disconnect/${UK_CO.realmId}`]: { status: 204 } });
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(within(await openRowMenu("Northwind UK Ltd")).getByRole("menuitem", { name: "Disconnect…", hidden: true }));
    const dialog = await screen.findByRole("dialog", { name: "Disconnect Northwind UK Ltd?" });
    expect(dialog).toHaveTextContent("revoked at QuickBooks");
    expect(calls.some((c) => c.method === "PUT")).toBe(false);
    const statusCalls = count(calls, "GET", "/companies/status");
    await userEvent.click(within(dialog).getByRole("button", { name: "Disconnect" }));
    await waitFor(() => expect(count(calls, "PUT", `/companies/disconnect/${UK_CO.realmId}`)).toBe(1));
    expect(await screen.findByText("Northwind UK Ltd is disconnected. Reconnect it at any time.")).toBeInTheDocument();
    await waitFor(() => expect(count(calls, "GET", "/companies/status")).toBeGreaterThan(statusCalls));
  });

  it("Remove explains what is deleted; Cancel changes nothing", async () => {
    const calls = twoCompanies({ [`DELETE /companies/${UK_CO.realmId}`]: { status: 204 } });
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(within(await openRowMenu("Northwind UK Ltd")).getByRole("menuitem", { name: "Remove…", hidden: true }));
    let dialog = await screen.findByRole("dialog", { name: "Remove Northwind UK Ltd?" });
    expect(dialog).toHaveTextContent("the synced chart of accounts and monthly balances");
    expect(dialog).toHaveTextContent("Nothing is deleted in QuickBooks.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);

    await userEvent.click(within(await openRowMenu("Northwind UK Ltd")).getByRole("menuitem", { name: "Remove…", hidden: true }));
    dialog = await screen.findByRole("dialog", { name: "Remove Northwind UK Ltd?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Remove company" }));
    await waitFor(() => expect(count(calls, "DELETE", `/companies/${UK_CO.realmId}`)).toBe(1));
  });

  it("Archive sends the chosen date; Unarchive sends null", async () => {
    const calls = twoCompanies({ [`POST /companies/archive/${UK_CO.realmId}`]: { status: 204 } });
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(within(await openRowMenu("Northwind UK Ltd")).getByRole("menuitem", { name: "Archive…", hidden: true }));
    const dialog = await screen.findByRole("dialog", { name: "Archive Northwind UK Ltd" });
    expect(within(dialog).getByRole("button", { name: /Archive from/ })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Archive" }));
    await waitFor(() => expect(calls.find((c) => c.path === `/companies/archive/${UK_CO.realmId}`)?.body).toEqual({ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }));
    const today = new Date();
    const iso = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
    expect(calls.find((c) => c.path === `/companies/archive/${UK_CO.realmId}`)?.body).toEqual({ date: iso });
  });

  it("an archived company offers Unarchive (date null) and shows its archive date", async () => {
    const calls = signIn({
      "GET /companies": [PARENT_CO, { ...UK_CO, archivedAt: "2026-03-31" }],
      "GET /companies/status": { [PARENT_CO.realmId]: syncedStatus(), [UK_CO.realmId]: syncedStatus() },
      [`POST /companies/archive/${UK_CO.realmId}`]: { status: 204 },
    });
    renderRoutes(routes, "/setup/companies");
    expect(await screen.findByText("Archived from Mar 31, 2026")).toBeInTheDocument();
    await userEvent.click(within(await openRowMenu("Northwind UK Ltd")).getByRole("menuitem", { name: "Unarchive", hidden: true }));
    await waitFor(() => expect(calls.find((c) => c.path === `/companies/archive/${UK_CO.realmId}`)?.body).toEqual({ date: null }));
  });

  it("the parent cannot be archived", async () => {
    twoCompanies();
    renderRoutes(routes, "/setup/companies");
    const menu = await openRowMenu("Northwind Holdings Inc.");
    expect(within(menu).getByRole("menuitem", { name: /Archive… \(not the parent\)/, hidden: true })).toBeDisabled();
    expect(within(menu).queryByRole("menuitem", { name: "Set as parent", hidden: true })).toBeNull();
    expect(within(menu).getByRole("menuitem", { name: "Sync now", hidden: true })).toBeEnabled();
  });

  it("Sync now starts a sync; a refusal shows the server's message", async () => {
    const calls = twoCompanies({
      [`POST /companies/${UK_CO.realmId}/sync`]: { status: 202, body: { jobId: "j1", alreadyRunning: false } },
      [`POST /companies/${PARENT_CO.realmId}/sync`]: refusal(409, "not_connected", "Reconnect this company before syncing it."),
    });
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: "Sync Northwind UK Ltd now" }));
    await waitFor(() => expect(count(calls, "POST", `/companies/${UK_CO.realmId}/sync`)).toBe(1));
    expect(await screen.findByText("A sync of Northwind UK Ltd has started.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Sync Northwind Holdings Inc. now" }));
    expect(
      await screen.findByText("A sync of Northwind Holdings Inc. could not start: Reconnect this company before syncing it."),
    ).toBeInTheDocument();
  });

  it("at onboarding step 1.2 'Continue to COA Mapping' saves step 2 and opens /setup/coa", async () => {
    const calls = signIn(
      {
        "GET /companies": [PARENT_CO, UK_CO],
        "GET /companies/status": { [PARENT_CO.realmId]: syncedStatus(), [UK_CO.realmId]: syncedStatus() },
        "PATCH /account": { ...ACCOUNT, onboarding: true, onboardingStep: 2 },
      },
      { onboarding: true, onboardingStep: 1.2 },
    );
    const { router } = renderRoutes(routes, "/setup/companies");
    const next = await screen.findByRole("region", { name: "Next step" });
    expect(next).toHaveTextContent("Step 1 is complete");
    await userEvent.click(within(next).getByRole("button", { name: "Continue to COA Mapping" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/setup/coa"));
    expect(calls.filter((c) => c.method === "PATCH").map((c) => c.body)).toEqual([{ onboardingStep: 2 }]);
  });
});

