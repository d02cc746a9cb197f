import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeToken, inOneHour, mockApi, refusal } from "../test/render.tsx";
import { shellApi } from "../test/fixtures.ts";
import { readToken } from "../features/session/tokenStore.ts";
import { renderShell } from "./shell.tsx";
import { firstScreen, setRoot } from "./start.ts";

describe("which code draws the first screen", () => {
  it("is the login shell for /login without a session, the app everywhere else", () => {
    expect(firstScreen("/login", "none")).toBe("shell");
    expect(firstScreen("/login", "expired")).toBe("shell");
    // With a session the public guard must move the user on: that is the router's job.
    expect(firstScreen("/login", "valid")).toBe("app");
    expect(firstScreen("/", "none")).toBe("app");
    expect(firstScreen("/signup", "none")).toBe("app");
    expect(firstScreen("/setup/companies", "none")).toBe("app");
    expect(firstScreen("/login/", "none")).toBe("app");
  });
});

/**
 * Issue 18 item 11: a first visit to /login draws the form without the router, and the app takes
 * over in place, in the same React root, when the user signs in or follows a link.
 */
describe("the login shell", () => {
  let container: HTMLDivElement;
  let root: Root;

  beforeEach(() => {
    window.history.replaceState(null, "", "/login");
    container = document.createElement("div");
    document.body.appendChild(container);
    root = createRoot(container);
    setRoot(root);
  });

  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    window.history.replaceState(null, "", "/");
  });

  it("checks the fields with the contract's messages before any call", async () => {
    const calls = mockApi({});
    act(() => renderShell(root));
    await userEvent.click(await screen.findByRole("button", { name: "Log in" }));
    expect(await screen.findByText("Please enter a valid email.")).toBeInTheDocument();
    expect(screen.getByText("Please provide a valid password.")).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the server's refusal in the form", async () => {
    mockApi({ "POST /session/token": refusal(401, "invalid_credentials", "Incorrect email or password.") });
    act(() => renderShell(root));
    await userEvent.type(await screen.findByLabelText("Email"), "a@example.com");
    await userEvent.type(screen.getByLabelText("Password"), "wrong");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Incorrect email or password.");
    expect(readToken()).toBeNull();
    expect(window.location.pathname).toBe("/login");
  });

  it("signs in, then starts the app in place at the deep link the router sent the visitor from", async () => {
    const token = fakeToken(inOneHour());
    mockApi({ ...shellApi(), "POST /session/token": { token, expiresAt: "2030-01-01T00:00:00.000Z" } });
    // A reload of /login keeps the router's state in the history entry: the guard's deep link.
    window.history.replaceState({ usr: { from: "/settings?from=mail" }, key: "k", idx: 0 }, "", "/login");
    act(() => renderShell(root));
    await userEvent.type(await screen.findByLabelText("Email"), "controller@northwind.example");
    await userEvent.type(screen.getByLabelText("Password"), "Ledger#2026x");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(await screen.findByRole("heading", { name: "Account Settings", level: 1 })).toBeInTheDocument();
    expect(`${window.location.pathname}${window.location.search}`).toBe("/settings?from=mail");
    expect(readToken()).toBe(token);
    // The app drew into the same element: the shell is gone, not beside it.
    expect(container.querySelectorAll("form")).toHaveLength(0);
    expect(screen.queryByRole("heading", { name: "Log in to GroupLedger" })).not.toBeInTheDocument();
  });

  it("without a deep link, signing in lands where the router's guard sends everyone: /home, then the companies", async () => {
    mockApi({ ...shellApi(), "POST /session/token": { token: fakeToken(inOneHour()), expiresAt: "2030-01-01T00:00:00.000Z" } });
    act(() => renderShell(root));
    await userEvent.type(await screen.findByLabelText("Email"), "controller@northwind.example");
    await userEvent.type(screen.getByLabelText("Password"), "Ledger#2026x");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    await waitFor(() => expect(window.location.pathname).toBe("/setup/companies"));
  });

  it("a link starts the app at its target and keeps /login in the history", async () => {
    mockApi({});
    act(() => renderShell(root));
    const before = window.history.length;
    await userEvent.click(await screen.findByRole("link", { name: "Forgot password?" }));
    expect(await screen.findByRole("button", { name: /send/i })).toBeInTheDocument();
    expect(window.location.pathname).toBe("/resetPassword");
    expect(window.history.length).toBe(before + 1);
  });

  it("a second click while the app is loading starts it once: one history entry, one app", async () => {
    mockApi({});
    act(() => renderShell(root));
    const before = window.history.length;
    const link = await screen.findByRole("link", { name: "Forgot password?" });
    // Both clicks land before the app's code has arrived.
    act(() => {
      link.click();
      link.click();
    });
    expect(await screen.findByRole("button", { name: /send/i })).toBeInTheDocument();
    expect(window.history.length).toBe(before + 1);
    expect(screen.getAllByRole("button", { name: /send/i })).toHaveLength(1);
  });

  it("draws real page links, so a new tab opens the page itself", async () => {
    mockApi({});
    act(() => renderShell(root));
    expect(await screen.findByRole("link", { name: "Start a free trial" })).toHaveAttribute("href", "/signup");
    expect(screen.getByRole("link", { name: "Forgot password?" })).toHaveAttribute("href", "/resetPassword");
    expect(screen.getByRole("link", { name: "GroupLedger home" })).toHaveAttribute("href", "/");
    const footer = screen.getByRole("navigation", { name: "Legal" });
    expect([...footer.querySelectorAll("a")].map((a) => a.getAttribute("href"))).toEqual(["/pricing", "/privacy", "/terms"]);
  });

  it("shows the idle logout's notice and the email handed over in the address", async () => {
    mockApi({});
    window.history.replaceState(null, "", "/login?autoLogout=true&email=a%40example.com");
    act(() => renderShell(root));
    expect(await screen.findByText(/inactive for a while/)).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveValue("a@example.com");
  });
});
