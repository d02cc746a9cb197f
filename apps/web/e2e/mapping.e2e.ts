import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "./global-setup.ts";

/**
 * Issue 7 end to end, COA mapping: the demo parent and its UK subsidiary connected through the
 * real pop-up, then on /setup/coa: accept the suggestions, fix one map by hand, map the rest with
 * "Map selected to…", and watch onboarding go 2 → 2.1 → 2.3, then 'Continue' to /setup/obal and 3.
 */
// Its own server: the shared one's demo parent already belongs to the companies test's user.
let baseUrl = "";
let server: RunningServer | undefined;
beforeAll(async () => {
  server = await startServer();
  baseUrl = server.url;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});
const SHOTS = fileURLToPath(new URL("../../../artifacts/screenshots/", import.meta.url));
const EMAIL = `mapper.${Date.now()}@northwind.example`;
const PASSWORD = "Ledger#2026x";
const PARENT = { realmId: "9341453172384015", name: "Northwind Holdings Inc." };
const UK = { realmId: "9341453172384023", name: "Northwind UK Ltd" };

let browser: Browser;
let context: BrowserContext;
let page: Page;

const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`) });

async function api<T>(path: string): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem("t"));
  const res = await fetch(`${baseUrl}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return (await res.json()) as T;
}
const onboardingStep = async () => (await api<{ onboardingStep: number }>("/account")).onboardingStep;
const ukMap = () => api<{ mapped: number; toMap: number; complete: boolean; map: Record<string, string> }>(`/companies/${UK.realmId}/map`);

async function signUpAndLogIn() {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}/api/session${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await post("/signup", { email: EMAIL, password: PASSWORD })).status).toBeLessThan(300);
  const mail = (await (await fetch(`${baseUrl}/api/dev/mailbox?to=${encodeURIComponent(EMAIL)}`)).json()) as { messages: { text: string }[] };
  const code = /code is ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(mail.messages[0]?.text ?? "")?.[1];
  expect(code).toBeTruthy();
  expect((await post("/validationcode", { validationCode: code, email: EMAIL })).status).toBeLessThan(300);
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(EMAIL);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL("**/setup/companies");
}

/** Clicks `open`, picks `company` on the emulator's consent page and connects; resolves once the pop-up closed itself. */
async function connectThroughPopup(open: () => Promise<void>, company: string) {
  const popupOpened = context.waitForEvent("page");
  await open();
  const popup = await popupOpened;
  await popup.getByRole("heading", { name: "Connect to GroupLedger" }).waitFor();
  const closed = popup.waitForEvent("close");
  await popup.getByRole("radio", { name: company }).check();
  await popup.getByRole("button", { name: "Connect", exact: true }).click();
  await closed;
}

/** Closes the milestone modal with this title if it is (or comes) up. */
async function continueModal(name: string | RegExp) {
  const modal = page.getByRole("dialog", { name });
  await modal.waitFor();
  await modal.getByRole("button", { name: "Continue" }).click();
  await modal.waitFor({ state: "hidden" });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  // The e2e server's idle timeout is 4 s; time in the pop-up is not activity in this window.
  await page.addInitScript(() => {
    setInterval(() => window.dispatchEvent(new Event("mousemove")), 1000);
  });
});

afterAll(async () => {
  await browser?.close();
});

describe("COA mapping in a browser", () => {
  it("connects the demo parent and its UK subsidiary and continues to /setup/coa at step 2", async () => {
    await signUpAndLogIn();
    await page.getByRole("dialog", { name: "Welcome to GroupLedger" }).getByRole("button", { name: "Get Started" }).click();
    await connectThroughPopup(() => page.getByRole("button", { name: "Connect company" }).click(), PARENT.name);
    await page.getByTestId("next-step").getByRole("button", { name: "Set a parent" }).click();
    await page.getByRole("menuitem", { name: PARENT.name }).click();
    await continueModal("Your first company is connected!");
    await connectThroughPopup(() => page.getByRole("button", { name: "Connect a subsidiary" }).first().click(), UK.name);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const states = Object.values(await api<Record<string, { sync: { state: string } }>>("/companies/status")).map((s) => s.sync.state);
      if (states.length === 2 && states.every((s) => s === "succeeded")) break;
      if (states.includes("failed") || Date.now() > deadline) throw new Error(`syncs did not finish: ${states.join(", ")}`);
      await page.waitForTimeout(250);
    }
    await page.getByRole("button", { name: "Continue to COA Mapping" }).click();
    await page.waitForURL("**/setup/coa");
    await expect.poll(onboardingStep).toBe(2);
    await page.getByRole("grid").locator("[data-row-id]").first().waitFor();
  });

  it("accepts one suggestion: onboarding 2.1 with its modal", async () => {
    const accept = page.getByRole("grid").getByRole("button", { name: /^Accept / }).first();
    await accept.click();
    await continueModal("You've started mapping your chart of accounts");
    await expect.poll(onboardingStep).toBe(2.1);
    const after = await ukMap();
    expect(after.mapped).toBe(1);
    await page.getByTestId("mapping-progress").getByText(`1 of ${after.toMap} mapped`).waitFor();
  });

  it("fixes one map by hand with the searchable picker", async () => {
    const first = page.getByRole("grid").locator("[data-row-id]").first();
    const id = (await first.getAttribute("data-row-id")) ?? "";
    await first.locator("[data-parent-picker]").click();
    const input = first.getByRole("textbox", { name: /^Parent account for / });
    await input.waitFor();
    const listbox = page.getByRole("listbox").filter({ visible: true });
    const choice = listbox.locator('[role="option"]:not([data-combobox-disabled])').nth(1);
    const label = ((await choice.textContent()) ?? "").trim();
    await choice.click();
    await page.getByRole("status").getByText(`now maps to ${label}`).waitFor();
    expect((await ukMap()).map[id]).toBeTruthy();
  });

  it("maps several accounts of one classification with 'Map selected to…'", async () => {
    const before = (await ukMap()).mapped;
    const unmappedOnly = page.getByRole("switch", { name: "Unmapped only" });
    // Mantine's switch input is visually hidden under its track: the click goes to the input itself.
    await unmappedOnly.dispatchEvent("click");
    await expect.poll(() => unmappedOnly.isChecked()).toBe(true);
    await page.getByRole("textbox", { name: "Classification" }).click();
    await page.getByRole("option", { name: "Expense", exact: true }).click();
    const rows = page.getByRole("grid").locator("[data-row-id]");
    for (let i = 0; i < 3; i++) await rows.nth(i).getByRole("checkbox").check({ force: true });
    await page.getByRole("button", { name: "Map selected to… (3)" }).click();
    await page.getByRole("textbox", { name: "Parent account for 3 selected accounts" }).click();
    await page.locator('[role="option"]').filter({ visible: true }).first().click();
    await page.getByRole("button", { name: "Map 3" }).click();
    await page.getByRole("status").getByText(/3 accounts now map to/).waitFor();
    await expect.poll(async () => (await ukMap()).mapped).toBeGreaterThanOrEqual(before + 3);
    await unmappedOnly.dispatchEvent("click");
    await page.getByRole("textbox", { name: "Classification" }).click();
    await page.getByRole("option", { name: "All", exact: true }).click();
    // The pickers scrolled the window and the grid; the screenshot shows the screen from its top.
    await page.evaluate(() => {
      window.scrollTo(0, 0);
      const grid = document.querySelector('[data-testid="mapping-grid-scroll"]');
      if (grid) grid.scrollTop = 0;
    });
    await page.waitForTimeout(300);
    await shot(page, "20-coa-mapping");
  });

  it("accepting the remaining suggestions completes the subsidiary: the exact 2.2 modal, then 2.3", async () => {
    await page.getByRole("button", { name: /^Accept all suggestions \(\d+\)$/ }).click();
    await continueModal("You've completed the chart-of-accounts mapping for your first company!");
    await expect.poll(onboardingStep).toBe(2.3);
    expect((await ukMap()).complete).toBe(true);
    await page.getByRole("tab", { name: new RegExp(UK.name) }).getByText("Complete").waitFor();
  });

  it("2.3 'Continue' goes to /setup/obal and step 3", async () => {
    await page.getByRole("status").filter({ hasText: "Every subsidiary is mapped" }).getByRole("button", { name: "Continue" }).click();
    await page.waitForURL("**/setup/obal");
    await expect.poll(onboardingStep).toBe(3);
  });
});
