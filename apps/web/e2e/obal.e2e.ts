import { FIRST_OBAL_POSTED_MODAL_TITLE, FIRST_COMPANY_MAPPED_MODAL_TITLE } from "@groupledger/domain";
import { tmpdir } from "node:os";
import type { Locator, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Issue 8 end to end, Opening Balance Sheet, on the whole demo group: lock a month-end, open each
 * eligible subsidiary's translated trial balance, review, confirm and post it; the entries land in
 * the sandbox parent's ledger (one per subsidiary, at the month-end, in its class, balanced) and in
 * its TrialBalance report, which still balances; onboarding goes 3 → 3.1 → 3.2 → finished. The
 * prerequisites of issue 7 (maps, rates, CTA and historical equity) go through the API: their
 * screens have their own browser tests.
 */
// Its own server: a QuickBooks company belongs to one account, and the demo parent is taken elsewhere.
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));

const EMAIL = `opener.${Date.now()}@northwind.example`;
const { parent: PARENT, uk: UK, canada: CANADA, germany: GERMANY, retail: RETAIL } = e2e.DEMO;
/** The screen lists subsidiaries by name. */
const SUBSIDIARIES = [CANADA, GERMANY, RETAIL, UK] as const;
/** The opening month: December of the parent's (calendar) fiscal year 2025, well inside the demo's books (2023-01 to 2026-10). */
const LOCKED = { fiscalYear: 2025, fiscalMonth: 12, month: "2025-12", monthEnd: "2025-12-31", label: "December 2025" } as const;
const docNumber = (realmId: string) => `OB${LOCKED.month.replace("-", "")}-${realmId.slice(-6)}`;

let session: e2e.Session;
let page: Page;
let qbo: e2e.SandboxQbo;

const api = <T>(path: string, init?: { method?: string; body?: unknown }) => e2e.api<T>(page, baseUrl, path, init);
const onboardingStep = () => e2e.onboardingStep(page, baseUrl);
const panel = (name: string) => page.getByRole("region", { name, exact: true });
const statusOf = (name: string) => panel(name).getByTestId("obal-status");
/** Waits long enough for a server round trip and a re-render on a loaded machine; never hangs a poll on a missing element. */
const POLL = { timeout: 15_000, interval: 200 } as const;
const textOf = (l: Locator) => l.textContent({ timeout: 500 }).catch(() => null);
const hrefOf = (l: Locator) => l.getAttribute("href", { timeout: 500 }).catch(() => null);

interface TrialBalanceDto {
  eligible: boolean;
  ok: boolean;
  reason: string | null;
  view: {
    currency: string;
    byParentAccount: { account: string; name: string; amount: number }[];
    totals: { debit: number; credit: number; balanced: boolean };
    cta: { account: string };
  } | null;
}
interface QboJournalEntry {
  Id: string;
  SyncToken: string;
  DocNumber?: string;
  TxnDate: string;
  CurrencyRef: { value: string };
  Line: { Amount: number; JournalEntryLineDetail: { PostingType: "Debit" | "Credit"; AccountRef: { value: string }; ClassRef?: { value: string; name: string } } }[];
}
interface QboReport {
  Rows: { Row: { ColData?: { value: string; id?: string }[]; Summary?: { ColData: { value: string }[] }; group?: string }[] };
}

/** QuickBooks sends amounts as decimal numbers with at most two places: exact in cents once rounded. */
const cents = (n: number | string) => (n === "" ? 0 : Math.round(Number(n) * 100));
const signed = (l: QboJournalEntry["Line"][number]) => (l.JournalEntryLineDetail.PostingType === "Debit" ? 1 : -1) * cents(l.Amount);

/** Net amount per account, debit positive, of some entries. */
function byAccount(entries: QboJournalEntry[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of entries) for (const l of e.Line) out.set(l.JournalEntryLineDetail.AccountRef.value, (out.get(l.JournalEntryLineDetail.AccountRef.value) ?? 0) + signed(l));
  for (const [k, v] of out) if (v === 0) out.delete(k);
  return out;
}

/** The parent's TrialBalance report at the month-end: each account's balance (debit positive), the column totals and the grand total. */
async function parentTrialBalance() {
  const report = await qbo.report<QboReport>("TrialBalance", { start_date: `${LOCKED.fiscalYear}-01-01`, end_date: LOCKED.monthEnd });
  const balances = new Map<string, number>();
  let debits = 0;
  let credits = 0;
  let grand: { debit: number; credit: number } | null = null;
  for (const row of report.Rows.Row) {
    if (row.group === "GrandTotal") grand = { debit: cents(row.Summary!.ColData[1]!.value), credit: cents(row.Summary!.ColData[2]!.value) };
    else if (row.ColData) {
      const [account, debit, credit] = row.ColData;
      debits += cents(debit!.value);
      credits += cents(credit!.value);
      balances.set(account!.id!, cents(debit!.value) - cents(credit!.value));
    }
  }
  return { balances, debits, credits, grand };
}

const openingEntries = () => qbo.query<QboJournalEntry>("JournalEntry", `DocNumber LIKE '%OB${LOCKED.month.replace("-", "")}-%'`);
const entriesOf = async (realmId: string) => (await openingEntries()).filter((e) => e.DocNumber === docNumber(realmId));

/** Opens a subsidiary's trial balance when it is not open yet. */
async function expand(name: string) {
  const toggle = panel(name).getByRole("button", { name, exact: true });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await panel(name).getByRole("table", { name: `Trial balance of ${name}` }).waitFor();
}

const cellTexts = async (row: Locator) => (await row.locator("td").allTextContents()).map((t) => t.trim());
/** "(1,234.56)" and "1,234.56" are the same amount, a credit and a debit. */
const unsignedText = (t: string) => t.replace(/^\((.*)\)$/, "$1");

/**
 * What an accountant checks before review: the trial balance on the screen balances in both
 * currencies, agrees with the server's, and its journal-entry preview has one line per parent
 * account whose debits equal its credits.
 */
async function checkTrialBalanceOnScreen(name: string, tb: TrialBalanceDto) {
  const p = panel(name);
  await expect.poll(() => textOf(p.getByTestId("balanced")), POLL).toBe("Balanced");
  const debits = await cellTexts(p.getByTestId("total-debits"));
  const credits = await cellTexts(p.getByTestId("total-credits"));
  // Local and translated columns: debits equal credits (shown in parentheses) in each.
  expect(debits[0]).toBe("Total debits");
  expect(unsignedText(credits[1]!)).toBe(debits[1]);
  expect(unsignedText(credits[3]!)).toBe(debits[3]);
  expect(credits[3]).toMatch(/^\(.*\)$/);
  expect(cents(debits[3]!.replaceAll(",", ""))).toBe(tb.view!.totals.debit);
  expect(tb.view!.totals.balanced).toBe(true);

  const lines = p.getByRole("table", { name: "Journal entry lines" }).locator("tbody tr");
  await expect.poll(() => lines.count(), POLL).toBe(tb.view!.byParentAccount.length);
  let debit = 0;
  let credit = 0;
  for (const row of await lines.all()) {
    const [, d, c] = await cellTexts(row);
    debit += cents(d!.replaceAll(",", ""));
    credit += cents(c!.replaceAll(",", ""));
  }
  expect(debit).toBe(credit);
  expect(debit).toBe(tb.view!.byParentAccount.filter((l) => l.amount > 0).reduce((s, l) => s + l.amount, 0));
}

/** Review, then Confirm, each answered by the server's new state on the badge. */
async function reviewAndConfirm(name: string) {
  const p = panel(name);
  await p.getByRole("button", { name: "Mark as reviewed" }).click();
  await expect.poll(() => textOf(statusOf(name)), POLL).toBe("Reviewed");
  await p.getByRole("button", { name: "Confirm" }).click();
  await expect.poll(() => textOf(statusOf(name)), POLL).toBe("Confirmed");
}

/** The journal-entry lines the server would post for a subsidiary, by parent account. */
const expectedLines = (tb: TrialBalanceDto) => new Map(tb.view!.byParentAccount.filter((l) => l.amount !== 0).map((l) => [l.account, l.amount]));

const posted: Record<string, QboJournalEntry> = {};
const trialBalances: Record<string, TrialBalanceDto> = {};
let tbBefore: Awaited<ReturnType<typeof parentTrialBalance>>;

/** After a post: exactly one entry for the subsidiary in the parent's QuickBooks, as the screen showed it. */
async function checkPostedEntry(sub: { realmId: string; name: string }) {
  const entries = await entriesOf(sub.realmId);
  expect(entries, `${sub.name}: one opening entry in the parent's QuickBooks`).toHaveLength(1);
  const entry = entries[0]!;
  expect(entry.TxnDate).toBe(LOCKED.monthEnd);
  expect(entry.CurrencyRef.value).toBe("USD");
  // Tagged with the subsidiary's class on every line, and balanced.
  expect(new Set(entry.Line.map((l) => l.JournalEntryLineDetail.ClassRef?.name))).toEqual(new Set([sub.name]));
  expect(entry.Line.reduce((s, l) => s + signed(l), 0)).toBe(0);
  expect(byAccount([entry])).toEqual(expectedLines(trialBalances[sub.realmId]!));
  posted[sub.realmId] = entry;
  // The screen links to that entry in QuickBooks.
  const link = panel(sub.name).getByRole("link", { name: /Open in QuickBooks/ });
  await expect.poll(() => hrefOf(link), POLL).toBe(e2e.journalEntryUrl(PARENT.realmId, entry.Id));
}

e2e.browserForFile((s) => {
  session = s;
  page = s.page;
});

afterEach(async ({ task }) => {
  // What the screen showed when a step failed, for whoever reads the failure (not an artifact of a passing run).
  if (task.result?.state === "fail") await page?.screenshot({ path: `${tmpdir()}/obal-e2e-failure.png` }).catch(() => undefined);
});

describe("Opening balances in a browser, on the demo group", () => {
  it("connects the demo parent and its four subsidiaries", { timeout: 240_000 }, async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, [UK, CANADA, GERMANY, RETAIL]);
    qbo = await e2e.sandboxQbo(baseUrl, PARENT.realmId);
  });

  it("prepares maps, rates, the CTA account and historical equity, and continues through COA Mapping to /setup/obal at step 3", { timeout: 120_000 }, async () => {
    for (const sub of SUBSIDIARIES) await e2e.mapAllAccounts(page, baseUrl, PARENT.realmId, sub.realmId);
    // Rates from the first month of the books (the historical rate of the share capital) to the opening month.
    const fetched = await api<{ currencies: string[] }>("/fxrates/fetch", { method: "POST", body: { from: "2023-01", to: LOCKED.month } });
    expect(new Set(fetched.currencies)).toEqual(new Set(["GBP", "CAD", "EUR"]));
    const first = await api<{ rates: { currency: string; avgfx: string }[] }>("/fxrates?from=2023-01&to=2023-01");
    const historicalRate = (currency: string) => first.rates.find((r) => r.currency === currency)!.avgfx;

    const cta = await api<{
      ctaAccountSuggestions: { accountId: string; name: string }[];
      subsidiaries: { realmId: string; currency: string; equity: { accountId: string; localAmount: number | null }[] }[];
    }>("/cta");
    // The parent's 3600 Accumulated Other Comprehensive Income is the best suggestion for the CTA.
    const aoci = cta.ctaAccountSuggestions[0];
    expect(aoci?.name).toBe("Accumulated Other Comprehensive Income");
    // Retail keeps USD books like the parent: it is not translated and has no CTA settings.
    expect(cta.subsidiaries.map((s) => s.realmId).sort()).toEqual([UK.realmId, CANADA.realmId, GERMANY.realmId].sort());
    for (const sub of cta.subsidiaries) {
      const historical = sub.equity.filter((e) => e.localAmount).map((e) => ({ accountId: e.accountId, historicalRate: historicalRate(sub.currency) }));
      expect(historical.length, `${sub.realmId} has contributed equity`).toBeGreaterThan(0);
      await api(`/cta/${sub.realmId}`, { method: "PUT", body: { ctaAccountId: aoci!.accountId, historical } });
    }

    // The guide as a user walks it: step 1.2 Continue → COA Mapping (every map done: 2.3) → Continue → /setup/obal at 3.
    await page.getByRole("button", { name: "Continue to COA Mapping" }).click();
    await page.waitForURL("**/setup/coa");
    await e2e.continueModal(page, FIRST_COMPANY_MAPPED_MODAL_TITLE);
    await expect.poll(onboardingStep, POLL).toBe(2.3);
    await page.getByRole("status").filter({ hasText: "Every subsidiary is mapped" }).getByRole("button", { name: "Continue" }).click();
    await page.waitForURL("**/setup/obal");
    await expect.poll(onboardingStep, POLL).toBe(3);
    await page.getByRole("region", { name: "Lock the opening period" }).waitFor();
    await e2e.shot(page, "30-obal-lock-form");
  });

  it("a month before the books start: every subsidiary is shown as not eligible with its reason; Reset unlocks", async () => {
    await lockPeriod(2022, "Month 12: December 2022");
    for (const sub of SUBSIDIARIES) {
      await expect.poll(() => textOf(statusOf(sub.name)), POLL).toBe("Not eligible");
      await expect
        .poll(() => textOf(panel(sub.name).getByTestId("not-eligible-reason")), POLL)
        .toBe(`${sub.name}'s books start in January 2023 (first transaction on 2023-01-01), after the opening month, December 2022: it has no balances to open with.`);
      await expect.poll(() => panel(sub.name).getByRole("button").filter({ hasText: /reviewed|Confirm|Post/ }).count(), POLL).toBe(0);
    }
    await e2e.shot(page, "31-obal-not-eligible");
    expect(await onboardingStep()).toBe(3);

    await page.getByRole("button", { name: "Reset…" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset the opening balances?" });
    await dialog.getByRole("button", { name: "Reset opening balances" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("region", { name: "Lock the opening period" }).waitFor();
    expect((await api<{ year: number | null }>("/obal")).year).toBeNull();
  });

  it(`locks ${LOCKED.label}: every subsidiary is eligible, the first one's trial balance opens`, async () => {
    await lockPeriod(LOCKED.fiscalYear, `Month ${LOCKED.fiscalMonth}: ${LOCKED.label}`);
    await expect.poll(() => textOf(page.getByTestId("locked-period")), POLL).toBe(`Opening balances as of ${LOCKED.label}`);
    for (const sub of SUBSIDIARIES) {
      await expect.poll(() => textOf(statusOf(sub.name)), POLL).toBe("Unreviewed");
      const tb = await api<TrialBalanceDto>(`/obal/${sub.realmId}/trialbalance`);
      expect(tb, `${sub.name} translates`).toMatchObject({ eligible: true, ok: true });
      trialBalances[sub.realmId] = tb;
    }
    await panel(CANADA.name).getByRole("table", { name: `Trial balance of ${CANADA.name}` }).waitFor();
    // Nothing of this yet in the parent's QuickBooks; its books as they stand before any opening entry.
    expect(await openingEntries()).toEqual([]);
    tbBefore = await parentTrialBalance();
    expect(tbBefore.debits).toBe(tbBefore.credits);
    await page.evaluate(() => window.scrollTo(0, 0));
    await e2e.shot(page, "32-obal-locked");
  });

  it("Canada: checks its translated trial balance, reviews, confirms; a double-clicked Post makes exactly one entry and the 3.1 milestone", { timeout: 90_000 }, async () => {
    await expand(CANADA.name);
    await checkTrialBalanceOnScreen(CANADA.name, trialBalances[CANADA.realmId]!);
    // The CTA is explained and lands on the parent's account 3600, named by its number as accountants know it.
    await expect
      .poll(() => textOf(panel(CANADA.name).getByTestId("cta-explanation")), POLL)
      .toContain("Cumulative translation adjustment (CTA), posted to 3600 Accumulated Other Comprehensive Income");
    await panel(CANADA.name).getByTestId("cta-line").scrollIntoViewIfNeeded();
    await e2e.shot(page, "33-obal-trial-balance");
    await reviewAndConfirm(CANADA.name);
    await panel(CANADA.name).evaluate((el) => {
      el.scrollIntoView({ block: "start" });
      window.scrollBy(0, -80); // from under the app's header
    });
    await e2e.shot(page, "34-obal-confirmed");

    const postRequests: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith(`/api/balances/post/${CANADA.realmId}`)) postRequests.push(r.url());
    });
    await panel(CANADA.name).getByRole("button", { name: "Post to QuickBooks" }).dblclick();
    const modal = page.getByRole("dialog", { name: FIRST_OBAL_POSTED_MODAL_TITLE });
    await modal.waitFor();
    expect((await modal.getByRole("heading").allTextContents()).join(" ")).toContain("You've posted translated trial balances for your first company!");
    await e2e.shot(page, "35-obal-first-posted-modal");
    await modal.getByRole("button", { name: "Continue" }).click();
    await modal.waitFor({ state: "hidden" });
    await expect.poll(onboardingStep, POLL).toBe(3.1);
    await expect.poll(() => textOf(statusOf(CANADA.name)), POLL).toBe("Posted");
    // Give a stray second post every chance to land before counting.
    await page.waitForTimeout(1000);
    await checkPostedEntry(CANADA);
    // The button is busy from the first click on: the second one never reached the server.
    expect(postRequests).toHaveLength(1);
    const state = await api<{ posted: Record<string, boolean>; trialBalanceJournalEntryUrl: string }>("/obal");
    expect(state.posted).toEqual({ [CANADA.realmId]: true });
    expect(state.trialBalanceJournalEntryUrl).toBe(e2e.journalEntryUrl(PARENT.realmId, posted[CANADA.realmId]!.Id));
  });

  it("Germany: review, confirm, and Post clicked while another tab posts it too: one entry", async () => {
    await expand(GERMANY.name);
    await checkTrialBalanceOnScreen(GERMANY.name, trialBalances[GERMANY.realmId]!);
    await reviewAndConfirm(GERMANY.name);
    // The other tab's request races the screen's (whichever reaches QuickBooks first makes the entry).
    const [otherTab] = await Promise.all([
      api<{ posted: Record<string, boolean> }>(`/balances/post/${GERMANY.realmId}`, { method: "POST" }),
      panel(GERMANY.name).getByRole("button", { name: "Post to QuickBooks" }).click(),
    ]);
    expect(otherTab.posted[GERMANY.realmId]).toBe(true);
    // Had the other tab's entry reached QuickBooks but not yet our records when the screen checked, the
    // screen warns of it; even "Post anyway" then makes no second entry.
    const warning = page.getByRole("dialog", { name: "This entry may already be in QuickBooks" });
    await expect.poll(async () => (await warning.isVisible()) || (await textOf(statusOf(GERMANY.name))) === "Posted", POLL).toBe(true);
    if (await warning.isVisible()) await warning.getByRole("button", { name: "Post anyway" }).click();
    await expect.poll(() => textOf(statusOf(GERMANY.name)), POLL).toBe("Posted");
    await checkPostedEntry(GERMANY);
    expect(await onboardingStep()).toBe(3.1);
  });

  it("Retail (USD, not translated): an entry already in QuickBooks under its number raises the duplicate warning; Cancel posts nothing", async () => {
    await expand(RETAIL.name);
    await checkTrialBalanceOnScreen(RETAIL.name, trialBalances[RETAIL.realmId]!);
    await reviewAndConfirm(RETAIL.name);

    // Someone keyed Retail's opening entry into the parent by hand, under the same number.
    const [debitAccount, creditAccount] = [...expectedLines(trialBalances[RETAIL.realmId]!).keys()];
    const { JournalEntry: stray } = await qbo.post<{ JournalEntry: QboJournalEntry }>("/journalentry", {
      DocNumber: docNumber(RETAIL.realmId),
      TxnDate: LOCKED.monthEnd,
      Line: [
        { Amount: 100, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: debitAccount } } },
        { Amount: 100, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: creditAccount } } },
      ],
    });

    await panel(RETAIL.name).getByRole("button", { name: "Post to QuickBooks" }).click();
    const warning = page.getByRole("dialog", { name: "This entry may already be in QuickBooks" });
    await warning.waitFor();
    await warning.getByText(`Entry ${docNumber(RETAIL.realmId)} dated ${LOCKED.monthEnd}`).waitFor();
    expect(await warning.getByRole("link", { name: /Open in QuickBooks/ }).getAttribute("href")).toBe(e2e.journalEntryUrl(PARENT.realmId, stray.Id));
    await e2e.shot(page, "36-obal-duplicate-warning");
    await warning.getByRole("button", { name: "Cancel" }).click();
    await warning.waitFor({ state: "hidden" });
    expect(await statusOf(RETAIL.name).textContent()).toBe("Confirmed");
    expect((await entriesOf(RETAIL.realmId)).map((e) => e.Id)).toEqual([stray.Id]);

    // Deleted in QuickBooks: posting goes through without a warning.
    await qbo.post("/journalentry?operation=delete", { Id: stray.Id, SyncToken: stray.SyncToken });
    await panel(RETAIL.name).getByRole("button", { name: "Post to QuickBooks" }).click();
    await expect.poll(() => textOf(statusOf(RETAIL.name)), POLL).toBe("Posted");
    expect(await warning.isVisible()).toBe(false);
    await checkPostedEntry(RETAIL);
    expect(await onboardingStep()).toBe(3.1);
  });

  it("UK (April fiscal year, GBP): the last eligible post reaches 3.2, and 'Finish Onboarding' ends the guide", { timeout: 90_000 }, async () => {
    await expand(UK.name);
    await checkTrialBalanceOnScreen(UK.name, trialBalances[UK.realmId]!);
    await reviewAndConfirm(UK.name);
    await panel(UK.name).getByRole("button", { name: "Post to QuickBooks" }).click();
    await expect.poll(() => textOf(statusOf(UK.name)), POLL).toBe("Posted");
    await checkPostedEntry(UK);
    await expect.poll(onboardingStep, POLL).toBe(3.2);
    // 3.1's modal belongs to the first post only.
    expect(await page.getByRole("dialog", { name: FIRST_OBAL_POSTED_MODAL_TITLE }).isVisible()).toBe(false);

    const next = page.getByRole("region", { name: "Next step" });
    await next.getByText("Every eligible subsidiary is posted.").waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await e2e.shot(page, "37-obal-all-posted");
    await next.getByRole("button", { name: "Finish Onboarding" }).click();
    await expect.poll(async () => (await api<{ onboarding: boolean }>("/account")).onboarding, POLL).toBe(false);
    await next.waitFor({ state: "hidden" });
    await page.getByRole("status").filter({ hasText: "Onboarding is finished: the consolidation screens are now open in the menu." }).waitFor();
    await e2e.shot(page, "38-obal-onboarding-finished");
  });

  it("the parent's QuickBooks: one balanced entry per subsidiary at the month-end, and a TrialBalance that still balances and carries them", { timeout: 90_000 }, async () => {
    const entries = await openingEntries();
    expect(entries.map((e) => e.DocNumber).sort()).toEqual(SUBSIDIARIES.map((s) => docNumber(s.realmId)).sort());
    expect(entries.map((e) => e.Id).sort()).toEqual(SUBSIDIARIES.map((s) => posted[s.realmId]!.Id).sort());
    const classes = await qbo.query<{ Id: string; Name: string }>("Class");
    for (const sub of SUBSIDIARIES) expect(classes.filter((k) => k.Name === sub.name), `one class for ${sub.name}`).toHaveLength(1);

    const after = await parentTrialBalance();
    expect(after.debits).toBe(after.credits);
    expect(after.grand).toEqual({ debit: after.debits, credit: after.credits });
    // Exactly the posted lines moved the report: after − before = the four entries, account by account.
    const moved = new Map<string, number>();
    for (const id of new Set([...after.balances.keys(), ...tbBefore.balances.keys()])) {
      const d = (after.balances.get(id) ?? 0) - (tbBefore.balances.get(id) ?? 0);
      if (d !== 0) moved.set(id, d);
    }
    expect(moved).toEqual(byAccount(entries));
    // The CTA of the translated subsidiaries sits on Accumulated Other Comprehensive Income.
    const ctaAccount = trialBalances[UK.realmId]!.view!.cta.account;
    expect(moved.get(ctaAccount)).toBeDefined();

    // After a reload, each posted subsidiary still links to its own entry.
    await page.reload();
    for (const sub of SUBSIDIARIES) {
      await expect.poll(() => textOf(statusOf(sub.name)), POLL).toBe("Posted");
      const link = panel(sub.name).getByRole("link", { name: /Open in QuickBooks/ });
      await expect.poll(() => hrefOf(link), POLL).toBe(e2e.journalEntryUrl(PARENT.realmId, posted[sub.realmId]!.Id));
      await expect.poll(() => textOf(panel(sub.name).getByTestId("posted-entry")), POLL).toBe(`Entry ${docNumber(sub.realmId)} dated ${LOCKED.monthEnd}`);
    }
    await e2e.shot(page, "39-obal-posted-after-reload");
  });
});

/** The lock form: a fiscal year and month from the dropdowns, the preview, then Lock period. */
async function lockPeriod(fiscalYear: number, monthOption: string) {
  const form = page.getByRole("region", { name: "Lock the opening period" });
  await form.getByRole("textbox", { name: "Fiscal year" }).click();
  await page.getByRole("option", { name: `FY ${fiscalYear}`, exact: true }).click();
  await form.getByRole("textbox", { name: "Fiscal month" }).click();
  await page.getByRole("option", { name: monthOption, exact: true }).click();
  await form.getByTestId("lock-preview").waitFor();
  await form.getByRole("button", { name: "Lock period" }).click();
  await page.getByTestId("locked-period").waitFor();
}
