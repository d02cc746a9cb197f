import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { shellApi } from "../../../test/fixtures.ts";
import { callsTo, queryOf, recordingQueries, refusal, renderRoutes } from "../../../test/render.tsx";
import { optionTextsOf } from "../../../test/select.ts";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { ELIMINATION_PAGE_API, elimPosting, FEES_PAIR, JAN_VIEW, LOAN_PAIR, PARENT, PARENT_NAMES, Q1_VIEW, UK, WITHIN_VIEW } from "./eliminationsFixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./EliminationsPage.tsx";


/** The view for whatever period is asked (kind and month from the query), so the test sees what the screen asked for. */
const viewFor = (init: { url: string }) => {
  const q = queryOf(init);
  return { status: 200, body: q.get("kind") === "quarter" ? Q1_VIEW : JAN_VIEW };
};

function signIn(over: Record<string, unknown> = {}) {
  return signedIn({
    ...ELIMINATION_PAGE_API,
    "GET /eliminations/pairs": { pairs: [LOAN_PAIR, FEES_PAIR] },
    "GET /eliminations": viewFor,
    "GET /eliminations/names": (init: { url: string }) => {
      const realmId = queryOf(init).get("realmId");
      return { status: 200, body: realmId === PARENT ? PARENT_NAMES : { realmId, syncedAt: null, names: [] } };
    },
    ...over,
  });
}

/** Picks an option of a Select inside `scope`. */
async function pick(scope: HTMLElement, field: string, option: string) {
  const input = within(scope).getByRole("textbox", { name: field });
  await waitFor(() => expect(input).toBeEnabled());
  await userEvent.click(input);
  await userEvent.click(await screen.findByRole("option", { name: option, hidden: true }));
  await waitFor(() => expect(input).toHaveValue(option));
}

async function chooseQuarter() {
  const period = await screen.findByRole("region", { name: "Period" });
  await userEvent.click(within(period).getByText("Quarter"));
  await waitFor(() => expect(within(period).getByRole("textbox", { name: "Fiscal quarter" })).toHaveValue("FY2026 Q1 · Jan 2026 – Mar 2026"));
  return screen.findByRole("region", { name: "Eliminations of the period" });
}

screenTestHooks({ today: "2026-11-21T12:00:00Z" });

describe("Interco Eliminations: pairs", () => {
  it("lists each pair with both sides, its kind and where its difference goes", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/elimination");
    const table = await screen.findByRole("table", { name: "Intercompany pairs" });
    const loan = within(table).getByRole("row", { name: /UK loan/ });
    expect(loan).toHaveTextContent("Receivable / payable");
    expect(loan).toHaveTextContent("Receivable · Northwind Holdings Inc. (USD)1600 Intercompany Loan - Northwind UK");
    expect(loan).toHaveTextContent("Payable · Northwind UK Ltd (GBP)2410 Loan from Northwind Holdings");
    expect(loan).toHaveTextContent("FX difference (profit or loss)");
    expect(within(table).getByRole("row", { name: /UK management fees/ })).toHaveTextContent("Revenue / expense");
  });

  it("with no pair says what to add, and shows no period to post", async () => {
    signIn({ "GET /eliminations/pairs": { pairs: [] } });
    renderRoutes(routes, "/consolidation/elimination");
    expect(await screen.findByTestId("no-pairs")).toHaveTextContent("No pairs yet.");
    expect(screen.queryByRole("region", { name: "Period" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Post to QuickBooks" })).toBeNull();
  });

  it("adds a pair: the account pickers offer only what the kind takes, and the request is the server's shape", async () => {
    const all = signIn({ "POST /eliminations/pairs": LOAN_PAIR });
    renderRoutes(routes, "/consolidation/elimination");
    await userEvent.click(await screen.findByRole("button", { name: "Add pair" }));
    const form = await screen.findByRole("form", { name: "Add an intercompany pair" });
    expect(form).toHaveTextContent("A balance one company holds against another");

    // Add with nothing filled in: the contract's own messages on the fields.
    await userEvent.click(within(form).getByRole("button", { name: "Add pair" }));
    expect(await within(form).findByText("Name the pair, e.g. “UK loan from parent”.")).toBeInTheDocument();
    expect(callsTo(all, "POST", "/eliminations/pairs")).toHaveLength(0);

    await userEvent.type(within(form).getByRole("textbox", { name: "Name" }), "UK loan");
    // The parent's receivable side: assets and liabilities only, nothing from the P&L.
    const receivable = within(form).getByRole("textbox", { name: "Receivable account" });
    await waitFor(() => expect(receivable).toBeEnabled());
    await userEvent.click(receivable);
    expect(await optionTextsOf(receivable)).toEqual(["1600 · Intercompany Loan - Northwind UK", "2700 · Term Loan - Chase"]);
    await userEvent.keyboard("{Escape}");
    await pick(form, "Receivable account", "1600 · Intercompany Loan - Northwind UK");
    // The UK's payable side: only liabilities once the other side is an asset.
    const payable = within(form).getByRole("textbox", { name: "Payable account" });
    await waitFor(() => expect(payable).toBeEnabled());
    await userEvent.click(payable);
    expect(await optionTextsOf(payable)).toEqual(["2410 · Loan from Northwind Holdings"]);
    await userEvent.keyboard("{Escape}");
    await pick(form, "Payable account", "2410 · Loan from Northwind Holdings");
    await userEvent.click(within(form).getByRole("radio", { name: "CTA (equity)" }));
    await userEvent.click(within(form).getByRole("button", { name: "Add pair" }));

    await waitFor(() => expect(screen.queryByRole("form", { name: "Add an intercompany pair" })).toBeNull());
    expect(callsTo(all, "POST", "/eliminations/pairs")[0]?.body).toEqual({
      name: "UK loan",
      kind: "receivablePayable",
      left: { realmId: PARENT, accountId: "22", name: null },
      right: { realmId: UK, accountId: "30", name: null },
      differenceTo: "cta",
    });
    // The list is read again with the new pair.
    await waitFor(() => expect(callsTo(all, "GET", "/eliminations/pairs").length).toBeGreaterThan(1));
  });

  it("limits a side to the customer that stands for the other company, offered first", async () => {
    const all = signIn({ "POST /eliminations/pairs": FEES_PAIR });
    renderRoutes(routes, "/consolidation/elimination");
    await userEvent.click(await screen.findByRole("button", { name: "Add pair" }));
    const form = await screen.findByRole("form", { name: "Add an intercompany pair" });
    await userEvent.type(within(form).getByRole("textbox", { name: "Name" }), "UK management fees");
    await userEvent.click(within(form).getByText("Revenue / expense", { exact: true }));
    await pick(form, "Revenue account", "4500 · Management Fee Income - Intercompany");
    await pick(form, "Expense account", "7603 · Management Charges - Group");
    expect(within(form).getByRole("textbox", { name: "Revenue customer or vendor" })).toHaveAttribute("placeholder", "The whole account");
    expect(form).toHaveTextContent("take only those booked against the customer or vendor that stands for Northwind UK Ltd");
    const revenueName = within(form).getByRole("textbox", { name: "Revenue customer or vendor" });
    await waitFor(() => expect(revenueName).toBeEnabled());
    await userEvent.click(revenueName);
    // The one standing for the payable side's company first; inactive names are not offered.
    expect(await optionTextsOf(revenueName)).toEqual(["Northwind UK Ltd (customer)", "Northwind Canada Inc. (customer)", "Trade customers (customer)", "Trade suppliers (vendor)"]);
    await userEvent.keyboard("{Escape}");
    await pick(form, "Revenue customer or vendor", "Northwind UK Ltd (customer)");
    // The UK has no names synced yet: the side stays the whole account.
    const expenseName = within(form).getByRole("textbox", { name: "Expense customer or vendor" });
    await waitFor(() => expect(expenseName).toBeEnabled());
    await userEvent.click(expenseName);
    expect(await screen.findByText("No customers or vendors synced for this company yet")).toBeInTheDocument();
    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(form).getByRole("button", { name: "Add pair" }));
    await waitFor(() => expect(screen.queryByRole("form", { name: "Add an intercompany pair" })).toBeNull());
    expect(callsTo(all, "POST", "/eliminations/pairs")[0]?.body).toEqual({
      name: "UK management fees",
      kind: "revenueExpense",
      left: { realmId: PARENT, accountId: "56", name: { kind: "Customer", id: "2" } },
      right: { realmId: UK, accountId: "63", name: null },
      differenceTo: "fx",
    });
  });

  it("shows which customer or vendor a side is limited to", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/elimination");
    const pairs = await screen.findByRole("region", { name: "Intercompany pairs" });
    await waitFor(() => expect(pairs).toHaveTextContent("4500 Management Fee Income - Intercompany"));
    expect(pairs).toHaveTextContent("only with Northwind UK Ltd (customer)");
  });

  it("puts the server's refusal in the form", async () => {
    signIn({ "POST /eliminations/pairs": refusal(409, "pair_exists", "These two accounts are already paired.") });
    renderRoutes(routes, "/consolidation/elimination");
    await userEvent.click(await screen.findByRole("button", { name: "Add pair" }));
    const form = await screen.findByRole("form", { name: "Add an intercompany pair" });
    await userEvent.type(within(form).getByRole("textbox", { name: "Name" }), "Again");
    await pick(form, "Receivable account", "1600 · Intercompany Loan - Northwind UK");
    await pick(form, "Payable account", "2410 · Loan from Northwind Holdings");
    await userEvent.click(within(form).getByRole("button", { name: "Add pair" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent("These two accounts are already paired.");
  });

  it("removes a pair only after confirming", async () => {
    const all = signIn({ [`DELETE /eliminations/pairs/${LOAN_PAIR.id}`]: { deleted: true } });
    renderRoutes(routes, "/consolidation/elimination");
    await userEvent.click(await screen.findByRole("button", { name: "Remove UK loan" }));
    const dialog = await screen.findByRole("dialog", { name: "Remove this pair?" });
    expect(dialog).toHaveTextContent("Elimination entries already posted for it stay in QuickBooks");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(callsTo(all, "DELETE", `/eliminations/pairs/${LOAN_PAIR.id}`)).toHaveLength(0);
    await userEvent.click(screen.getByRole("button", { name: "Remove UK loan" }));
    await userEvent.click(within(await screen.findByRole("dialog", { name: "Remove this pair?" })).getByRole("button", { name: "Remove pair" }));
    await waitFor(() => expect(callsTo(all, "DELETE", `/eliminations/pairs/${LOAN_PAIR.id}`)).toHaveLength(1));
  });
});

describe("Interco Eliminations: a period", () => {
  it("opens on the month after the opening month, and shows the parent's fiscal quarter when asked", async () => {
    const { asked, handler } = recordingQueries(viewFor);
    signIn({ "GET /eliminations": handler });
    renderRoutes(routes, "/consolidation/elimination");
    const period = await screen.findByRole("region", { name: "Period" });
    await waitFor(() => expect(within(period).getByRole("textbox", { name: "Month" })).toHaveValue("January 2026"));
    await chooseQuarter();
    // A period is named by its kind and last month, as the server names it.
    expect(asked).toEqual(["?kind=month&year=2026&month=1", "?kind=quarter&year=2026&month=3"]);
  });

  it("shows both sides of each pair, the difference split into its parts, matched or the unmatched difference", async () => {
    signIn();
    renderRoutes(routes, "/consolidation/elimination");
    const region = await chooseQuarter();
    expect(within(region).getByRole("heading", { name: "FY2026 Q1 (January 2026 – March 2026)" })).toBeInTheDocument();
    expect(within(region).getByTestId("period-summary")).toHaveTextContent("2 pairs: 1 matched, 1 with an unmatched difference.");

    const loan = within(region).getByRole("article", { name: "UK loan" });
    expect(within(loan).getByTestId("pair-status")).toHaveTextContent("Matched");
    const sides = within(loan).getByRole("table", { name: "UK loan: both sides" });
    expect(within(sides).getByRole("row", { name: /^Receivable/ })).toHaveTextContent("$1,229,730.00 USD1 (parent currency)$1,229,730.00");
    expect(within(sides).getByRole("row", { name: /^Payable/ })).toHaveTextContent("(£1,000,000.00) GBP1.22973($1,229,730.00)");
    expect(within(loan).getByTestId("pair-difference")).toHaveTextContent("$0.00");
    expect(within(loan).queryByTestId("unmatched")).toBeNull();

    const fees = within(region).getByRole("article", { name: "UK management fees" });
    expect(within(fees).getByTestId("pair-status")).toHaveTextContent("Unmatched difference");
    expect(within(fees).getByRole("row", { name: /^Expense/ })).toHaveTextContent("£78,676.35 GBPEach month's average$99,176.30");
    expect(within(fees).getByTestId("pair-difference")).toHaveTextContent("Difference (to 9100 Foreign Exchange Gain/Loss)($23.70)");
    expect(within(fees).getByTestId("translation-part")).toHaveTextContent("Translation part:($0.01)what rounding each side, and each month, on its own makes");
    expect(within(fees).getByTestId("book-part")).toHaveTextContent("Book part:($23.69)the books differ at the same rates");
    expect(within(fees).getByTestId("unmatched")).toHaveTextContent(
      "Unmatched difference of ($23.70)($23.69) of it is in the books: at the same rates (each month's average, for a flow) the two sides do not cancel.",
    );
    expect(within(fees).queryByTestId("within-tolerance")).toBeNull();
  });

  it("a pair within the group's tolerance counts as matched, its difference still shown and posted to FX; one over it stays flagged", async () => {
    signIn({ "GET /eliminations": (init: { url: string }) => (viewFor(init).body === Q1_VIEW ? { status: 200, body: WITHIN_VIEW } : viewFor(init)) });
    renderRoutes(routes, "/consolidation/elimination");
    const region = await chooseQuarter();
    expect(within(region).getByTestId("period-summary")).toHaveTextContent("2 pairs: 1 matched (1 within the $1.00 tolerance), 1 with an unmatched difference.");
    const note = within(region).getByTestId("tolerance-note");
    expect(note).toHaveTextContent("Pairs whose sides differ by no more than the group's tolerance of $1.00 count as matched; the difference is still shown and posted.");
    expect(within(note).getByRole("link", { name: "Change the tolerance" })).toHaveAttribute("href", "/settings?tab=team");

    // $0.23 apart: matched within tolerance, the 23 cents named and where they go.
    const fees = within(region).getByRole("article", { name: "UK management fees" });
    expect(within(fees).getByTestId("pair-status")).toHaveTextContent("Matched within tolerance");
    expect(within(fees).getByTestId("pair-difference")).toHaveTextContent("Difference (to 9100 Foreign Exchange Gain/Loss)($0.23)");
    expect(within(fees).getByTestId("within-tolerance")).toHaveTextContent(
      "Matched within tolerance: ($0.23) difference, posted to 9100 Foreign Exchange Gain/Loss" +
        "The two sides differ by no more than the group's tolerance of $1.00, so the pair counts as matched. Both sides are still eliminated in full and the difference goes to 9100 Foreign Exchange Gain/Loss, so the entry balances and the reports show the same.",
    );
    expect(within(fees).queryByTestId("unmatched")).toBeNull();
    expect(within(fees).getByTestId("book-part")).toHaveTextContent("Book part:($0.22)");

    // $4.00 apart, over the tolerance: flagged as before.
    const loan = within(region).getByRole("article", { name: "UK loan" });
    expect(within(loan).getByTestId("pair-status")).toHaveTextContent("Unmatched difference");
    expect(within(loan).getByTestId("unmatched")).toHaveTextContent("Unmatched difference of $4.00$4.00 of it is in the books");
    expect(within(loan).queryByTestId("within-tolerance")).toBeNull();

    // The entry carries both differences on the FX line and balances.
    const entry = screen.getByRole("region", { name: "Elimination entry" });
    const table = within(entry).getByRole("table", { name: "Elimination entry lines" });
    await waitFor(() => expect(within(table).getByRole("row", { name: /Foreign Exchange/ })).toHaveTextContent("9100Foreign Exchange Gain/Loss$3.77"));
    expect(within(entry).getByTestId("balanced")).toHaveTextContent("Balanced");
  });

  it("says when the tolerance is 0: only exact pairs match", async () => {
    signIn({ "GET /eliminations": (init: { url: string }) => ({ status: 200, body: { ...viewFor(init).body, tolerance: 0 } }) });
    renderRoutes(routes, "/consolidation/elimination");
    const region = await screen.findByRole("region", { name: "Eliminations of the period" });
    expect(within(region).getByTestId("tolerance-note")).toHaveTextContent("The group's tolerance is 0: only pairs whose sides cancel to the cent count as matched.");
  });

  it("shows the balanced entry with the parent's account numbers, posts it and links to the entry", async () => {
    const posted = elimPosting();
    const all = signIn({ "POST /eliminations/post": { outcome: "posted", posting: posted } });
    renderRoutes(routes, "/consolidation/elimination");
    await chooseQuarter();
    const entry = screen.getByRole("region", { name: "Elimination entry" });
    expect(entry).toHaveTextContent("Entry EL2026Q1 dated 2026-03-31, in USD, every line under the Interco class.");
    expect(within(entry).getByTestId("balanced")).toHaveTextContent("Balanced");
    const table = within(entry).getByRole("table", { name: "Elimination entry lines" });
    await waitFor(() => expect(within(table).getByRole("row", { name: /Foreign Exchange/ })).toHaveTextContent("9100Foreign Exchange Gain/Loss$23.70"));
    expect(within(table).getByTestId("entry-totals")).toHaveTextContent("Total$1,328,930.00$1,328,930.00");

    await userEvent.click(within(entry).getByRole("button", { name: "Post to QuickBooks" }));
    const outcome = await within(entry).findByTestId("post-outcome");
    expect(outcome).toHaveTextContent("The eliminations of FY2026 Q1 are posted to the parent's QuickBooks as entry EL2026Q1.");
    expect(within(outcome).getByRole("link", { name: /Open entry EL2026Q1 in QuickBooks/ })).toHaveAttribute("href", posted.journalEntryUrl);
    expect(callsTo(all, "POST", "/eliminations/post")[0]?.body).toEqual({ period: { kind: "quarter", year: 2026, month: 3 } });
  });

  it("does not offer Post for a period already posted, and links to its entry", async () => {
    signIn({
      "GET /eliminations": (init: { url: string }) => (viewFor(init).body === Q1_VIEW ? { status: 200, body: { ...Q1_VIEW, posted: elimPosting() } } : viewFor(init)),
      "GET /consolidation/postings": { postings: [elimPosting()] },
    });
    renderRoutes(routes, "/consolidation/elimination");
    const period = await screen.findByRole("region", { name: "Period" });
    await userEvent.click(within(period).getByText("Quarter"));
    // The next quarter after the posted one is offered first; Q1 is picked from the list.
    await waitFor(() => expect(within(period).getByRole("textbox", { name: "Fiscal quarter" })).toHaveValue("FY2026 Q2 · Apr 2026 – Jun 2026"));
    await pick(period, "Fiscal quarter", "FY2026 Q1 · Jan 2026 – Mar 2026");
    const entry = await screen.findByRole("region", { name: "Elimination entry" });
    await waitFor(() => expect(within(entry).getByTestId("post-blocked")).toHaveTextContent("Already posted"));
    expect(within(entry).getByRole("button", { name: "Post to QuickBooks" })).toBeDisabled();
    expect(within(entry).getByTestId("post-blocked")).toHaveTextContent("Already posted: EL2026Q1 on 2026-04-02 by controller@northwind.example.");
    expect(within(entry).getByTestId("posted-link")).toHaveAttribute("href", "https://app.qbo.intuit.com/app/journal?txnId=812");
    const list = screen.getByRole("table", { name: "Posted elimination entries" });
    expect(within(list).getByRole("row", { name: /FY2026 Q1/ })).toHaveTextContent("EL2026Q1");
  });

  it("says what blocks the period, and the server's refusal of a post with its problems", async () => {
    signIn({
      "GET /eliminations": { ...JAN_VIEW, ok: false, problems: [{ code: "missing_rate", message: "No GBP closing rate for 2026-01." }] },
    });
    renderRoutes(routes, "/consolidation/elimination");
    const region = await screen.findByRole("region", { name: "Eliminations of the period" });
    expect(within(region).getByTestId("problems")).toHaveTextContent("No GBP closing rate for 2026-01.");
    expect(within(region).getByRole("link", { name: "Enter the rates in FOREX Management" })).toHaveAttribute("href", "/consolidation/fx_rates");
    expect(screen.getByTestId("post-blocked")).toHaveTextContent("Fix the problems listed above first");
  });

  it("shows an overlap refusal in words", async () => {
    signIn({
      "POST /eliminations/post": refusal(409, "period_overlaps_posting", "Eliminations for FY2026 Q1 are already posted, which overlaps 2026-01; post the remaining months on their own instead."),
    });
    renderRoutes(routes, "/consolidation/elimination");
    const entry = await screen.findByRole("region", { name: "Elimination entry" });
    await userEvent.click(within(entry).getByRole("button", { name: "Post to QuickBooks" }));
    expect(await within(entry).findByRole("alert")).toHaveTextContent("It was not postedEliminations for FY2026 Q1 are already posted, which overlaps 2026-01");
  });

  it("a member sees why Post is off", async () => {
    signIn({ "GET /session": { ...shellApi()["GET /session"], permissionLevel: 0 } });
    renderRoutes(routes, "/consolidation/elimination");
    const entry = await screen.findByRole("region", { name: "Elimination entry" });
    await waitFor(() => expect(within(entry).getByRole("button", { name: "Post to QuickBooks" })).toBeDisabled());
    expect(within(entry).getByLabelText(/Only an admin can post eliminations to QuickBooks/)).toBeInTheDocument();
  });

  it("asks for onboarding to be finished first", async () => {
    signIn({ "GET /account": { ...shellApi()["GET /account"], onboarding: true } });
    renderRoutes(routes, "/consolidation/elimination");
    expect(await screen.findByText("Finish onboarding first")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Intercompany pairs" })).toBeNull();
  });
});

describe("Interco Eliminations: a posted period whose books changed", () => {
  /** FY2026 Q1 as posted, found changed since: the UK's loan payable moved by £1,000 (issue #21). */
  const changedQ1 = elimPosting({
    id: "9a000000-0000-4000-8000-000000000091",
    docNumber: "EL2026Q1",
    stale: { detectedAt: "2026-04-03T09:00:00.000Z", changes: [{ account: "44", name: "Long-term Loans", posted: 122_973_000, now: 123_095_973 }] },
  });

  it("says so and replaces the entry only after the changes were reviewed and approved", async () => {
    const all = signIn({
      "GET /eliminations": { status: 200, body: { ...Q1_VIEW, posted: changedQ1 } },
      [`POST /eliminations/${changedQ1.id}/repost`]: { outcome: "posted", posting: { ...changedQ1, stale: null, id: "9a000000-0000-4000-8000-000000000092" } },
    });
    renderRoutes(routes, "/consolidation/elimination");
    await chooseQuarter();
    const changed = await screen.findByTestId("eliminations-changed");
    expect(changed).toHaveTextContent("The books changed after this period was posted");
    expect(changed).toHaveTextContent("Entry EL2026Q1 no longer matches what the pairs' two sides give now.");
    await userEvent.click(within(changed).getByRole("button", { name: "Review and replace" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("table", { name: "Changes in FY2026 Q1" })).toHaveTextContent("Long-term Loans");
    const replace = within(dialog).getByRole("button", { name: "Replace entry" });
    expect(replace).toBeDisabled();
    await userEvent.click(within(dialog).getByRole("checkbox"));
    await userEvent.click(replace);
    await waitFor(() => expect(all.filter((c) => c.method === "POST" && c.path === `/eliminations/${changedQ1.id}/repost`)).toHaveLength(1));
    expect(all.find((c) => c.path === `/eliminations/${changedQ1.id}/repost`)!.body).toEqual({ approve: true });
  });
});
