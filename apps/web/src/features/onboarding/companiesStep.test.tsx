import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Account, CompanyStatus } from "@groupledger/contract";
import { afterEach, describe, expect, it } from "vitest";
import { routes } from "../../app/routes.tsx";
import { ACCOUNT, PARENT_CO, shellApi, syncedStatus, UK_CO } from "../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../test/render.tsx";
import { dismissError, REAUTHORIZE_MESSAGE } from "../errors/errorBar.ts";
import { saveToken } from "../session/tokenStore.ts";
import "../companies/components/CompaniesPage.tsx";

function signIn(account: Partial<Account>, routesOver: Record<string, unknown>) {
  saveToken(fakeToken(inOneHour()));
  return mockApi({
    ...shellApi({ account }),
    // PATCH answers with the account as saved.
    "PATCH /account": (init: RequestInit) => ({ status: 200, body: { ...ACCOUNT, ...account, ...(JSON.parse(String(init.body)) as object) } }),
    ...routesOver,
  });
}
const patches = (calls: { method: string; body: unknown }[]) => calls.filter((c) => c.method === "PATCH").map((c) => c.body);
const settle = () => new Promise((r) => setTimeout(r, 150));

afterEach(() => dismissError());

describe("onboarding step 1 in the shell (SPEC §4)", () => {
  it("the first company connected (the parent, alone) at step 1: saves 1.1 and opens the milestone modal", async () => {
    const calls = signIn(
      { onboarding: true, onboardingStep: 1 },
      { "GET /companies": [PARENT_CO], "GET /companies/status": { [PARENT_CO.realmId]: syncedStatus() } },
    );
    renderRoutes(routes, "/setup/companies");
    const modal = await screen.findByRole("dialog", { name: "Your first company is connected!" });
    expect(modal).toHaveTextContent("Northwind Holdings Inc. is your parent company");
    await waitFor(() => expect(patches(calls)).toEqual([{ onboardingStep: 1.1 }]));
    await userEvent.click(within(modal).getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Your first company is connected!" })).toBeNull());
    await settle();
    expect(patches(calls)).toHaveLength(1);
  });

  it("the first company connected, before a parent is chosen: saves 1.1 and opens the milestone modal at once, only once (issue 18)", async () => {
    // Connecting never marks the company as the parent; the user chooses the parent afterwards.
    const first = { ...PARENT_CO, parent: false };
    const calls = signIn({ onboarding: true, onboardingStep: 1 }, { "GET /companies": [first], "GET /companies/status": { [first.realmId]: syncedStatus() } });
    renderRoutes(routes, "/setup/companies");
    const modal = await screen.findByRole("dialog", { name: "Your first company is connected!" });
    expect(modal).toHaveTextContent("Northwind Holdings Inc. is connected.");
    expect(modal).toHaveTextContent("Next, tell GroupLedger which company is the parent");
    expect(modal).not.toHaveTextContent("is your parent company");
    await waitFor(() => expect(patches(calls)).toEqual([{ onboardingStep: 1.1 }]));
    await userEvent.click(within(modal).getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Your first company is connected!" })).toBeNull());
    // Still no parent: the next step says so, and the guide stays at 1.1 without the modal again.
    expect(await screen.findByRole("region", { name: "Next step" })).toHaveTextContent("Set a parent");
    await settle();
    expect(patches(calls)).toHaveLength(1);
    expect(screen.queryByRole("dialog", { name: "Your first company is connected!" })).toBeNull();
  });

  it("the modal opens once: when saving 1.1 fails, the retry on the next status poll does not reopen it", async () => {
    const first = { ...PARENT_CO, parent: false };
    let failures = 1;
    let progress = 0.1;
    const calls = signIn(
      { onboarding: true, onboardingStep: 1 },
      {
        "GET /companies": [first],
        // A sync under way keeps the status polled every second, each time with more progress.
        "GET /companies/status": () => {
          progress = Math.min(0.9, progress + 0.1);
          return { status: 200, body: { [first.realmId]: syncedStatus({ state: "running", progress, message: "Fetching balances" }) } };
        },
        "PATCH /account": (init: RequestInit) =>
          failures-- > 0
            ? refusal(503, "unavailable", "Try again.")
            : { status: 200, body: { ...ACCOUNT, onboarding: true, ...(JSON.parse(String(init.body)) as object) } },
      },
    );
    renderRoutes(routes, "/setup/companies");
    const modal = await screen.findByRole("dialog", { name: "Your first company is connected!" });
    await userEvent.click(within(modal).getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Your first company is connected!" })).toBeNull());
    await waitFor(() => expect(patches(calls)).toEqual([{ onboardingStep: 1.1 }, { onboardingStep: 1.1 }]), { timeout: 3000 });
    await settle();
    expect(screen.queryByRole("dialog", { name: "Your first company is connected!" })).toBeNull();
  });

  it("a parent and a subsidiary at 1.1: saves 1.2 without a modal", async () => {
    const calls = signIn(
      { onboarding: true, onboardingStep: 1.1 },
      { "GET /companies": [PARENT_CO, UK_CO], "GET /companies/status": { [PARENT_CO.realmId]: syncedStatus(), [UK_CO.realmId]: syncedStatus() } },
    );
    renderRoutes(routes, "/setup/companies");
    await waitFor(() => expect(patches(calls)).toEqual([{ onboardingStep: 1.2 }]));
    expect(await screen.findByRole("button", { name: "Continue to COA Mapping" })).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("a disconnected subsidiary does not count: 1.2 goes back to 1.1, without the modal", async () => {
    const calls = signIn(
      { onboarding: true, onboardingStep: 1.2 },
      {
        "GET /companies": [PARENT_CO, UK_CO],
        "GET /companies/status": { [PARENT_CO.realmId]: syncedStatus(), [UK_CO.realmId]: syncedStatus({}, "disconnected") },
      },
    );
    renderRoutes(routes, "/setup/companies");
    await waitFor(() => expect(patches(calls)).toEqual([{ onboardingStep: 1.1 }]));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("several companies but no parent stays at step 1 (nothing to save, no first-company modal)", async () => {
    const calls = signIn({ onboarding: true, onboardingStep: 1 }, { "GET /companies": [{ ...PARENT_CO, parent: false }, UK_CO], "GET /companies/status": {} });
    renderRoutes(routes, "/setup/companies");
    expect(await screen.findByRole("region", { name: "Next step" })).toHaveTextContent("Set a parent");
    await settle();
    expect(patches(calls)).toEqual([]);
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("never moves the guide back from step 2, and does nothing when onboarding is off or at step 0", async () => {
    for (const account of [
      { onboarding: true, onboardingStep: 2 },
      { onboarding: false, onboardingStep: 1 },
      { onboarding: true, onboardingStep: 0 },
    ]) {
      const calls = signIn(account, { "GET /companies": [PARENT_CO], "GET /companies/status": {} });
      const { unmount } = renderRoutes(routes, "/setup/companies");
      await screen.findByTestId(`company-${PARENT_CO.realmId}`);
      await settle();
      expect(patches(calls), JSON.stringify(account)).toEqual([]);
      unmount();
    }
  });
});

describe("re-authorization (SPEC §8 003200)", () => {
  it("shows the 003200 message linking to /setup/companies when a company needs re-authorization; once per company", async () => {
    let status: Record<string, CompanyStatus> = {
      [PARENT_CO.realmId]: syncedStatus({}, "needs_reauthorization"),
      // A sync under way keeps the status polled every second.
      [UK_CO.realmId]: syncedStatus({ state: "running", progress: 0.5, message: "Fetching balances" }),
    };
    signIn({}, { "GET /companies": [PARENT_CO, UK_CO], "GET /companies/status": () => ({ status: 200, body: status }) });
    renderRoutes(routes, "/consolidation/run");
    const link = await screen.findByRole("link", { name: REAUTHORIZE_MESSAGE });
    expect(link).toHaveAttribute("href", "/setup/companies");
    await userEvent.click(screen.getByRole("button", { name: "Dismiss error" }));
    // Polled again while the sync runs: the same company does not bring the bar back.
    await act(() => new Promise((r) => setTimeout(r, 1300)));
    expect(screen.queryByTestId("error-bar")).toBeNull();
    // Another company breaks: the bar comes back.
    status = { ...status, [UK_CO.realmId]: syncedStatus({ state: "running", progress: 0.6 }, "needs_reauthorization") };
    expect(await screen.findByRole("link", { name: REAUTHORIZE_MESSAGE }, { timeout: 2500 })).toBeInTheDocument();
  });
});
