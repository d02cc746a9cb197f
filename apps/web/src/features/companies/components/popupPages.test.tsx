import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { PARENT_CO } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import { saveToken } from "../../session/tokenStore.ts";
import { callbackRequestFrom, resetAuthCompleteForTests } from "./AuthCompletePage.tsx";
import { connectNavigation, resetConnectPageForTests, safeAuthorizeUrl } from "./ConnectPage.tsx";
import { readPopupMessage } from "../connectPopup.ts";
// Loaded up front so the routes' lazy imports resolve at once.
import "./AuthCompletePage.tsx";

const ORIGIN = window.location.origin;
const signIn = () => saveToken(fakeToken(inOneHour()));

/** The opening window as the pop-up sees it. */
function fakeOpener() {
  const opener = { closed: false, postMessage: vi.fn() };
  Object.defineProperty(window, "opener", { value: opener, configurable: true, writable: true });
  return opener;
}

beforeEach(() => {
  resetConnectPageForTests();
  resetAuthCompleteForTests();
  Object.defineProperty(window, "opener", { value: null, configurable: true, writable: true });
});
afterEach(() => vi.restoreAllMocks());

describe("readPopupMessage: what the opener accepts", () => {
  it("accepts the two messages of the contract from its own origin only", () => {
    const done = { type: "AUTHORIZATION_COMPLETE", realmId: "1", companyName: "A" };
    expect(readPopupMessage({ origin: ORIGIN, data: done }, ORIGIN)).toEqual(done);
    expect(readPopupMessage({ origin: ORIGIN, data: { type: "AUTHORIZATION_FAILED", error: "No" } }, ORIGIN)).toEqual({
      type: "AUTHORIZATION_FAILED",
      error: "No",
    });
    expect(readPopupMessage({ origin: "https://evil.example", data: done }, ORIGIN)).toBeNull();
    expect(readPopupMessage({ origin: ORIGIN, data: { type: "AUTHORIZATION_COMPLETE" } }, ORIGIN)).toBeNull();
    expect(readPopupMessage({ origin: ORIGIN, data: null }, ORIGIN)).toBeNull();
  });
});

describe("/setup/connect", () => {
  it("asks for an authorization with the session copied from the opener and goes to QuickBooks", async () => {
    signIn();
    const go = vi.spyOn(connectNavigation, "go").mockImplementation(() => {});
    const calls = mockApi({
      "GET /qbo/account/authorize": { key: "client", authorizeUrl: "/qbo-sandbox/connect/oauth2?state=s1", expiresInSeconds: 600 },
    });
    renderRoutes(routes, "/setup/connect");
    await waitFor(() => expect(go).toHaveBeenCalledWith(`${ORIGIN}/qbo-sandbox/connect/oauth2?state=s1`));
    expect(calls.filter((c) => c.path === "/qbo/account/authorize")).toHaveLength(1);
    expect(calls[0]?.headers["authorization"]).toMatch(/^Bearer /);
  });

  it("explains a failure and can try again", async () => {
    signIn();
    const go = vi.spyOn(connectNavigation, "go").mockImplementation(() => {});
    let fail = true;
    mockApi({
      "GET /qbo/account/authorize": () =>
        fail
          ? refusal(503, "unavailable", "QuickBooks is not configured.")
          : { status: 200, body: { key: "k", authorizeUrl: "https://appcenter.intuit.com/connect/oauth2?x=1", expiresInSeconds: 600 } },
    });
    renderRoutes(routes, "/setup/connect");
    expect(await screen.findByRole("alert")).toHaveTextContent("QuickBooks could not be opened. QuickBooks is not configured.");
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(go).toHaveBeenCalledWith("https://appcenter.intuit.com/connect/oauth2?x=1"));
  });

  it("a refused session says to sign in again", async () => {
    signIn();
    mockApi({ "GET /qbo/account/authorize": refusal(401, "EXPIRED_TOKEN", "Your session has expired.") });
    renderRoutes(routes, "/setup/connect");
    expect(await screen.findByRole("alert")).toHaveTextContent("Your GroupLedger session has ended.");
  });

  it("never follows a non-http address", () => {
    expect(safeAuthorizeUrl("javascript:alert(1)", ORIGIN)).toBeNull();
    expect(safeAuthorizeUrl("data:text/html,hi", ORIGIN)).toBeNull();
    expect(safeAuthorizeUrl("/qbo-sandbox/x", ORIGIN)).toBe(`${ORIGIN}/qbo-sandbox/x`);
  });
});

describe("/qbo/auth/complete", () => {
  const RETURN = `/qbo/auth/complete?code=c1&state=s1&realmId=${PARENT_CO.realmId}`;

  it("reads the URL, exchanges once, posts AUTHORIZATION_COMPLETE to the opener (same origin) and closes", async () => {
    signIn();
    const opener = fakeOpener();
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    const calls = mockApi({ "POST /qbo/account/callback": { company: PARENT_CO, reconnected: false } });
    renderRoutes(routes, RETURN);
    await waitFor(() => expect(opener.postMessage).toHaveBeenCalledTimes(1));
    expect(opener.postMessage).toHaveBeenCalledWith(
      { type: "AUTHORIZATION_COMPLETE", realmId: PARENT_CO.realmId, companyName: PARENT_CO.companyName },
      ORIGIN,
    );
    expect(close).toHaveBeenCalled();
    expect(calls.filter((c) => c.path === "/qbo/account/callback").map((c) => c.body)).toEqual([
      { code: "c1", state: "s1", realmId: PARENT_CO.realmId },
    ]);
    // Mounted again for the same return URL (React's development double-mount does this): the
    // single-use state is not sent a second time.
    renderRoutes(routes, RETURN);
    await waitFor(() => expect(opener.postMessage).toHaveBeenCalledTimes(2));
    expect(calls.filter((c) => c.path === "/qbo/account/callback")).toHaveLength(1);
  });

  it("passes a denied consent on and posts AUTHORIZATION_FAILED with the server's message", async () => {
    signIn();
    const opener = fakeOpener();
    vi.spyOn(window, "close").mockImplementation(() => {});
    const calls = mockApi({
      "POST /qbo/account/callback": refusal(400, "authorization_denied", "QuickBooks did not authorize the connection. Nothing was connected."),
    });
    renderRoutes(routes, "/qbo/auth/complete?error=access_denied&error_description=User%20cancelled&state=s2");
    await waitFor(() =>
      expect(opener.postMessage).toHaveBeenCalledWith(
        { type: "AUTHORIZATION_FAILED", error: "QuickBooks did not authorize the connection. Nothing was connected." },
        ORIGIN,
      ),
    );
    expect(calls[0]?.body).toEqual({ state: "s2", error: "access_denied", errorDescription: "User cancelled" });
  });

  it("a company taken by another account fails with the 409 message", async () => {
    signIn();
    const opener = fakeOpener();
    vi.spyOn(window, "close").mockImplementation(() => {});
    mockApi({
      "POST /qbo/account/callback": refusal(409, "company_taken", "This QuickBooks company is already connected to another GroupLedger account."),
    });
    renderRoutes(routes, RETURN);
    await waitFor(() => expect(opener.postMessage).toHaveBeenCalledTimes(1));
    expect(opener.postMessage.mock.calls[0]?.[0]).toEqual({
      type: "AUTHORIZATION_FAILED",
      error: "This QuickBooks company is already connected to another GroupLedger account.",
    });
  });

  it("without an opener it shows the result itself, with a way to the companies screen", async () => {
    signIn();
    const close = vi.spyOn(window, "close").mockImplementation(() => {});
    mockApi({ "POST /qbo/account/callback": { company: PARENT_CO, reconnected: true } });
    renderRoutes(routes, RETURN);
    expect(await screen.findByRole("heading", { name: "Company reconnected" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Northwind Holdings Inc. is reconnected.");
    expect(screen.getByRole("link", { name: "Go to Connected Companies" })).toHaveAttribute("href", "/setup/companies");
    expect(close).not.toHaveBeenCalled();
  });

  it("a return without a state is refused before any call", async () => {
    signIn();
    const calls = mockApi({});
    renderRoutes(routes, "/qbo/auth/complete?code=c1&realmId=1");
    expect(await screen.findByRole("alert")).toHaveTextContent("The authorization response has no state.");
    expect(calls.filter((c) => c.path === "/qbo/account/callback")).toHaveLength(0);
  });

  it("callbackRequestFrom keeps only what QuickBooks sent", () => {
    expect(callbackRequestFrom("?state=s&code=c&realmId=r&extra=1")).toEqual({ request: { state: "s", code: "c", realmId: "r" } });
    expect(callbackRequestFrom("?code=c")).toEqual({ error: "The authorization response has no state." });
  });
});
