import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Billing, NightlySync, Profile, Team } from "@groupledger/contract";
import { PLANS } from "@groupledger/contract";
import { PASSWORD_RULE_MESSAGES } from "@groupledger/domain";
import { afterEach, describe, expect, it } from "vitest";
import { routes } from "../../../app/routes.tsx";
import { shellApi, USER } from "../../../test/fixtures.ts";
import { callsTo, fakeToken, inOneHour, mockApi, refusal, renderRoutes } from "../../../test/render.tsx";
import { listboxOf } from "../../../test/select.ts";
import { clearToken, readToken, saveToken } from "../../session/tokenStore.ts";
import "./SettingsPage.tsx";
import "./ChangePasswordPage.tsx";

const PROFILE: Profile = {
  id: USER.id,
  email: USER.email,
  name: "",
  permissionLevel: 1,
  pendingEmail: null,
  reportEmail: USER.email,
  reportEmailIsSignInEmail: true,
  reportEmailVerified: true,
  createdAt: USER.createdAt,
};

const TEAM: Team = {
  members: [
    { id: "u1", email: USER.email, name: "Jane Controller", permissionLevel: 1, isYou: true, joinedAt: "2026-01-01T00:00:00.000Z" },
    { id: "u2", email: "sam@northwind.example", name: "", permissionLevel: 0, isYou: false, joinedAt: "2026-02-01T00:00:00.000Z" },
  ],
  invitations: [
    {
      id: "i1",
      email: "lee@northwind.example",
      permissionLevel: 0,
      invitedBy: USER.email,
      expiresAt: "2099-01-08T00:00:00.000Z",
      expired: false,
      sendCount: 1,
      lastSentAt: "2099-01-01T00:00:00.000Z",
    },
  ],
};

const BILLING: Billing = {
  status: "TRIAL",
  trialDays: 30,
  trialEndsAt: "2099-01-31T00:00:00.000Z",
  trialDaysLeft: 12,
  inTrial: true,
  readOnly: false,
  plan: null,
  card: null,
  currentPeriodEnd: null,
  plans: [...PLANS],
  provider: { kind: "test", tokenizeUrl: "http://localhost/billing-sandbox/v1/tokens", publishableKey: "pk", testCards: [] },
  payments: [],
  canManage: true,
};

const NIGHTLY: NightlySync = { enabled: true, time: "06:00", timeZone: "UTC", lastRunDate: null, replaceChanged: false };

function signIn(over: Record<string, unknown> = {}, level = 1) {
  saveToken(fakeToken(inOneHour()));
  return mockApi({
    ...shellApi({ user: { permissionLevel: level } }),
    "GET /settings/profile": { ...PROFILE, permissionLevel: level },
    "GET /team": TEAM,
    "GET /billing": { ...BILLING, canManage: level === 1 },
    "GET /eliminations/tolerance": { tolerance: 100, currency: "USD" },
    "GET /settings/nightly-sync": NIGHTLY,
    ...over,
  });
}

afterEach(() => clearToken());

/** Types `text` into `input` in place of what it held, then presses `save`. */
async function saveTyped(input: HTMLElement, text: string, save: HTMLElement) {
  await userEvent.clear(input);
  await userEvent.type(input, text);
  await userEvent.click(save);
}

describe("Account Settings", () => {
  it("saves the name and the report delivery email, showing the server's field message", async () => {
    const calls = signIn({
      "PATCH /settings/profile": { ...PROFILE, name: "Jane Controller" },
      "PATCH /excel/update": refusal(400, "validation_failed", "Please enter a valid email.", {
        fields: [{ path: "email", message: "Please enter a valid email." }],
      }),
    });
    renderRoutes(routes, "/settings");
    await userEvent.type(await screen.findByLabelText("Your name"), "Jane Controller");
    await userEvent.click(screen.getByRole("button", { name: "Save name" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PATCH" && c.path === "/settings/profile")?.body).toEqual({ name: "Jane Controller" }));

    const report = screen.getByLabelText("Send exported workbooks to");
    expect(report).toHaveValue(USER.email);
    await userEvent.clear(report);
    await userEvent.type(report, "not-an-email");
    await userEvent.click(screen.getByRole("button", { name: "Save address" }));
    expect(await screen.findByText("Please enter a valid email.")).toBeInTheDocument();
    expect(calls.some((c) => c.path === "/excel/update")).toBe(false);
  });

  it("verifies a new report address with the code mailed to it before workbooks go there", async () => {
    const CLOSE = "close@northwind.example";
    let profile: Profile = { ...PROFILE };
    const calls = signIn({
      "GET /settings/profile": () => ({ status: 200, body: profile }),
      "PATCH /excel/update": () => {
        profile = { ...PROFILE, reportEmail: CLOSE, reportEmailIsSignInEmail: false, reportEmailVerified: false };
        return { status: 200, body: { data: { email: CLOSE, verified: false, message: `We sent a code to ${CLOSE}. Enter it here to verify the address; until then no report is sent to it.` } } };
      },
      "POST /excel/verify": () => {
        profile = { ...profile, reportEmailVerified: true };
        return { status: 200, body: { data: { email: CLOSE, verified: true } } };
      },
    });
    renderRoutes(routes, "/settings");
    const report = await screen.findByLabelText("Send exported workbooks to");
    expect(screen.queryByTestId("report-email-unverified")).toBeNull();
    await userEvent.clear(report);
    await userEvent.type(report, CLOSE);
    await userEvent.click(screen.getByRole("button", { name: "Save address" }));
    expect(await screen.findByText(`We sent a code to ${CLOSE}. Enter it here to verify the address; until then no report is sent to it.`)).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/excel/update")?.body).toEqual({ email: CLOSE });
    await userEvent.type(screen.getByLabelText("Code from the email"), "abcd-efgh");
    await userEvent.click(screen.getByRole("button", { name: "Verify address" }));
    await waitFor(() => expect(calls.find((c) => c.path === "/excel/verify")?.body).toEqual({ code: "ABCDEFGH" }));
    expect(await screen.findByText(`Verified: exported workbooks will be sent to ${CLOSE}.`)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId("report-email-unverified")).toBeNull());
  });

  it("says an address waits for its code, sends a new one, and shows a wrong code's message", async () => {
    const WAITING = "waiting@northwind.example";
    const calls = signIn({
      "GET /settings/profile": { ...PROFILE, reportEmail: WAITING, reportEmailIsSignInEmail: false, reportEmailVerified: false },
      "PATCH /excel/update": { data: { email: WAITING, verified: false, message: `We sent a code to ${WAITING}. Enter it here to verify the address; until then no report is sent to it.` } },
      "POST /excel/verify": refusal(400, "invalid_code", "That code is not valid or has expired.", {
        fields: [{ path: "code", message: "That code is not valid or has expired." }],
      }),
    });
    renderRoutes(routes, "/settings");
    expect(await screen.findByTestId("report-email-unverified")).toHaveTextContent(`${WAITING} is not verified yet: no report is sent to it until you enter the code we mailed to it.`);
    await userEvent.click(screen.getByRole("button", { name: "Send a new code" }));
    await waitFor(() => expect(calls.find((c) => c.path === "/excel/update")?.body).toEqual({ email: WAITING }));
    expect(await screen.findByText(`We sent a code to ${WAITING}. Enter it here to verify the address; until then no report is sent to it.`)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Code from the email"), "WRONG-CODE");
    await userEvent.click(screen.getByRole("button", { name: "Verify address" }));
    expect(await screen.findByText("That code is not valid or has expired.")).toBeInTheDocument();
  });

  it("changes the sign-in email in two steps", async () => {
    const newToken = fakeToken(inOneHour() + 10);
    const calls = signIn({
      "POST /settings/email": { pendingEmail: "new@northwind.example", message: "sent" },
      "POST /settings/email/verify": { email: "new@northwind.example", token: newToken, expiresAt: "2099-01-01T00:00:00.000Z" },
    });
    renderRoutes(routes, "/settings");
    await userEvent.type(await screen.findByLabelText("New sign-in email"), "New@Northwind.example");
    await userEvent.type(screen.getByLabelText("Current password"), "Ledger#2026x");
    await userEvent.click(screen.getByRole("button", { name: "Send code" }));
    expect(await screen.findByText("new@northwind.example")).toBeInTheDocument();
    expect(calls.find((c) => c.path === "/settings/email")?.body).toEqual({ newEmail: "new@northwind.example", currentPassword: "Ledger#2026x" });
    await userEvent.type(screen.getByLabelText("Code from the email"), "abcd-efgh");
    await userEvent.click(screen.getByRole("button", { name: "Confirm new email" }));
    await waitFor(() => expect(calls.find((c) => c.path === "/settings/email/verify")?.body).toEqual({ code: "ABCDEFGH" }));
    await waitFor(() => expect(readToken()).toBe(newToken));
  });

  it("lets an admin invite, resend, revoke and change levels", async () => {
    const calls = signIn({
      "POST /team/invitations": { ...TEAM.invitations[0], id: "i2", email: "kim@northwind.example" },
      "POST /team/invitations/i1/resend": TEAM.invitations[0],
      "DELETE /team/invitations/i1": { status: 204 },
      "PATCH /team/members/u2": TEAM,
    });
    renderRoutes(routes, "/settings?tab=team");
    const invite = await screen.findByRole("form", { name: "Invite a colleague" });
    await userEvent.click(within(invite).getByRole("button", { name: "Send invitation" }));
    expect(await within(invite).findByText("Please enter a valid email.")).toBeInTheDocument();
    await userEvent.type(within(invite).getByLabelText("Colleague's email"), " Kim@Northwind.example ");
    await userEvent.click(within(invite).getByRole("button", { name: "Send invitation" }));
    await waitFor(() => expect(calls.find((c) => c.path === "/team/invitations")?.body).toEqual({ email: "kim@northwind.example", permissionLevel: 0 }));

    const pending = screen.getByRole("table", { name: "Pending invitations" });
    expect(within(pending).getByText("lee@northwind.example")).toBeInTheDocument();
    await userEvent.click(within(pending).getByRole("button", { name: "Resend the invitation to lee@northwind.example" }));
    await userEvent.click(within(pending).getByRole("button", { name: "Revoke the invitation to lee@northwind.example" }));
    await waitFor(() => expect(calls.filter((c) => c.path.startsWith("/team/invitations/i1")).map((c) => c.method)).toEqual(["POST", "DELETE"]));

    const level = screen.getByRole("textbox", { name: "Level of sam@northwind.example" });
    await userEvent.click(level);
    const listbox = await listboxOf(level);
    await userEvent.click(within(listbox).getByRole("option", { name: "Admin", hidden: true }));
    await waitFor(() => expect(calls.find((c) => c.method === "PATCH" && c.path === "/team/members/u2")?.body).toEqual({ permissionLevel: 1 }));
  });

  it("renames the group that invitation mails name, refusing an empty name before sending", async () => {
    const calls = signIn({ "PATCH /account": { ...shellApi()["GET /account"], name: "Northwind Holdings group" } });
    renderRoutes(routes, "/settings?tab=team");
    const form = await screen.findByRole("form", { name: "Group name" });
    const input = await within(form).findByLabelText("Group name");
    expect(input).toHaveValue("Northwind group");
    await userEvent.clear(input);
    await userEvent.click(within(form).getByRole("button", { name: "Save name" }));
    expect(await within(form).findByText("Please enter a name.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "PATCH" && c.path === "/account")).toHaveLength(0);
    await userEvent.type(input, "Northwind Holdings group");
    await userEvent.click(within(form).getByRole("button", { name: "Save name" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PATCH" && c.path === "/account")?.body).toEqual({ name: "Northwind Holdings group" }));
    expect(await within(form).findByText("The group's name was saved.")).toBeInTheDocument();
  });

  it("sets the group's elimination tolerance in the parent's currency, refusing what the server would before sending", async () => {
    const calls = signIn({ "PUT /eliminations/tolerance": (init: { body?: unknown }) => ({ status: 200, body: { tolerance: JSON.parse(String(init.body)).tolerance, currency: "USD" } }) });
    renderRoutes(routes, "/settings?tab=team");
    const form = await screen.findByRole("form", { name: "Elimination tolerance" });
    const input = await within(form).findByLabelText("Elimination tolerance (USD)");
    expect(input).toHaveValue("1.00");
    expect(form).toHaveTextContent("The difference is still shown and posted to the parent's FX account (or CTA, as the pair says). 0 is exact matching; the default is $1.00.");
    const save = within(form).getByRole("button", { name: "Save tolerance" });
    expect(save).toBeDisabled();
    const puts = () => callsTo(calls, "PUT", "/eliminations/tolerance");

    await saveTyped(input, "1000.01", save);
    expect(await within(form).findByText("The tolerance is at most $1,000.00: a larger difference is a mismatch to investigate, not rounding.")).toBeInTheDocument();
    await saveTyped(input, "0.005", save);
    expect(await within(form).findByText("Enter an amount in USD with at most 2 decimal places, such as 1.00; 0 for exact matching.")).toBeInTheDocument();
    expect(puts()).toHaveLength(0);

    await saveTyped(input, "0.25", save);
    await waitFor(() => expect(puts()[0]?.body).toEqual({ tolerance: 25 }));
    expect(await within(form).findByText("The elimination tolerance was saved: pairs within $0.25 count as matched.")).toBeInTheDocument();
    expect(input).toHaveValue("0.25");
  });

  it("shows the server's refusal of a tolerance on the field", async () => {
    signIn({ "PUT /eliminations/tolerance": refusal(402, "subscription_required", "Your trial has ended: subscribe to make changes.") });
    renderRoutes(routes, "/settings?tab=team");
    const form = await screen.findByRole("form", { name: "Elimination tolerance" });
    const input = await within(form).findByLabelText("Elimination tolerance (USD)");
    await userEvent.clear(input);
    await userEvent.type(input, "0");
    await userEvent.click(within(form).getByRole("button", { name: "Save tolerance" }));
    expect(await within(form).findByText("Your trial has ended: subscribe to make changes.")).toBeInTheDocument();
  });

  it("asks for a parent company before a tolerance can be set", async () => {
    signIn({ "GET /eliminations/tolerance": { tolerance: 100, currency: null } });
    renderRoutes(routes, "/settings?tab=team");
    expect(await screen.findByTestId("tolerance-needs-parent")).toHaveTextContent("Choose a parent company first: the tolerance is an amount in the parent's currency.");
    expect(screen.queryByRole("form", { name: "Elimination tolerance" })).toBeNull();
  });

  it("sets the group's nightly sync: a time of day on the 24-hour clock and a time zone, checked before sending", async () => {
    const calls = signIn({
      "GET /settings/nightly-sync": { ...NIGHTLY, lastRunDate: "2026-03-07" },
      "PUT /settings/nightly-sync": (init: { body?: unknown }) => ({ status: 200, body: { ...JSON.parse(String(init.body)), lastRunDate: "2026-03-07" } }),
    });
    renderRoutes(routes, "/settings?tab=team");
    const form = await screen.findByRole("form", { name: "Nightly sync" });
    expect(within(form).getByTestId("nightly-last-run")).toHaveTextContent("Last nightly sync: Mar 7, 2026 (UTC).");
    const time = within(form).getByLabelText("Time of day");
    const save = within(form).getByRole("button", { name: "Save nightly sync" });
    expect(save).toBeDisabled();
    const puts = () => callsTo(calls, "PUT", "/settings/nightly-sync");

    await saveTyped(time, "6:30", save);
    expect(await within(form).findByText("Give a time of day as HH:MM on the 24-hour clock, e.g. 06:00 or 18:30.")).toBeInTheDocument();
    expect(puts()).toHaveLength(0);

    await userEvent.clear(time);
    await userEvent.type(time, "05:30");
    const zone = within(form).getByRole("textbox", { name: "Time zone" });
    await userEvent.click(zone);
    await userEvent.click(within(await listboxOf(zone)).getByRole("option", { name: "Europe/Berlin", hidden: true }));
    await userEvent.click(save);
    await waitFor(() => expect(puts()[0]?.body).toEqual({ enabled: true, time: "05:30", timeZone: "Europe/Berlin", replaceChanged: false }));
    expect(await within(form).findByText("The nightly sync was saved. Every connected company is synced each day at 05:30, Europe/Berlin time.")).toBeInTheDocument();

    // Replacing what the nightly sync finds changed is approved here, in advance.
    await userEvent.click(within(form).getByRole("checkbox", { name: /^Replace changed entries after the nightly sync/ }));
    await userEvent.click(save);
    await waitFor(() => expect(puts()[1]?.body).toEqual({ enabled: true, time: "05:30", timeZone: "Europe/Berlin", replaceChanged: true }));
    expect(
      await within(form).findByText(
        "The nightly sync was saved. Every connected company is synced each day at 05:30, Europe/Berlin time. Entries it finds changed are then replaced, and the admins get a summary by mail.",
      ),
    ).toBeInTheDocument();

    await userEvent.click(within(form).getByRole("switch", { name: /^Sync every company each night/ }));
    expect(time).toBeDisabled();
    expect(within(form).getByRole("checkbox", { name: /^Replace changed entries/ })).toBeDisabled();
    await userEvent.click(save);
    await waitFor(() => expect(puts()[2]?.body).toEqual({ enabled: false, time: "05:30", timeZone: "Europe/Berlin", replaceChanged: true }));
    expect(await within(form).findByText(/The nightly sync was saved. The nightly sync is off/)).toBeInTheDocument();
  });

  it("a member sees the nightly sync but cannot change it", async () => {
    const calls = signIn({ "GET /settings/nightly-sync": { ...NIGHTLY, timeZone: "America/New_York" } }, 0);
    renderRoutes(routes, "/settings?tab=team");
    const form = await screen.findByRole("form", { name: "Nightly sync" });
    expect(within(form).getByRole("switch", { name: /^Sync every company each night/ })).toBeDisabled();
    expect(within(form).getByLabelText("Time of day")).toBeDisabled();
    expect(within(form).getByRole("textbox", { name: "Time zone" })).toHaveValue("America/New York");
    expect(within(form).getByRole("button", { name: "Save nightly sync" })).toBeDisabled();
    expect(calls.filter((c) => c.method === "PUT")).toHaveLength(0);
  });

  it("shows the last-admin refusal in words", async () => {
    signIn({ "DELETE /team/members/u1": refusal(409, "last_admin", "Your account needs at least one admin. Make another member an admin first.") });
    renderRoutes(routes, "/settings?tab=team");
    await userEvent.click(await screen.findByRole("button", { name: `Actions for ${USER.email}` }));
    await userEvent.click(await screen.findByRole("menuitem", { name: "Leave the account", hidden: true }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your account needs at least one admin.");
  });

  it("a member sees the team and the plan but none of the admin controls", async () => {
    signIn({}, 0);
    renderRoutes(routes, "/settings?tab=team");
    expect(await screen.findByText(/Only an admin can invite people/)).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Invite a colleague" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Resend the invitation/ })).toBeNull();
    await userEvent.click(screen.getByRole("tab", { name: "Subscription" }));
    expect(await screen.findByText("Only an admin of your account can choose or change the plan.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Choose Group/ })).toBeNull();
  });

  it("shows the trial's days left and opens the payment form for the chosen plan", async () => {
    signIn();
    renderRoutes(routes, "/settings?tab=subscription");
    expect(await screen.findByTestId("subscription-status")).toHaveTextContent("Free trial");
    expect(screen.getByTestId("trial-days-left")).toHaveTextContent("12");
    expect(screen.getByTestId("subscription-summary")).toHaveTextContent("12 days left of your 30-day trial");
    expect(screen.queryByRole("form", { name: "Payment card" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Choose Group Plus" }));
    expect(await screen.findByRole("form", { name: "Payment card" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Subscribe (charged when the trial ends)" })).toBeInTheDocument();
  });

  it("says a lapsed trial is read-only", async () => {
    signIn({ "GET /billing": { ...BILLING, inTrial: false, readOnly: true, trialDaysLeft: 0, trialEndsAt: "2026-01-31T00:00:00.000Z" } });
    renderRoutes(routes, "/settings?tab=subscription");
    expect(await screen.findByTestId("subscription-status")).toHaveTextContent("Trial ended");
    expect(screen.getByTestId("subscription-summary")).toHaveTextContent("ended on January 31, 2026. The app is read-only");
    expect(screen.getByRole("button", { name: "Choose Group" })).toBeInTheDocument();
  });
});

describe("Change Password", () => {
  it("checks the creation rules and the confirmation, then saves the new token", async () => {
    const newToken = fakeToken(inOneHour() + 99);
    const calls = signIn({
      "POST /session/changepassword": (init: RequestInit) => {
        const body = JSON.parse(String(init.body)) as { currentPassword: string };
        return body.currentPassword === "Wrong#2026x"
          ? refusal(400, "wrong_password", "Your current password is not correct.", {
            fields: [{ path: "currentPassword", message: "Your current password is not correct." }],
          })
          : { status: 200, body: { token: newToken, expiresAt: "2099-01-01T00:00:00.000Z" } };
      },
    });
    const { router } = renderRoutes(routes, "/changePassword");
    await userEvent.click(await screen.findByRole("button", { name: "Change password" }));
    expect(await screen.findByText("Please provide a valid password.")).toBeInTheDocument();
    expect(screen.getAllByText(PASSWORD_RULE_MESSAGES.minLength).length).toBeGreaterThan(0);

    await userEvent.type(screen.getByLabelText("Current password"), "Wrong#2026x");
    await userEvent.type(screen.getByLabelText("New password"), "Controller#2026");
    await userEvent.type(screen.getByLabelText("Confirm new password"), "Controller#2027");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText(PASSWORD_RULE_MESSAGES.notEmailName, { selector: ".mantine-InputWrapper-error" })).toBeInTheDocument();
    expect(screen.getByText("The two values do not match.")).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText("New password"));
    await userEvent.type(screen.getByLabelText("New password"), "Ledger#2027y");
    await userEvent.clear(screen.getByLabelText("Confirm new password"));
    await userEvent.type(screen.getByLabelText("Confirm new password"), "Ledger#2027y");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    expect(await screen.findByText("Your current password is not correct.")).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText("Current password"));
    await userEvent.type(screen.getByLabelText("Current password"), "Ledger#2026x");
    await userEvent.click(screen.getByRole("button", { name: "Change password" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/settings"));
    expect(readToken()).toBe(newToken);
    expect(calls.filter((c) => c.path === "/session/changepassword").at(-1)?.body).toEqual({ currentPassword: "Ledger#2026x", newPassword: "Ledger#2027y" });
  });
});
