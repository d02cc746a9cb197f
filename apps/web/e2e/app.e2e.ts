import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page, type Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
/**
 * The idle tests' timeout: short enough to see both idle periods in seconds. Only those tests get
 * it (shortenIdleTimeout): the e2e servers keep SPEC's 15 minutes, since a few seconds of a loaded
 * machine's slowness anywhere else (a screenshot, a modal's fade) opened the idle dialog over the
 * step under test and then logged the user out.
 */
const idleTimeoutMs = 6000;
const SHOTS = fileURLToPath(new URL("../../../artifacts/screenshots/", import.meta.url));
const EMAIL = `controller.${Date.now()}@northwind.example`;
const PASSWORD = "Ledger#2026x";
const NEW_PASSWORD = "Ledger#2027y";

let browser: Browser;
let context: BrowserContext;
let page: Page;

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
const path = () => new URL(page.url()).pathname;
const storedToken = () => page.evaluate(() => sessionStorage.getItem("t"));

/** The newest code mailed to `email` with a subject matching `subject`, read from the dev mailbox. */
async function mailedCode(email: string, subject: RegExp): Promise<string> {
  const res = await fetch(`${baseUrl}/api/dev/mailbox?to=${encodeURIComponent(email)}`);
  const { messages } = (await res.json()) as { messages: { subject: string; text: string }[] };
  const mail = messages.find((m) => subject.test(m.subject));
  const code = mail && /code is ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no ${subject} code mailed to ${email}`);
  return code;
}

/**
 * From the next page load on, the server's GET /api/config answers with `idleTimeoutMs` as the idle
 * timeout (its real answer otherwise); the server's own IDLE_TIMEOUT_MS is tested on the server.
 */
async function shortenIdleTimeout() {
  await page.route("**/api/config", async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), idleTimeoutMs } });
  });
}

async function logIn(email = EMAIL, password = PASSWORD) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL("**/setup/companies");
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // A laptop screen: the layout has to work at 1280x720.
  context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
});

describe("GroupLedger in a browser", () => {
  it("shows the landing page with a way in", async () => {
    await page.goto(baseUrl);
    await page.getByRole("heading", { name: "Close the group's month in hours, not days." }).waitFor();
    expect(await page.getByRole("link", { name: "Start your 30-day free trial" }).getAttribute("href")).toBe("/signup");
    await shot("01-landing");
    await page.getByRole("link", { name: "Pricing" }).first().click();
    await page.getByRole("heading", { name: "Simple pricing per group" }).waitFor();
  });

  it("shows the exact validation messages on the login form", async () => {
    await page.goto(`${baseUrl}/login`);
    await page.getByRole("heading", { name: "Log in to GroupLedger" }).waitFor();
    await shot("02-login");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByText("Please enter a valid email.").waitFor();
    await page.getByText("Please provide a valid password.").waitFor();
    await page.getByLabel("Email").fill("someone@");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByText("Please enter a valid email.").waitFor();
  });

  it("signs up, refuses a wrong code, verifies with the mailed code", async () => {
    await page.goto(`${baseUrl}/signup`);
    await page.getByLabel("Work email").fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill("ledger2026");
    // Live rules: the uppercase and special-character rules are still open.
    expect(await page.locator('[data-testid="password-rules"] li[data-ok="false"]').count()).toBe(2);
    await shot("03-signup");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL("**/signupFinish?email=*");
    await page.getByText("We sent a verification code to your email.").waitFor();
    await shot("04-validation-code");

    await page.getByLabel("Verification code").fill("AAAA-AAAA");
    await page.getByRole("button", { name: "Verify email" }).click();
    await page.getByText("That code is not valid or has expired.").waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe("");
    await page.getByLabel("Verification code").fill(await mailedCode(EMAIL, /verification/i));
    expect(await page.getByRole("alert").count()).toBe(0);
    await page.getByRole("button", { name: "Verify email" }).click();
    await page.waitForURL("**/login?email=*");
    await page.getByText("Your email is verified.").waitFor();
  });

  it("logs in to the layout with the onboarding welcome overlay; 'Get Started' starts step 1", async () => {
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL("**/setup/companies");
    expect(await storedToken()).toMatch(/^[^.]+\.[^.]+\.[^.]+$/);
    const welcome = page.getByRole("dialog", { name: "Welcome to GroupLedger" });
    await welcome.waitFor();
    await page.waitForTimeout(300); // let the overlay's fade-in finish for the screenshot
    await shot("05-onboarding-welcome");
    await welcome.getByRole("button", { name: "Get Started" }).click();
    await welcome.waitFor({ state: "hidden" });
    await page.getByRole("region", { name: "Onboarding progress" }).waitFor();
    await page.getByRole("heading", { name: "No companies connected yet" }).waitFor();
    await shot("06-layout-companies");
  });

  it("navigates; disabled items say why on hover", async () => {
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await nav.getByText("SETUP & CONFIGURE").waitFor();
    expect(await nav.getByText("CONSOLIDATION", { exact: true }).evaluate((el) => getComputedStyle(el).fontWeight)).toBe("700");
    await nav.getByRole("link", { name: /^COA Mapping, unavailable/ }).hover();
    await page.getByRole("tooltip").getByText("Connect a parent company first", { exact: false }).waitFor();
    await shot("07-nav-disabled-tooltip");

    await page.getByRole("button", { name: /^User menu/ }).click();
    await page.getByText("Logged in as").waitFor();
    expect(await page.getByTestId("logged-in-as").textContent()).toBe(EMAIL);
    expect(await page.getByTestId("release-version").textContent()).toContain("1.75.51");
    expect(await page.getByRole("menuitem", { name: "Open QuickBooks" }).getAttribute("href")).toBe("https://qbo.intuit.com/app/homepage");
    await page.getByRole("menuitem", { name: "Account Settings" }).click();
    await page.waitForURL("**/settings");
    await page.getByRole("heading", { name: "Account Settings", level: 1 }).waitFor();

    // A consolidation screen opened by address before there is anything to consolidate says what it needs.
    await page.goto(`${baseUrl}/consolidation/elimination`);
    await page.getByRole("heading", { name: "Interco Eliminations", level: 1 }).waitFor();
    await page.getByText("A parent and a subsidiary are needed").waitFor();
    await shot("08-empty-state");
  });

  it("asks 'Are you still there?' after the idle timeout; Stay keeps the session", async () => {
    await shortenIdleTimeout();
    await page.goto(`${baseUrl}/setup/companies`);
    const idle = page.getByRole("dialog", { name: "Idle Timeout" });
    await idle.waitFor({ timeout: idleTimeoutMs + 5000 });
    expect(await idle.textContent()).toContain("Are you still there?");
    await page.waitForTimeout(250);
    await shot("09-idle-dialog");
    await idle.getByRole("button", { name: "Stay" }).click();
    await idle.waitFor({ state: "hidden" });
    expect(path()).toBe("/setup/companies");
  });

  it("logs out after a second idle period without activity", async () => {
    const idle = page.getByRole("dialog", { name: "Idle Timeout" });
    await idle.waitFor({ timeout: idleTimeoutMs + 5000 });
    await page.waitForURL("**/login?autoLogout=true", { timeout: idleTimeoutMs + 5000 });
    await page.getByText("You were logged out because you were inactive").waitFor();
    expect(await storedToken()).toBeNull();
  });

  it("idle dialog: Logout ends the session", async () => {
    await logIn();
    const idle = page.getByRole("dialog", { name: "Idle Timeout" });
    await idle.waitFor({ timeout: idleTimeoutMs + 5000 });
    await idle.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL("**/login");
    expect(await storedToken()).toBeNull();
    await page.unroute("**/api/config");
  });

  it("logs out from the user menu, and the old token is refused", async () => {
    await logIn();
    const token = await storedToken();
    await page.getByRole("button", { name: /^User menu/ }).click();
    await page.getByRole("menuitem", { name: "Log Out" }).click();
    await page.waitForURL("**/login");
    await page.getByText("You have logged out.").waitFor();
    expect(await storedToken()).toBeNull();
    const res = await fetch(`${baseUrl}/api/session`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });

  it("guards redirect: app without token → /login; public with token → /setup/companies; unknown → /", async () => {
    await page.goto(`${baseUrl}/setup/coa`);
    await page.waitForURL("**/login");
    await page.goto(`${baseUrl}/no/such/page`);
    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole("heading", { name: "Close the group's month in hours, not days." }).waitFor();

    await logIn();
    await page.goto(`${baseUrl}/login`);
    await page.waitForURL("**/setup/companies");
    await page.goto(`${baseUrl}/signup`);
    await page.waitForURL("**/setup/companies");
    await page.goto(`${baseUrl}/consolidation`);
    await page.waitForURL("**/consolidation/run");
  });

  it("an expired stored token is deleted and the user starts at '/'", async () => {
    await page.evaluate(() => sessionStorage.setItem("t", "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.x"));
    await page.goto(`${baseUrl}/setup/companies`);
    await page.waitForURL(`${baseUrl}/`);
    expect(await storedToken()).toBeNull();
  });

  it("resets a forgotten password with the mailed code", async () => {
    await page.goto(`${baseUrl}/resetPassword`);
    await page.getByRole("button", { name: "Send reset code" }).click();
    await page.getByText("Please enter a valid email.").waitFor();
    await page.getByLabel("Email").fill(EMAIL.toUpperCase());
    await page.getByRole("button", { name: "Send reset code" }).click();
    await page.getByRole("heading", { name: "Set a new password" }).waitFor();
    await page.getByText("If an account exists for that email").waitFor();
    await page.getByLabel("Reset code").fill(await mailedCode(EMAIL, /reset/i));
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await shot("10-reset-password");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL("**/login?email=*");
    await page.getByText("Your password has been changed.").waitFor();
    await logIn(EMAIL, NEW_PASSWORD);
  });
});

describe("how the web app's files arrive (issue #18)", () => {
  /**
   * The target (120 KB gzip, `npm run bench -- bundle`) as a ceiling on what crosses the wire:
   * Chromium takes brotli, 91 KB of it when this was written (docs/performance.md).
   */
  const LOGIN_JS_CEILING_BYTES = 120 * 1024;

  it("sends the login route's scripts and styles compressed and cached for good, the page itself revalidated", async () => {
    // A fresh context: an empty cache, so every file the route needs goes over the wire.
    const fresh = await browser.newContext();
    try {
      const login = await fresh.newPage();
      const assets: Response[] = [];
      login.on("response", (res) => {
        if (new URL(res.url()).pathname.startsWith("/assets/")) assets.push(res);
      });
      const doc = await login.goto(`${baseUrl}/login`);
      await login.getByRole("heading", { name: "Log in to GroupLedger" }).waitFor();
      await login.waitForLoadState("networkidle");
      expect(doc?.headers()["cache-control"]).toBe("no-cache");

      const scripts = assets.filter((res) => res.url().endsWith(".js"));
      expect(scripts.length).toBeGreaterThan(3);
      // A first visit to /login is the login shell: no router, no schemas (src/app/start.ts).
      expect(scripts.map((res) => new URL(res.url()).pathname).filter((p) => /\/(router|App)-[\w-]+\.js$/.test(p))).toEqual([]);
      expect(assets.some((res) => res.url().endsWith(".css"))).toBe(true);
      let sent = 0;
      let decoded = 0;
      for (const res of assets) {
        const headers = res.headers();
        expect(res.status(), res.url()).toBe(200);
        expect(["br", "gzip"], `${res.url()} content-encoding`).toContain(headers["content-encoding"]);
        expect(headers["vary"], res.url()).toMatch(/accept-encoding/i);
        expect(headers["cache-control"], res.url()).toBe("public, max-age=31536000, immutable");
        if (!res.url().endsWith(".js")) continue;
        sent += (await res.request().sizes()).responseBodySize;
        decoded += (await res.body()).length;
      }
      // What crossed the wire is the compressed size: a quarter to a third of the code it unpacks to.
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThan(decoded * 0.4);
      console.log(`/login scripts: ${scripts.length} files, ${(sent / 1024).toFixed(1)} KB sent for ${(decoded / 1024).toFixed(1)} KB of code (${scripts[0]?.headers()["content-encoding"]})`);
      expect(sent).toBeLessThan(LOGIN_JS_CEILING_BYTES);
    } finally {
      await fresh.close();
    }
  });
});
