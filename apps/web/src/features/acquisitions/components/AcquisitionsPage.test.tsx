import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Acquisitions, AcquisitionSubsidiary } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, syncedStatuses, UK_CO } from "../../../test/fixtures.ts";
import { refusal, renderRoutes } from "../../../test/render.tsx";
import { listboxOf } from "../../../test/select.ts";
import type { ApiCall } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { ACQUISITIONS, RETAIL_ACQ, RETAIL_CO, RETAIL_SAVED, UK_ACQ, UK_PROPOSAL, UK_PROPOSAL_FIGURES, UK_PROPOSAL_PUT, UK_REASONS } from "./acquisitionFixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./AcquisitionsPage.tsx";

/** Pickers, dialogs and typing: more than the 5 s default on a loaded CI machine. */
const SLOW_UI = 30_000;
const UK = UK_CO.realmId;
type Calls = ApiCall[];

function signIn(data: Acquisitions = ACQUISITIONS, over: Record<string, unknown> = {}) {
  const companies = [PARENT_CO, UK_CO, RETAIL_CO];
  return signedIn({
    "GET /companies": companies,
    "GET /companies/status": syncedStatuses(companies),
    "GET /acquisitions": data,
    ...over,
  });
}

/** A server that remembers: PUT answers `answer` and GET shows it from then on; DELETE forgets it. */
function statefulApi(start: Acquisitions, realmId: string, answer: AcquisitionSubsidiary) {
  let data = start;
  const replace = (sub: AcquisitionSubsidiary) => (data = { ...data, subsidiaries: data.subsidiaries.map((s) => (s.realmId === sub.realmId ? sub : s)) });
  return {
    "GET /acquisitions": () => ({ status: 200, body: data }),
    [`PUT /acquisitions/${realmId}`]: () => {
      replace(answer);
      return { status: 200, body: answer };
    },
    [`DELETE /acquisitions/${realmId}`]: () => {
      const sub = data.subsidiaries.find((s) => s.realmId === realmId)!;
      replace({ ...sub, saved: null, savedFigures: null });
      return { status: 204 };
    },
  };
}

const card = (name: string) => screen.findByRole("region", { name: `${name} acquisition` });
const puts = (calls: Calls) => calls.filter((c) => c.method === "PUT");
const field = (scope: HTMLElement, name: string | RegExp) => within(scope).getByRole("textbox", { name });
const figures = (scope: HTMLElement) =>
  within(within(scope).getByRole("table", { name: /^Figures of/ }))
    .getAllByTestId("figure")
    .map((row) => [within(row).getByRole("rowheader").textContent, row.querySelectorAll("td")[0]?.textContent]);

async function choose(input: HTMLElement, label: string) {
  await userEvent.click(input);
  const listbox = await listboxOf(input);
  await userEvent.click(within(listbox).getByRole("option", { name: label, hidden: true }));
}

const savedUk = (over: Partial<AcquisitionSubsidiary> = {}): AcquisitionSubsidiary => ({ ...UK_ACQ, saved: UK_PROPOSAL, savedFigures: UK_ACQ.proposalFigures, ...over });

screenTestHooks();

describe("Acquisitions: the proposal", { timeout: SLOW_UI }, () => {
  it("is in the side navigation under Setup, next to CTA & Historical", async () => {
    signIn();
    renderRoutes(routes, "/setup/acquisitions");
    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    // Enabled once the companies are known: a parent and a subsidiary, whatever their currencies.
    expect(await within(nav).findByRole("link", { name: "Acquisitions" })).toHaveAttribute("aria-current", "page");
    const links = within(nav).getAllByRole("link").map((l) => l.textContent);
    expect(links.indexOf("Acquisitions")).toBe(links.indexOf("CTA & Historical") + 1);
  });

  it("shows what was read from the books prefilled, with the reasons under it and the figures it gives", async () => {
    signIn();
    renderRoutes(routes, "/setup/acquisitions");
    const uk = await card("Northwind UK Ltd");
    expect(within(uk).getByText("Proposed from the books")).toBeInTheDocument();
    expect(within(uk).getByText(/Keeps its books in GBP; translated into USD/)).toBeInTheDocument();
    const reasons = within(uk).getByRole("region", { name: "How this was proposed" });
    expect(within(reasons).getAllByRole("listitem").map((li) => li.textContent)).toEqual(UK_REASONS);

    expect(field(uk, /Acquisition date/)).toHaveValue("2023-01-31");
    expect(within(uk).getByText("The books are monthly: it takes effect at the month-end, Jan 31, 2023.")).toBeInTheDocument();
    expect(field(uk, /% acquired/)).toHaveValue("80");
    expect(within(uk).getByText("Non-controlling interests hold 20%.")).toBeInTheDocument();
    expect(field(uk, /Consideration paid \(USD\)/)).toHaveValue("150000.00");
    expect(field(uk, /Investment account/)).toHaveValue("1500 · Investment in Northwind UK Ltd");
    // Equity credit positive: the API's -10,000,000 is £100,000.00 of share capital.
    expect(field(uk, "Equity at acquisition of Ordinary Shares")).toHaveValue("100000.00");
    expect(field(uk, "Equity at acquisition of Share Premium")).toHaveValue("");
    expect(field(uk, "Equity at acquisition of Retained Earnings")).toHaveValue("25000.00");
    expect(within(uk).getByTestId("equity-total")).toHaveTextContent("£125,000.00");
    expect(within(uk).getByRole("radio", { name: /Proportionate share of net assets/ })).toBeChecked();

    expect(within(uk).getByText("Figures of the proposal")).toBeInTheDocument();
    expect(figures(uk)).toEqual(UK_PROPOSAL_FIGURES);
    expect(within(uk).getByRole("button", { name: "Confirm acquisition" })).toBeEnabled();
  });

  it("shows what stops a proposal as an alert, and an empty form with the company's ownership (no NCI choice at 100%)", async () => {
    signIn();
    renderRoutes(routes, "/setup/acquisitions");
    const retail = await card("Northwind Retail LLC");
    expect(within(retail).getByText("Not recorded")).toBeInTheDocument();
    expect(within(retail).getByRole("alert", { name: "Needs your attention" })).toHaveTextContent(RETAIL_ACQ.problems[0]!);
    expect(within(retail).queryByRole("region", { name: "How this was proposed" })).toBeNull();
    expect(field(retail, /% acquired/)).toHaveValue("100");
    expect(field(retail, /Consideration paid/)).toHaveValue("");
    expect(within(retail).queryByRole("radiogroup")).toBeNull();
    expect(within(retail).getByText("Goodwill and the non-controlling interests at acquisition are worked out once the acquisition is saved.")).toBeInTheDocument();
  });
});

describe("Acquisitions: confirming and editing", { timeout: SLOW_UI }, () => {
  it("confirms the proposal as it is: minor units, equity debit positive, then shows it saved with its figures", async () => {
    const calls = signIn(ACQUISITIONS, statefulApi(ACQUISITIONS, UK, savedUk()));
    renderRoutes(routes, "/setup/acquisitions");
    const uk = await card("Northwind UK Ltd");
    await userEvent.click(within(uk).getByRole("button", { name: "Confirm acquisition" }));
    expect(await within(uk).findByRole("status")).toHaveTextContent("Saved. Northwind UK Ltd's investment is eliminated from the acquisition month on.");
    expect(puts(calls)).toEqual([
      expect.objectContaining({
        path: `/acquisitions/${UK}`,
        body: UK_PROPOSAL_PUT,
      }),
    ]);
    expect(within(uk).getByText("Saved")).toBeInTheDocument();
    expect(within(uk).queryByText("Proposed from the books")).toBeNull();
    const summary = within(uk).getByTestId("saved-summary");
    expect(summary).toHaveTextContent("Consideration paid$150,000.00");
    expect(summary).toHaveTextContent("1500 · Investment in Northwind UK Ltd");
    expect(within(summary).getByRole("row", { name: /Ordinary Shares/ })).toHaveTextContent("£100,000.00");
    expect(figures(uk).at(-1)).toEqual(["Goodwill", "$25,000.00"]);
    expect(within(uk).getByRole("button", { name: "Edit" })).toBeInTheDocument();
    expect(within(uk).getByRole("button", { name: "Remove" })).toBeInTheDocument();
  });

  it("sends what the user typed: the date as written, decimals as minor units, the NCI's fair value", async () => {
    const calls = signIn(ACQUISITIONS, { [`PUT /acquisitions/${UK}`]: savedUk() });
    renderRoutes(routes, "/setup/acquisitions");
    const uk = await card("Northwind UK Ltd");
    const date = field(uk, /Acquisition date/);
    await userEvent.clear(date);
    await userEvent.type(date, "2023-02-14");
    expect(within(uk).getByText("The books are monthly: it takes effect at the month-end, Feb 28, 2023.")).toBeInTheDocument();
    const consideration = field(uk, /Consideration paid/);
    await userEvent.clear(consideration);
    await userEvent.type(consideration, "1,234,567.89");
    await userEvent.type(field(uk, "Equity at acquisition of Share Premium"), "5,000.5");
    expect(within(uk).getByTestId("equity-total")).toHaveTextContent("£130,000.50");
    expect(within(uk).getByTestId("figures-stale")).toHaveTextContent("These are the figures of the proposal; confirm the acquisition to see them with your changes.");
    await userEvent.click(within(uk).getByRole("radio", { name: /Fair value/ }));
    await userEvent.type(field(uk, /NCI fair value at acquisition \(USD\)/), "40000");

    await userEvent.click(within(uk).getByRole("button", { name: "Confirm acquisition" }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]?.body).toEqual({
      acquiredOn: "2023-02-14",
      ownershipPercent: "80",
      consideration: 123_456_789,
      investmentAccountId: "15",
      nciMeasurement: "fairValue",
      nciFairValue: 4_000_000,
      equityAtAcquisition: [
        { accountId: "60", localAmount: -10_000_000 },
        { accountId: "61", localAmount: -500_050 },
        { accountId: "62", localAmount: -2_500_000 },
      ],
      fairValueAdjustments: [],
      ownershipChanges: [],
    });
  });

  it("adds and removes fair-value adjustments and sends them in the subsidiary's currency with the parent's accounts", async () => {
    const calls = signIn(ACQUISITIONS, { [`PUT /acquisitions/${UK}`]: savedUk() });
    renderRoutes(routes, "/setup/acquisitions");
    const uk = await card("Northwind UK Ltd");
    await userEvent.click(within(uk).getByRole("button", { name: "Add adjustment" }));
    await userEvent.type(field(uk, "Description of adjustment 1"), "Customer relationships");
    await choose(field(uk, "Asset account of adjustment 1"), "1600 · Customer Relationships");
    await userEvent.type(field(uk, "Amount of adjustment 1"), "20,000");
    await userEvent.type(field(uk, "Useful life of adjustment 1 in months"), "60");
    await choose(field(uk, "Expense account of adjustment 1"), "6100 · Amortisation");
    await userEvent.click(within(uk).getByRole("button", { name: "Add adjustment" }));
    await choose(field(uk, "Kind of adjustment 2"), "Inventory");
    await userEvent.click(within(uk).getByRole("button", { name: "Remove adjustment 2" }));
    expect(within(uk).queryByRole("textbox", { name: "Description of adjustment 2" })).toBeNull();

    await userEvent.click(within(uk).getByRole("button", { name: "Confirm acquisition" }));
    await waitFor(() => expect(puts(calls)).toHaveLength(1));
    expect(puts(calls)[0]?.body).toMatchObject({
      consideration: 15_000_000,
      fairValueAdjustments: [
        { description: "Customer relationships", kind: "intangible", assetAccountId: "17", amount: 2_000_000, usefulLifeMonths: 60, expenseAccountId: "71" },
      ],
    });
  });

  it("shows the NCI's fair value only when measured at fair value, and no NCI choice when wholly owned", async () => {
    signIn();
    renderRoutes(routes, "/setup/acquisitions");
    const uk = await card("Northwind UK Ltd");
    expect(within(uk).queryByRole("textbox", { name: /NCI fair value/ })).toBeNull();
    await userEvent.click(within(uk).getByRole("radio", { name: /Fair value/ }));
    expect(field(uk, /NCI fair value at acquisition/)).toBeInTheDocument();
    await userEvent.click(within(uk).getByRole("radio", { name: /Proportionate share/ }));
    expect(within(uk).queryByRole("textbox", { name: /NCI fair value/ })).toBeNull();
    await userEvent.click(within(uk).getByRole("radio", { name: /Fair value/ }));
    const share = field(uk, /% acquired/);
    await userEvent.clear(share);
    await userEvent.type(share, "100");
    expect(within(uk).queryByRole("radiogroup")).toBeNull();
    expect(within(uk).queryByRole("textbox", { name: /NCI fair value/ })).toBeNull();
    expect(within(uk).getByText("Wholly owned: no non-controlling interests.")).toBeInTheDocument();
  });

  it("puts the server's field errors next to their fields (the right equity row), in an alert too, and keeps what was typed", async () => {
    const calls = signIn(ACQUISITIONS, {
      [`PUT /acquisitions/${UK}`]: refusal(400, "invalid_acquisition", "2 problems; nothing was saved.", {
        fields: [
          { path: "acquiredOn", message: "The acquisition date 2031-01-31 is in the future; record an acquisition once it has happened." },
          // The body's second line is the table's third row: Share Premium was left blank and not sent.
          { path: "equityAtAcquisition.1.accountId", message: "3200 · Retained Earnings is not an equity account of Northwind UK Ltd." },
        ],
      }),
    });
    renderRoutes(routes, "/setup/acquisitions");
    const uk = await card("Northwind UK Ltd");
    const retained = field(uk, "Equity at acquisition of Retained Earnings");
    await userEvent.clear(retained);
    await userEvent.type(retained, "26,000");
    await userEvent.click(within(uk).getByRole("button", { name: "Confirm acquisition" }));
    expect(await within(uk).findByRole("alert", { name: "Northwind UK Ltd's acquisition was not saved" })).toHaveTextContent("Nothing was saved: 2 problems; nothing was saved.");
    expect(puts(calls)).toHaveLength(1);
    const row = within(within(uk).getByRole("table", { name: "Equity of Northwind UK Ltd at acquisition" })).getByRole("row", { name: /3200 · Retained Earnings/ });
    expect(within(row).getByText("3200 · Retained Earnings is not an equity account of Northwind UK Ltd.")).toBeInTheDocument();
    expect(retained).toHaveValue("26,000");
    expect(within(uk).getByText("The acquisition date 2031-01-31 is in the future; record an acquisition once it has happened.")).toBeInTheDocument();
    expect(field(uk, /Acquisition date/)).toHaveAccessibleDescription(/The acquisition date 2031-01-31 is in the future/);
    expect(within(uk).getByText("Proposed from the books")).toBeInTheDocument();
  });

  it("refuses what the contract would refuse before sending, with its messages", async () => {
    const calls = signIn();
    renderRoutes(routes, "/setup/acquisitions");
    const uk = await card("Northwind UK Ltd");
    await userEvent.click(within(uk).getByRole("button", { name: "Add adjustment" }));
    await userEvent.type(field(uk, "Description of adjustment 1"), "Brand");
    await userEvent.type(field(uk, "Amount of adjustment 1"), "1000");
    const share = field(uk, /% acquired/);
    await userEvent.clear(share);
    await userEvent.type(share, "62.55555");
    await userEvent.click(within(uk).getByRole("button", { name: "Confirm acquisition" }));
    expect(await within(uk).findByText("Give the adjustment's useful life in months (1 or more); inventory's is the months in which it is sold.")).toBeInTheDocument();
    expect(within(uk).getByText("Choose the parent's asset account the adjustment shows on.")).toBeInTheDocument();
    expect(within(uk).getByText("Ownership is a percentage such as 80 or 62.5.")).toBeInTheDocument();
    expect(within(uk).getByRole("alert", { name: "Northwind UK Ltd's acquisition was not saved" })).toHaveTextContent("Nothing was sent: correct the fields marked in red.");
    expect(puts(calls)).toHaveLength(0);
  });
});

describe("Acquisitions: saved", { timeout: SLOW_UI }, () => {
  it("calls a negative goodwill a bargain purchase gain, with the positive amount", async () => {
    signIn({ ...ACQUISITIONS, subsidiaries: [RETAIL_SAVED] });
    renderRoutes(routes, "/setup/acquisitions");
    const retail = await card("Northwind Retail LLC");
    expect(within(retail).getByText("Saved")).toBeInTheDocument();
    expect(figures(retail)).toEqual([
      ["Acquisition month", "Jun 2024"],
      ["Closing rate", "1"],
      ["Net assets acquired", "$45,000.00"],
      ["Fair-value adjustments", "$0.00"],
      ["NCI at acquisition", "$0.00"],
      ["Bargain purchase gain", "$5,000.00"],
    ]);
    expect(within(retail).queryByText("Goodwill")).toBeNull();
  });

  it("edits a saved acquisition from what was saved, and can cancel", async () => {
    const start = { ...ACQUISITIONS, subsidiaries: [savedUk()] };
    const calls = signIn(start, statefulApi(start, UK, savedUk({ saved: { ...UK_PROPOSAL, ownershipPercent: "75" } })));
    renderRoutes(routes, "/setup/acquisitions");
    const uk = await card("Northwind UK Ltd");
    await userEvent.click(within(uk).getByRole("button", { name: "Edit" }));
    expect(within(uk).queryByText("Proposed from the books")).toBeNull();
    const share = field(uk, /% acquired/);
    expect(share).toHaveValue("80");
    await userEvent.clear(share);
    await userEvent.type(share, "75");
    await userEvent.click(within(uk).getByRole("button", { name: "Cancel" }));
    expect(within(uk).getByTestId("saved-summary")).toHaveTextContent("% acquired80%");
    await userEvent.click(within(uk).getByRole("button", { name: "Edit" }));
    expect(field(uk, /% acquired/)).toHaveValue("80");
    await userEvent.clear(field(uk, /% acquired/));
    await userEvent.type(field(uk, /% acquired/), "75");
    await userEvent.click(within(uk).getByRole("button", { name: "Save changes" }));
    expect(await within(uk).findByRole("status")).toHaveTextContent("Saved.");
    expect(puts(calls)[0]?.body).toMatchObject({ ownershipPercent: "75" });
    expect(within(uk).getByTestId("saved-summary")).toHaveTextContent("% acquired75%");
  });

  it("removes an acquisition only after a confirmation, then offers the proposal again", async () => {
    const start = { ...ACQUISITIONS, subsidiaries: [savedUk()] };
    const calls = signIn(start, statefulApi(start, UK, savedUk()));
    renderRoutes(routes, "/setup/acquisitions");
    const uk = await card("Northwind UK Ltd");
    await userEvent.click(within(uk).getByRole("button", { name: "Remove" }));
    const dialog = await screen.findByRole("dialog", { name: "Remove Northwind UK Ltd's acquisition?" });
    expect(calls.filter((c) => c.method === "DELETE")).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole("button", { name: "Remove acquisition" }));
    expect(await within(uk).findByRole("status")).toHaveTextContent("Northwind UK Ltd's acquisition was removed.");
    expect(calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toEqual([`/acquisitions/${UK}`]);
    expect(within(uk).getByText("Proposed from the books")).toBeInTheDocument();
    expect(within(uk).getByRole("button", { name: "Confirm acquisition" })).toBeInTheDocument();
  });
});

describe("Acquisitions: nothing to record", { timeout: SLOW_UI }, () => {
  it("asks for a parent first", async () => {
    signIn({ parentRealmId: null, parentCurrency: null, assetAccounts: [], expenseAccounts: [], subsidiaries: [] });
    renderRoutes(routes, "/setup/acquisitions");
    expect(await screen.findByText("A parent company is needed")).toBeInTheDocument();
  });
});
