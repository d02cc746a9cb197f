import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "./global-setup.ts";
import * as e2e from "./support.ts";

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
const EMAIL = `mapper.${Date.now()}@northwind.example`;
const UK = e2e.DEMO.uk;

let session: e2e.Session;
let page: Page;

const shot = e2e.shot;
const api = <T>(path: string) => e2e.api<T>(page, baseUrl, path);
const onboardingStep = () => e2e.onboardingStep(page, baseUrl);
const continueModal = (name: string | RegExp) => e2e.continueModal(page, name);
const ukMap = () => api<{ mapped: number; toMap: number; complete: boolean; map: Record<string, string> }>(`/companies/${UK.realmId}/map`);

beforeAll(async () => {
  session = await e2e.openBrowser();
  ({ page } = session);
});

afterAll(async () => {
  await session?.browser.close();
});

describe("COA mapping in a browser", () => {
  it("connects the demo parent and its UK subsidiary and continues to /setup/coa at step 2", async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, [UK]);
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
