import { join } from "node:path";
import type { Page } from "playwright-core";
import { currencyExponent, mulDivRound, parseRate, translationFactor } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Issue 7 end to end, CTA & Historical: the demo parent and its UK subsidiary connected through
 * the real pop-up, then on /setup/cta: pick the suggested CTA account for the group (saved at
 * once), create one in the parent's QuickBooks instead (checked in QuickBooks itself; it becomes
 * the group's), enter the historical rate of the share capital, set ownership to 80% and save;
 * the API and QuickBooks agree with the screen.
 */
// Its own server: a QuickBooks company belongs to one account, and other journeys take the demo parent.
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));

const EMAIL = `cta.${Date.now()}@northwind.example`;
const { parent: PARENT, uk: UK } = e2e.DEMO;
const NEW_ACCOUNT = "Accumulated OCI – Translation";
const RATE = "1.2650";

let session: e2e.Session;
let page: Page;
const api = <T>(path: string) => e2e.api<T>(page, baseUrl, path);
/**
 * The whole screen, below the fold too (the equity table, ownership and dividends): a viewport as
 * tall as the page, since a full-page capture would paint the fixed header and navigation mid-page.
 */
async function fullShot(name: string) {
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  await page.evaluate(() => window.scrollTo(0, 0));
  // The navigation sizes itself to the viewport on the next layout.
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(e2e.SHOTS, `${name}.png`) });
  await page.setViewportSize(viewport);
}

interface CtaSettings {
  ctaAccountId: string | null;
  ctaAccountSuggestions: { accountId: string; name: string; reason: string }[];
  subsidiaries: {
    realmId: string;
    ctaAccountId: string | null;
    ownershipPercent: string;
    equity: { accountId: string; name: string; localAmount: number | null; historicalRate: string; historicalAmount: number | null }[];
    missing: string[];
  }[];
}
const ukSettings = async () => (await api<CtaSettings>("/cta")).subsidiaries.find((s) => s.realmId === UK.realmId)!;

e2e.browserForFile((s) => {
  session = s;
  page = s.page;
});

const ukPanel = () => page.getByRole("region", { name: `${UK.name} CTA settings` });
const groupSection = () => page.getByRole("region", { name: "CTA account of the group" });
const picker = () => groupSection().getByRole("textbox", { name: /CTA account in the parent/ });

describe("CTA & Historical in a browser", () => {
  it("connects the demo parent and its UK subsidiary, and opens CTA & Historical from the side navigation", { timeout: 180_000 }, async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, [UK]);
    await page.getByRole("link", { name: "CTA & Historical" }).click();
    await page.waitForURL("**/setup/cta");
    const tab = page.getByRole("tab", { name: new RegExp(UK.name) });
    await tab.waitFor();
    expect(await tab.textContent()).toContain("GBP → USD");
    // What the server says blocks translation, as the checklist.
    const missing = (await ukSettings()).missing;
    expect(missing).toContain("Choose the group's CTA account at the top of this page: the parent's equity account that receives the CTA of every foreign subsidiary.");
    await expect.poll(() => ukPanel().getByTestId("cta-missing").getByRole("listitem").allTextContents()).toEqual(missing);
    await fullShot("25-cta-uk");
  });

  it("picks the suggested CTA account for the group, with the reason it is suggested, saved at once", async () => {
    const suggestion = (await api<CtaSettings>("/cta")).ctaAccountSuggestions[0]!;
    await picker().click();
    const first = page.getByRole("listbox").filter({ visible: true }).getByRole("option").first();
    expect(await first.textContent()).toContain(suggestion.name);
    await first.click();
    await groupSection().getByRole("status").getByText(/^Saved\. The CTA of Northwind UK Ltd goes to/).waitFor();
    await expect.poll(() => picker().inputValue()).toContain(suggestion.name);
    await expect.poll(() => groupSection().getByTestId("cta-account-reason").textContent()).toBe(`Suggested: ${suggestion.reason}`);
    expect((await api<CtaSettings>("/cta")).ctaAccountId).toBe(suggestion.accountId);
    await expect.poll(() => ukPanel().getByTestId("group-cta-account").textContent()).toContain(suggestion.name);
  });

  it("creates the CTA account in the parent's QuickBooks after a confirmation, and chooses it", async () => {
    await groupSection().getByRole("button", { name: `Create '${NEW_ACCOUNT}' in QuickBooks` }).click();
    const dialog = page.getByRole("dialog", { name: "Create the CTA account in QuickBooks?" });
    await dialog.waitFor();
    await e2e.shot(page, "26-cta-create-account");
    await dialog.getByRole("button", { name: "Create in QuickBooks" }).click();
    await dialog.waitFor({ state: "hidden" });
    await groupSection().getByRole("status").getByText(`"${NEW_ACCOUNT}" was created in ${PARENT.name}'s QuickBooks and is now the group's CTA account`, { exact: false }).waitFor();
    await expect.poll(() => picker().inputValue()).toBe(NEW_ACCOUNT);
    // Once made, it is not offered again.
    expect(await groupSection().getByRole("button", { name: /^Create '/ }).count()).toBe(0);

    // QuickBooks itself has it: an equity account, detail type Accumulated adjustment.
    const qbo = await e2e.sandboxQbo(baseUrl, PARENT.realmId);
    const found = await qbo.query<{ Id: string; Name: string; AccountType: string; AccountSubType: string; Active: boolean }>("Account", `Name = '${NEW_ACCOUNT}'`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ Name: NEW_ACCOUNT, AccountType: "Equity", AccountSubType: "AccumulatedAdjustment", Active: true });
  });

  it("enters the historical rate of the share capital and shows the translated amount, local × rate rounded to the cent", async () => {
    const shares = (await ukSettings()).equity.find((e) => e.name === "Ordinary Shares")!;
    expect(shares.localAmount).toBeLessThan(0);
    const row = ukPanel().getByRole("row", { name: /Ordinary Shares/ });
    await row.getByRole("textbox", { name: "Historical rate of Ordinary Shares" }).fill(RATE);
    const translated = mulDivRound(shares.localAmount!, translationFactor(parseRate(RATE), currencyExponent("GBP"), currencyExponent("USD")));
    const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", currencySign: "accounting" }).format(translated / 100);
    await expect.poll(() => row.getByTestId("translated").textContent()).toContain(usd);
    expect(await row.getByTestId("translated").textContent()).toContain("× 1.265");
  });

  it("sets ownership to 80%, saves, and the API holds exactly what the screen shows", async () => {
    const ownership = ukPanel().getByRole("textbox", { name: `${PARENT.name}'s share` });
    await ownership.fill("80");
    await ukPanel().getByText("Non-controlling interests hold 20% of its net assets, profit and CTA.").waitFor();
    await ukPanel().getByRole("button", { name: "Save" }).click();
    await ukPanel().getByRole("status").getByText(/^Saved\./).waitFor();

    const uk = await ukSettings();
    const created = (await api<{ Id: string; name: string }[]>(`/companies/${PARENT.realmId}/accounts`)).find((a) => a.name === NEW_ACCOUNT)!;
    expect(uk.ctaAccountId).toBe(created.Id);
    expect(uk.ownershipPercent).toBe("80");
    expect(uk.equity.find((e) => e.name === "Ordinary Shares")).toMatchObject({ historicalRate: "1.265", historicalAmount: null });
    expect(uk.missing.filter((m) => m.includes("CTA") || m.includes("Ordinary Shares"))).toEqual([]);
    expect((await api<{ realmId: string; ownershipPercent: string }[]>("/companies")).find((c) => c.realmId === UK.realmId)?.ownershipPercent).toBe("80");
    // The checklist shows the saved state: what still blocks, or that nothing does.
    if (uk.missing.length === 0) await ukPanel().getByTestId("cta-ready").waitFor();
    else await expect.poll(() => ukPanel().getByTestId("cta-missing").getByRole("listitem").allTextContents()).toEqual(uk.missing);
    await fullShot("27-cta-saved");
  });
});
