import { screen, within } from "@testing-library/react";
import type { QboCalls } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, shellApi, syncedStatuses, UK_CO } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, renderRoutes } from "../../../test/render.tsx";
import { saveToken } from "../../session/tokenStore.ts";
import "./CompaniesPage.tsx";

/** The calls answer for the parent and the UK, the group's month heading to `projectedReads`. */
function callsAnswer(projectedReads: number, warn: boolean): QboCalls {
  return {
    day: "2026-11-16",
    month: "2026-11",
    companies: {
      [PARENT_CO.realmId]: { today: { reads: 1_204, writes: 12 }, month: { reads: 140_000, writes: 300 } },
      [UK_CO.realmId]: { today: { reads: 7, writes: 0 }, month: { reads: 70_000, writes: 0 } },
    },
    group: { month: { reads: 210_000, writes: 300 }, projectedReads, allowance: 500_000, warn },
  };
}

function show(calls: QboCalls | null) {
  saveToken(fakeToken(inOneHour()));
  mockApi({
    ...shellApi(),
    "GET /companies": [PARENT_CO, UK_CO],
    "GET /companies/status": syncedStatuses([PARENT_CO, UK_CO]),
    ...(calls ? { "GET /companies/calls": calls } : {}),
  });
  renderRoutes(routes, "/setup/companies");
}

describe("Connected Companies: the budget of QuickBooks calls", { timeout: 30_000 }, () => {
  it("shows each company's calls today and this month, reads and writes in the title, and the group's month; no warning below 80 %", async () => {
    show(callsAnswer(390_000, false));
    const table = await screen.findByRole("table", { name: "Connected companies" });
    const [parent, uk] = within(table).getAllByRole("row").slice(1);
    const parentCalls = await within(parent!).findByTestId("qbo-calls");
    expect(parentCalls).toHaveTextContent("1,216 today");
    expect(parentCalls).toHaveTextContent("140,300 this month");
    expect(within(parentCalls).getByText("1,216 today")).toHaveAttribute("title", "Today (UTC): 1,204 reads, 12 writes");
    expect(within(uk!).getByTestId("qbo-calls")).toHaveTextContent("7 today70,000 this month");
    expect(screen.getByTestId("group-calls")).toHaveTextContent(
      "QuickBooks calls this month: 210,000 reads, 300 writes. At this pace about 390,000 reads by the month's end, of the 500,000 a month Intuit allows on its free tier (writes are not metered).",
    );
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("warns when the group's reads are heading past 80 % of the allowance, and says what to do", async () => {
    show(callsAnswer(420_000, true));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("QuickBooks reads are heading past Intuit's monthly allowance");
    expect(alert).toHaveTextContent("your group will read QuickBooks about 420,000 times, 84% of the 500,000 reads Intuit allows a month on its free tier (we warn past 80%)");
    expect(alert).toHaveTextContent("To read less, turn off the nightly sync in Account Settings → Team and use Sync now on the companies that change");
    expect(within(alert).getByRole("link", { name: "Account Settings → Team" })).toHaveAttribute("href", "/settings?tab=team");
  });

  it("shows the companies without counts when the calls cannot be read", async () => {
    show(null);
    const table = await screen.findByRole("table", { name: "Connected companies" });
    expect(within(table).getByText("Northwind UK Ltd")).toBeInTheDocument();
    expect(within(table).queryByTestId("qbo-calls")).not.toBeInTheDocument();
    expect(screen.queryByTestId("group-calls")).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
