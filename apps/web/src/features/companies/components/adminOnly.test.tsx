import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO, shellApi, syncedStatus, UK_CO } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, renderRoutes } from "../../../test/render.tsx";
import { clearToken, saveToken } from "../../session/tokenStore.ts";
import "./CompaniesPage.tsx";

const REASON = /Only an admin can connect, disconnect or change companies/;

function signIn(level: number, companies: unknown[]) {
  saveToken(fakeToken(inOneHour()));
  return mockApi({
    ...shellApi({ user: { permissionLevel: level } }),
    "GET /companies": companies,
    "GET /companies/status": Object.fromEntries((companies as { realmId: string }[]).map((c) => [c.realmId, syncedStatus()])),
  });
}

afterEach(() => clearToken());

describe("company actions for a member", () => {
  it("disables connecting with the reason on hover", async () => {
    signIn(0, []);
    renderRoutes(routes, "/setup/companies");
    const connect = await screen.findByRole("button", { name: "Connect company" });
    expect(connect).toBeDisabled();
    await userEvent.hover(connect.closest("[data-admin-only]")!);
    expect(await screen.findByText(REASON)).toBeInTheDocument();
  });

  it("disables every company's actions and the connect button; an admin has them", async () => {
    signIn(0, [PARENT_CO, UK_CO]);
    renderRoutes(routes, "/setup/companies");
    for (const name of [PARENT_CO.companyName, UK_CO.companyName]) {
      expect(await screen.findByRole("button", { name: `Actions for ${name}` })).toBeDisabled();
      expect(screen.getByRole("button", { name: `Sync ${name} now` })).toBeDisabled();
    }
    const table = screen.getByRole("table", { name: "Connected companies" });
    expect(within(table).queryAllByRole("menuitem")).toHaveLength(0);
    clearToken();
  });

  it("an admin's buttons stay enabled", async () => {
    signIn(1, [PARENT_CO, UK_CO]);
    renderRoutes(routes, "/setup/companies");
    expect(await screen.findByRole("button", { name: `Actions for ${UK_CO.companyName}` })).toBeEnabled();
    expect(screen.getByRole("button", { name: `Sync ${UK_CO.companyName} now` })).toBeEnabled();
  });
});
