import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CompanyAccount, CtaSettings } from "@groupledger/contract";
import { RATE_MESSAGE } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, shellApi, syncedStatus, syncedStatuses, UK_CO } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import { optionsOf } from "../../../test/select.ts";
import type { ApiCall } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { saveToken } from "../../session/tokenStore.ts";
import { AOCI_REASON, CA_CO, CA_CTA, CTA_SETTINGS, GROUP_CTA_MISSING, NO_GROUP_CTA, PARENT_ACCOUNTS, RETAIL_CO, UK_CTA, UK_TEMPORAL } from "./ctaFixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./CtaPage.tsx";

/** Pickers, dialogs and typing: more than the 5 s default on a loaded CI machine. */
const SLOW_UI = 20_000;
const P = PARENT_CO.realmId;
const UK = UK_CO.realmId;
type Calls = ApiCall[];

function signIn(settings: CtaSettings = CTA_SETTINGS, over: Record<string, unknown> = {}, companies = [PARENT_CO, UK_CO, CA_CO]) {
  return signedIn({
    "GET /companies": companies,
    "GET /companies/status": syncedStatuses(companies),
    "GET /cta": settings,
    [`GET /companies/${P}/accounts`]: PARENT_ACCOUNTS,
    ...over,
  });
}

const panel = (name: string) => screen.findByRole("region", { name: `${name} CTA settings` });
const groupSection = () => screen.findByRole("region", { name: "CTA account of the group" });
const groupPicker = async () => within(await groupSection()).getByRole("textbox", { name: /CTA account in the parent/ });
const puts = (calls: Calls) => calls.filter((c) => c.method === "PUT");
const ukTable = async () => within(await panel("Northwind UK Ltd")).findByRole("table", { name: "Contributed equity of Northwind UK Ltd" });

screenTestHooks();

describe("CTA & Historical: the foreign subsidiaries", { timeout: SLOW_UI }, () => {
  it("shows a tab per foreign subsidiary with its currencies and what is left to do, and the server's checklist", async () => {
    signIn();
    renderRoutes(routes, "/setup/cta");
    const tabs = await screen.findByRole("tablist", { name: "Foreign subsidiaries" });
    const [uk, ca] = within(tabs).getAllByRole("tab");
    expect(uk).toHaveTextContent("Northwind UK Ltd");
    expect(uk).toHaveTextContent("GBP → USD");
    expect(within(uk!).getByLabelText("1 to do")).toBeInTheDocument();
    expect(ca).toHaveTextContent("CAD → USD");
    expect(within(ca!).getByLabelText("Ready")).toBeInTheDocument();

    const checklist = within(await panel("Northwind UK Ltd")).getByRole("region", { name: "What blocks translation" });
    expect(within(checklist).getAllByRole("listitem").map((li) => li.textContent)).toEqual(UK_CTA.missing);
    // The CTA account is the group's: shown in the subsidiary's panel, not asked again there.
    const ukPanel = await panel("Northwind UK Ltd");
    expect(within(ukPanel).getByTestId("group-cta-account")).toHaveTextContent(
      "Northwind UK Ltd's CTA goes to 3600 · Accumulated Other Comprehensive Income in Northwind Holdings Inc., the group's CTA account.",
    );
    expect(within(ukPanel).queryByRole("textbox", { name: /CTA account/ })).toBeNull();

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
    const picker = await groupPicker();
    expect(picker).toHaveValue("3600 · Accumulated Other Comprehensive Income");
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
    await userEvent.keyboard("{Escape}");
    expect(within(await groupSection()).getByTestId("cta-account-reason")).toHaveTextContent(`Suggested: ${AOCI_REASON}`);
  });
});

describe("CTA & Historical: the group's one CTA account", { timeout: SLOW_UI }, () => {
  it("is chosen once, above the subsidiaries, and saved at once for every one of them", async () => {
    let settings = NO_GROUP_CTA;
    const calls = signIn(NO_GROUP_CTA, {
      "GET /cta": () => ({ status: 200, body: settings }),
      "PUT /cta/account": () => {
        settings = CTA_SETTINGS;
        return { status: 200, body: CTA_SETTINGS };
      },
    });
    renderRoutes(routes, "/setup/cta");
    const section = await groupSection();
    expect(section).toHaveTextContent(
      "The group keeps one CTA account, chosen here once: it receives the cumulative translation adjustment of every foreign subsidiary (Northwind UK Ltd, Northwind Canada Inc.), and of any foreign subsidiary connected later.",
    );
    // Each subsidiary waits for it, and says where it is chosen instead of asking again.
    const tabs = screen.getAllByRole("tab");
    expect(within(tabs[0]!).getByLabelText("2 to do")).toBeInTheDocument();
    expect(within(tabs[1]!).getByLabelText("1 to do")).toBeInTheDocument();
    const ukPanel = await panel("Northwind UK Ltd");
    expect(within(ukPanel).getByTestId("cta-missing")).toHaveTextContent(GROUP_CTA_MISSING);
    expect(within(ukPanel).getByTestId("group-cta-account")).toHaveTextContent("Not chosen yet: choose the group's CTA account under \"CTA account of the group\" at the top of this page.");
    expect(within(ukPanel).queryByRole("textbox", { name: /CTA account/ })).toBeNull();

    const picker = await groupPicker();
    expect(picker).toHaveValue("");
    await userEvent.click(picker);
    await userEvent.click((await optionsOf(picker))[0]!);
    expect(await within(section).findByRole("status")).toHaveTextContent(
      'Saved. The CTA of every foreign subsidiary (Northwind UK Ltd, Northwind Canada Inc.) goes to "3600 · Accumulated Other Comprehensive Income".',
    );
    expect(calls.filter((c) => c.method === "PUT")).toEqual([expect.objectContaining({ path: "/cta/account", body: { ctaAccountId: "36" } })]);
    expect(picker).toHaveValue("3600 · Accumulated Other Comprehensive Income");
    expect(within(ukPanel).getByTestId("group-cta-account")).toHaveTextContent("Northwind UK Ltd's CTA goes to 3600 · Accumulated Other Comprehensive Income");
    await userEvent.click(screen.getByRole("tab", { name: /Northwind Canada/ }));
    expect(within(await panel("Northwind Canada Inc.")).getByTestId("group-cta-account")).toHaveTextContent(
      "Northwind Canada Inc.'s CTA goes to 3600 · Accumulated Other Comprehensive Income",
    );
    expect(within(screen.getByRole("tab", { name: /Northwind Canada/ })).getByLabelText("Ready")).toBeInTheDocument();
  });

  it("shows the server's refusal on the picker and keeps the group's account as it was", async () => {
    signIn(NO_GROUP_CTA, {
      "PUT /cta/account": refusal(400, "invalid_cta_account", '"General Reserve" is inactive in QuickBooks.', {
        fields: [{ path: "ctaAccountId", message: '"General Reserve" is inactive in QuickBooks.' }],
      }),
    });
    renderRoutes(routes, "/setup/cta");
    const picker = await groupPicker();
    await userEvent.click(picker);
    await userEvent.click((await optionsOf(picker))[1]!);
    expect(await within(await groupSection()).findByText('"General Reserve" is inactive in QuickBooks.')).toBeInTheDocument();
    expect(picker).toHaveValue("");
    expect(within(await groupSection()).queryByRole("status")).toBeNull();
  });
});

describe("CTA & Historical: saving", { timeout: SLOW_UI }, () => {
  /** Types the UK's Ordinary Shares rate and the parent's share of it as given. */
  async function typeUk(rate: string, share: string) {
    const ukPanel = await panel("Northwind UK Ltd");
    const shares = within(await ukTable()).getByRole("row", { name: /Ordinary Shares/ });
    await userEvent.type(within(shares).getByRole("textbox", { name: "Historical rate of Ordinary Shares" }), rate);
    const ownership = within(ukPanel).getByRole("textbox", { name: "Northwind Holdings Inc.'s share" });
    await userEvent.clear(ownership);
    await userEvent.type(ownership, share);
    return { ukPanel, shares, ownership };
  }

  async function fillUk() {
    const { ukPanel } = await typeUk("1.2650", "80");
    await userEvent.click(within(ukPanel).getByRole("radio", { name: /Rate of the period whose profit is distributed/ }));
    return ukPanel;
  }

  it("sends the whole form and shows what the server answers", async () => {
    const saved = {
      ...UK_CTA,
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
    // The CTA account is the group's: a subsidiary's save never sends it.
    expect(puts(calls)[0]!.body).not.toHaveProperty("ctaAccountId");
    expect(puts(calls)[0]).toMatchObject({
      path: `/cta/${UK}`,
      body: {
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
      [`PUT /cta/${UK}`]: refusal(400, "invalid_cta_settings", "2 problems; nothing was saved.", {
        fields: [
          { path: "ownershipPercent", message: "The ownership was refused by the server." },
          { path: "historical.0.historicalRate", message: "The rate was refused by the server." },
        ],
      }),
    });
    renderRoutes(routes, "/setup/cta");
    const ukPanel = await fillUk();
    await userEvent.click(within(ukPanel).getByRole("button", { name: "Save" }));
    expect(await within(ukPanel).findByRole("alert")).toHaveTextContent("Nothing was saved: 2 problems; nothing was saved.");
    expect(within(ukPanel).getByText("The ownership was refused by the server.")).toBeInTheDocument();
    const shares = within(await ukTable()).getByRole("row", { name: /Ordinary Shares/ });
    expect(within(shares).getByText("The rate was refused by the server.")).toBeInTheDocument();
    expect(puts(calls)).toHaveLength(1);
    // The edits stay for the user to correct.
    expect(within(ukPanel).getByTestId("unsaved")).toBeInTheDocument();
  });

  it("refuses a bad rate or ownership before sending, with the same messages as the server", async () => {
    const calls = signIn();
    renderRoutes(routes, "/setup/cta");
    const { ukPanel, shares, ownership } = await typeUk("1,27", "120");
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
    answer = refusal(400, "invalid_cta_settings", "The rate was refused.", { fields: [{ path: "historical.3.historicalRate", message: "No rate for that date." }] });
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

  it("asks first, creates it in the parent's QuickBooks and makes it the group's CTA account", async () => {
    // As the server does: the created account is in the parent's chart, and the group's CTA account, from then on.
    let chart = PARENT_ACCOUNTS;
    let settings = NO_GROUP_CTA;
    const calls = signIn(NO_GROUP_CTA, {
      "POST /cta/account": () => {
        chart = [...PARENT_ACCOUNTS, CREATED];
        settings = { ...CTA_SETTINGS, ctaAccountId: CREATED.Id, subsidiaries: CTA_SETTINGS.subsidiaries.map((sub) => ({ ...sub, ctaAccountId: CREATED.Id })) };
        return { status: 200, body: CREATED };
      },
      [`GET /companies/${P}/accounts`]: () => ({ status: 200, body: chart }),
      "GET /cta": () => ({ status: 200, body: settings }),
    });
    renderRoutes(routes, "/setup/cta");
    const section = await groupSection();
    await userEvent.click(within(section).getByRole("button", { name: "Create 'Accumulated OCI – Translation' in QuickBooks" }));
    const dialog = await screen.findByRole("dialog", { name: "Create the CTA account in QuickBooks?" });
    expect(dialog).toHaveTextContent("Northwind Holdings Inc.'s chart of accounts in QuickBooks Online and makes it the group's CTA account");
    expect(calls.filter((c) => c.method === "POST" && c.path === "/cta/account")).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole("button", { name: "Create in QuickBooks" }));
    expect(await within(section).findByRole("status")).toHaveTextContent(
      "\"Accumulated OCI – Translation\" was created in Northwind Holdings Inc.'s QuickBooks and is now the group's CTA account: the CTA of every foreign subsidiary (Northwind UK Ltd, Northwind Canada Inc.) goes to it.",
    );
    expect(calls.filter((c) => c.method === "POST" && c.path === "/cta/account")).toEqual([expect.objectContaining({ body: {} })]);
    await waitFor(() => expect(within(section).getByRole("textbox", { name: /CTA account in the parent/ })).toHaveValue("Accumulated OCI – Translation"));
    expect(within(await panel("Northwind UK Ltd")).getByTestId("group-cta-account")).toHaveTextContent("Northwind UK Ltd's CTA goes to Accumulated OCI – Translation");
    // Nothing left to save: the server made it the group's.
    expect(puts(calls)).toHaveLength(0);
  });

  it("shows QuickBooks' refusal in the dialog, and offers no creation once the parent has the account", async () => {
    signIn(CTA_SETTINGS, {
      "POST /cta/account": refusal(409, "duplicate_account_name", 'Northwind Holdings Inc. already has an account named "Accumulated OCI – Translation" in QuickBooks. Choose it from the list, or give the new account another name.'),
    });
    renderRoutes(routes, "/setup/cta");
    await userEvent.click(within(await groupSection()).getByRole("button", { name: /^Create 'Accumulated OCI/ }));
    const dialog = await screen.findByRole("dialog", { name: "Create the CTA account in QuickBooks?" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Create in QuickBooks" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("already has an account named \"Accumulated OCI – Translation\"");
  });

  it("lets a member choose the group's account, but creating one in QuickBooks is an admin's, said on the button", async () => {
    saveToken(fakeToken(inOneHour()));
    mockApi({
      ...shellApi({ user: { permissionLevel: 0 } }),
      "GET /companies": [PARENT_CO, UK_CO, CA_CO],
      "GET /companies/status": Object.fromEntries([PARENT_CO, UK_CO, CA_CO].map((c) => [c.realmId, syncedStatus()])),
      "GET /cta": NO_GROUP_CTA,
      [`GET /companies/${P}/accounts`]: PARENT_ACCOUNTS,
    });
    renderRoutes(routes, "/setup/cta");
    const section = await groupSection();
    const create = await within(section).findByRole("button", { name: /^Create 'Accumulated OCI/ });
    await waitFor(() => expect(create).toBeDisabled());
    expect(create.closest("[data-admin-only]")).toHaveAttribute("aria-label", "Only an admin can create an account in the parent's QuickBooks. Ask an admin of your account, or to be made an admin in Account Settings.");
    expect(await groupPicker()).toBeEnabled();
  });

  it("has no create action when the parent already has an account of that name", async () => {
    signIn(CTA_SETTINGS, { [`GET /companies/${P}/accounts`]: [...PARENT_ACCOUNTS, CREATED] });
    renderRoutes(routes, "/setup/cta");
    const section = await groupSection();
    await within(section).findByRole("textbox", { name: /CTA account in the parent/ });
    expect(within(section).queryByRole("button", { name: /^Create 'Accumulated OCI/ })).toBeNull();
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
    signIn({ parentRealmId: null, parentCurrency: null, ctaAccountId: null, ctaAccountSuggestions: [], subsidiaries: [] }, {}, [UK_CO]);
    renderRoutes(routes, "/setup/cta");
    expect(await screen.findByText("A parent company is needed")).toBeInTheDocument();
  });
});
