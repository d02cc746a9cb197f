import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import * as e2e from "./support.ts";
import { shortMonth } from "../src/features/runs/model.ts";

/**
 * Issue 9 end to end, consolidation runs on the demo group (UK in GBP, Canada in CAD, Germany in
 * EUR into the USD parent). Prerequisites through the API (maps, rates, CTA settings, the opening
 * balances locked at October 2025 and posted). Then in the browser: one subsidiary-month on
 * Single Period / Company (preview, the CTA explained, post, the link to the entry; a second tab
 * posting the same month meets the duplicate warning and posts nothing new), then twelve months for
 * the three subsidiaries on Multi Period / Company (progress, pause and resume, reopening the
 * screen, the summary), checked against the parent's QuickBooks: one entry per subsidiary-month.
 * The demo books run to October 2026, so the twelve months are November 2025 to October 2026.
 */
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));

const EMAIL = `runner.${Date.now()}@northwind.example`;
const { parent: PARENT, uk: UK, canada: CANADA, germany: GERMANY } = e2e.DEMO;
/** The screens list subsidiaries by name. */
const SUBSIDIARIES = [CANADA, GERMANY, UK] as const;
const OPENING = "2025-10";
const MONTHS = ["2025-11", "2025-12", "2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06", "2026-07", "2026-08", "2026-09", "2026-10"];
const docNumber = (month: string, realmId: string) => `CR${month.replace("-", "")}-${realmId.slice(-6)}`;

let session: e2e.Session;
let page: Page;
let qbo: e2e.SandboxQbo;
let ctaAccount = "";

const api = <T>(path: string, init?: { method?: string; body?: unknown }) => e2e.api<T>(page, baseUrl, path, init);

interface Line {
  account: string;
  name: string;
  debit: number;
  credit: number;
}
interface Preview {
  ok: boolean;
  problems: { code: string; message: string }[];
  docNumber: string;
  entry: { lines: Line[]; totalDebit: number; totalCredit: number } | null;
  cta: { account: string; name: string; change: number; months: { month: string }[] } | null;
}
interface Posting {
  realmId: string;
  status: string;
  period: { from: string; to: string; label: string };
  journalEntryId: string | null;
  journalEntryUrl: string | null;
}
interface QboJournalEntry {
  Id: string;
  DocNumber?: string;
  TxnDate: string;
  Line: { Amount: number; JournalEntryLineDetail: { PostingType: "Debit" | "Credit"; AccountRef: { value: string }; ClassRef?: { name: string } } }[];
}

const cents = (text: string) => Math.round(Number(text.replace(/[$,]/g, "")) * 100);
const entriesNumbered = (doc: string) => qbo.query<QboJournalEntry>("JournalEntry", `DocNumber = '${doc}'`);

/** Picks a subsidiary in the single-period form. */
async function chooseSubsidiary(p: Page, name: string) {
  const form = p.getByRole("region", { name: "Period to consolidate" });
  await form.getByRole("textbox", { name: "Subsidiary" }).click();
  await p.getByRole("option", { name: new RegExp(`^${name} \\(`) }).click();
  return form;
}

/** Picks a month in the run form's From or To picker. */
const pickMonth = (field: "From" | "To", month: string) => e2e.pickMonth(page, page.getByRole("region", { name: "New run" }), field, month, shortMonth);

e2e.browserForFile((s) => {
  session = s;
  page = s.page;
});

describe("Consolidation runs in a browser, on the demo group", () => {
  it("connects the demo parent and three foreign subsidiaries", { timeout: 240_000 }, async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, [UK, CANADA, GERMANY]);
    qbo = await e2e.sandboxQbo(baseUrl, PARENT.realmId);
  });

  it(`prepares maps, rates, CTA settings and the opening balances at ${OPENING}, and finishes onboarding`, { timeout: 180_000 }, async () => {
    for (const sub of SUBSIDIARIES) await e2e.mapAllAccounts(page, baseUrl, PARENT.realmId, sub.realmId);
    ctaAccount = await e2e.configureTranslation(page, baseUrl, { from: "2023-01", to: MONTHS.at(-1)! });
    await e2e.postOpeningBalances(page, baseUrl, OPENING, SUBSIDIARIES.map((s) => s.realmId));
    await api("/account", { method: "PATCH", body: { onboarding: false } });
  });

  it("Single Period / Company: previews UK's first month as a balanced entry whose CTA line is explained", { timeout: 90_000 }, async () => {
    await page.goto(`${baseUrl}/consolidation/run`);
    const form = await chooseSubsidiary(page, UK.name);
    // Nothing posted after the opening balances: the first month after the opening month is offered.
    await expect.poll(() => form.getByRole("textbox", { name: "Month" }).inputValue()).toBe("November 2025");
    await form.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("region", { name: "Journal entry preview" });
    await preview.getByRole("heading", { name: `${UK.name}: November 2025` }).waitFor({ timeout: 30_000 });

    const expected = await api<Preview>("/consolidation/preview", { method: "POST", body: { realmId: UK.realmId, period: { kind: "month", year: 2025, month: 11 } } });
    expect(expected, JSON.stringify(expected.problems)).toMatchObject({ ok: true, docNumber: docNumber("2025-11", UK.realmId) });
    expect(expected.cta?.account).toBe(ctaAccount);
    await expect.poll(() => preview.getByTestId("balanced").textContent()).toBe("Balanced");
    // The table on the screen is the server's entry, line for line, and its totals agree.
    const rows = preview.getByRole("table", { name: "Journal entry lines" }).locator("tbody tr");
    expect(await rows.count()).toBe(expected.entry!.lines.length);
    let debit = 0;
    let credit = 0;
    for (const row of await rows.all()) {
      const [, d, c] = (await row.locator("td").allTextContents()).map((t) => t.trim());
      debit += d ? cents(d) : 0;
      credit += c ? cents(c) : 0;
    }
    expect(debit).toBe(credit);
    expect(debit).toBe(expected.entry!.totalDebit);
    const totals = (await preview.getByTestId("entry-totals").locator("td").allTextContents()).map((t) => t.trim());
    expect(totals.slice(1).map(cents)).toEqual([expected.entry!.totalDebit, expected.entry!.totalCredit]);

    await page.screenshot({ path: `${e2e.SHOTS}60-runs-single-preview.png`, fullPage: true });

    // The CTA line is highlighted; its explanation adds up to it, with the month's rates.
    const ctaLine = preview.getByTestId("cta-line");
    await ctaLine.getByText(expected.cta!.name, { exact: true }).waitFor();
    await ctaLine.getByRole("button", { name: "Explain CTA" }).click();
    const explanation = preview.getByTestId("cta-explanation");
    await explanation.getByTestId("cta-adds-up").waitFor();
    expect(await explanation.getByTestId("cta-month-2025-11").locator("td").nth(2).textContent()).toMatch(/^\d+\.\d+ → \d+\.\d+$/);
    await explanation.scrollIntoViewIfNeeded();
    await e2e.shot(page, "61-runs-cta-explained");
  });

  it("posts it: one entry in the parent's QuickBooks, linked from the screen; a second tab posting it again meets the duplicate warning and posts nothing new", { timeout: 120_000 }, async () => {
    // A colleague (a second tab of the same user) previews the same month before it is posted.
    const token = await page.evaluate(() => sessionStorage.getItem("t"));
    const other = await session.context.newPage();
    await other.addInitScript((t) => sessionStorage.setItem("t", t ?? ""), token);
    await other.goto(`${baseUrl}/consolidation/run`);
    const otherForm = await chooseSubsidiary(other, UK.name);
    await expect.poll(() => otherForm.getByRole("textbox", { name: "Month" }).inputValue()).toBe("November 2025");
    await otherForm.getByRole("button", { name: "Preview" }).click();
    const otherPreview = other.getByRole("region", { name: "Journal entry preview" });
    await otherPreview.getByRole("button", { name: "Post to QuickBooks" }).waitFor({ timeout: 30_000 });

    const preview = page.getByRole("region", { name: "Journal entry preview" });
    await preview.getByRole("button", { name: "Post to QuickBooks" }).click();
    const outcome = page.getByTestId("post-outcome");
    await outcome.getByText(`${UK.name} 2025-11 is posted to the parent's QuickBooks as entry ${docNumber("2025-11", UK.realmId)}.`).waitFor({ timeout: 30_000 });
    const [entry] = await entriesNumbered(docNumber("2025-11", UK.realmId));
    expect(entry, "the entry is in the parent's QuickBooks").toBeDefined();
    expect(entry!.TxnDate).toBe("2025-11-30");
    expect(new Set(entry!.Line.map((l) => l.JournalEntryLineDetail.ClassRef?.name))).toEqual(new Set([UK.name]));
    expect(await outcome.getByRole("link", { name: /Open entry .* in QuickBooks/ }).getAttribute("href")).toBe(e2e.journalEntryUrl(PARENT.realmId, entry!.Id));
    // The preview is asked again: the month is posted now, and Post says so.
    await expect.poll(() => preview.getByTestId("post-blocked").textContent()).toMatch(/^Already posted: CR202511-384023 on /);
    await page.getByRole("region", { name: "Posted periods" }).getByTestId("posting-2025-11").waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await e2e.shot(page, "62-runs-single-posted");

    // The other tab still shows it unposted: Post finds the entry in QuickBooks and warns.
    await otherPreview.getByRole("button", { name: "Post to QuickBooks" }).click();
    const warning = other.getByRole("dialog", { name: "This entry may already be in QuickBooks" });
    await warning.waitFor();
    await warning.getByText(`Entry ${docNumber("2025-11", UK.realmId)} dated 2025-11-30`).waitFor();
    expect(await warning.getByRole("link", { name: /Open in QuickBooks/ }).getAttribute("href")).toBe(e2e.journalEntryUrl(PARENT.realmId, entry!.Id));
    await e2e.shot(other, "63-runs-duplicate-warning");
    // Posting anyway is answered with the entry already there: still one entry.
    await warning.getByRole("button", { name: "Post anyway" }).click();
    await other.getByTestId("post-outcome").getByText(/was already posted as entry CR202511-384023; nothing new was posted\./).waitFor({ timeout: 30_000 });
    await other.close();
    expect((await entriesNumbered(docNumber("2025-11", UK.realmId))).map((e) => e.Id)).toEqual([entry!.Id]);
  });

  it("Multi Period / Company: twelve months for three subsidiaries, paused and resumed, followed after a reload to 100%, one entry each", { timeout: 900_000 }, async () => {
    await page.goto(`${baseUrl}/multipleconsolidation/run`);
    const form = page.getByRole("region", { name: "New run" });
    await form.waitFor();
    for (const sub of SUBSIDIARIES) expect(await form.getByRole("checkbox", { name: new RegExp(`^${sub.name} \\(`) }).isChecked()).toBe(true);
    await pickMonth("From", MONTHS[0]!);
    await pickMonth("To", MONTHS.at(-1)!);
    const start = form.getByRole("button", { name: "Start run (36 entries)" });
    await e2e.shot(page, "64-runs-multi-form");
    const progress = page.getByRole("region", { name: "Run progress" });
    // On a quiet machine the emulator lets the whole run finish in about a second, before Pause
    // can be clicked: each QuickBooks call takes a second until the run is paused.
    await e2e.sandboxLatency(baseUrl, 1000);
    try {
      await start.click();
      await progress.waitFor();
      // Pause once it has begun: it stops after the entry it is posting.
      await expect.poll(async () => Number((await progress.getByTestId("run-progress-text").textContent())?.split(" ")[0]), { timeout: 120_000 }).toBeGreaterThan(0);
      await progress.getByRole("button", { name: "Pause" }).click();
      await expect.poll(() => progress.getByTestId("run-status").textContent(), { timeout: 60_000 }).toBe("Paused");
    } finally {
      await e2e.sandboxLatency(baseUrl, 0);
    }
    const pausedAt = (await progress.getByTestId("run-progress-text").textContent()) ?? "";
    await page.waitForTimeout(2000);
    expect(await progress.getByTestId("run-progress-text").textContent(), "a paused run posts nothing").toBe(pausedAt);
    await e2e.shot(page, "65-runs-multi-paused");
    await progress.getByRole("button", { name: "Resume" }).click();
    await expect.poll(() => progress.getByTestId("run-status").textContent(), { timeout: 30_000 }).toMatch(/^(Queued|Running)$/);

    // Leaving and coming back: the screen follows the run still going.
    // The run computes each entry in the server process: on a loaded machine the screen takes a while to come back.
    await page.reload();
    await progress.waitFor({ timeout: 300_000 });
    await expect.poll(() => progress.getByTestId("run-status").textContent(), { timeout: 60_000 }).toMatch(/^(Queued|Running|Finished)/);
    await e2e.shot(page, "66-runs-multi-progress");
    await expect.poll(() => progress.getByTestId("run-status").textContent(), { timeout: 480_000, interval: 2000 }).toMatch(/^Finished/);
    // Ended: with failures, the summary names each one and why.
    expect(await progress.getByTestId("run-status").textContent(), (await progress.getByTestId("run-summary").textContent()) ?? "").toBe("Finished");
    await expect.poll(() => progress.getByTestId("run-progress-text").textContent()).toBe("36 of 36 done (100%)");
    // UK's November was posted on the other screen: skipped as a duplicate, named.
    expect(await progress.getByTestId("run-summary").textContent()).toContain("35 posted, 1 skipped as already posted, 0 failed.");
    const ukNovember = progress.getByTestId(`item-2025-11-${UK.realmId}`);
    expect(await ukNovember.textContent()).toContain(`Already posted as entry ${docNumber("2025-11", UK.realmId)}; skipped as a duplicate.`);
    expect(await progress.getByTestId(`item-2026-10-${GERMANY.realmId}`).getByRole("link", { name: /Open in QuickBooks/ }).getAttribute("href")).toMatch(
      new RegExp(`^/qbo-sandbox/app/journal\\?realmId=${PARENT.realmId}&txnId=\\d+$`),
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    await e2e.shot(page, "67-runs-multi-finished");
  });

  it("every subsidiary-month has exactly one posting, and exactly one entry in the parent's QuickBooks", { timeout: 120_000 }, async () => {
    const { postings } = await api<{ postings: Posting[] }>("/consolidation/postings");
    const live = postings.filter((p) => p.status === "posted");
    const keys = live.map((p) => `${p.realmId}:${p.period.from}:${p.period.to}`).sort();
    const expected = SUBSIDIARIES.flatMap((s) => MONTHS.map((m) => `${s.realmId}:${m}:${m}`)).sort();
    expect(keys).toEqual(expected);

    const entries = await qbo.query<QboJournalEntry>("JournalEntry", "DocNumber LIKE 'CR%'");
    const byDoc = new Map<string, QboJournalEntry[]>();
    for (const e of entries) byDoc.set(e.DocNumber ?? "", [...(byDoc.get(e.DocNumber ?? "") ?? []), e]);
    for (const sub of SUBSIDIARIES) {
      for (const m of MONTHS) {
        const found = byDoc.get(docNumber(m, sub.realmId)) ?? [];
        expect(found, `${sub.name} ${m}`).toHaveLength(1);
        const posting = live.find((p) => p.realmId === sub.realmId && p.period.to === m)!;
        expect(posting.journalEntryId).toBe(found[0]!.Id);
        // Balanced, dated the month-end, in the subsidiary's class.
        expect(found[0]!.Line.reduce((s, l) => s + (l.JournalEntryLineDetail.PostingType === "Debit" ? 1 : -1) * Math.round(l.Amount * 100), 0)).toBe(0);
        expect(found[0]!.TxnDate.slice(0, 7)).toBe(m);
      }
    }
    expect(entries).toHaveLength(SUBSIDIARIES.length * MONTHS.length);

    // The posted periods of a subsidiary on the single-period screen: all twelve, none changed.
    await page.goto(`${baseUrl}/consolidation/run`);
    await chooseSubsidiary(page, GERMANY.name);
    const list = page.getByRole("region", { name: "Posted periods" });
    await expect.poll(() => list.locator("tbody tr").count()).toBe(MONTHS.length);
    expect(await list.getByTestId("books-changed").count()).toBe(0);
  });

  it("a late invoice in UK's November flags the posted periods whose entry would change; 'Replace entry' after approval swaps the entry in QuickBooks", { timeout: 180_000 }, async () => {
    // Someone books a late November invoice in the UK company's QuickBooks.
    const ukBooks = await e2e.sandboxQbo(baseUrl, UK.realmId);
    const accounts = await ukBooks.query<{ Id: string; AccountType: string; Classification: string; Active?: boolean }>("Account");
    const bank = accounts.find((a) => a.AccountType === "Bank")!;
    const income = accounts.find((a) => a.Classification === "Revenue")!;
    await ukBooks.post("/journalentry", {
      TxnDate: "2025-11-20",
      Line: [
        { Amount: 1250, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: bank.Id } } },
        { Amount: 1250, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: income.Id } } },
      ],
    });
    // The next sync of the UK finds it and compares every posted period with the books.
    await api(`/companies/${UK.realmId}/sync`, { method: "POST" });
    const staleNovember = async () =>
      (await api<{ postings: (Posting & { stale: unknown })[] }>(`/consolidation/postings?realmId=${UK.realmId}`)).postings.find((p) => p.status === "posted" && p.period.to === "2025-11")?.stale ?? null;
    await expect.poll(staleNovember, { timeout: 90_000, interval: 1000 }).not.toBeNull();
    const [oldEntry] = await entriesNumbered(docNumber("2025-11", UK.realmId));

    await page.goto(`${baseUrl}/consolidation/run`);
    await chooseSubsidiary(page, UK.name);
    const list = page.getByRole("region", { name: "Posted periods" });
    const november = list.getByTestId("posting-2025-11");
    await november.getByTestId("books-changed").waitFor();
    await november.getByRole("button", { name: "See changes" }).click();
    const changes = list.getByRole("table", { name: "Changes in 2025-11" });
    await changes.waitFor();
    expect(await changes.locator("tbody tr").count()).toBeGreaterThan(0);
    await november.scrollIntoViewIfNeeded();
    await e2e.shot(page, "68-runs-books-changed");

    await november.getByRole("button", { name: "Replace entry" }).click();
    const dialog = page.getByRole("dialog", { name: "Replace the 2025-11 entry?" });
    await dialog.waitFor();
    const replace = dialog.getByRole("button", { name: "Replace entry" });
    expect(await replace.isDisabled(), "nothing is replaced before the user approves").toBe(true);
    await dialog.getByRole("checkbox", { name: /I reviewed these changes and approve replacing entry CR202511-384023/ }).check();
    await e2e.shot(page, "69-runs-replace-approval");
    await replace.click();
    await list.getByTestId("post-outcome").getByText(/is posted again from the books as they are now/).waitFor({ timeout: 60_000 });
    await expect.poll(() => november.getByTestId("books-changed").count()).toBe(0);

    // QuickBooks holds the new entry only, under the same number.
    const now = await entriesNumbered(docNumber("2025-11", UK.realmId));
    expect(now).toHaveLength(1);
    expect(now[0]!.Id).not.toBe(oldEntry!.Id);
    expect(await staleNovember()).toBeNull();
  });

  it("the later months the invoice moved are replaced together: 'Replace all changed', approved once, a run that ends with each month once", { timeout: 300_000 }, async () => {
    // November's extra net assets are translated again at every later closing rate: those months' CTA lines moved.
    const { postings } = await api<{ postings: (Posting & { stale: unknown })[] }>("/consolidation/postings");
    const changed = postings.filter((p) => p.status === "posted" && p.stale !== null);
    expect(changed.length).toBeGreaterThan(0);
    expect(new Set(changed.map((p) => p.realmId))).toEqual(new Set([UK.realmId]));

    await page.goto(`${baseUrl}/multipleconsolidation/run`);
    const section = page.getByTestId("changed-entries");
    await section.waitFor({ timeout: 60_000 });
    const n = changed.length;
    expect(await section.getByRole("heading", { level: 2 }).textContent()).toBe(`${n} posted ${n === 1 ? "entry differs" : "entries differ"} from the books now`);
    await e2e.shot(page, "69b-runs-changed-entries");
    await section.getByRole("button", { name: `Replace all changed (${n})` }).click();
    const dialog = page.getByRole("dialog", { name: `Replace ${n} changed ${n === 1 ? "entry" : "entries"}?` });
    await dialog.waitFor();
    expect(await dialog.getByRole("table").count()).toBe(n);
    const replace = dialog.getByRole("button", { name: `Replace ${n} ${n === 1 ? "entry" : "entries"}` });
    expect(await replace.isDisabled(), "nothing is replaced before the user approves").toBe(true);
    await dialog.getByRole("checkbox", { name: /I reviewed these changes and approve replacing/ }).check();
    await e2e.shot(page, "69c-runs-replace-all-approval");
    await replace.click();

    const progress = page.getByRole("region", { name: "Run progress" });
    await expect.poll(() => progress.getByRole("heading", { level: 2 }).textContent(), { timeout: 30_000 }).toMatch(new RegExp(`^Replacing ${n} changed`));
    await expect.poll(() => progress.getByTestId("run-status").textContent(), { timeout: 240_000, interval: 2000 }).toMatch(/^Finished/);
    expect(await progress.getByTestId("run-status").textContent(), (await progress.getByTestId("run-summary").textContent()) ?? "").toBe("Finished");
    expect(await progress.getByTestId("run-summary").textContent()).toContain(`${n} replaced`);
    await expect.poll(() => section.count(), { timeout: 30_000 }).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await e2e.shot(page, "69d-runs-replace-all-finished");

    // Every UK month is in the parent's QuickBooks once, the changed ones as new entries; nothing is flagged.
    const after = (await api<{ postings: (Posting & { stale: unknown })[] }>("/consolidation/postings")).postings.filter((p) => p.status === "posted");
    expect(after.filter((p) => p.stale !== null)).toEqual([]);
    for (const m of MONTHS) {
      const found = await entriesNumbered(docNumber(m, UK.realmId));
      expect(found, m).toHaveLength(1);
      const was = changed.find((p) => p.period.to === m);
      if (was) expect(found[0]!.Id, m).not.toBe(was.journalEntryId);
    }
  });
});
