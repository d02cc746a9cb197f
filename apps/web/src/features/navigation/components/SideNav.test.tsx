import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Account, Company } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, shellApi, UK_CO } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, renderRoutes } from "../../../test/render.tsx";
import { saveToken } from "../../session/tokenStore.ts";

function signIn(account: Partial<Account>, companies: Company[]) {
  saveToken(fakeToken(inOneHour()));
  mockApi({ ...shellApi({ account }), "GET /companies": companies });
}

const nav = () => screen.findByRole("navigation", { name: "Main navigation" });
const entries = async () => within(await nav()).getAllByRole("link").map((l) => l.textContent);

describe("side navigation: Reports and Verify (issue 18)", () => {
  it("lists Consolidated Reports and Verify Consolidation under CONSOLIDATION, after the spec's entries in their order", async () => {
    signIn({ onboarding: false }, [PARENT_CO, UK_CO]);
    renderRoutes(routes, "/setup/companies");
    const group = within(await nav()).getByRole("group", { name: "CONSOLIDATION" });
    await within(group).findByRole("link", { name: "Consolidated Reports" });
    expect(within(group).getAllByRole("link").map((l) => l.textContent)).toEqual([
      "FOREX Management",
      "Multi Period / Company",
      "Single Period / Company",
      "Interco Eliminations",
      "Transaction Detail",
      "Consolidated Reports",
      "Verify Consolidation",
    ]);
    expect((await entries()).slice(0, 6)).toEqual(["Home", "Connected Companies", "COA Mapping", "CTA & Historical", "Acquisitions", "Opening Balance Sheet"]);
  });

  it("enables them with a parent and a subsidiary once onboarding is complete, like Single Period, and they open their screens", async () => {
    signIn({ onboarding: false }, [PARENT_CO, UK_CO]);
    const { router } = renderRoutes(routes, "/setup/companies");
    const n = await nav();
    const reports = await within(n).findByRole("link", { name: "Consolidated Reports" });
    expect(reports).toHaveAttribute("href", "/consolidation/reports");
    expect(reports).not.toHaveAttribute("aria-disabled");
    expect(within(n).getByRole("link", { name: "Verify Consolidation" })).toHaveAttribute("href", "/consolidation/verify");
    const consolidation = within(n).getByRole("group", { name: "CONSOLIDATION" });
    const setup = within(n).getByRole("group", { name: "SETUP & CONFIGURE" });
    expect(consolidation).not.toHaveAttribute("data-active");
    expect(setup).toHaveAttribute("data-active");

    await userEvent.click(reports);
    expect(router.state.location.pathname).toBe("/consolidation/reports");
    expect(await screen.findByRole("heading", { name: "Consolidated reports", level: 1 })).toBeInTheDocument();
    // The highlighted group and entry follow the path.
    expect(consolidation).toHaveAttribute("data-active");
    expect(setup).not.toHaveAttribute("data-active");
    expect(within(n).getByRole("link", { name: "Consolidated Reports" })).toHaveAttribute("aria-current", "page");

    await userEvent.click(within(n).getByRole("link", { name: "Verify Consolidation" }));
    expect(await screen.findByRole("heading", { name: "Verify Consolidation", level: 1 })).toBeInTheDocument();
    expect(within(n).getByRole("link", { name: "Verify Consolidation" })).toHaveAttribute("aria-current", "page");
    expect(within(n).getByRole("link", { name: "Consolidated Reports" })).not.toHaveAttribute("aria-current");

    // The Single Period tab still shows the reports, and Single Period is the current entry there.
    await act(() => router.navigate("/consolidation/run?tab=reports"));
    expect(await screen.findByRole("tab", { name: "Consolidated reports", selected: true })).toBeInTheDocument();
    expect(within(n).getByRole("link", { name: "Single Period / Company" })).toHaveAttribute("aria-current", "page");
    expect(consolidation).toHaveAttribute("data-active");
  });

  it.each([
    ["while onboarding is active", { onboarding: true, onboardingStep: 3 }, [PARENT_CO, UK_CO], "Finish onboarding first."],
    ["without a subsidiary", { onboarding: false }, [PARENT_CO], "Connect a subsidiary company first."],
    ["without a parent", { onboarding: false }, [UK_CO], "Connect a parent company first."],
  ] as const)("disables them %s, saying why, exactly when Single Period is disabled", async (_, account, companies, reason) => {
    signIn(account, [...companies]);
    renderRoutes(routes, "/setup/companies");
    const n = await nav();
    for (const label of ["Single Period / Company", "Consolidated Reports", "Verify Consolidation"]) {
      const item = await within(n).findByRole("link", { name: `${label}, unavailable: ${reason}` });
      expect(item).toHaveAttribute("aria-disabled", "true");
      expect(item).not.toHaveAttribute("href");
    }
  });
});
