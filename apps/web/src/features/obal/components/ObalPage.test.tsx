import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ObalState } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { ACCOUNT, OBAL, UK_CO } from "../../../test/fixtures.ts";
import { callsTo, refusal, renderRoutes } from "../../../test/render.tsx";
import type { ApiCall } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { REAUTHORIZE_MESSAGE } from "../../errors/errorBar.ts";
import { CA_CO, CA_TB, JP_CO, JP_TB, LOCKED, PARENT_APRIL, UK_BLOCKED_PROBLEMS, UK_TB } from "./obalFixtures.ts";
// Loaded up front so the route's lazy import resolves at once and the first test is not a race with it.
import "./ObalPage.tsx";

type Routes = Record<string, unknown>;
/** Each test clicks through several dialogs and dropdowns; on a loaded CI machine that outlasts the 5 s default. */
const SLOW_UI = 20_000;
const UK = UK_CO.realmId;
const CA = CA_CO.realmId;

/** A signed-in user with a parent (April fiscal year) and three subsidiaries: UK and Canada eligible, Japan not. */
function signIn(state: ObalState, over: Routes = {}, account: Partial<typeof ACCOUNT> = {}) {
  return signedIn(
    {
      "GET /companies": [PARENT_APRIL, UK_CO, CA_CO, JP_CO],
      "GET /companies/status": {},
      "GET /obal": state,
      [`GET /obal/${UK}/trialbalance`]: UK_TB,
      [`GET /obal/${CA}/trialbalance`]: CA_TB,
      [`GET /obal/${JP_CO.realmId}/trialbalance`]: JP_TB,
      [`GET /getJournalEntries/${UK}`]: { entriesFound: false, entries: [] },
      [`GET /getJournalEntries/${CA}`]: { entriesFound: false, entries: [] },
      "GET /getDontShowDuplicateJEModalFlag": { isDontShowDuplicateJEModalChecked: false },
      ...over,
    },
    { account },
  );
}

const panel = async (name: string) => screen.findByRole("region", { name });
const statusOf = async (name: string) => within(await panel(name)).findByTestId("obal-status");
const posts = (calls: ApiCall[], path: string) => callsTo(calls, "POST", path);
const clickPost = async (name: string) => userEvent.click(await within(await panel(name)).findByRole("button", { name: "Post to QuickBooks" }));

// Failures nobody explains (a 3200 among them) reach the error bar.
screenTestHooks();

describe("Opening Balance Sheet: locking the period", { timeout: SLOW_UI }, () => {
  it("offers fiscal months with the calendar month they mean and sends both (April fiscal year)", async () => {
    const calls = signIn(OBAL, { "POST /obal": LOCKED });
    renderRoutes(routes, "/setup/obal");
    const form = await screen.findByRole("region", { name: "Lock the opening period" });
    expect(within(form).getByRole("button", { name: "Lock period" })).toBeDisabled();
    // The naming rule the options below follow, said the same way (it once said "starts in").
    expect(form).toHaveTextContent("fiscal year starts in April; a fiscal year is named by the calendar year it ends in.");
    await userEvent.click(within(form).getByRole("textbox", { name: "Fiscal year" }));
    // FY 2026 is the fiscal year that ends in 2026: April 2025 to March 2026.
    await userEvent.click(await screen.findByRole("option", { name: "FY 2026", hidden: true }));
    await userEvent.click(within(form).getByRole("textbox", { name: "Fiscal month" }));
    expect(await screen.findByRole("option", { name: "Month 1: April 2025", hidden: true })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("option", { name: "Month 12: March 2026", hidden: true }));
    expect(within(form).getByTestId("lock-preview")).toHaveTextContent("Opening balances as of the end of March 2026 (fiscal month 12 of FY 2026)");

    await userEvent.click(within(form).getByRole("button", { name: "Lock period" }));
    await waitFor(() => expect(posts(calls, "/obal")).toHaveLength(1));
    expect(posts(calls, "/obal")[0]).toMatchObject({ body: { year: 2026, month: 12, naturalYear: 2026, naturalMonth: 3 } });
    // The answer replaces the state: the period shows as locked and the subsidiaries load.
    expect(await screen.findByTestId("locked-period")).toHaveTextContent("Opening balances as of March 2026");
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Unreviewed");
  });

  it("shows the server's refusal of a period", async () => {
    signIn(OBAL, {
      "POST /obal": refusal(409, "period_locked", "The opening period is already locked to 3/2026. Reset it before choosing another."),
    });
    renderRoutes(routes, "/setup/obal");
    const form = await screen.findByRole("region", { name: "Lock the opening period" });
    await userEvent.click(within(form).getByRole("textbox", { name: "Fiscal year" }));
    await userEvent.click(await screen.findByRole("option", { name: "FY 2026", hidden: true }));
    await userEvent.click(within(form).getByRole("textbox", { name: "Fiscal month" }));
    await userEvent.click(await screen.findByRole("option", { name: "Month 3: June 2025", hidden: true }));
    await userEvent.click(within(form).getByRole("button", { name: "Lock period" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent("already locked to 3/2026");
  });
});

describe("Opening Balance Sheet: subsidiaries and their trial balances", { timeout: SLOW_UI }, () => {
  it("lists each subsidiary with its status: not eligible with the reason, posted with its QuickBooks link", async () => {
    signIn(
      { ...LOCKED, reviewed: { [CA]: true }, confirmed: { [CA]: true }, posted: { [CA]: true }, trialBalanceJournalEntryUrl: "https://qbo.example/other" },
      { [`GET /getJournalEntries/${CA}`]: { entriesFound: true, entries: [{ id: "77", docNumber: "OB-2026-03", txnDate: "2026-03-31", url: "https://qbo.example/app/journal?txnId=77" }] } },
    );
    renderRoutes(routes, "/setup/obal");
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Unreviewed");
    expect(await statusOf("Northwind Japan KK")).toHaveTextContent("Not eligible");
    expect(within(await panel("Northwind Japan KK")).getByTestId("not-eligible-reason")).toHaveTextContent("books start in May 2026 (first transaction on 2026-05-01), after the opening month, March 2026");
    expect(within(await panel("Northwind Japan KK")).queryAllByRole("button", { name: /review|confirm|post/i })).toHaveLength(0);
    expect(await statusOf("Northwind Canada Ltd")).toHaveTextContent("Posted");
    const link = await within(await panel("Northwind Canada Ltd")).findByRole("link", { name: /Open in QuickBooks/ });
    expect(link).toHaveAttribute("href", "https://qbo.example/app/journal?txnId=77");
    expect(within(await panel("Northwind Canada Ltd")).getByTestId("posted-entry")).toHaveTextContent("Entry OB-2026-03 dated 2026-03-31");
    // Nothing to open for a subsidiary that is not eligible: its name is not a (dead) button.
    expect(within(await panel("Northwind Japan KK")).queryAllByRole("button")).toHaveLength(0);
    expect(within(await panel("Northwind Canada Ltd")).getByRole("button", { name: "Mark as deleted in QuickBooks" })).toBeInTheDocument();
  });

  it("shows the trial balance: local and translated, rate and basis, parent account, CTA highlighted with parts that add up, balanced totals", async () => {
    signIn(LOCKED);
    renderRoutes(routes, "/setup/obal");
    const uk = await panel("Northwind UK Ltd");
    // Canada (first by name) opens by itself; UK opens on request.
    expect(await within(await panel("Northwind Canada Ltd")).findByRole("table", { name: "Trial balance of Northwind Canada Ltd" })).toBeInTheDocument();
    expect(within(uk).queryByRole("table")).toBeNull();
    await userEvent.click(await within(uk).findByRole("button", { name: "Northwind UK Ltd", expanded: false }));
    const table = await within(uk).findByRole("table", { name: "Trial balance of Northwind UK Ltd" });
    const bank = within(table).getByRole("row", { name: /Bank/ });
    expect(bank).toHaveTextContent("10,000.00");
    expect(bank).toHaveTextContent("Closing rate");
    expect(bank).toHaveTextContent("1.25");
    expect(bank).toHaveTextContent("12,500.00");
    expect(bank).toHaveTextContent("Cash");
    const capital = within(table).getByRole("row", { name: /Share capital/ });
    expect(capital).toHaveTextContent("(5,000.00)");
    expect(capital).toHaveTextContent("(6,500.00)");
    expect(capital).toHaveTextContent("Historical");
    const cta = within(table).getByTestId("cta-line");
    expect(cta).toHaveTextContent("Cumulative translation adjustment");
    expect(cta).toHaveTextContent("300.00");
    expect(within(table).getByTestId("total-debits")).toHaveTextContent("12,000.0015,200.00");
    expect(within(table).getByTestId("total-credits")).toHaveTextContent("(12,000.00)(15,200.00)");
    expect(within(uk).getByTestId("balanced")).toHaveTextContent("Balanced");

    const explanation = within(uk).getByTestId("cta-explanation");
    expect(within(explanation).getByTestId("cta-part-openingNetAssets")).toHaveTextContent("Opening net assets × change in closing rate200.00");
    expect(within(explanation).getByTestId("cta-part-netIncome")).toHaveTextContent("Net income × (closing rate − average rate)120.00");
    expect(within(explanation).getByTestId("cta-part-rounding")).toHaveTextContent("(20.00)");
    expect(within(explanation).getByTestId("cta-change")).toHaveTextContent(/^300\.00$/);
    expect(within(explanation).getByTestId("cta-adds-up")).toHaveTextContent("The parts add up to the change of 300.00,");
  });

  it("says so loudly when the CTA parts do not add up", async () => {
    const view = UK_TB.view!;
    const bad = { ...UK_TB, view: { ...view, cta: { ...view.cta, explanation: { months: [], total: { ...(view.cta.explanation as { total: object }).total, rounding: 0 } } } } };
    signIn(LOCKED, { [`GET /obal/${UK}/trialbalance`]: bad });
    renderRoutes(routes, "/setup/obal");
    const uk = await panel("Northwind UK Ltd");
    await userEvent.click(await within(uk).findByRole("button", { name: "Northwind UK Ltd", expanded: false }));
    const explanation = await within(uk).findByTestId("cta-explanation");
    expect(within(explanation).getByRole("alert")).toHaveTextContent("The parts add up to 320.00, not the change of 300.00");
    expect(within(explanation).queryByTestId("cta-adds-up")).toBeNull();
  });

  it("lists problems plainly with links to the screens that fix them, and offers no Review", async () => {
    signIn(LOCKED, { [`GET /obal/${UK}/trialbalance`]: { ...UK_TB, ok: false, problems: UK_BLOCKED_PROBLEMS } });
    renderRoutes(routes, "/setup/obal");
    const uk = await panel("Northwind UK Ltd");
    const problems = await within(uk).findByTestId("problems");
    expect(problems).toHaveTextContent("No GBP closing rate for 2026-03.");
    expect(within(problems).getByRole("link", { name: "Enter the rates in FOREX Management" })).toHaveAttribute("href", "/consolidation/fx_rates");
    expect(within(problems).getByRole("link", { name: "Map the accounts in COA Mapping" })).toHaveAttribute("href", "/setup/coa");
    expect(within(uk).queryByRole("button", { name: "Mark as reviewed" })).toBeNull();
  });
});

describe("Opening Balance Sheet: transitions", { timeout: SLOW_UI }, () => {
  it("review → unreview/confirm → unconfirm/post: only allowed actions are offered, and the returned state replaces the local one", async () => {
    const reviewed = { ...LOCKED, reviewed: { [UK]: true } };
    const confirmed = { ...reviewed, confirmed: { [UK]: true } };
    const calls = signIn(LOCKED, { "POST /obal/review": reviewed, "POST /obal/confirm": confirmed, "POST /obal/unconfirm": reviewed });
    renderRoutes(routes, "/setup/obal");
    const uk = await panel("Northwind UK Ltd");
    const buttons = () => within(uk).getAllByRole("button").map((b) => b.textContent).filter((t) => t && !t.startsWith("Northwind"));
    await within(uk).findByRole("button", { name: "Mark as reviewed" });
    expect(buttons()).toEqual(["Mark as reviewed"]);

    await userEvent.click(within(uk).getByRole("button", { name: "Mark as reviewed" }));
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Reviewed");
    expect(posts(calls, "/obal/review")[0]).toMatchObject({ body: { realmId: UK } });
    expect(buttons()).toEqual(["Unreview", "Confirm"]);

    await userEvent.click(within(uk).getByRole("button", { name: "Confirm" }));
    await waitFor(async () => expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Confirmed"));
    expect(buttons()).toEqual(["Unconfirm", "Post to QuickBooks"]);

    await userEvent.click(within(uk).getByRole("button", { name: "Unconfirm" }));
    await waitFor(async () => expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Reviewed"));
  });

  it("shows the server's message when it refuses a transition, and keeps the status", async () => {
    signIn({ ...LOCKED, reviewed: { [UK]: true } }, {
      "POST /obal/confirm": refusal(409, "illegal_transition", "Northwind UK Ltd is already confirmed."),
    });
    renderRoutes(routes, "/setup/obal");
    const uk = await panel("Northwind UK Ltd");
    await userEvent.click(await within(uk).findByRole("button", { name: "Confirm" }));
    const alert = await within(uk).findByRole("alert");
    expect(alert).toHaveTextContent("It was not confirmed");
    expect(alert).toHaveTextContent("Northwind UK Ltd is already confirmed.");
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Reviewed");
  });
});

describe("Opening Balance Sheet: posting", { timeout: SLOW_UI }, () => {
  const confirmed = { ...LOCKED, reviewed: { [UK]: true }, confirmed: { [UK]: true } };
  const postedUk = { ...confirmed, posted: { [UK]: true }, trialBalanceJournalEntryUrl: "https://qbo.example/app/journal?txnId=91" };
  /** QuickBooks answers that it has an entry on the UK's opening date already (numbered `docNumber`). */
  const entryFound = (docNumber: string | null) => ({ entriesFound: true, entries: [{ id: "55", docNumber, txnDate: "2026-03-31", url: "https://qbo.example/55" }] });
  /** Posts the confirmed UK while QuickBooks has an unnumbered entry on its date, with the duplicate-warning preference's `answers`; returns the calls. */
  async function postOverFoundEntry(answers: Routes) {
    const calls = signIn(confirmed, { [`GET /getJournalEntries/${UK}`]: entryFound(null), [`POST /balances/post/${UK}`]: postedUk, ...answers });
    renderRoutes(routes, "/setup/obal");
    await clickPost("Northwind UK Ltd");
    return calls;
  }

  it("checks for an existing entry, posts, and links to the new entry", async () => {
    const calls = signIn(confirmed, { [`POST /balances/post/${UK}`]: postedUk });
    renderRoutes(routes, "/setup/obal");
    const uk = await panel("Northwind UK Ltd");
    await userEvent.click(await within(uk).findByRole("button", { name: "Post to QuickBooks" }));
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Posted");
    const check = calls.find((c) => c.path === `/getJournalEntries/${UK}`);
    expect(check).toBeDefined();
    expect(posts(calls, `/balances/post/${UK}`)).toHaveLength(1);
    expect(within(uk).getByRole("link", { name: /Open in QuickBooks/ })).toHaveAttribute("href", "https://qbo.example/app/journal?txnId=91");
  });

  it("asks for the month of the locked period on the calendar when checking for duplicates", async () => {
    let url = "";
    signIn(confirmed, {
      [`GET /getJournalEntries/${UK}`]: (init: { url: string }) => {
        url = init.url;
        return { status: 200, body: { entriesFound: false, entries: [] } };
      },
      [`POST /balances/post/${UK}`]: postedUk,
    });
    renderRoutes(routes, "/setup/obal");
    await clickPost("Northwind UK Ltd");
    await waitFor(() => expect(url).toContain("month=3&year=2026&flag=obal"));
  });

  it("blocked posting names the problems with links to fix them, and the status stays confirmed", async () => {
    signIn(confirmed, {
      [`POST /balances/post/${UK}`]: refusal(409, "posting_blocked", "Northwind UK Ltd cannot be posted: No GBP closing rate for 2026-03.", {
        problems: UK_BLOCKED_PROBLEMS,
      }),
    });
    renderRoutes(routes, "/setup/obal");
    const uk = await panel("Northwind UK Ltd");
    await userEvent.click(await within(uk).findByRole("button", { name: "Post to QuickBooks" }));
    const problems = await within(uk).findByTestId("problems");
    expect(problems).toHaveTextContent("Posting is blocked until these are fixed");
    expect(problems).toHaveTextContent("No GBP closing rate for 2026-03.");
    expect(problems).toHaveTextContent("account 72 Consulting income (balance 1,200.00 GBP) is not mapped");
    expect(within(problems).getByRole("link", { name: "Enter the rates in FOREX Management" })).toHaveAttribute("href", "/consolidation/fx_rates");
    expect(within(uk).getAllByRole("alert")[0]).toHaveTextContent("It was not posted");
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Confirmed");
  });

  it("a 3200 while posting shows the error bar's re-authorization message and changes nothing", async () => {
    signIn(confirmed, {
      [`POST /balances/post/${UK}`]: refusal(409, "qbo_reauthorization_required", "QuickBooks Online asked for the parent company to be re-authorized (errorCode 003200). Reconnect it on Connected Companies, then post again."),
    });
    renderRoutes(routes, "/setup/obal");
    const uk = await panel("Northwind UK Ltd");
    await userEvent.click(await within(uk).findByRole("button", { name: "Post to QuickBooks" }));
    expect(await screen.findByText(REAUTHORIZE_MESSAGE, { exact: false })).toBeInTheDocument();
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Confirmed");
    expect(within(uk).getByRole("button", { name: "Post to QuickBooks" })).toBeEnabled();
  });

  it("warns of an existing entry; Cancel posts nothing", async () => {
    const calls = signIn(confirmed, {
      [`GET /getJournalEntries/${UK}`]: entryFound("OB-2026-03-UK"),
    });
    renderRoutes(routes, "/setup/obal");
    await clickPost("Northwind UK Ltd");
    const dialog = await screen.findByRole("dialog", { name: "This entry may already be in QuickBooks" });
    expect(dialog).toHaveTextContent("Entry OB-2026-03-UK dated 2026-03-31");
    expect(within(dialog).getByRole("link", { name: /Open in QuickBooks/ })).toHaveAttribute("href", "https://qbo.example/55");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posts(calls, `/balances/post/${UK}`)).toHaveLength(0);
  });

  it("an entry found because another tab has just posted it: no warning, the subsidiary shows as posted, nothing is posted again", async () => {
    let stateReads = 0;
    const calls = signIn(confirmed, {
      // The screen loaded the state while UK was confirmed; by the time Post is clicked another tab has posted it.
      "GET /obal": () => ({ status: 200, body: stateReads++ === 0 ? confirmed : postedUk }),
      [`GET /getJournalEntries/${UK}`]: entryFound("OB-2026-03-UK"),
    });
    renderRoutes(routes, "/setup/obal");
    await clickPost("Northwind UK Ltd");
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Posted");
    expect(await screen.findByRole("status")).toHaveTextContent("Northwind UK Ltd's opening balance was already posted, from another tab or by a colleague");
    expect(screen.queryByRole("dialog", { name: "This entry may already be in QuickBooks" })).toBeNull();
    expect(posts(calls, `/balances/post/${UK}`)).toHaveLength(0);
  });

  it("'Don't show this again' is stored, and Post anyway posts", async () => {
    const calls = await postOverFoundEntry({ "POST /setDontShowDuplicateJEModalFlag": { isDontShowDuplicateJEModalChecked: true } });
    const dialog = await screen.findByRole("dialog", { name: "This entry may already be in QuickBooks" });
    await userEvent.click(within(dialog).getByRole("checkbox", { name: "Don't show this again" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Post anyway" }));
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Posted");
    expect(posts(calls, "/setDontShowDuplicateJEModalFlag")[0]).toMatchObject({ body: { JE: "obal", checked: true } });
    expect(posts(calls, `/balances/post/${UK}`)).toHaveLength(1);
  });

  it("with the preference set, an existing entry does not stop the post", async () => {
    const calls = await postOverFoundEntry({ "GET /getDontShowDuplicateJEModalFlag": { isDontShowDuplicateJEModalChecked: true } });
    expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Posted");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(posts(calls, `/balances/post/${UK}`)).toHaveLength(1);
    expect(posts(calls, "/setDontShowDuplicateJEModalFlag")).toHaveLength(0);
  });

  it("'Mark as deleted in QuickBooks' sends the realm and shows the new state", async () => {
    const calls = signIn(postedUk, { "POST /postIsDeletedFlag": confirmed });
    renderRoutes(routes, "/setup/obal");
    const uk = await panel("Northwind UK Ltd");
    await userEvent.click(await within(uk).findByRole("button", { name: "Mark as deleted in QuickBooks" }));
    await waitFor(async () => expect(await statusOf("Northwind UK Ltd")).toHaveTextContent("Confirmed"));
    expect(posts(calls, "/postIsDeletedFlag")[0]).toMatchObject({ body: { realmId: UK } });
  });
});

describe("Opening Balance Sheet: reset", { timeout: SLOW_UI }, () => {
  it("asks first, warns that posted entries stay in QuickBooks, then resets", async () => {
    const calls = signIn({ ...LOCKED, reviewed: { [UK]: true }, confirmed: { [UK]: true }, posted: { [UK]: true } }, { "POST /obal/reset": OBAL });
    renderRoutes(routes, "/setup/obal");
    await userEvent.click(await screen.findByRole("button", { name: "Reset…" }));
    const dialog = await screen.findByRole("dialog", { name: "Reset the opening balances?" });
    expect(within(dialog).getByTestId("reset-posted-warning")).toHaveTextContent(
      "Opening entries were already posted for Northwind UK Ltd. Resetting here does not delete them from the parent's QuickBooks",
    );
    expect(posts(calls, "/obal/reset")).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole("button", { name: "Reset opening balances" }));
    expect(await screen.findByRole("region", { name: "Lock the opening period" })).toBeInTheDocument();
    expect(posts(calls, "/obal/reset")).toHaveLength(1);
  });

  it("without posted entries there is no QuickBooks warning, and Cancel keeps everything", async () => {
    const calls = signIn({ ...LOCKED, reviewed: { [UK]: true } });
    renderRoutes(routes, "/setup/obal");
    await userEvent.click(await screen.findByRole("button", { name: "Reset…" }));
    const dialog = await screen.findByRole("dialog", { name: "Reset the opening balances?" });
    expect(within(dialog).queryByTestId("reset-posted-warning")).toBeNull();
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(posts(calls, "/obal/reset")).toHaveLength(0);
    expect(screen.getByTestId("locked-period")).toBeInTheDocument();
  });
});

describe("Opening Balance Sheet: onboarding step 3", { timeout: SLOW_UI }, () => {
  const confirmedBoth = { ...LOCKED, reviewed: { [UK]: true, [CA]: true }, confirmed: { [UK]: true, [CA]: true } };
  const postedUk = { ...confirmedBoth, posted: { [UK]: true } };
  const postedBoth = { ...confirmedBoth, posted: { [UK]: true, [CA]: true } };
  const patches = (calls: { method: string; path: string; body: unknown }[]) => calls.filter((c) => c.method === "PATCH" && c.path === "/account").map((c) => c.body);

  it("the first posted trial balance sets 3.1 with the milestone modal; the last eligible one sets 3.2; Finish Onboarding disables onboarding", async () => {
    let account = { ...ACCOUNT, onboarding: true, onboardingStep: 3 };
    const calls = signIn(
      confirmedBoth,
      {
        [`POST /balances/post/${UK}`]: postedUk,
        [`POST /balances/post/${CA}`]: postedBoth,
        "GET /account": () => ({ status: 200, body: account }),
        "PATCH /account": (init: { body?: BodyInit | null }) => {
          account = { ...account, ...(JSON.parse(String(init.body)) as object) };
          return { status: 200, body: account };
        },
      },
    );
    renderRoutes(routes, "/setup/obal");
    await clickPost("Northwind UK Ltd");
    const modal = await screen.findByRole("dialog", { name: "You've posted translated trial balances for your first company!" });
    expect(patches(calls)).toEqual([{ onboardingStep: 3.1 }]);
    await userEvent.click(within(modal).getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    await clickPost("Northwind Canada Ltd");
    await waitFor(() => expect(patches(calls)).toEqual([{ onboardingStep: 3.1 }, { onboardingStep: 3.2 }]));
    // The modal is for the first company only.
    expect(screen.queryByRole("dialog")).toBeNull();
    const next = await screen.findByRole("region", { name: "Next step" });
    expect(next).toHaveTextContent("Every eligible subsidiary is posted");
    await userEvent.click(within(next).getByRole("button", { name: "Finish Onboarding" }));
    await waitFor(() => expect(patches(calls).at(-1)).toEqual({ onboarding: false }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Next step" })).toBeNull());
    expect(await screen.findByText("Onboarding is finished: the consolidation screens are now open in the menu.")).toBeInTheDocument();
  });

  it("does not move the guide when onboarding is off", async () => {
    const calls = signIn(postedBoth);
    renderRoutes(routes, "/setup/obal");
    expect(await statusOf("Northwind Canada Ltd")).toHaveTextContent("Posted");
    await new Promise((r) => setTimeout(r, 50));
    expect(patches(calls)).toEqual([]);
    expect(screen.queryByRole("region", { name: "Next step" })).toBeNull();
  });
});
