import type { Locator, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { tmpdir } from "node:os";
import * as e2e from "./support.ts";
import { shortMonth } from "../src/features/runs/model.ts";

/**
 * Issue 18 end to end: what a new user met on the way to a first consolidated month, in Chromium
 * at 1440×900. A deep link opened logged out comes back after logging in; COA Mapping says which
 * period an income account's amount is; during onboarding the opening balances' missing rates are
 * one line per currency with "Fetch missing rates"; "Explain CTA" followed by the side navigation
 * does not crash; the memo ends in one period; a month posted twice names its entry by number and
 * opens it in the emulator's own view; FOREX badges, the Transaction Detail table and the report's
 * heading show what they should, unclipped. Canada's sub-accounts (issue #20) are mapped each on its
 * own under its parent on COA Mapping, and its month's entry carries them once.
 */
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));

const EMAIL = `newcomer.${Date.now()}@northwind.example`;
const { parent: PARENT, uk: UK, canada: CANADA, germany: GERMANY } = e2e.DEMO;
/** Three foreign currencies, as the user had: the FOREX grid is then as wide as the screen allows. */
const SUBSIDIARIES = [CANADA, GERMANY, UK] as const;
/** The opening month the user locks: December 2025 (the parent's fiscal year is the calendar year). */
const OPENING = { year: 2025, month: 12, label: "December 2025" } as const;
const FIRST_MONTH = "2026-01";
const POLL = { timeout: 20_000, interval: 200 } as const;

let session: e2e.Session;
let page: Page;
const pageErrors: string[] = [];
const api = <T>(path: string, init?: { method?: string; body?: unknown }) => e2e.api<T>(page, baseUrl, path, init);

// A desktop Chromium's scroll bars, as the user had: they take 15 px from the page.
e2e.browserForFile(
  (s) => {
    session = s;
    page = s.page;
    page.on("pageerror", (err) => pageErrors.push(err.message));
  },
  { width: 1440, height: 900 },
  { scrollbars: true },
);
afterEach(async ({ task }) => {
  if (task.result?.state === "fail") await page?.screenshot({ path: `${tmpdir()}/firstmonth-e2e-failure.png` }).catch(() => undefined);
});

/**
 * Elements that are cut off: content wider than their own box (an ellipsis), or a box reaching
 * past the window or past an ancestor that hides or scrolls its overflow (what the user sees is
 * then only part of it).
 */
const clipped = (l: Locator) =>
  l.evaluateAll((els) =>
    els
      .filter((el) => {
        if (el.scrollWidth > el.clientWidth + 0.5) return true;
        const r = el.getBoundingClientRect();
        if (r.left < -0.5 || r.right > window.innerWidth + 0.5) return true;
        for (let a = el.parentElement; a; a = a.parentElement) {
          if (getComputedStyle(a).overflowX === "visible") continue;
          const box = a.getBoundingClientRect();
          if (r.left < box.left - 0.5 || r.right > box.right + 0.5) return true;
        }
        return false;
      })
      .map((el) => el.textContent ?? ""),
  );

describe("A new user's first month, at 1440×900", () => {
  it("a guarded deep link opened while logged out is where logging in lands", async () => {
    await e2e.signUp(baseUrl, EMAIL);
    await page.goto(`${baseUrl}/settings?from=mail`);
    await page.waitForURL("**/login");
    await e2e.logIn(page, EMAIL);
    await page.getByRole("heading", { name: "Account Settings", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/settings?from=mail");
  });

  it("connects the demo parent, Canada, Germany and the UK", { timeout: 240_000 }, async () => {
    await e2e.connectDemoGroup(session, baseUrl, SUBSIDIARIES);
  });

  it("COA Mapping shows an income account's amount for the last full month and says so", async () => {
    const accounts = await api<{ Id: string; name: string; classification: string; latestAmount: number | null; latestMonth: string | null }[]>(
      `/companies/${CANADA.realmId}/accounts`,
    );
    const now = new Date();
    const lastFull = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    const income = accounts.filter((a) => a.classification === "Revenue" && a.latestAmount !== null);
    expect(income.length).toBeGreaterThan(0);
    // The current month is still being booked: the last full month it is.
    for (const a of income) expect(a.latestMonth, a.name).toBe(lastFull);
    // The demo books end in October 2026 (while that is the last full month, its sales show).
    const sales = lastFull <= "2026-10" ? income.find((a) => a.latestAmount !== 0) : income[0];
    expect(sales, "an income account with activity in the last full month").toBeDefined();

    await page.getByRole("link", { name: "COA Mapping" }).click();
    await page.waitForURL("**/setup/coa");
    await page.getByRole("tab", { name: new RegExp(CANADA.name) }).click();
    const grid = page.getByRole("grid");
    await grid.locator("[data-row-id]").first().waitFor();
    const basis = page.getByTestId("balance-basis");
    await expect.poll(() => basis.textContent(), POLL).toMatch(/^Balance: balance-sheet accounts at the end of \w+ \d{4}; income and expense accounts, their activity in \w+ \d{4}\.$/);
    // The grid draws only the rows in view: search for the account.
    await page.getByRole("textbox", { name: "Search" }).fill(sales!.name);
    const row = grid.locator(`[data-row-id="${sales!.Id}"]`);
    await row.waitFor();
    expect(await row.getByTestId("balance").getAttribute("title")).toMatch(/^Activity in \w+ \d{4}$/);
    await e2e.shot(page, "180-coa-income-last-month");
  });

  it("on Opening Balance Sheet during onboarding, missing rates are one line per currency, and Fetch missing rates fills them", { timeout: 180_000 }, async () => {
    for (const sub of SUBSIDIARIES) await e2e.mapAllAccounts(page, baseUrl, PARENT.realmId, sub.realmId);
    // The CTA account and historical equity, without any rate in FOREX Management yet.
    const cta = await api<{
      ctaAccountSuggestions: { accountId: string; name: string }[];
      subsidiaries: { realmId: string; equity: { accountId: string; localAmount: number | null }[] }[];
    }>("/cta");
    for (const sub of cta.subsidiaries) {
      const historical = sub.equity.filter((e) => e.localAmount).map((e) => ({ accountId: e.accountId, historicalRate: "1.25" }));
      await api(`/cta/${sub.realmId}`, { method: "PUT", body: { ctaAccountId: cta.ctaAccountSuggestions[0]!.accountId, historical } });
    }
    await api("/account", { method: "PATCH", body: { onboardingStep: 3 } });
    await api("/obal", { method: "POST", body: { year: OPENING.year, month: OPENING.month, naturalYear: OPENING.year, naturalMonth: OPENING.month } });
    expect((await api<{ onboarding: boolean }>("/account")).onboarding).toBe(true);

    await page.goto(`${baseUrl}/setup/obal`);
    const rates = page.getByRole("region", { name: "Exchange rates needed" });
    await rates.waitFor({ timeout: 60_000 });
    // One line per currency, not one per month and kind.
    await expect.poll(() => rates.getByRole("listitem").allTextContents(), POLL).toEqual([
      "CAD: 26 rates missing (average and month-end), December 2024 to December 2025. Needed by Northwind Canada Inc.",
      "EUR: 26 rates missing (average and month-end), December 2024 to December 2025. Needed by Northwind Deutschland GmbH.",
      "GBP: 26 rates missing (average and month-end), December 2024 to December 2025. Needed by Northwind UK Ltd.",
    ]);
    for (const sub of SUBSIDIARIES) {
      const problems = page.getByRole("region", { name: sub.name, exact: true }).getByTestId("problems");
      await expect.poll(() => problems.getByRole("listitem").filter({ hasText: "rates missing" }).count(), POLL).toBe(1);
    }
    // FOREX Management is reachable from here while the menu keeps it for after onboarding, and says so.
    expect(await rates.getByRole("link", { name: "Open FOREX Management" }).getAttribute("href")).toBe("/consolidation/fx_rates");
    await page
      .getByRole("link", { name: "FOREX Management, unavailable: Finish onboarding first. Until then, Opening Balance Sheet fetches the rates the opening balances need." })
      .waitFor();
    await e2e.shot(page, "181-obal-missing-rates");

    await rates.getByRole("button", { name: "Fetch missing rates" }).click();
    await page.getByRole("status").getByText("Fetched CAD, EUR and GBP rates for December 2024 to December 2025: 39 rows filled.").waitFor({ timeout: 60_000 });
    await rates.waitFor({ state: "detached", timeout: 30_000 });
    for (const sub of SUBSIDIARIES) {
      await expect.poll(() => page.getByRole("region", { name: sub.name, exact: true }).getByTestId("obal-status").textContent(), POLL).toBe("Unreviewed");
      expect(await page.getByRole("region", { name: sub.name, exact: true }).getByTestId("problems").count()).toBe(0);
    }
    await e2e.shot(page, "182-obal-rates-fetched");
  });

  it("Canada's sub-accounts (issue #20): COA Mapping shows each under its parent account, mapped on its own where its parent goes", async () => {
    await page.goto(`${baseUrl}/setup/coa`);
    await page.getByRole("tab", { name: new RegExp(CANADA.name) }).click();
    const grid = page.getByRole("grid");
    await grid.locator("[data-row-id]").first().waitFor();
    await page.getByRole("textbox", { name: "Search" }).fill("Wages");
    const rows = grid.locator("[data-row-id]");
    await expect.poll(() => rows.count(), POLL).toBe(3);
    const names = await rows.locator("[data-depth]").evaluateAll((els) => els.map((el) => `${el.getAttribute("data-depth")} ${el.querySelector("[title]")?.getAttribute("title")}`));
    expect(names).toEqual(["0 Wages and Salaries", "1 Wages and Salaries:Wages - Toronto", "1 Wages and Salaries:Wages - Vancouver"]);
    for (const row of await rows.all()) {
      expect(await row.locator("[data-parent-picker]").getAttribute("aria-label")).toMatch(/: 6000 · Salaries and Wages$/);
    }
    await e2e.shot(page, "181b-coa-sub-accounts");
  });

  it("posts the opening balances, finishes onboarding and fetches the rates of 2026", { timeout: 180_000 }, async () => {
    // Fills nothing the step above fetched; lets the journey go on when that step fails.
    await api("/fxrates/fetch", { method: "POST", body: { from: "2024-12", to: "2026-10" } });
    for (const sub of SUBSIDIARIES) {
      await api("/obal/review", { method: "POST", body: { realmId: sub.realmId } });
      await api("/obal/confirm", { method: "POST", body: { realmId: sub.realmId } });
      await api(`/balances/post/${sub.realmId}`, { method: "POST" });
    }
    await api("/account", { method: "PATCH", body: { onboarding: false } });
  });

  it("Single Period: Explain CTA, then the side navigation opens the next screen without a crash", { timeout: 120_000 }, async () => {
    const preview = await previewCanada();
    await preview.getByTestId("cta-line").getByRole("button", { name: "Explain CTA" }).click();
    await preview.getByTestId("cta-explanation").getByTestId("cta-adds-up").waitFor();
    pageErrors.length = 0;
    await page.getByRole("link", { name: "Connected Companies" }).click();
    await page.waitForURL("**/setup/companies");
    await page.getByRole("heading", { name: "Connected Companies", level: 1 }).waitFor();
    expect(await page.getByText("This screen could not be loaded").count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await e2e.shot(page, "183-after-explain-cta");
  });

  it("Single Period: the memo line ends in one full stop after a company name that brings its own", { timeout: 120_000 }, async () => {
    const preview = await previewCanada();
    expect(await preview.getByText(/^Memo: /).textContent()).toMatch(/^Memo: Consolidation of Northwind Canada Inc\. \(CAD\) for 2026-01\. Every line carries the class of Northwind Canada Inc\.$/);
  });

  it("a month posted already is skipped in a multi-period run under its DocNumber, and opens in the emulator's own view", { timeout: 300_000 }, async () => {
    const posted = await api<{ outcome: string; posting: { docNumber: string; journalEntryId: string } }>("/consolidation/post", {
      method: "POST",
      body: { realmId: CANADA.realmId, period: { kind: "month", year: 2026, month: 1 } },
    });
    const { docNumber, journalEntryId } = posted.posting;
    expect(docNumber).toBe(`CR202601-${CANADA.realmId.slice(-6)}`);

    await page.goto(`${baseUrl}/multipleconsolidation/run`);
    const form = page.getByRole("region", { name: "New run" });
    await form.waitFor();
    await pickMonth("From", FIRST_MONTH);
    await pickMonth("To", FIRST_MONTH);
    await form.getByRole("button", { name: "Start run (3 entries)" }).click();
    const progress = page.getByRole("region", { name: "Run progress" });
    await expect.poll(() => progress.getByTestId("run-status").textContent(), { timeout: 240_000, interval: 1000 }).toBe("Finished");
    expect(await progress.getByTestId("run-summary").textContent()).toContain("2 posted, 1 skipped as already posted, 0 failed.");
    const item = progress.getByTestId(`item-${FIRST_MONTH}-${CANADA.realmId}`);
    expect(await item.textContent()).toContain(`Already posted as entry ${docNumber}; skipped as a duplicate.`);
    const href = await item.getByRole("link", { name: /Open in QuickBooks/ }).getAttribute("href");
    expect(href).toBe(e2e.journalEntryUrl(PARENT.realmId, journalEntryId));
    await e2e.shot(page, "184-multi-duplicate");

    const view = await session.context.newPage();
    await view.goto(`${baseUrl}${href}`);
    await view.getByRole("heading", { name: `Journal entry ${docNumber}` }).waitFor();
    const lines = view.getByRole("table", { name: "Lines" }).locator("tbody tr");
    expect(await lines.count()).toBeGreaterThan(1);
    await view.getByText(PARENT.name).first().waitFor();
    await e2e.shot(view, "185-emulator-journal-entry");
    await view.close();
  });

  it("Canada's January entry carries its wages once: what its sub-accounts hold, nothing more for their parent (issue #20)", { timeout: 120_000 }, async () => {
    const parentChart = await api<{ Id: string; name: string }[]>(`/companies/${PARENT.realmId}/accounts`);
    const wages = parentChart.find((a) => a.name === "Salaries and Wages")!.Id;
    const { map } = await api<{ map: Record<string, string> }>(`/companies/${CANADA.realmId}/map`);
    const mapped = new Set(Object.keys(map).filter((sub) => map[sub] === wages));
    // Canada's January as its own QuickBooks reports it: every account mapped to Salaries and Wages, once each.
    type Row = { ColData?: { value: string; id?: string }[]; Rows?: { Row: Row[] } };
    const pl = await (await e2e.sandboxQbo(baseUrl, CANADA.realmId)).report<{ Rows: { Row: Row[] } }>("ProfitAndLoss", { start_date: "2026-01-01", end_date: "2026-01-31" });
    const own = (list: readonly Row[]): number =>
      list.reduce((s, r) => s + (r.ColData?.[0]?.id && mapped.has(r.ColData[0].id) ? Math.round(Number(r.ColData[1]?.value || "0") * 100) : 0) + own(r.Rows?.Row ?? []), 0);
    const detail = await api<{ companies: { realmId: string; totalLocal: number; totalTranslated: number | null; transactions: { accountName: string }[] }[] }>(
      `/consolidation/transactions?account=${wages}&from=${FIRST_MONTH}&to=${FIRST_MONTH}&realmId=${CANADA.realmId}`,
    );
    const canada = detail.companies.find((c) => c.realmId === CANADA.realmId)!;
    expect(canada.totalLocal).toBe(own(pl.Rows.Row));
    expect(new Set(canada.transactions.map((t) => t.accountName).filter((n) => n.includes("Wages and Salaries")))).toEqual(
      new Set(["60010 Wages and Salaries:Wages - Toronto", "60020 Wages and Salaries:Wages - Vancouver"]),
    );
    // The posted entry's line on Salaries and Wages is that amount translated.
    const [entry] = await (await e2e.sandboxQbo(baseUrl, PARENT.realmId)).query<{ Line: { Amount: number; JournalEntryLineDetail: { PostingType: string; AccountRef: { value: string } } }[] }>(
      "JournalEntry",
      `DocNumber = 'CR202601-${CANADA.realmId.slice(-6)}'`,
    );
    const line = entry!.Line.filter((l) => l.JournalEntryLineDetail.AccountRef.value === wages);
    expect(line.reduce((s, l) => s + Math.round(l.Amount * 100) * (l.JournalEntryLineDetail.PostingType === "Debit" ? 1 : -1), 0)).toBe(canada.totalTranslated);
    // And the Transaction Detail screen names the sub-accounts by their full name.
    await page.goto(`${baseUrl}/consolidation/transaction-detail?account=${wages}&from=${FIRST_MONTH}&to=${FIRST_MONTH}`);
    const table = page.getByRole("table", { name: `${CANADA.name} transactions` });
    await table.waitFor({ timeout: 60_000 });
    await table.getByText("Wages and Salaries:Wages - Toronto").first().waitFor();
    await e2e.shot(page, "184b-transaction-detail-sub-accounts");
  });

  it("FOREX Management: the Current and missing badges of the month column are not cut off", async () => {
    await page.getByRole("link", { name: "FOREX Management" }).click();
    await page.getByRole("table", { name: /^FX rates: USD per one unit/ }).waitFor();
    const badges = page.getByRole("table", { name: /^FX rates: USD per one unit/ }).locator(".mantine-Badge-label");
    expect(await badges.count()).toBeGreaterThan(0);
    expect(await badges.allTextContents()).toContain("Current");
    expect(await clipped(badges)).toEqual([]);
    await e2e.shot(page, "186-fx-badges");
  });

  it("Transaction Detail: the Link column is inside the window and its box", async () => {
    const chart = await api<{ Id: string; classification: string; name: string }[]>(`/companies/${PARENT.realmId}/accounts`);
    const revenue = chart.find((a) => a.classification === "Revenue")!;
    await page.goto(`${baseUrl}/consolidation/transaction-detail?account=${revenue.Id}&from=${FIRST_MONTH}&to=${FIRST_MONTH}`);
    const table = page.getByRole("table", { name: `${CANADA.name} transactions` });
    await table.waitFor({ timeout: 60_000 });
    // Every company's table (the parent's, and the foreign ones with their rate columns): its Link
    // column and the links in it are wholly in view, with nothing to scroll sideways to.
    const tables = page.getByRole("table", { name: / transactions$/ });
    expect(await tables.count()).toBeGreaterThanOrEqual(2);
    expect(await clipped(tables.getByRole("columnheader", { name: "Link" }))).toEqual([]);
    expect(await clipped(tables.getByRole("link", { name: /in QuickBooks/ }))).toEqual([]);
    expect(await tables.getByRole("link", { name: /in QuickBooks/ }).count()).toBeGreaterThan(0);
    expect(await clipped(tables)).toEqual([]);
    await e2e.shot(page, "187-transaction-detail");
  });

  it("the report's heading names the locked opening month", { timeout: 120_000 }, async () => {
    await page.goto(`${baseUrl}/consolidation/reports`);
    const heading = page.getByText(/^In USD · opening balances as at the end of /);
    await heading.waitFor({ timeout: 60_000 });
    expect(await heading.textContent()).toContain(`opening balances as at the end of ${OPENING.label} ·`);
    await e2e.shot(page, "188-report-heading");
  });
});

/** Single Period / Company: Canada's January 2026 previewed. */
async function previewCanada() {
  await page.goto(`${baseUrl}/consolidation/run`);
  const form = page.getByRole("region", { name: "Period to consolidate" });
  await form.getByRole("textbox", { name: "Subsidiary" }).click();
  await page.getByRole("option", { name: new RegExp(`^${CANADA.name} \\(`) }).click();
  await expect.poll(() => form.getByRole("textbox", { name: "Month" }).inputValue(), POLL).toBe("January 2026");
  await form.getByRole("button", { name: "Preview" }).click();
  const preview = page.getByRole("region", { name: "Journal entry preview" });
  await preview.getByRole("heading", { name: `${CANADA.name}: January 2026` }).waitFor({ timeout: 60_000 });
  return preview;
}

/** Picks a month in the run form's From or To picker. */
const pickMonth = (field: "From" | "To", month: string) => e2e.pickMonth(page, page.getByRole("region", { name: "New run" }), field, month, shortMonth);
