import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { PASSWORD_RULE_MESSAGES } from "@groupledger/domain";
import { afterEach, describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { shellApi } from "../../../test/fixtures.ts";
import { fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import { clearToken, readToken } from "../../session/tokenStore.ts";
import { invitationTokenFrom } from "./InvitationPage.tsx";
import "./InvitationPage.tsx";

const TOKEN = "Ck8iHWqtTiJQ--7O1ghcxZ1-0Sb34bCYToJgvTX1ngU";
const PREVIEW = { email: "casey@northwind.example", accountName: "Northwind group", invitedBy: "jane@northwind.example", permissionLevel: 0, expiresAt: "2099-01-01T00:00:00.000Z" };

afterEach(() => clearToken());

describe("invitation link", () => {
  it("reads the token from the fragment (or the query) and ignores anything malformed", () => {
    expect(invitationTokenFrom(`#token=${TOKEN}`, "")).toBe(TOKEN);
    expect(invitationTokenFrom("", `?token=${TOKEN}`)).toBe(TOKEN);
    expect(invitationTokenFrom("#token=short", "")).toBeNull();
    expect(invitationTokenFrom("", "")).toBeNull();
  });

  it("shows who invited whom, checks the form, joins and signs in", async () => {
    const token = fakeToken(inOneHour());
    const calls = mockApi({ ...shellApi(), "POST /invitations/lookup": PREVIEW, "POST /invitations/accept": { token, expiresAt: "2099-01-01T00:00:00.000Z" } });
    const { router } = renderRoutes(routes, `/invitation#token=${TOKEN}`);
    expect(await screen.findByRole("heading", { name: "Join Northwind group" })).toBeInTheDocument();
    expect(screen.getByText(/jane@northwind.example invited you to GroupLedger as a member/)).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveValue("casey@northwind.example");
    expect(calls.find((c) => c.path === "/invitations/lookup")?.body).toEqual({ token: TOKEN });

    await userEvent.click(screen.getByRole("button", { name: "Join and sign in" }));
    expect(await screen.findByText("Please enter your name (at most 120 characters).")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Your name"), "Casey");
    await userEvent.type(screen.getByLabelText("Choose a password"), "Casey#2026xx");
    await userEvent.type(screen.getByLabelText("Confirm password"), "Casey#2026xy");
    await userEvent.click(screen.getByRole("button", { name: "Join and sign in" }));
    expect(await screen.findByText(PASSWORD_RULE_MESSAGES.notEmailName, { selector: ".mantine-InputWrapper-error" })).toBeInTheDocument();
    expect(screen.getByText("The two values do not match.")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "/invitations/accept")).toBe(false);

    await userEvent.clear(screen.getByLabelText("Choose a password"));
    await userEvent.type(screen.getByLabelText("Choose a password"), "Ledger#2026x");
    await userEvent.clear(screen.getByLabelText("Confirm password"));
    await userEvent.type(screen.getByLabelText("Confirm password"), "Ledger#2026x");
    await userEvent.click(screen.getByRole("button", { name: "Join and sign in" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/setup/companies"));
    expect(readToken()).toBe(token);
    expect(calls.find((c) => c.path === "/invitations/accept")?.body).toEqual({ token: TOKEN, name: "Casey", password: "Ledger#2026x", confirmPassword: "Ledger#2026x" });
  });

  it("explains a dead or incomplete link", async () => {
    mockApi({ "POST /invitations/lookup": refusal(400, "invitation_expired", "This invitation has expired. Ask the person who invited you to send it again.") });
    renderRoutes(routes, `/invitation#token=${TOKEN}`);
    expect(await screen.findByRole("alert")).toHaveTextContent("This invitation has expired.");
  });

  it("explains a link without its token", async () => {
    mockApi({});
    renderRoutes(routes, "/invitation");
    expect(await screen.findByRole("alert")).toHaveTextContent("The link is not complete.");
  });
});
