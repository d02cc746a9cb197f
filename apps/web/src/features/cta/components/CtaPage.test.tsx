import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CompanyAccount, CtaSettings } from "@groupledger/contract";
import { RATE_MESSAGE } from "@groupledger/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { setResponseHandlers } from "../../../lib/http.ts";
import { PARENT_CO, shellApi, syncedStatus, UK_CO } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, renderRoutes } from "../../../test/render.tsx";
import { dismissError, raiseError } from "../../errors/errorBar.ts";
import { saveToken } from "../../session/tokenStore.ts";
import { AOCI_REASON, CA_CO, CA_CTA, CTA_SETTINGS, PARENT_ACCOUNTS, RETAIL_CO, UK_CTA, UK_TEMPORAL } from "./ctaFixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./CtaPage.tsx";

/** Pickers, dialogs and typing: more than the 5 s default on a loaded CI machine. */
const SLOW_UI = 20_000;
const P = PARENT_CO.realmId;
const UK = UK_CO.realmId;
type Calls = ReturnType<typeof mockApi>;

function signIn(settings: CtaSettings = CTA_SETTINGS, over: Record<string, unknown> = {}, companies = [PARENT_CO, UK_CO, CA_CO]) {
  saveToken(fakeToken(inOneHour()));
  return mockApi({
    ...shellApi(),
    "GET /companies": companies,
    "GET /companies/status": Object.fromEntries(companies.map((c) => [c.realmId, syncedStatus()])),
    "GET /cta": settings,
    [`GET /companies/${P}/accounts`]: PARENT_ACCOUNTS,
    ...over,
  });
}

const panel = (name: string) => screen.findByRole("region", { name: `${name} CTA settings` });
const puts = (calls: Calls) => calls.filter((c) => c.method === "PUT");
const ukTable = async () => within(await panel("Northwind UK Ltd")).findByRole("table", { name: "Contributed equity of Northwind UK Ltd" });

async function optionsOf(input: HTMLElement) {
  const listbox = await waitFor(() => {
    const el = document.getElementById(input.getAttribute("aria-controls") ?? "");
    expect(el).not.toBeNull();
    return el!;
  });
  return within(listbox).getAllByRole("option", { hidden: true });
}

beforeEach(() => {
  setResponseHandlers({ invalidToken: () => {}, expiredToken: () => {}, unexpected: raiseError });
});
afterEach(() => dismissError());

describe("CTA & Historical: the foreign subsidiaries", { timeout: SLOW_UI }, () => {
  it("shows a tab per foreign subsidiary with its currencies and what is left to do, and the server's checklist", async () => {
    signIn();
    renderRoutes(routes, "/setup/cta");
    const tabs = await screen.findByRole("tablist", { name: "Foreign subsidiaries" });
    const [uk, ca] = within(tabs).getAllByRole("tab");
    expect(uk).toHaveTextContent("Northwind UK Ltd");
    expect(uk).toHaveTextContent("GBP → USD");
    expect(within(uk!).getByLabelText("2 to do")).toBeInTheDocument();
    expect(ca).toHaveTextContent("CAD → USD");
    expect(within(ca!).getByLabelText("Ready")).toBeInTheDocument();

    const checklist = within(await panel("Northwind UK Ltd")).getByRole("region", { name: "What blocks translation" });
    expect(within(checklist).getAllByRole("listitem").map((li) => li.textContent)).toEqual(UK_CTA.missing);

    await userEvent.click(ca!);
    const caPanel = await panel("Northwind Canada Inc.");
    expect(within(caPanel).getByTestId("cta-ready")).toHaveTextContent("Nothing: Northwind Canada Inc. can be translated.");
    // Saved by its translated amount: shown on the balance's side, and explained as entered.
    expect(within(caPanel).getByRole("textbox", { name: "Translated amount of Share Capital" })).toHaveValue("37125.00");
    const row = within(caPanel).getByRole("row", { name: /Share Capital/ });
    expect(within(row).getByTestId("translated")).toHaveTextContent("($37,125.00)as entered");
    expect(within(caPanel).getByRole("textbox", { name: "Northwind Holdings Inc.'s share" })).toHaveValue("80");
    expect(within(caPanel).getByText("Non-controlling interests hold 20% of its net assets, profit and CTA.")).toBeInTheDocument();
    expect(within(caPanel).getByRole("radio", { name: /Rate of the period whose profit is distributed/ })).toBeChecked();
  });

  it("explains every translated figure: balance × rate, exact and rounded to the cent, one of rate or amount per account", async () => {
    signIn();
    renderRoutes(routes, "/setup/cta");
    const table = await ukTable();
    const shares = within(table).getByRole("row", { name: /Ordinary Shares/ });
    expect(shares).toHaveTextContent("(£100,000.00)");
    expect(within(shares).getByTestId("translated")).toHaveTextContent("Needed");
    // The premium account has no balance: nothing is needed for it.
    expect(within(within(table).getByRole("row", { name: /Share Premium/ })).getByTestId("translated")).toHaveTextContent("—");

    await userEvent.type(within(shares).getByRole("textbox", { name: "Historical rate of Ordinary Shares" }), "1.26505");
    // 100,000.00 × 1.26505 = 126,505.00 exactly.
    expect(within(shares).getByTestId("translated")).toHaveTextContent("($126,505.00)(£100,000.00) × 1.26505");

    await userEvent.click(within(shares).getByText("Amount"));
    expect(within(shares).queryByRole("textbox", { name: "Historical rate of Ordinary Shares" })).toBeNull();
    const amount = within(shares).getByRole("textbox", { name: "Translated amount of Ordinary Shares" });
    expect(within(shares).getByText("In USD, as a credit like the balance")).toBeInTheDocument();
    await userEvent.type(amount, "126,500.5");
    expect(within(shares).getByTestId("translated")).toHaveTextContent("($126,500.50)as entered");
    await userEvent.type(amount, "55");
    expect(within(shares).getByText("Enter the translated amount in USD with at most 2 decimal places, such as 126500.00.")).toBeInTheDocument();
  });

  it("lists the parent's equity accounts: the suggestion first with its reason, unusable ones disabled with why", async () => {
    signIn();
    renderRoutes(routes, "/setup/cta");
    const picker = within(await panel("Northwind UK Ltd")).getByRole("textbox", { name: /CTA account in the parent/ });
    await userEvent.click(picker);
    const options = await optionsOf(picker);
    expect(options.map((o) => o.textContent)).toEqual([
      `3600 · Accumulated Other Comprehensive Income${AOCI_REASON}`,
      "3900 · General Reserve",
      '3000 · Common Stock"Common Stock" holds contributed capital; keep CTA in a separate equity account.',
      '3300 · Retained Earnings"Retained Earnings" holds retained earnings; keep CTA in a separate equity account.',
      '3500 · Treasury Stock"Treasury Stock" holds contributed capital; keep CTA in a separate equity account.',
      '3700 · Revaluation Reserve"Revaluation Reserve" is inactive in QuickBooks.',
      '3800 · Other Reserves"Other Reserves" holds retained earnings; keep CTA in a separate equity account.',
    ]);
    expect(options.slice(2).every((o) => o.getAttribute("aria-disabled") === "true" || o.hasAttribute("data-combobox-disabled"))).toBe(true);
    // The asset account is not offered at all.
    expect(options.some((o) => o.textContent?.includes("Chase Operating"))).toBe(false);
    await userEvent.click(options[0]!);
    expect(await within(await panel("Northwind UK Ltd")).findByTestId("cta-account-reason")).toHaveTextContent(`Suggested: ${AOCI_REASON}`);
  });
});

describe("CTA & Historical: saving", { timeout: SLOW_UI }, () => {
  async function fillUk() {
    const ukPanel = await panel("Northwind UK Ltd");
    const picker = within(ukPanel).getByRole("textbox", { name: /CTA account in the parent/ });
    await userEvent.click(picker);
    await userEvent.click((await optionsOf(picker))[0]!);
    const shares = within(await ukTable()).getByRole("row", { name: /Ordinary Shares/ });
    await userEvent.type(within(shares).getByRole("textbox", { name: "Historical rate of Ordinary Shares" }), "1.2650");
    const ownership = within(ukPanel).getByRole("textbox", { name: "Northwind Holdings Inc.'s share" });
    await userEvent.clear(ownership);
    await userEvent.type(ownership, "80");
    await userEvent.click(within(ukPanel).getByRole("radio", { name: /Rate of the period whose profit is distributed/ }));
    return ukPanel;
  }

  it("sends the whole form and shows what the server answers", async () => {
    const saved = {
      ...UK_CTA,
      ctaAccountId: "36",
      ownershipPercent: "80",
      dividendRatePolicy: "profitPeriod",
      equity: UK_CTA.equity.map((e, i) => (i === 0 ? { ...e, historicalRate: "1.265" } : e)),
      missing: [],
    };
    const calls = signIn(CTA_SETTINGS, { [`PUT /cta/${UK}`]: saved });
    renderRoutes(routes, "/setup/cta");
    const ukPanel = await fillUk();
    expect(within(ukPanel).getByText("Non-controlling interests hold 20% of its net assets, profit and CTA.")).toBeInTheDocument();
    expect(within(ukPanel).getByTestId("unsaved")).toBeInTheDocument();
    await userEvent.click(within(ukPanel).getByRole("button", { name: "Save" }));
    expect(await within(ukPanel).findByRole("status")).toHaveTextContent("Saved. Northwind UK Ltd can be translated.");
    expect(puts(calls)).toHaveLength(1);
    expect(puts(calls)[0]).toMatchObject({
      path: `/cta/${UK}`,
      body: {
        ctaAccountId: "36",
        ownershipPercent: "80",
        dividendRatePolicy: "profitPeriod",
        historical: [
          { accountId: "60", historicalRate: "1.265", historicalAmount: null },
          { accountId: "61", historicalRate: "", historicalAmount: null },
        ],
      },
    });
    expect(within(ukPanel).queryByTestId("unsaved")).toBeNull();
    expect(within(ukPanel).getByRole("button", { name: "Save" })).toBeDisabled();
  });

  it("puts the server's field errors on their inputs and saves nothing", async () => {
    const calls = signIn(CTA_SETTINGS, {
      [`PUT /cta/${UK}`]: {
        status: 400,
        body: {
          error: {
            code: "invalid_cta_settings",
            message: "2 problems; nothing was saved.",
            details: {
              fields: [
                { path: "ctaAccountId", message: '"Accumulated Other Comprehensive Income" is inactive in QuickBooks.' },
                { path: "historical.0.historicalRate", message: "The rate was refused by the server." },
              ],
            },
          },
        },
      },
    });
    renderRoutes(routes, "/setup/cta");
    const ukPanel = await fillUk();
    await userEvent.click(within(ukPanel).getByRole("button", { name: "Save" }));
    expect(await within(ukPanel).findByRole("alert")).toHaveTextContent("Nothing was saved: 2 problems; nothing was saved.");
    expect(within(ukPanel).getByText('"Accumulated Other Comprehensive Income" is inactive in QuickBooks.')).toBeInTheDocument();
    const shares = within(await ukTable()).getByRole("row", { name: /Ordinary Shares/ });
    expect(within(shares).getByText("The rate was refused by the server.")).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(1);
    // The edits stay for the user to correct.
    expect(within(ukPanel).getByTestId("unsaved")).toBeInTheDocument();
  });

  it("refuses a bad rate or ownership before sending, with the same messages as the server", async () => {
    const calls = signIn();
    renderRoutes(routes, "/setup/cta");
    const ukPanel = await panel("Northwind UK Ltd");
    const shares = within(await ukTable()).getByRole("row", { name: /Ordinary Shares/ });
    await userEvent.type(within(shares).getByRole("textbox", { name: "Historical rate of Ordinary Shares" }), "1,27");
    const ownership = within(ukPanel).getByRole("textbox", { name: "Northwind Holdings Inc.'s share" });
    await userEvent.clear(ownership);
    await userEvent.type(ownership, "120");
    await userEvent.click(within(ukPanel).getByRole("button", { name: "Save" }));
    expect(within(shares).getByText(RATE_MESSAGE)).toBeInTheDocument();
    expect(within(ukPanel).getByText("Ownership must be more than 0 and at most 100.")).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);
    await userEvent.click(within(ukPanel).getByRole("button", { name: "Discard changes" }));
    expect(ownership).toHaveValue("100");
    expect(within(ukPanel).getByRole("button", { name: "Save" })).toBeDisabled();
  });
});

describe("CTA & Historical: the translation method", { timeout: SLOW_UI }, () => {
  it("shows each subsidiary's method, and under temporal its non-monetary accounts for historical rates like equity's", async () => {
    signIn({ ...CTA_SETTINGS, subsidiaries: [UK_TEMPORAL, CA_CTA] });
    renderRoutes(routes, "/setup/cta");
    const ukPanel = await panel("Northwind UK Ltd");
    expect(within(ukPanel).getByRole("textbox", { name: "Translation method" })).toHaveValue("Temporal (remeasurement)");
    expect(within(ukPanel).getByText(/non-monetary items \(inventory, fixed assets, prepayments\) at their historical rates; the difference goes to profit/)).toBeInTheDocument();
    const table = within(ukPanel).getByRole("table", { name: "Non-monetary items of Northwind UK Ltd" });
    const inventory = within(table).getByRole("row", { name: /Inventory/ });
    expect(within(inventory).getByRole("textbox", { name: "Historical rate of Inventory" })).toHaveValue("1.31");
    // £25,000.00 × 1.31 = $32,750.00, a debit.
    expect(within(inventory).getByTestId("translated")).toHaveTextContent("$32,750.00£25,000.00 × 1.31");
    const plant = within(table).getByRole("row", { name: /Plant and Machinery/ });
    expect(within(plant).getByTestId("translated")).toHaveTextContent("Needed");

    await userEvent.click(screen.getByRole("tab", { name: /Northwind Canada/ }));
    const caPanel = await panel("Northwind Canada Inc.");
    expect(within(caPanel).getByRole("textbox", { name: "Translation method" })).toHaveValue("Current rate");
    expect(within(caPanel).queryByRole("region", { name: "Non-monetary items at historical rates" })).toBeNull();
  });

  it("switches a subsidiary to temporal, then sends the non-monetary rates after the equity rows, with their errors placed on them", async () => {
    let answer: { status: number; body: unknown } = { status: 200, body: UK_TEMPORAL };
    const calls = signIn(CTA_SETTINGS, { [`PUT /cta/${UK}`]: () => answer });
    renderRoutes(routes, "/setup/cta");
    const ukPanel = await panel("Northwind UK Ltd");
    const method = within(ukPanel).getByRole("textbox", { name: "Translation method" });
    expect(method).toHaveValue("Current rate");
    expect(within(ukPanel).getByText("Assets and liabilities at the closing rate, income and expenses at the average rate; the difference is the CTA, kept in equity.")).toBeInTheDocument();
    await userEvent.click(method);
    const options = await optionsOf(method);
    expect(options.map((o) => o.textContent)).toEqual(["Current rate", "Temporal (remeasurement)"]);
    await userEvent.click(options[1]!);
    const section = await within(ukPanel).findByRole("region", { name: "Non-monetary items at historical rates" });
    expect(section).toHaveTextContent("Save the temporal method to list Northwind UK Ltd's non-monetary accounts");
    await userEvent.click(within(ukPanel).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]?.body).toMatchObject({ translationMethod: "temporal", historical: [{ accountId: "60" }, { accountId: "61" }] });

    // The server now lists the non-monetary accounts; the plant's rate goes at historical.3.
    const plant = within(await within(ukPanel).findByRole("table", { name: "Non-monetary items of Northwind UK Ltd" })).getByRole("row", { name: /Plant and Machinery/ });
    await userEvent.type(within(plant).getByRole("textbox", { name: "Historical rate of Plant and Machinery" }), "1.42");
    answer = {
      status: 400,
      body: { error: { code: "invalid_cta_settings", message: "The rate was refused.", details: { fields: [{ path: "historical.3.historicalRate", message: "No rate for that date." }] } } },
    };
    await userEvent.click(within(ukPanel).getByRole("button", { name: "Save" }));
    expect(await within(plant).findByText("No rate for that date.")).toBeInTheDocument();
    expect(puts(calls)[1]?.body).toMatchObject({
      translationMethod: "temporal",
      historical: [
        { accountId: "60" },
        { accountId: "61" },
        { accountId: "12", historicalRate: "1.31", historicalAmount: null },
        { accountId: "15", historicalRate: "1.42", historicalAmount: null },
      ],
    });
    expect(within(plant).getByRole("textbox", { name: "Historical rate of Plant and Machinery" })).toHaveValue("1.42");
  });
});

describe("CTA & Historical: creating the account in QuickBooks", { timeout: SLOW_UI }, () => {
  const CREATED: CompanyAccount = { ...PARENT_ACCOUNTS[4]!, Id: "120", acctNum: null, name: "Accumulated OCI – Translation", fullyQualifiedName: "Accumulated OCI – Translation", everHadBalance: false };

  it("asks first, creates it in the parent's QuickBooks and chooses it (unsaved until Save)", async () => {
    // As the server does: the created account is in the parent's chart from then on.
    let chart = PARENT_ACCOUNTS;
    const calls = signIn(CTA_SETTINGS, {
      "POST /cta/account": () => {
        chart = [...PARENT_ACCOUNTS, CREATED];
        return { status: 200, body: CREATED };
      },
      [`GET /companies/${P}/accounts`]: () => ({ status: 200, body: chart }),
    });
    renderRoutes(routes, "/setup/cta");
    const ukPanel = await panel("Northwind UK Ltd");
    await userEvent.click(within(ukPanel).getByRole("button", { name: "Create 'Accumulated OCI – Translation' in QuickBooks" }));
    const dialog = await screen.findByRole("dialog", { name: "Create the CTA account in QuickBooks?" });
    expect(dialog).toHaveTextContent("Northwind Holdings Inc.'s chart of accounts in QuickBooks Online");
    expect(calls.filter((c) => c.method === "POST" && c.path === "/cta/account")).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole("button", { name: "Create in QuickBooks" }));
    expect(await within(ukPanel).findByRole("status")).toHaveTextContent(
      "\"Accumulated OCI – Translation\" was created in Northwind Holdings Inc.'s QuickBooks and chosen here. Save to keep the choice.",
    );
    expect(calls.filter((c) => c.method === "POST" && c.path === "/cta/account")).toEqual([expect.objectContaining({ body: {} })]);
    await waitFor(() => expect(within(ukPanel).getByRole("textbox", { name: /CTA account in the parent/ })).toHaveValue("Accumulated OCI – Translation"));
    expect(within(ukPanel).getByTestId("unsaved")).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(0);
  });

  it("shows QuickBooks' refusal in the dialog, and offers no creation once the parent has the account", async () => {
    signIn(CTA_SETTINGS, {
      "POST /cta/account": {
        status: 409,
        body: { error: { code: "duplicate_account_name", message: 'Northwind Holdings Inc. already has an account named "Accumulated OCI – Translation" in QuickBooks. Choose it from the list, or give the new account another name.' } },
      },
    });
    renderRoutes(routes, "/setup/cta");
    const ukPanel = await panel("Northwind UK Ltd");
    await userEvent.click(within(ukPanel).getByRole("button", { name: /^Create 'Accumulated OCI/ }));
    const dialog = await screen.findByRole("dialog", { name: "Create the CTA account in QuickBooks?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Create in QuickBooks" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("already has an account named \"Accumulated OCI – Translation\"");
  });

  it("has no create action when the parent already has an account of that name", async () => {
    signIn(CTA_SETTINGS, { [`GET /companies/${P}/accounts`]: [...PARENT_ACCOUNTS, CREATED] });
    renderRoutes(routes, "/setup/cta");
    const ukPanel = await panel("Northwind UK Ltd");
    await within(ukPanel).findByRole("textbox", { name: /CTA account in the parent/ });
    expect(within(ukPanel).queryByRole("button", { name: /^Create 'Accumulated OCI/ })).toBeNull();
  });
});

describe("CTA & Historical: when there is nothing to translate", { timeout: SLOW_UI }, () => {
  it("explains that only subsidiaries in another currency are translated, naming the same-currency ones", async () => {
    signIn({ ...CTA_SETTINGS, ctaAccountSuggestions: [], subsidiaries: [] }, {}, [PARENT_CO, RETAIL_CO]);
    renderRoutes(routes, "/setup/cta");
    const empty = await screen.findByRole("region", { name: "No foreign currency in use" });
    expect(empty).toHaveTextContent("No subsidiary keeps its books in another currency");
    expect(empty).toHaveTextContent("differs from the parent's (USD)");
    expect(empty).toHaveTextContent("Northwind Retail LLC keeps USD books and is consolidated as it is, without translation.");
    expect(within(empty).getByRole("link", { name: "Connected Companies" })).toHaveAttribute("href", "/setup/companies");
  });

  it("asks for a parent first", async () => {
    signIn({ parentRealmId: null, parentCurrency: null, ctaAccountSuggestions: [], subsidiaries: [] }, {}, [UK_CO]);
    renderRoutes(routes, "/setup/cta");
    expect(await screen.findByText("A parent company is needed")).toBeInTheDocument();
  });
});
