import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ObalTrialBalance } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { renderRoutes } from "../../../test/render.tsx";
import { UK_TB } from "./obalFixtures.ts";
import { TrialBalanceView, type AccountNumbers } from "./TrialBalanceView.tsx";

type View = NonNullable<ObalTrialBalance["view"]>;
const UK = UK_TB.view!;

/** UK's trial balance plus two accounts that never held anything, one of them never mapped (as QuickBooks charts have). */
const WITH_EMPTY: View = {
  ...UK,
  lines: [
    ...UK.lines.slice(0, 1),
    { account: "36", special: null, name: "USD account", classification: "Asset", local: 0, translated: 0, basis: "closing", rate: "1.25", parentAccount: "unmapped:9341453172384023:36", parentAccountName: "UNMAPPED Northwind UK Ltd: USD account" },
    { account: "81", special: null, name: "Training", classification: "Expense", local: 0, translated: 0, basis: "average", rate: null, parentAccount: "50", parentAccountName: "Operating expenses" },
    ...UK.lines.slice(1),
  ],
};

const NUMBERS: AccountNumbers = {
  sub: new Map([
    ["35", "1200"],
    ["60", "3000"],
  ]),
  parent: new Map([
    ["10", "1010"],
    ["39", "3600"],
  ]),
};

const show = (view: View, numbers?: AccountNumbers) =>
  renderRoutes([{ path: "/", element: <TrialBalanceView view={view} {...(numbers ? { numbers } : {})} /> }], "/");

describe("TrialBalanceView", () => {
  it("names the month and the periods in words", async () => {
    show(UK);
    expect(await screen.findByRole("heading", { name: "Northwind UK Ltd: trial balance at the end of March 2026" })).toBeInTheDocument();
    expect(screen.getByText(/GBP translated into USD\. Profit and loss from April 2025 to March 2026; retained earnings as at the end of March 2025\./)).toBeInTheDocument();
  });

  it("leaves accounts with no balance out until asked, and never shows an engine key for an unmapped one", async () => {
    show(WITH_EMPTY);
    const table = await screen.findByRole("table", { name: "Trial balance of Northwind UK Ltd" });
    expect(within(table).queryByRole("row", { name: /USD account/ })).toBeNull();
    expect(within(table).queryByRole("row", { name: /Training/ })).toBeNull();
    expect(screen.getByText("2 accounts with no balance are not shown.")).toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Show them" }));
    const usd = within(table).getByRole("row", { name: /USD account/ });
    expect(usd).toHaveTextContent("Not mapped");
    expect(usd).not.toHaveTextContent("unmapped:");
    expect(usd).not.toHaveTextContent("UNMAPPED");
    expect(within(table).getByRole("row", { name: /Training/ })).toHaveTextContent("Operating expenses");
    expect(screen.getByText("Showing 2 accounts with no balance.")).toBeInTheDocument();
    // Totals are the same either way: the hidden lines carry nothing.
    expect(within(table).getByTestId("total-debits")).toHaveTextContent("12,000.0015,200.00");

    await userEvent.click(screen.getByRole("button", { name: "Hide them" }));
    expect(within(table).queryByRole("row", { name: /USD account/ })).toBeNull();
  });

  it("labels accounts with their numbers, not QuickBooks ids, and names the CTA account", async () => {
    show(UK, NUMBERS);
    const table = await screen.findByRole("table", { name: "Trial balance of Northwind UK Ltd" });
    const bank = within(table).getByRole("row", { name: /Bank/ });
    expect(bank).toHaveTextContent(/^1200Bank/);
    expect(bank).toHaveTextContent(/1010Cash$/);
    // No number known for the sub's Sales account (id 70): the id is not shown in its place.
    expect(within(table).getByRole("row", { name: /Sales/ })).toHaveTextContent(/^Sales/);
    expect(screen.getByTestId("cta-explanation")).toHaveTextContent("Cumulative translation adjustment (CTA), posted to 3600 CTA");
  });

  it("a subsidiary in the parent's currency: says nothing is translated, with no CTA line or explanation", async () => {
    const usd: View = {
      ...UK,
      companyName: "Northwind Retail LLC",
      currency: "USD",
      lines: UK.lines.map((l) => (l.special === "cta" ? { ...l, translated: 0 } : { ...l, translated: l.local, basis: "unchanged", rate: null })),
      cta: { ...UK.cta, change: 0, closing: 0 },
      totals: { ...UK.totals, debit: 1_200_000, credit: 1_200_000 },
    };
    show(usd);
    await screen.findByRole("table", { name: "Trial balance of Northwind Retail LLC" });
    expect(screen.getByText(/In USD like the parent: nothing is translated\./)).toBeInTheDocument();
    expect(screen.queryByTestId("cta-line")).toBeNull();
    expect(screen.queryByTestId("cta-explanation")).toBeNull();
    expect(screen.getByTestId("balanced")).toHaveTextContent("Balanced");
  });
});
