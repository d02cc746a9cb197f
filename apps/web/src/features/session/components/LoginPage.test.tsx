import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { fakeToken, inOneHour, mockApi, renderRoutes } from "../../../test/render.tsx";
import { shellApi } from "../../../test/fixtures.ts";

const WRONG = { "POST /session/token": { status: 401, body: { error: { code: "invalid_credentials", message: "Incorrect email or password." } } } };

/** Issue 18: what the login form says after a refused attempt, and where logging in lands. */
describe("login form after a refused attempt", () => {
  async function refused() {
    mockApi(WRONG);
    renderRoutes(routes, "/login");
    await userEvent.type(await screen.findByLabelText("Email"), "a@example.com");
    await userEvent.type(screen.getByLabelText("Password"), "wrong");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Incorrect email or password.");
  }

  it("an empty password then shows only the local message, not the server's old one beside it", async () => {
    await refused();
    // Emptying the field is an edit; the old refusal must not outlive it, nor a failed re-submit.
    await userEvent.clear(screen.getByLabelText("Password"));
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(await screen.findByText("Please provide a valid password.")).toBeInTheDocument();
    expect(screen.queryByText("Incorrect email or password.")).not.toBeInTheDocument();
  });

  it("an emptied email then shows only the local message too", async () => {
    await refused();
    await userEvent.clear(screen.getByLabelText("Email"));
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(await screen.findByText("Please enter a valid email.")).toBeInTheDocument();
    expect(screen.queryByText("Incorrect email or password.")).not.toBeInTheDocument();
  });

  it("typing in a field clears the server's message", async () => {
    await refused();
    await userEvent.type(screen.getByLabelText("Password"), "x");
    await waitFor(() => expect(screen.queryByText("Incorrect email or password.")).not.toBeInTheDocument());
  });
});

describe("a deep link opened while logged out", () => {
  it("is where logging in lands, with its query, not /setup/companies", async () => {
    const token = fakeToken(inOneHour());
    mockApi({ ...shellApi(), "POST /session/token": { token, expiresAt: "2030-01-01T00:00:00.000Z" } });
    const { router } = renderRoutes(routes, "/settings?from=mail");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    await userEvent.type(await screen.findByLabelText("Email"), "controller@northwind.example");
    await userEvent.type(screen.getByLabelText("Password"), "Ledger#2026x");
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe("/settings?from=mail"));
    expect(await screen.findByRole("heading", { name: "Account Settings", level: 1 })).toBeInTheDocument();
    // And it stays there.
    await new Promise((r) => setTimeout(r, 50));
    expect(router.state.location.pathname).toBe("/settings");
  });
});
