import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configureAnalytics, noopAnalytics } from "../../../app/analytics.ts";
import { routes } from "../../../app/routes.tsx";
import { fakeToken, inOneHour, mockApi, renderRoutes } from "../../../test/render.tsx";
import { ACCOUNT, PARENT_CO, shellApi, UK_CO } from "../../../test/fixtures.ts";
import { saveToken } from "../../session/tokenStore.ts";

function signIn(routesOver: Record<string, unknown> = {}, shell: Parameters<typeof shellApi>[0] = {}) {
  saveToken(fakeToken(inOneHour()));
  return mockApi({ ...shellApi(shell), ...routesOver });
}

describe("authenticated layout", () => {
  afterEach(() => configureAnalytics(noopAnalytics));

  it("shows the navigation with bold sections; disabled items say why on hover", async () => {
    signIn();
    renderRoutes(routes, "/setup/companies");
    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    expect(within(nav).getByText("SETUP & CONFIGURE")).toBeInTheDocument();
    expect(within(nav).getByText("CONSOLIDATION")).toBeInTheDocument();
    expect(within(nav).getByRole("link", { name: "Connected Companies" })).toHaveAttribute("aria-current", "page");
    const coa = within(nav).getByRole("link", { name: /^COA Mapping, unavailable/ });
    expect(coa).toHaveAttribute("aria-disabled", "true");
    await userEvent.hover(coa);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Connect a parent company first. Connect a subsidiary company first");
    expect(within(nav).getByRole("link", { name: /^Home, unavailable/ })).toBeInTheDocument();
    expect(await screen.findByTestId("empty-state")).toHaveTextContent("No companies connected yet");
  });

  it("shows the trial's days left in the header, and a lapsed trial as read-only; both open the subscription settings", async () => {
    const billing = { status: "TRIAL", trialDays: 30, trialEndsAt: "2099-01-31T00:00:00.000Z", inTrial: true, readOnly: false, plan: null, card: null, currentPeriodEnd: null, plans: [], provider: null, payments: [], canManage: true };
    signIn({ "GET /billing": { ...billing, trialDaysLeft: 5 } });
    const { unmount } = renderRoutes(routes, "/setup/companies");
    const badge = await screen.findByTestId("trial-badge");
    expect(badge).toHaveTextContent("Trial: 5 days left");
    expect(badge).toHaveAttribute("href", "/settings?tab=subscription");
    unmount();
    signIn({ "GET /billing": { ...billing, inTrial: false, readOnly: true, trialDaysLeft: 0 } });
    renderRoutes(routes, "/setup/companies");
    expect(await screen.findByTestId("trial-badge")).toHaveTextContent("Trial ended: read-only");
  });

  it("has a user menu with the email, the links and the release version", async () => {
    signIn();
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: /^User menu/ }));
    // jsdom leaves the dropdown's opening transition unfinished, so its items count as hidden; e2e sees them for real.
    expect(await screen.findByTestId("logged-in-as")).toHaveTextContent("controller@northwind.example");
    expect(screen.getByText("Logged in as")).toBeInTheDocument();
    expect(screen.getByRole("menuitem", { name: /Open QuickBooks/, hidden: true })).toHaveAttribute("href", "https://qbo.intuit.com/app/homepage");
    expect(screen.getByRole("menuitem", { name: /Open QuickBooks/, hidden: true })).toHaveAttribute("target", "_blank");
    expect(screen.getByRole("menuitem", { name: "Account Settings", hidden: true })).toHaveAttribute("href", "/settings");
    expect(screen.getByRole("menuitem", { name: "Support", hidden: true })).toBeInTheDocument();
    expect(screen.getByRole("menuitem", { name: "Log Out", hidden: true })).toHaveAttribute("href", "/logout");
    expect(screen.getByTestId("release-version")).toHaveTextContent("1.75.51");
  });

  it("welcomes at onboarding step 0: 'Get Started' saves step 1 and opens /setup/companies", async () => {
    const calls = signIn(
      { "PATCH /account": { ...ACCOUNT, onboarding: true, onboardingStep: 1 }, "POST /userpermission/releasenotesversion": { releaseNotesVersion: "1" } },
      { account: { onboarding: true, onboardingStep: 0 }, user: { releaseNotesVersion: "0" } },
    );
    const { router } = renderRoutes(routes, "/setup/coa");
    const dialog = await screen.findByRole("dialog", { name: "Welcome to GroupLedger" });
    // SPEC §4: onboarding is on, so the release notes are acknowledged at once instead of shown.
    await waitFor(() => expect(calls.find((c) => c.path === "/userpermission/releasenotesversion")?.body).toEqual({ version: "1" }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Get Started" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/setup/companies"));
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ onboardingStep: 1 });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Welcome to GroupLedger" })).toBeNull());
    const panel = screen.getByRole("region", { name: "Onboarding progress" });
    expect(within(panel).getByText("Connect Companies")).toBeInTheDocument();
    expect(within(panel).getAllByRole("link", { name: /How step \d works/ }).map((a) => a.getAttribute("href"))).toEqual([
      "https://support.groupledger.example/articles/connect-companies",
      "https://support.groupledger.example/articles/chart-of-accounts-mapping",
      "https://support.groupledger.example/articles/opening-balances",
    ]);
    expect(screen.queryByRole("dialog", { name: /What's new/ })).toBeNull();
  });

  it("'Finish Onboarding' switches onboarding off", async () => {
    const calls = signIn({ "PATCH /account": { ...ACCOUNT, onboarding: false, onboardingStep: 1 } }, { account: { onboarding: true, onboardingStep: 1 } });
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: "Finish Onboarding" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: "Onboarding progress" })).toBeNull());
    expect(calls.find((c) => c.method === "PATCH")?.body).toEqual({ onboarding: false });
  });

  it("'Skip This Step' on the welcome overlay asks first, saying what ends, what unlocks and that nothing is lost; Cancel keeps onboarding", async () => {
    const calls = signIn({}, { account: { onboarding: true, onboardingStep: 0 } });
    renderRoutes(routes, "/setup/companies");
    const welcome = await screen.findByRole("dialog", { name: "Welcome to GroupLedger" });
    await userEvent.click(within(welcome).getByRole("button", { name: "Skip This Step" }));
    const confirm = await screen.findByRole("dialog", { name: "Skip the guided setup?" });
    expect(confirm).toHaveTextContent("Skipping ends the whole guided setup, not only this step");
    expect(confirm).toHaveTextContent("Nothing you have connected or mapped is lost");
    // No company yet: the screens the guide holds back, and what they still need after it.
    const unlocks = within(confirm).getByRole("list", { name: "Screens that unlock" });
    expect(within(unlocks).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "Opening Balance Sheet, Multi Period / Company, Single Period / Company, Interco Eliminations, Transaction Detail, Consolidated Reports, Verify ConsolidationThen still locked: Connect a parent company first. Connect a subsidiary company first.",
      "FOREX ManagementThen still locked: Connect a company first. Only needed when a subsidiary keeps its books in another currency than the parent.",
    ]);
    await userEvent.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Skip the guided setup?" })).toBeNull());
    expect(screen.getByRole("dialog", { name: "Welcome to GroupLedger" })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PATCH")).toEqual([]);
  });

  it("confirming 'Skip guided setup' switches onboarding off (SPEC §4), like 'Finish Onboarding'", async () => {
    const calls = signIn(
      { "PATCH /account": { ...ACCOUNT, onboarding: false }, "GET /companies": [PARENT_CO, UK_CO] },
      { account: { onboarding: true, onboardingStep: 0 } },
    );
    renderRoutes(routes, "/setup/companies");
    await userEvent.click(await screen.findByRole("button", { name: "Skip This Step" }));
    const confirm = await screen.findByRole("dialog", { name: "Skip the guided setup?" });
    // With a parent and a subsidiary, the consolidation screens open as soon as the guide ends.
    expect(within(confirm).getAllByRole("listitem")[0]).toHaveTextContent(/^Opening Balance Sheet, .*Verify ConsolidationOpen right away\.$/);
    await userEvent.click(within(confirm).getByRole("button", { name: "Skip guided setup" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Welcome to GroupLedger" })).toBeNull());
    expect(screen.queryByRole("dialog", { name: "Skip the guided setup?" })).toBeNull();
    expect(calls.filter((c) => c.method === "PATCH").map((c) => c.body)).toEqual([{ onboarding: false }]);
    const nav = screen.getByRole("navigation", { name: "Main navigation" });
    expect(await within(nav).findByRole("link", { name: "Single Period / Company" })).toHaveAttribute("href", "/consolidation/run");
  });

  it.each([1, 2.2, 3, 3.1, 3.2])("the progress panel at step %s offers 'Finish Onboarding' and no 'Skip This Step'", async (step) => {
    signIn({}, { account: { onboarding: true, onboardingStep: step } });
    renderRoutes(routes, "/setup/companies");
    const panel = await screen.findByRole("region", { name: "Onboarding progress" });
    expect(within(panel).getByRole("button", { name: "Finish Onboarding" })).toBeInTheDocument();
    expect(within(panel).queryByRole("button", { name: "Skip This Step" })).toBeNull();
  });

  it("opens the release notes for an older version and posts '1' on acknowledgement", async () => {
    const calls = signIn({ "POST /userpermission/releasenotesversion": { releaseNotesVersion: "1" } }, { user: { releaseNotesVersion: "0" } });
    renderRoutes(routes, "/setup/companies");
    const dialog = await screen.findByRole("dialog", { name: "What's new in GroupLedger" });
    await userEvent.click(within(dialog).getByRole("button", { name: "Got it" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "What's new in GroupLedger" })).toBeNull());
    expect(calls.find((c) => c.path === "/userpermission/releasenotesversion")?.body).toEqual({ version: "1" });
  });

  it("tracks a page view on every route change", async () => {
    const pageView = vi.fn();
    configureAnalytics({ pageView });
    signIn();
    const { router } = renderRoutes(routes, "/setup/companies");
    await screen.findByRole("heading", { name: "Connected Companies", level: 1 });
    await act(() => router.navigate("/settings"));
    expect(await screen.findByRole("heading", { name: "Account Settings", level: 1 })).toBeInTheDocument();
    expect(pageView.mock.calls.map(([p]) => p)).toEqual(["/setup/companies", "/settings"]);
  });

  it("shows the idle dialog after the configured timeout; Stay closes it", async () => {
    signIn({ "GET /config": { idleTimeoutMs: 400, devMailbox: true } });
    renderRoutes(routes, "/setup/companies");
    const dialog = await screen.findByRole("dialog", { name: "Idle Timeout" }, { timeout: 3000 });
    expect(dialog).toHaveTextContent("Are you still there?");
    expect(within(dialog).getByRole("button", { name: "Logout" })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole("button", { name: "Stay" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Idle Timeout" })).toBeNull());
  });
});
