import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ObalTrialBalance } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { shellApi, UK_CO } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, renderRoutes } from "../../../test/render.tsx";
import { saveToken } from "../../session/tokenStore.ts";
import { CA_CO, CA_TB, LOCKED, PARENT_APRIL, UK_TB } from "./obalFixtures.ts";
import "./ObalPage.tsx";

const SLOW_UI = 20_000;
/** The fiscal year before the locked March 2026 (April start): March 2025 to March 2026. */
const MONTHS = ["2025-03", "2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-03"];

/** A subsidiary's trial balance blocked by every rate of its currency, as the server words each one. */
function withoutRates(tb: ObalTrialBalance, currency: string, companyName: string): ObalTrialBalance {
  const problems = MONTHS.flatMap((month) =>
    (["Average", "Month-end"] as const).map((kind) => ({
      code: "missing_rate",
      message: `${kind} rate for ${currency} in ${month} is missing. ${companyName} needs it; enter, import or fetch it on the FX rates page.`,
      currency,
      month,
    })),
  );
  return { ...tb, ok: false, problems: [{ code: "missing_cta_account", message: `Choose the parent's account that receives ${companyName}'s CTA.` }, ...problems] };
}

describe("Opening Balance Sheet during onboarding: missing rates", { timeout: SLOW_UI }, () => {
  it("are one line per currency, on the page and in each panel, and Fetch missing rates fetches their months and reloads", async () => {
    let fetched = false;
    saveToken(fakeToken(inOneHour()));
    const calls = mockApi({
      ...shellApi({ account: { onboarding: true, onboardingStep: 3 } }),
      "GET /companies": [PARENT_APRIL, UK_CO, CA_CO],
      "GET /companies/status": {},
      "GET /obal": LOCKED,
      [`GET /obal/${UK_CO.realmId}/trialbalance`]: () => ({ status: 200, body: fetched ? UK_TB : withoutRates(UK_TB, "GBP", UK_CO.companyName) }),
      [`GET /obal/${CA_CO.realmId}/trialbalance`]: () => ({ status: 200, body: fetched ? CA_TB : withoutRates(CA_TB, "CAD", CA_CO.companyName) }),
      "POST /fxrates/fetch": () => {
        fetched = true;
        return { status: 200, body: { updated: 26, unchanged: 0, months: 13, currencies: ["CAD", "GBP"] } };
      },
      "GET /fxrates": { parentCurrency: "USD", currencies: ["CAD", "GBP"], months: [], rates: [] },
    });
    renderRoutes(routes, "/setup/obal");

    const card = await screen.findByRole("region", { name: "Exchange rates needed" });
    await waitFor(() =>
      expect(within(card).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
        "CAD: 26 rates missing (average and month-end), March 2025 to March 2026. Needed by Northwind Canada Ltd.",
        "GBP: 26 rates missing (average and month-end), March 2025 to March 2026. Needed by Northwind UK Ltd.",
      ]),
    );
    expect(within(card).getByRole("link", { name: "Open FOREX Management" })).toHaveAttribute("href", "/consolidation/fx_rates");
    // Each panel: its other problem, then its rates in one line with the link to FOREX Management.
    const ukProblems = within(screen.getByRole("region", { name: UK_CO.companyName })).getByTestId("problems");
    expect(within(ukProblems).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Choose the parent's account that receives Northwind UK Ltd's CTA. Choose the CTA account in CTA & Historical",
      "GBP: 26 rates missing (average and month-end), March 2025 to March 2026. Enter the rates in FOREX Management",
    ]);

    await userEvent.click(within(card).getByRole("button", { name: "Fetch missing rates" }));
    expect(await screen.findByText("Fetched CAD and GBP rates for March 2025 to March 2026: 26 rows filled.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST" && c.path === "/fxrates/fetch").map((c) => c.body)).toEqual([{ from: "2025-03", to: "2026-03", overwrite: false }]);
    // The trial balances are asked again and translate now: nothing is missing any more.
    await waitFor(() => expect(screen.queryByRole("region", { name: "Exchange rates needed" })).not.toBeInTheDocument());
    expect(within(screen.getByRole("region", { name: UK_CO.companyName })).queryByTestId("problems")).not.toBeInTheDocument();
  });

  it("says so when the rates service has none of them", async () => {
    saveToken(fakeToken(inOneHour()));
    mockApi({
      ...shellApi({ account: { onboarding: true, onboardingStep: 3 } }),
      "GET /companies": [PARENT_APRIL, UK_CO],
      "GET /companies/status": {},
      "GET /obal": LOCKED,
      [`GET /obal/${UK_CO.realmId}/trialbalance`]: withoutRates(UK_TB, "GBP", UK_CO.companyName),
      "POST /fxrates/fetch": { updated: 0, unchanged: 0, months: 0, currencies: ["GBP"] },
    });
    renderRoutes(routes, "/setup/obal");
    const card = await screen.findByRole("region", { name: "Exchange rates needed" });
    await userEvent.click(within(card).getByRole("button", { name: "Fetch missing rates" }));
    expect(await screen.findByText("The rates service had none of the missing GBP rates for March 2025 to March 2026; enter or import them in FOREX Management.")).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Exchange rates needed" })).toBeInTheDocument();
  });
});
