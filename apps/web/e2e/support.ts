import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";

/** What every browser journey shares: launching Chromium, signing in, the QuickBooks pop-up, the API beside the page. */

export const SHOTS = fileURLToPath(new URL("../../../artifacts/screenshots/", import.meta.url));
export const PASSWORD = "Ledger#2026x";

/** The offline sandbox's demo group (packages/qbo-sandbox). */
export const DEMO = {
  parent: { realmId: "9341453172384015", name: "Northwind Holdings Inc." },
  uk: { realmId: "9341453172384023", name: "Northwind UK Ltd" },
  canada: { realmId: "9341453172384031", name: "Northwind Canada Inc." },
  germany: { realmId: "9341453172384049", name: "Northwind Deutschland GmbH" },
  retail: { realmId: "9341453172384056", name: "Northwind Retail LLC" },
} as const;

export const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`) });

export interface Session {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/** Headless Debian Chromium (never a downloaded browser), one context, one page kept active. */
export async function openBrowser(viewport = { width: 1440, height: 900 }): Promise<Session> {
  mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  // The e2e server's idle timeout is 4 s, and time spent in the pop-up is not activity in this
  // window: a steady pointer movement keeps the session alive (app.e2e.ts tests idling itself).
  await page.addInitScript(() => {
    setInterval(() => window.dispatchEvent(new Event("mousemove")), 1000);
  });
  return { browser, context, page };
}

/** Calls the API with the page's session token, as the screens do; throws on a non-2xx answer. */
export async function api<T>(page: Page, baseUrl: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem("t"));
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

export const onboardingStep = async (page: Page, baseUrl: string) => (await api<{ onboardingStep: number }>(page, baseUrl, "/account")).onboardingStep;

/** Signs up and verifies through the API (the screens are covered by app.e2e.ts), then logs in through the page. */
export async function signUpAndLogIn(page: Page, baseUrl: string, email: string, password = PASSWORD) {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}/api/session${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await post("/signup", { email, password })).status).toBeLessThan(300);
  const mail = (await (await fetch(`${baseUrl}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { text: string }[] };
  const code = /code is ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(mail.messages[0]?.text ?? "")?.[1];
  expect(code).toBeTruthy();
  expect((await post("/validationcode", { validationCode: code, email })).status).toBeLessThan(300);
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL("**/setup/companies");
}

/**
 * Clicks through `open`, which must open the QuickBooks pop-up, picks `company` on the consent page
 * and clicks Connect (or Cancel); resolves once the pop-up has closed itself.
 */
export async function connectThroughPopup(
  context: BrowserContext,
  open: () => Promise<void>,
  company: string | RegExp,
  opts: { decision?: "Connect" | "Cancel"; onConsent?: (popup: Page) => Promise<void> } = {},
) {
  const popupOpened = context.waitForEvent("page");
  await open();
  const popup = await popupOpened;
  await popup.getByRole("heading", { name: "Connect to GroupLedger" }).waitFor();
  const closed = popup.waitForEvent("close");
  await popup.getByRole("radio", { name: company }).check();
  await opts.onConsent?.(popup);
  await popup.getByRole("button", { name: opts.decision ?? "Connect", exact: true }).click();
  await closed;
}

/** Closes the milestone modal with this title once it is (or comes) up. */
export async function continueModal(page: Page, name: string | RegExp) {
  const modal = page.getByRole("dialog", { name });
  await modal.waitFor();
  await modal.getByRole("button", { name: "Continue" }).click();
  await modal.waitFor({ state: "hidden" });
}

/** Waits until every connected company's sync has succeeded (fails fast on a failed sync). */
export async function waitForSyncs(page: Page, baseUrl: string, count: number, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = Object.values(await api<Record<string, { sync: { state: string } }>>(page, baseUrl, "/companies/status")).map((s) => s.sync.state);
    if (states.length === count && states.every((s) => s === "succeeded")) return;
    if (states.includes("failed") || Date.now() > deadline) throw new Error(`syncs did not finish: ${states.join(", ")}`);
    await page.waitForTimeout(250);
  }
}

/**
 * Welcome → connect the demo parent through the pop-up → set it as parent → connect each
 * subsidiary; resolves with every sync finished, on /setup/companies.
 */
export async function connectDemoGroup(s: Session, baseUrl: string, subsidiaries: readonly { name: string }[]) {
  const { page, context } = s;
  await page.getByRole("dialog", { name: "Welcome to GroupLedger" }).getByRole("button", { name: "Get Started" }).click();
  await connectThroughPopup(context, () => page.getByRole("button", { name: "Connect company" }).click(), DEMO.parent.name);
  await page.getByTestId("next-step").getByRole("button", { name: "Set a parent" }).click();
  await page.getByRole("menuitem", { name: DEMO.parent.name }).click();
  await continueModal(page, "Your first company is connected!");
  for (const sub of subsidiaries) {
    await connectThroughPopup(context, () => page.getByRole("button", { name: "Connect a subsidiary" }).first().click(), sub.name);
  }
  await waitForSyncs(page, baseUrl, subsidiaries.length + 1);
}
