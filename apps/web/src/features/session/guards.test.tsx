import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { routes } from "../../app/routes.tsx";
import { fakeToken, inOneHour, mockApi, renderRoutes } from "../../test/render.tsx";
import { shellApi } from "../../test/fixtures.ts";
import { guardRedirect } from "./guards.tsx";
import { saveToken } from "./tokenStore.ts";

describe("guardRedirect (SPEC §2, §6)", () => {
  it.each([
    ["public", false, null],
    ["public", true, "/home"],
    ["authenticated", false, "/login"],
    ["authenticated", true, null],
    ["open", false, null],
    ["open", true, null],
  ] as const)("%s route, token %s → %s", (access, hasToken, target) => {
    expect(guardRedirect(access, hasToken)).toBe(target);
  });

  it("sends a public page seen with a token to the deep link that led to /login, never to another site", () => {
    expect(guardRedirect("public", true, { from: "/consolidation/reports?from=2026-01" })).toBe("/consolidation/reports?from=2026-01");
    expect(guardRedirect("public", true, { from: "//evil.example/x" })).toBe("/home");
    expect(guardRedirect("public", true, { from: "https://evil.example/" })).toBe("/home");
    expect(guardRedirect("public", true, { notice: "loggedOut" })).toBe("/home");
  });
});

describe("routes and redirects", () => {
  const signedIn = () => {
    saveToken(fakeToken(inOneHour()));
    mockApi(shellApi());
  };

  it("sends an authenticated route without a token to /login", async () => {
    mockApi({});
    const { router } = renderRoutes(routes, "/setup/coa");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(await screen.findByRole("heading", { name: "Log in to GroupLedger" })).toBeInTheDocument();
  });

  it("sends a public route with a token to /home, then /setup/companies", async () => {
    signedIn();
    const { router } = renderRoutes(routes, "/login");
    await waitFor(() => expect(router.state.location.pathname).toBe("/setup/companies"));
    expect(await screen.findByRole("heading", { name: "Connected Companies", level: 1 })).toBeInTheDocument();
  });

  it("redirects /consolidation to /consolidation/run and unknown paths to /", async () => {
    signedIn();
    const { router } = renderRoutes(routes, "/consolidation");
    await waitFor(() => expect(router.state.location.pathname).toBe("/consolidation/run"));
    await router.navigate("/no/such/page");
    // "*" goes to "/", which as a public page sends a signed-in user on to /home and /setup/companies.
    await waitFor(() => expect(router.state.location.pathname).toBe("/setup/companies"));
  });

  it("sends unknown paths to the landing page when signed out", async () => {
    mockApi({});
    const { router } = renderRoutes(routes, "/no/such/page");
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(await screen.findByRole("heading", { name: /Close the group's month/ })).toBeInTheDocument();
  });

  it("does not check the session on the QuickBooks pop-up pages", async () => {
    mockApi({});
    const { router } = renderRoutes(routes, "/setup/connect");
    // No session in this window: the page says so itself instead of redirecting the pop-up to /login.
    expect(await screen.findByRole("heading", { name: "Cannot connect to QuickBooks" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("You are not signed in to GroupLedger in this window.");
    await router.navigate("/disconnect/123");
    expect(await screen.findByRole("heading", { name: "Disconnected from QuickBooks Online" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/disconnect/123");
  });

  it("sends /qbo/auth/complete to /login without a token", async () => {
    mockApi({});
    const { router } = renderRoutes(routes, "/qbo/auth/complete");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });

  it("keeps /qbo/auth/complete behind the session check, without the navigation layout", async () => {
    signedIn();
    renderRoutes(routes, "/qbo/auth/complete");
    // Opened with nothing from QuickBooks on the URL: a clear failure on the page (there is no opener to tell).
    expect(await screen.findByRole("heading", { name: "The company was not connected" })).toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "Main navigation" })).toBeNull();
  });
});
