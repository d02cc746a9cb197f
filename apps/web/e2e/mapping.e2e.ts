import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Issue 7 end to end, COA mapping: the demo parent and its UK subsidiary connected through the
 * real pop-up, then on /setup/coa: accept a suggestion, fix one map by hand, map some with
 * "Map selected to…", unmap the maps a parent account retired in QuickBooks made invalid, "Accept
 * all" (issue #18: only the confident suggestions — the tax payables onto the parent's tax payables,
 * never 401(k) Payable — leaving the intercompany and low-confidence rows with their reason),
 * accept those left one by one after a look, and watch onboarding go 2 → 2.1 → 2.3, then
 * 'Continue' to /setup/obal and 3.
 */
// Its own server: the shared one's demo parent already belongs to the companies test's user.
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));
const EMAIL = `mapper.${Date.now()}@northwind.example`;
const UK = e2e.DEMO.uk;
const PARENT = e2e.DEMO.parent;

let session: e2e.Session;
let page: Page;

const shot = e2e.shot;
const api = <T>(path: string) => e2e.api<T>(page, baseUrl, path);
const onboardingStep = () => e2e.onboardingStep(page, baseUrl);
const continueModal = (name: string | RegExp) => e2e.continueModal(page, name);
type Invalid = { accountId: string; parentAccountId: string; reason: string };
const ukMap = () => api<{ mapped: number; toMap: number; complete: boolean; map: Record<string, string>; invalid: Invalid[] }>(`/companies/${UK.realmId}/map`);
type ChartRow = { Id: string; name: string; acctNum: string | null; active: boolean; everHadBalance: boolean };
/** The UK account whose map was fixed by hand: its parent account is the one retired in QuickBooks later. */
let handFixed = "";

e2e.browserForFile((s) => {
  session = s;
  page = s.page;
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
    handFixed = id;
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

  it("a parent account made inactive in QuickBooks: after the parent's next sync its maps are invalid, named with why, and 'Unmap invalid maps' removes them", async () => {
    const before = await ukMap();
    expect(before.invalid).toEqual([]);
    const retiredId = before.map[handFixed] ?? expect.unreachable("the hand-fixed account is mapped");
    const onRetired = Object.keys(before.map).filter((sub) => before.map[sub] === retiredId);

    // Someone retires that account in the parent's QuickBooks (a sparse update, as QuickBooks'
    // own "make inactive" sends it), through the test's own connection to the company.
    const books = await e2e.sandboxQbo(baseUrl, PARENT.realmId);
    const [retired] = await books.query<{ Id: string; SyncToken: string; Name: string }>("Account", `Id = '${retiredId}'`);
    if (!retired) throw new Error(`the parent's QuickBooks has no account ${retiredId}`);
    const saved = await books.post<{ Account: { Active: boolean } }>("/account", { Id: retired.Id, SyncToken: retired.SyncToken, sparse: true, Name: retired.Name, Active: false });
    expect(saved.Account.Active).toBe(false);

    // GroupLedger only knows once the parent is synced again.
    expect((await ukMap()).invalid).toEqual([]);
    await e2e.api(page, baseUrl, `/companies/${PARENT.realmId}/sync`, { method: "POST" });
    await e2e.waitForSyncs(page, baseUrl, 2);
    const parentChart = await api<ChartRow[]>(`/companies/${PARENT.realmId}/accounts`);
    expect(parentChart.find((a) => a.Id === retiredId)).toMatchObject({ name: retired.Name, active: false });
    const invalid = (await ukMap()).invalid;
    expect(invalid.map((i) => i.accountId).sort()).toEqual([...onRetired].sort());
    for (const i of invalid) {
      expect(i.parentAccountId).toBe(retiredId);
      expect(i.reason).toMatch(/^The parent's \w+ account /);
      expect(i.reason).toContain(`"${retired.Name}" is inactive in QuickBooks; choose an active account.`);
    }

    // The screen after a reload: the banner names each account and why, the grid marks the row.
    await page.goto(`${baseUrl}/setup/coa`);
    const banner = page.getByTestId("invalid-maps");
    await banner.waitFor();
    const n = onRetired.length;
    await banner.getByText(`${n} ${n === 1 ? "map" : "maps"} of ${UK.name} cannot be used`).waitFor();
    const ukChart = await api<ChartRow[]>(`/companies/${UK.realmId}/accounts`);
    const fixed = ukChart.find((a) => a.Id === handFixed) ?? expect.unreachable("the hand-fixed account is in the UK chart");
    const fixedReason = invalid.find((i) => i.accountId === handFixed)?.reason ?? "";
    const line = banner.locator("p").filter({ hasText: fixedReason });
    await line.waitFor();
    expect(await line.locator("b").textContent()).toBe(fixed.acctNum ? `${fixed.acctNum} · ${fixed.name}` : fixed.name);
    await page.getByRole("grid").locator(`[data-row-id="${handFixed}"]`).getByRole("note").getByText(fixedReason).waitFor();
    await shot(page, "21-coa-invalid-maps");

    await banner.getByRole("button", { name: "Unmap invalid maps" }).click();
    await page.getByRole("status").getByText(`${n} invalid ${n === 1 ? "map was" : "maps were"} removed; map those accounts again.`).waitFor();
    await banner.waitFor({ state: "hidden" });
    const after = await ukMap();
    expect(after.invalid).toEqual([]);
    for (const sub of onRetired) expect(after.map[sub], `${sub} is no longer mapped`).toBeUndefined();
    // Maps onto other parent accounts stay.
    expect(Object.keys(after.map).sort()).toEqual(Object.keys(before.map).filter((sub) => !onRetired.includes(sub)).sort());
    const withBalance = new Set(ukChart.filter((a) => a.everHadBalance).map((a) => a.Id));
    expect(after.mapped).toBe(before.mapped - onRetired.filter((sub) => withBalance.has(sub)).length);
    expect(after.mapped).toBeLessThan(before.mapped);
    await page.getByTestId("mapping-progress").getByText(`${after.mapped} of ${after.toMap} mapped`).waitFor();
    expect(await onboardingStep()).toBe(2.1);
  });

  it("'Accept all' maps only the confident suggestions: the tax payables onto the parent's tax payables, never 401(k) Payable; intercompany and low-confidence rows stay with their reason", async () => {
    type Suggestion = { parentAccountId: string; confident: boolean; caution: string | null };
    const { suggestions } = await api<{ suggestions: Record<string, Suggestion[]> }>(`/companies/${UK.realmId}/map/suggestions`);
    const confident = Object.keys(suggestions).filter((id) => suggestions[id]?.[0]?.confident);
    const forReview = Object.keys(suggestions).filter((id) => suggestions[id]?.[0] && !suggestions[id][0].confident);
    expect(confident.length).toBeGreaterThan(0);
    expect(forReview.length).toBeGreaterThan(0);
    const ukChart = await api<ChartRow[]>(`/companies/${UK.realmId}/accounts`);
    const parentChart = await api<ChartRow[]>(`/companies/${PARENT.realmId}/accounts`);
    const idOf = (chart: ChartRow[], name: string) => chart.find((a) => a.name === name)?.Id ?? expect.unreachable(`no account "${name}"`);

    await page.getByRole("button", { name: `Accept all suggestions (${confident.length})` }).click();
    await page.getByRole("status").getByText(`${confident.length} suggested maps were accepted. ${forReview.length} low-confidence suggestions left for review: the reason is beside each.`).waitFor();
    const after = await ukMap();
    for (const id of confident) expect(after.map[id]).toBe(suggestions[id]?.[0]?.parentAccountId);
    for (const id of forReview) expect(after.map[id], `${id} is left for review`).toBeUndefined();
    expect(after.complete).toBe(false);
    const k401 = idOf(parentChart, "401(k) Payable");
    expect(after.map[idOf(ukChart, "Corporation Tax")]).toBe(idOf(parentChart, "Income Tax Payable"));
    expect(after.map[idOf(ukChart, "VAT Control")]).toBe(idOf(parentChart, "Sales Tax Payable"));
    expect(Object.values(after.map)).not.toContain(k401);

    // The rows left say why: the balances with Northwind companies are intercompany, and the parent has no such liability.
    const search = page.getByRole("textbox", { name: "Search" });
    await search.fill("Northwind");
    for (const name of ["Amounts Owed to Northwind Holdings", "Loan from Northwind Holdings", "Amounts Owed to Northwind Deutschland"]) {
      const row = page.getByRole("grid").locator(`[data-row-id="${idOf(ukChart, name)}"]`);
      await row.getByRole("note").getByText("Intercompany: no matching account in the parent").waitFor();
    }
    // The count beside "Accept all" is of the rows shown: the three found.
    await page.getByTestId("review-count").getByText("3 low-confidence suggestions left for review").waitFor();
    await shot(page, "22-coa-left-for-review");
    await search.fill("");
    await page.getByTestId("review-count").getByText(`${forReview.length} low-confidence suggestions left for review`).waitFor();
    expect(await onboardingStep()).toBe(2.1);
  });

  it("the rows left for review, accepted one by one after a look, complete the subsidiary: the exact 2.2 modal, then 2.3", async () => {
    const unmappedOnly = page.getByRole("switch", { name: "Unmapped only" });
    await unmappedOnly.dispatchEvent("click");
    await expect.poll(() => unmappedOnly.isChecked()).toBe(true);
    // Each row's own Accept is a person's decision on that row; the last one completes the company.
    const accept = { name: /^Accept / };
    const withAccept = page.getByRole("grid").locator("[data-row-id]").filter({ has: page.getByRole("button", accept) });
    while (!(await ukMap()).complete) {
      await withAccept.first().waitFor({ timeout: 10_000 });
      const id = (await withAccept.first().getAttribute("data-row-id")) ?? "";
      const row = page.getByRole("grid").locator(`[data-row-id="${id}"]`);
      await row.getByRole("button", accept).click();
      // Mapped, it leaves the unmapped-only grid.
      await row.waitFor({ state: "detached" });
      expect((await ukMap()).map[id]).toBeDefined();
    }
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
