import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import { shellApi } from "../../../test/fixtures.ts";

const WRONG = { "POST /session/token": refusal(401, "invalid_credentials", "Incorrect email or password.") };

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

  // Emptying a field is an edit; the old refusal must not outlive it, nor a failed re-submit.
  it.each([
    ["an empty password then shows only the local message, not the server's old one beside it", "Password", "Please provide a valid password."],
    ["an emptied email then shows only the local message too", "Email", "Please enter a valid email."],
  ])("%s", async (_test, field, message) => {
    await refused();
    await userEvent.clear(screen.getByLabelText(field));
    await userEvent.click(screen.getByRole("button", { name: "Log in" }));
    expect(await screen.findByText(message)).toBeInTheDocument();
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
