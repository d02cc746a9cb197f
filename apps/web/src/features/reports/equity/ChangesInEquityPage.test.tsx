import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, syncedStatuses, UK_CO } from "../../../test/fixtures.ts";
import { recordingQueries, renderRoutes } from "../../../test/render.tsx";
import { screenTestHooks, signedIn } from "../../../test/session.ts";
import { equityFixture } from "./equityFixtures.ts";
// Loaded up front so the route's lazy import resolves at once.
import "./ChangesInEquityPage.tsx";

screenTestHooks({ today: "2026-11-21T12:00:00" });

function signIn(answer = equityFixture()) {
  const companies = [PARENT_CO, UK_CO];
  const statement = recordingQueries(answer);
  signedIn({
    "GET /companies": companies,
    "GET /companies/status": syncedStatuses(companies, { lastSyncedAt: "2026-11-20T09:00:00.000Z" }),
    "GET /consolidation/report/changes-in-equity": statement.handler,
  });
  return statement;
}

const cells = (testId: string) => within(screen.getByTestId(testId)).getAllByRole("cell").map((c) => c.textContent);

describe("Statement of changes in equity", { timeout: 30_000 }, () => {
  it("asks for the fiscal year to date, shows each movement by column and says the statement reconciles", async () => {
    const statement = signIn();
    renderRoutes(routes, "/consolidation/reports/equity");
    await screen.findByRole("table", { name: "Consolidated statement of changes in equity" });
    expect(statement.asked[0]).toBe("?from=2026-01&to=2026-10");
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["", "Share capital", "Retained earnings", "Translation reserve (CTA)", "Attributable to owners of the parent", "Non-controlling interests", "Total equity"]);
    expect(cells("equity-row-translation")).toEqual(["Other comprehensive income: exchange differences on translating foreign operations", "$0.00", "$0.00", "$3,573.34", "$3,573.34", "$893.33", "$4,466.67"]);
    expect(cells("equity-row-closing")).toEqual(["Balance at December 2026 month-end", "$1,000.00", "$17,680.00", "$6,096.00", "$24,776.00", "$2,664.00", "$27,440.00"]);
    expect(cells("equity-row-balanceSheet").slice(1)).toEqual(cells("equity-row-closing").slice(1));
    expect(screen.getByTestId("equity-reconciliation")).toHaveTextContent("✓ Reconciles to the consolidated balance sheet at the end of December 2026");
    expect(screen.getByRole("tab", { name: "Changes in equity" })).toHaveAttribute("aria-selected", "true");
  });

  it("shows a difference in red with the columns that differ, never hiding it", async () => {
    const warning = "No acquisition is recorded for Northwind UK Ltd: its investment and equity at acquisition are not eliminated. Confirm the acquisition on Setup → Acquisitions.";
    signIn({ ...equityFixture({ difference: { retainedEarnings: 1, parent: 1, nci: -1 } }), warnings: [warning] });
    renderRoutes(routes, "/consolidation/reports/equity?reportPeriod=custom&reportFrom=2026-01&reportTo=2026-12");
    const line = await screen.findByTestId("equity-reconciliation");
    expect(line).toHaveTextContent("✗ Does not reconcile to the consolidated balance sheet at the end of December 2026: Retained earnings $0.01, Non-controlling interests ($0.01)");
    // What to read with the figures, with the way to where it is mended, as on the statements.
    expect(screen.getByTestId("report-warnings")).toHaveTextContent(warning);
    expect(within(screen.getByTestId("report-warnings")).getByRole("link", { name: "Open Acquisitions" })).toHaveAttribute("href", "/setup/acquisitions");
    expect(cells("equity-row-difference")).toEqual(["Difference (balance sheet − statement)", "$0.00", "$0.01", "$0.00", "$0.01", "($0.01)", "$0.00"]);
  });

  it("names what stops the consolidation", async () => {
    signIn({ ...equityFixture(), ok: false, statement: null, problems: [{ code: "rates_missing", message: "GBP has no rates for 2027-01." }] });
    renderRoutes(routes, "/consolidation/reports/equity?reportPeriod=custom&reportFrom=2027-01&reportTo=2027-01");
    expect(await screen.findByTestId("report-problems")).toHaveTextContent("GBP has no rates for 2027-01.");
    expect(screen.queryByRole("table")).toBeNull();
  });
});
