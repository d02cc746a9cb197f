import type { BrowserContext, Page } from "playwright-core";
import { CARD_MESSAGES, cvvMessage, expiryYearMessage } from "@groupledger/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Issue 10 end to end: an admin invites a colleague from Account Settings, the colleague accepts
 * from the dev mailbox and signs in as a member who cannot post, connect or disconnect (buttons
 * disabled with the reason, and the API refuses with 403), changes their password, and the admin
 * subscribes with the test card after seeing every card validation message.
 */
// Its own server: the demo parent belongs to one account only.
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));

const stamp = Date.now();
const ADMIN = `controller.${stamp}@northwind.example`;
const MEMBER = `analyst.${stamp}@northwind.example`;
const MEMBER_PASSWORD = "Ledger#2026x";
const NEW_PASSWORD = "Consolidate#2027";
const UK = e2e.DEMO.uk;

let admin: e2e.Session;
let memberContext: BrowserContext;
let member: Page;
const shot = e2e.shot;

/** Calls the API as the page's user and returns the status and body, refusals included. */
async function call(page: Page, method: string, path: string, body?: unknown) {
  const token = await page.evaluate(() => sessionStorage.getItem("t"));
  const res = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null };
}

beforeAll(async () => {
  admin = await e2e.openBrowser();
  memberContext = await admin.browser.newContext({ viewport: { width: 1440, height: 900 } });
  member = await memberContext.newPage();
});

afterAll(async () => {
  await admin?.browser.close();
});

describe("team, permissions and subscription in a browser", () => {
  it("the pricing page shows the trial and the plans the app bills", async () => {
    await admin.page.goto(`${baseUrl}/pricing`);
    await admin.page.getByRole("heading", { name: "Simple pricing per group" }).waitFor();
    for (const text of ["for 30 days", "$149", "$299"]) await admin.page.getByText(text, { exact: true }).first().waitFor();
    await shot(admin.page, "87-settings-pricing");
  });

  it("the admin signs up, connects the demo parent and its UK subsidiary", async () => {
    await e2e.signUpAndLogIn(admin.page, baseUrl, ADMIN);
    await e2e.connectDemoGroup(admin, baseUrl, [UK]);
  });

  it("the admin invites a colleague from Account Settings", async () => {
    const page = admin.page;
    await page.goto(`${baseUrl}/settings`);
    await page.getByLabel("Your name", { exact: true }).fill("Jane Controller");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("Your name was saved.").waitFor();
    await shot(page, "80-settings-profile");

    await page.getByRole("tab", { name: "Team" }).click();
    const invite = page.getByRole("form", { name: "Invite a colleague" });
    await invite.getByRole("button", { name: "Send invitation" }).click();
    await invite.getByText("Please enter a valid email.").waitFor();
    await invite.getByLabel("Colleague's email").fill(MEMBER);
    await invite.getByRole("button", { name: "Send invitation" }).click();
    const pending = page.getByRole("table", { name: "Pending invitations" });
    await pending.getByText(MEMBER).waitFor();
    await shot(page, "81-settings-team-invited");
  });

  it("the colleague accepts from the dev mailbox and lands in the app as a member", async () => {
    const mailbox = (await (await fetch(`${baseUrl}/api/dev/mailbox?to=${encodeURIComponent(MEMBER)}`)).json()) as { messages: { subject: string; text: string }[] };
    const mail = mailbox.messages.find((m) => /invited you/.test(m.subject));
    expect(mail?.subject).toBe(`Jane Controller (${ADMIN}) invited you to GroupLedger`);
    const link = /(http\S+\/invitation#token=[A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    expect(link).toBeTruthy();

    await member.goto(link!);
    await member.getByRole("heading", { name: "Join My group" }).waitFor();
    await member.getByRole("button", { name: "Join and sign in" }).click();
    await member.getByText("Please enter your name (at most 120 characters).").waitFor();
    await member.getByLabel("Your name", { exact: true }).fill("Sam Analyst");
    await member.getByLabel("Choose a password").fill(MEMBER_PASSWORD);
    await member.getByLabel("Confirm password").fill(MEMBER_PASSWORD);
    await shot(member, "82-settings-invitation-accept");
    await member.getByRole("button", { name: "Join and sign in" }).click();
    await member.waitForURL("**/setup/companies");
    const session = await call(member, "GET", "/session");
    expect(session.body).toMatchObject({ email: MEMBER, permissionLevel: 0 });

    // The admin sees the new member in the team.
    await admin.page.reload();
    await admin.page.getByRole("table", { name: "Team members" }).getByText("Sam Analyst").waitFor();
  });

  it("the member cannot connect, disconnect or post: the buttons are disabled and the API refuses", async () => {
    await member.goto(`${baseUrl}/setup/companies`);
    const welcome = member.getByRole("dialog", { name: "Welcome to GroupLedger" });
    if (await welcome.isVisible().catch(() => false)) await welcome.getByRole("button", { name: "Get Started" }).click();
    const actions = member.getByRole("button", { name: `Actions for ${UK.name}` });
    await actions.waitFor();
    // The buttons turn off once the session user (with the level) has loaded.
    await expect.poll(() => actions.isDisabled(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => member.getByRole("button", { name: "Connect a subsidiary" }).first().isDisabled(), { timeout: 10_000 }).toBe(true);
    await actions.locator("xpath=ancestor::*[@data-admin-only][1]").hover();
    await member.getByText(/Only an admin can connect, disconnect or change companies/).first().waitFor();
    await shot(member, "83-settings-member-companies");

    const disconnect = await call(member, "PUT", `/companies/disconnect/${UK.realmId}`);
    expect(disconnect.status).toBe(403);
    expect(disconnect.body?.error?.code).toBe("permission_denied");
    const postObal = await call(member, "POST", `/balances/post/${UK.realmId}`);
    expect(postObal.status).toBe(403);
    const connect = await call(member, "GET", "/qbo/account/authorize");
    expect(connect.status).toBe(403);
    // Nothing changed: the UK company is still connected.
    const status = await call(admin.page, "GET", "/companies/status");
    expect((status.body as unknown as Record<string, { connection: string }>)[UK.realmId]?.connection).toBe("connected");
    // Work a member may do still works.
    expect((await call(member, "PATCH", "/excel/update", { email: MEMBER })).status).toBe(200);
  });

  it("the member changes their password", async () => {
    await member.goto(`${baseUrl}/settings?tab=security`);
    await member.getByRole("link", { name: "Change password" }).click();
    await member.waitForURL("**/changePassword");
    await member.getByLabel("Current password").fill(MEMBER_PASSWORD);
    await member.getByLabel("New password", { exact: true }).fill("analyst.x#A1");
    await member.getByLabel("Confirm new password").fill("something else");
    await member.getByRole("button", { name: "Change password" }).click();
    await member.getByText("The two values do not match.").waitFor();
    await shot(member, "84-settings-change-password");
    await member.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await member.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await member.getByRole("button", { name: "Change password" }).click();
    await member.waitForURL("**/settings?tab=security");
    // This tab carries on; the new password signs in and the old one does not.
    expect((await call(member, "GET", "/session")).status).toBe(200);
    const login = (password: string) =>
      fetch(`${baseUrl}/api/session/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: MEMBER, password }) });
    expect((await login(NEW_PASSWORD)).status).toBe(200);
    expect((await login(MEMBER_PASSWORD)).status).toBe(401);
  });

  it("the admin sees every card validation message, then subscribes with the test card", async () => {
    const page = admin.page;
    await page.goto(`${baseUrl}/settings?tab=subscription`);
    await page.getByTestId("subscription-status").getByText("Free trial").waitFor();
    expect(await page.getByTestId("trial-days-left").textContent()).toBe("30");
    await page.getByRole("button", { name: "Choose Group", exact: true }).click();
    const form = page.getByRole("form", { name: "Payment card" });
    const submit = form.getByRole("button", { name: "Subscribe (charged when the trial ends)" });
    const now = new Date();

    await submit.click();
    for (const message of [CARD_MESSAGES.name, CARD_MESSAGES.numberRequired, CARD_MESSAGES.expiryMonth, expiryYearMessage(now), cvvMessage(3)]) {
      await form.getByText(message, { exact: true }).waitFor();
    }
    await shot(page, "85-settings-card-errors");

    const number = form.getByLabel("Card number");
    await form.getByLabel("Name on card").fill("Jane Controller");
    await number.pressSequentially("4242424242424241");
    expect(await number.inputValue()).toBe("4242 4242 4242 4241");
    await form.getByLabel("Expiry month").fill("13");
    await form.getByLabel("Expiry year").fill(String(now.getUTCFullYear() + 25));
    await form.getByLabel("Security code").fill("12");
    await submit.click();
    for (const message of [CARD_MESSAGES.numberChecksum, CARD_MESSAGES.expiryMonth, expiryYearMessage(now), cvvMessage(3)]) {
      await form.getByText(message, { exact: true }).waitFor();
    }
    const cases: [string, string][] = [
      ["4242 4242", CARD_MESSAGES.numberIncomplete],
      ["9999 9999 9999 9995", CARD_MESSAGES.numberBrand],
    ];
    for (const [value, message] of cases) {
      await number.fill("");
      await number.pressSequentially(value.replace(/ /g, ""));
      await submit.click();
      await form.getByText(message, { exact: true }).waitFor();
    }
    await number.fill("");
    await number.pressSequentially("378282246310005");
    expect(await number.inputValue()).toBe("3782 822463 10005");
    await form.getByTestId("card-brand").getByText("American Express").waitFor();
    await form.getByLabel("Expiry month").fill("4");
    await form.getByLabel("Expiry year").fill(String((now.getUTCFullYear() + 2) % 100));
    await form.getByLabel("Security code").fill("123");
    await submit.click();
    await form.getByText(cvvMessage(4), { exact: true }).waitFor();
    // The month was padded and the two-digit year prefixed with 20 when the fields were left.
    expect(await form.getByLabel("Expiry month").inputValue()).toBe("04");
    expect(await form.getByLabel("Expiry year").inputValue()).toBe(String(now.getUTCFullYear() + 2));
    if (now.getUTCMonth() > 0) {
      await form.getByLabel("Expiry month").fill(String(now.getUTCMonth()));
      await form.getByLabel("Expiry year").fill(String(now.getUTCFullYear()));
      await submit.click();
      await form.getByText(CARD_MESSAGES.expired, { exact: true }).waitFor();
    }

    await number.fill("");
    await number.pressSequentially("4242424242424242");
    await form.getByLabel("Expiry month").fill("12");
    await form.getByLabel("Expiry year").fill(String((now.getUTCFullYear() + 3) % 100));
    await form.getByLabel("Security code").fill("123");
    await submit.click();
    await page.getByTestId("subscription-status").getByText("Trial, plan chosen").waitFor();
    await page.getByText("Visa ending 4242", { exact: false }).waitFor();
    await shot(page, "86-settings-subscribed");
    const billing = await call(page, "GET", "/billing");
    expect(billing.body).toMatchObject({ status: "TRIALOPTIN", plan: { id: "group" }, card: { brand: "Visa", last4: "4242" } });
    // The member sees the plan but cannot change it, and the API refuses them.
    expect((await call(member, "POST", "/billing/subscribe", { plan: "group_plus", token: "tok_test_0123456789" })).status).toBe(403);
  });
});
