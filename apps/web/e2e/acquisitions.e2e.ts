import type { ConsolidatedReport } from "@groupledger/contract";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Issue 16 end to end on the demo group (the UK in GBP, Canada in CAD, 80% owned, Germany in EUR
 * and Retail in USD, acquired mid-2024, under the USD parent): prerequisites through the API (maps, rates, CTA
 * settings, opening balances at December 2025, January 2026 posted for each subsidiary). In the
 * browser: Setup → Acquisitions shows each acquisition proposed from the books and the user confirms
 * them (Canada at 80%); Interco Eliminations shows January's group adjustments explained and posts
 * them once; the consolidated balance sheet holds goodwill and the NCI and no investment in a
 * subsidiary, with the API's figures; Verify finds the parent's QuickBooks trial balance equal to
 * the consolidation.
 */
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));

const EMAIL = `acquirer.${Date.now()}@northwind.example`;
const { parent: PARENT, uk: UK, canada: CANADA, germany: GERMANY, retail: RETAIL } = e2e.DEMO;
const SUBSIDIARIES = [UK, CANADA, GERMANY, RETAIL] as const;
const OPENING = "2025-12";

let session: e2e.Session;
let page: Page;
const api = <T>(path: string, init?: { method?: string; body?: unknown }) => e2e.api<T>(page, baseUrl, path, init);

e2e.browserForFile((s) => {
  session = s;
  page = s.page;
});

describe("Acquisitions and group adjustments in a browser, on the demo group", () => {
  it("connects the parent and its four subsidiaries", { timeout: 300_000 }, async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, SUBSIDIARIES);
  });

  it("maps the subsidiaries, sets the CTA account and historical rates, fetches the rates", { timeout: 240_000 }, async () => {
    for (const sub of SUBSIDIARIES) await e2e.mapAllAccounts(page, baseUrl, PARENT.realmId, sub.realmId);
    await e2e.configureTranslation(page, baseUrl, { from: "2023-01", to: "2026-10" });
  });

  it("proposes each acquisition from the books; the user confirms them, Canada at 80%", { timeout: 180_000 }, async () => {
    await page.goto(`${baseUrl}/setup/acquisitions`);
    await page.getByRole("heading", { name: "Acquisitions" }).first().waitFor();
    for (const sub of SUBSIDIARIES) {
      const card = page.getByRole("region", { name: `${sub.name} acquisition` });
      await card.getByText("Proposed from the books").waitFor({ timeout: 60_000 });
    }
    await e2e.shot(page, "90-acquisitions-proposed");
    for (const sub of SUBSIDIARIES) {
      const card = page.getByRole("region", { name: `${sub.name} acquisition` });
      if (sub === CANADA) {
        const share = card.getByRole("textbox", { name: "% acquired" });
        await share.fill("80");
      }
      await card.getByRole("button", { name: "Confirm acquisition" }).click();
      await card.getByText("Saved", { exact: true }).waitFor({ timeout: 30_000 });
    }
    const saved = await api<{ subsidiaries: { realmId: string; saved: { ownershipPercent: string; acquiredOn: string } | null; savedFigures: { goodwill: number; nciAtAcquisition: number } | null }[] }>("/acquisitions");
    for (const sub of saved.subsidiaries) expect(sub.saved, sub.realmId).not.toBeNull();
    const canada = saved.subsidiaries.find((s) => s.realmId === CANADA.realmId)!;
    expect(canada.saved!.ownershipPercent).toBe("80");
    expect(canada.savedFigures!.nciAtAcquisition).toBeGreaterThan(0);
    expect(saved.subsidiaries.find((s) => s.realmId === RETAIL.realmId)!.saved!.acquiredOn).toBe("2024-06-30");
    for (const sub of saved.subsidiaries) expect(sub.savedFigures!.goodwill, sub.realmId).toBeGreaterThan(0);
    await page.screenshot({ path: `${e2e.SHOTS}91-acquisitions-saved.png`, fullPage: true });
  });

  it("posts the opening balances at December 2025 and January 2026 for each subsidiary", { timeout: 240_000 }, async () => {
    await e2e.postOpeningBalances(page, baseUrl, OPENING, SUBSIDIARIES.map((s) => s.realmId));
    await api("/account", { method: "PATCH", body: { onboarding: false } });
    for (const sub of SUBSIDIARIES) {
      await api("/consolidation/post", { method: "POST", body: { realmId: sub.realmId, period: { kind: "month", year: 2026, month: 1 } } });
    }
  });

  it("shows January's group adjustments with every line explained and posts them once", { timeout: 180_000 }, async () => {
    await page.goto(`${baseUrl}/consolidation/elimination`);
    const picker = page.getByRole("region", { name: "Period of the group adjustments" });
    await picker.waitFor({ timeout: 60_000 });
    const section = page.getByRole("region", { name: "Adjustments of the period" });
    await section.waitFor({ timeout: 60_000 });
    for (const sub of SUBSIDIARIES) await section.getByRole("table", { name: `Eliminate investment in ${sub.name} against its equity at acquisition` }).waitFor();
    expect(await section.getByText(/^Goodwill on acquiring/).count()).toBe(4);
    const entry = page.getByRole("region", { name: "Group adjustment entry" });
    await entry.getByTestId("balanced").getByText("Balanced").waitFor();
    await page.screenshot({ path: `${e2e.SHOTS}92-group-adjustments.png`, fullPage: true });
    await entry.getByRole("button", { name: "Post to QuickBooks" }).click();
    await entry.getByTestId("post-outcome").getByText(/are posted to the parent's QuickBooks as entry GA/).waitFor({ timeout: 60_000 });
    const postings = await api<{ postings: { status: string; docNumber: string }[] }>("/consolidation/postings?realmId=adjustments");
    expect(postings.postings.filter((p) => p.status === "posted")).toHaveLength(1);
    const qbo = await e2e.sandboxQbo(baseUrl, PARENT.realmId);
    const posted = await qbo.query<{ DocNumber: string }>("JournalEntry", `DocNumber = '${postings.postings[0]!.docNumber}'`);
    expect(posted).toHaveLength(1);
  });

  it("the consolidated balance sheet holds goodwill and the NCI, no investment in a subsidiary, and the API's figures", { timeout: 180_000 }, async () => {
    const r = await api<ConsolidatedReport>("/consolidation/report?from=2026-01&to=2026-01&compare=none");
    expect(r.ok, JSON.stringify(r.problems)).toBe(true);
    expect(r.warnings.join("\n")).not.toMatch(/No acquisition is recorded/);
    const b = r.report!.balanceSheet;
    expect(b.balanced).toBe(true);
    expect(b.assets.filter((l) => /^Investment in /.test(l.name) && l.amount !== 0)).toEqual([]);
    const goodwill = b.assets.find((l) => l.name === "Goodwill")!;
    expect(goodwill.amount).toBe(r.report!.eliminations.filter((e) => e.kind === "investment").reduce((s, e) => s + Number(e.details["goodwillCarryingAmount"]), 0));
    expect(b.nonControllingInterests).toBe(r.report!.nci.find((n) => n.entity === CANADA.realmId)!.closing);
    expect(b.nonControllingInterests).toBeGreaterThan(0);

    await page.goto(`${baseUrl}/consolidation/reports?reportPeriod=month&reportFrom=2026-01&reportTo=2026-01&reportCompare=none`);
    const table = page.getByRole("table", { name: "Consolidated balance sheet" });
    await table.waitFor({ timeout: 60_000 });
    await page.getByTestId("balanced").getByText("Balanced").waitFor();
    expect(await table.getByText(/Investment in Northwind/).count()).toBe(0);
    await table.getByText(/Goodwill$/).first().waitFor();
    expect(e2e.cents((await page.getByTestId("total-assets").locator("td").nth(1).textContent()) ?? "")).toBe(b.totalAssets);
    expect(e2e.cents((await page.getByTestId("line-nci").locator("td").nth(1).textContent()) ?? "")).toBe(b.nonControllingInterests);
    await page.screenshot({ path: `${e2e.SHOTS}93-consolidated-balance-sheet-acquisitions.png`, fullPage: true });
  });

  it("Verify finds the parent's QuickBooks trial balance equal to the consolidation", { timeout: 180_000 }, async () => {
    const v = await api<{ ok: boolean; group: { status: string; message: string; differences: unknown[] }; subsidiaries: { status: string; message: string }[] }>("/consolidation/verify?year=2026&month=1");
    expect(v.group.status, `${v.group.message} ${JSON.stringify(v.group.differences).slice(0, 2000)}`).toBe("ok");
    for (const s of v.subsidiaries) expect(s.status, s.message).toBe("ok");
  });
});
