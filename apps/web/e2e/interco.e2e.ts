import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Issue 9 end to end: Interco Eliminations, Transaction Detail and Verify on the demo group (the
 * USD parent and its GBP subsidiary). Prerequisites through the API (maps, rates, CTA settings, the
 * opening balances locked at December 2025 and posted, UK's January to March 2026 consolidated and
 * posted, onboarding finished). Then in the browser: two pairs defined through the form (the UK
 * loan, and the management fees limited to the customer and vendor that stand for each other), the
 * two the charts still propose (the current account, the loan interest) accepted in one step,
 * FY2026 Q1 compared with the server's figures and posted once
 * under the Interco class, a parent account's transactions opened from a link, and Verify at March
 * 2026 reconciling with zero differences.
 */
let baseUrl = "";
let session: e2e.Session;
let page: Page;
let qbo: e2e.SandboxQbo;

const EMAIL = `interco.${Date.now()}@northwind.example`;
const { parent: PARENT, uk: UK } = e2e.DEMO;
const api = <T>(path: string, init?: { method?: string; body?: unknown }) => e2e.api<T>(page, baseUrl, path, init);

interface ChartRow {
  Id: string;
  name: string;
  acctNum: string | null;
}
interface Side {
  local: number;
  currency: string;
  translated: number;
}
interface EliminationView {
  ok: boolean;
  problems: { message: string }[];
  pairs: {
    pair: { name: string };
    left: Side;
    right: Side;
    difference: number;
    translationPart: number;
    bookPart: number;
    inCurrency: { currency: string; left: number; right: number } | null;
    match: "matched" | "withinTolerance" | "unmatched";
    matched: boolean;
  }[];
  entry: { docNumber: string; lines: { account: string; debit: number; credit: number }[] } | null;
  posted: { docNumber: string; journalEntryUrl: string | null } | null;
}
interface QboJournalEntry {
  Id: string;
  DocNumber?: string;
  TxnDate: string;
  Line: { Amount: number; JournalEntryLineDetail: { PostingType: "Debit" | "Credit"; AccountRef: { value: string }; ClassRef?: { name: string } } }[];
}
interface Detail {
  companies: { realmId: string; companyName: string; currency: string; transactions: { translated: number | null }[]; totalLocal: number; totalTranslated: number | null }[];
}

/** As the screens print money: accounting format, credits in parentheses. */
const usd = (minor: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", currencySign: "accounting" }).format(minor / 100);
const gbp = (minor: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "GBP", currencySign: "accounting" }).format(minor / 100);

/** Picks an option of a searchable Select by typing part of it. */
async function pick(scope: ReturnType<Page["getByRole"]>, field: string, search: string, option: string) {
  const input = scope.getByRole("textbox", { name: field });
  await expect.poll(() => input.isEnabled()).toBe(true);
  await input.click();
  await input.fill(search);
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect.poll(() => input.inputValue()).toBe(option);
}

e2e.ownServer((url) => (baseUrl = url));
e2e.browserForFile((s) => {
  session = s;
  page = s.page;
});

describe("Intercompany eliminations, transaction detail and verify in a browser", () => {
  it("connects the demo parent and its UK subsidiary", { timeout: 240_000 }, async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, [UK]);
    qbo = await e2e.sandboxQbo(baseUrl, PARENT.realmId);
  });

  it("prepares maps, rates, CTA settings, the opening balances at 2025-12 and UK's first quarter, and finishes onboarding", { timeout: 180_000 }, async () => {
    await e2e.mapAllAccounts(page, baseUrl, PARENT.realmId, UK.realmId);
    await e2e.configureTranslation(page, baseUrl, { from: "2024-11", to: "2026-10" });
    await e2e.postOpeningBalances(page, baseUrl, "2025-12", [UK.realmId]);
    for (const month of [1, 2, 3]) {
      const posted = await api<{ outcome: string }>("/consolidation/post", { method: "POST", body: { realmId: UK.realmId, period: { kind: "month", year: 2026, month } } });
      expect(posted.outcome).toBe("posted");
    }
    await api("/account", { method: "PATCH", body: { onboarding: false } });
  });

  it("defines the UK loan and the management fees as pairs through the form", { timeout: 90_000 }, async () => {
    await page.goto(`${baseUrl}/consolidation/elimination`);
    const pairs = page.getByRole("region", { name: "Intercompany pairs" });
    await pairs.getByTestId("no-pairs").waitFor({ timeout: 30_000 });
    await e2e.shot(page, "80-interco-empty");

    await pairs.getByRole("button", { name: "Add pair" }).click();
    let form = page.getByRole("form", { name: "Add an intercompany pair" });
    await form.getByRole("textbox", { name: "Name" }).fill("UK loan");
    // The parent is offered on the receivable side and the subsidiary on the payable side.
    expect(await form.getByRole("textbox", { name: "Receivable company" }).inputValue()).toBe(`${PARENT.name} (USD)`);
    expect(await form.getByRole("textbox", { name: "Payable company" }).inputValue()).toBe(`${UK.name} (GBP)`);
    await pick(form, "Receivable account", "Intercompany Loan - Northwind UK", "1600 · Intercompany Loan - Northwind UK");
    await pick(form, "Payable account", "Loan from", "2410 · Loan from Northwind Holdings");
    await e2e.shot(page, "81-interco-pair-form");
    await form.getByRole("button", { name: "Add pair" }).click();
    await form.waitFor({ state: "hidden" });

    await pairs.getByRole("button", { name: "Add pair" }).click();
    form = page.getByRole("form", { name: "Add an intercompany pair" });
    await form.getByRole("textbox", { name: "Name" }).fill("UK management fees");
    await form.getByText("Revenue / expense", { exact: true }).click();
    await form.getByText(/A flow between companies/).waitFor();
    await pick(form, "Revenue account", "Management Fee", "4500 · Management Fee Income - Intercompany");
    await pick(form, "Expense account", "Management Charges", "7603 · Management Charges - Group");
    // The parent's fee income holds every subsidiary's fees: only those booked against the
    // customer standing for the UK are the UK's. It is offered first, under that heading.
    const revenueName = form.getByRole("textbox", { name: "Revenue customer or vendor" });
    await expect.poll(() => revenueName.isEnabled()).toBe(true);
    await revenueName.click();
    const first = page.getByRole("option", { name: "Northwind UK Ltd (customer)", exact: true });
    await first.waitFor();
    // Its group's heading comes before it in the list.
    const listbox = page.getByRole("listbox").filter({ has: first });
    expect((await listbox.textContent())?.startsWith("Stands for the other companyNorthwind UK Ltd (customer)")).toBe(true);
    await page.keyboard.press("Escape");
    await pick(form, "Revenue customer or vendor", "Northwind UK", "Northwind UK Ltd (customer)");
    await pick(form, "Expense customer or vendor", "Holdings", "Northwind Holdings Inc. (vendor)");
    await e2e.shot(page, "81b-interco-pair-names");
    await form.getByRole("button", { name: "Add pair" }).click();
    await form.waitFor({ state: "hidden" });

    const table = pairs.getByRole("table", { name: "Intercompany pairs" });
    await expect.poll(() => table.locator("tbody tr").count()).toBe(2);
    expect(await table.locator("tbody tr").nth(1).textContent()).toContain("only with Northwind UK Ltd (customer)");
    type SideView = { realmId: string; accountName: string; name: { displayName: string } | null };
    const saved = await api<{ pairs: { name: string; kind: string; left: SideView; right: SideView }[] }>("/eliminations/pairs");
    expect(saved.pairs.map((p) => [p.name, p.kind, p.left.realmId, p.left.accountName, p.left.name?.displayName ?? null, p.right.realmId, p.right.accountName, p.right.name?.displayName ?? null])).toEqual([
      ["UK loan", "receivablePayable", PARENT.realmId, "1600 Intercompany Loan - Northwind UK", null, UK.realmId, "2410 Loan from Northwind Holdings", null],
      ["UK management fees", "revenueExpense", PARENT.realmId, "4500 Management Fee Income - Intercompany", "Northwind UK Ltd", UK.realmId, "7603 Management Charges - Group", "Northwind Holdings Inc."],
    ]);
    // The two names were never paired before: both companies sync to fetch their balances.
    await e2e.waitForSyncs(page, baseUrl, 2);
  });

  it("accepts in one step the pairs the charts propose for what the form left: the current account and the loan interest", { timeout: 60_000 }, async () => {
    const proposed = page.getByRole("region", { name: "Proposed pairs" });
    const rows = proposed.getByRole("table", { name: "Proposed pairs" }).locator("tbody tr");
    // The loan and the fees defined through the form are no longer proposed.
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
    const texts = await rows.allTextContents();
    expect(texts[0]).toContain('Northwind UK Ltd current accountReceivable / payableReceivable · Northwind Holdings Inc.1400 "Intercompany Receivable - Northwind UK"');
    expect(texts[1]).toContain("only with Northwind UK Ltd (customer)");
    expect(texts[1]).toContain("interest income ↔ interest expense");
    await proposed.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
    await e2e.shot(page, "81c-interco-proposals");
    await proposed.getByRole("button", { name: "Accept all (2)" }).click();
    await expect.poll(() => proposed.getByTestId("proposals-accepted").textContent(), { timeout: 30_000 }).toBe("2 pairs defined. The report no longer names their accounts as unpaired.");
    await expect.poll(() => page.getByRole("table", { name: "Intercompany pairs" }).locator("tbody tr").count()).toBe(4);
  });

  it("shows FY2026 Q1 as the server computes it: both sides, the difference and its parts, and a balanced entry", { timeout: 90_000 }, async () => {
    const period = page.getByRole("region", { name: "Period", exact: true });
    await period.getByText("Quarter", { exact: true }).click();
    // Nothing is posted yet: the first quarter after the opening month is offered.
    await expect.poll(() => period.getByRole("textbox", { name: "Fiscal quarter" }).inputValue()).toBe("FY2026 Q1 · Jan 2026 – Mar 2026");
    const region = page.getByRole("region", { name: "Eliminations of the period" });
    await region.getByRole("heading", { name: "FY2026 Q1 (January 2026 – March 2026)" }).waitFor({ timeout: 60_000 });

    const expected = await api<EliminationView>("/eliminations?kind=quarter&year=2026&month=3");
    expect(expected.ok, JSON.stringify(expected.problems)).toBe(true);
    for (const p of expected.pairs) {
      const card = region.getByRole("article", { name: p.pair.name });
      expect(await card.getByTestId("pair-status").textContent()).toBe({ matched: "Matched", withinTolerance: "Matched within tolerance", unmatched: "Unmatched difference" }[p.match]);
      expect((await card.getByTestId("pair-difference").textContent())?.endsWith(usd(p.difference))).toBe(true);
      expect(await card.getByTestId("translation-part").textContent()).toContain(usd(p.translationPart));
      expect(await card.getByTestId("book-part").textContent()).toContain(usd(p.bookPart));
      const sides = card.getByRole("table", { name: `${p.pair.name}: both sides` });
      expect(await sides.getByRole("row", { name: /^Payable|^Expense/ }).textContent()).toContain(gbp(p.right.local));
      // An unmatched difference is never hidden, nor one within the group's tolerance.
      expect(await card.getByTestId("unmatched").count()).toBe(p.matched ? 0 : 1);
      expect(await card.getByTestId("within-tolerance").count()).toBe(p.match === "withinTolerance" ? 1 : 0);
    }
    // Issue 20: the loan is lent from the parent's GBP account. Compared in pounds the books agree,
    // so the whole difference is the exchange on the parent's loan, which QuickBooks keeps at the
    // rates of the day: no book part.
    const loan = expected.pairs.find((p) => p.pair.name === "UK loan")!;
    expect(loan.inCurrency).toEqual({ currency: "GBP", left: -loan.right.local, right: loan.right.local });
    expect(loan.bookPart).toBe(0);
    expect(loan.translationPart).toBe(loan.difference);
    expect(Math.abs(loan.difference)).toBeGreaterThan(100_000);
    const loanCard = region.getByRole("article", { name: "UK loan" });
    expect(await loanCard.getByTestId("in-currency").textContent()).toBe(
      `Compared in GBP, the currency both accounts hold: ${PARENT.name}'s receivable ${gbp(loan.inCurrency!.left)} and ${UK.name}'s payable ${gbp(loan.inCurrency!.right)}, so they agree.`,
    );
    expect(await loanCard.getByTestId("translation-part").textContent()).toContain(`Exchange part:${usd(loan.difference)}`);
    expect(await loanCard.getByTestId("unmatched").textContent()).toContain("The books agree in GBP: all of it is the exchange difference");
    // Issue 18: the fees, limited to the names that stand for each other, differ by cents only:
    // within the default $1.00 tolerance, shown with where the cents are posted.
    const fees = expected.pairs.find((p) => p.pair.name === "UK management fees")!;
    expect(fees.difference).not.toBe(0);
    expect(fees.match).toBe("withinTolerance");
    expect(await region.getByRole("article", { name: "UK management fees" }).getByTestId("within-tolerance").textContent()).toContain(`${usd(fees.difference)} difference, posted to 9100 Foreign Exchange Gain/Loss`);
    const entry = page.getByRole("region", { name: "Elimination entry" });
    expect(await entry.getByTestId("balanced").textContent()).toBe("Balanced");
    const debit = expected.entry!.lines.reduce((s, l) => s + l.debit, 0);
    expect(debit).toBe(expected.entry!.lines.reduce((s, l) => s + l.credit, 0));
    expect(await entry.getByTestId("entry-totals").textContent()).toBe(`Total${usd(debit)}${usd(debit)}`);
    expect(await entry.getByRole("table", { name: "Elimination entry lines" }).locator("tbody tr").count()).toBe(expected.entry!.lines.length);
    // The pairs on screen, below the fixed header.
    await region.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
    await e2e.shot(page, "82-interco-q1");
  });

  it("posts the quarter's eliminations once, under the Interco class, and links to the entry", { timeout: 90_000 }, async () => {
    const entry = page.getByRole("region", { name: "Elimination entry" });
    await entry.getByRole("button", { name: "Post to QuickBooks" }).click();
    const outcome = entry.getByTestId("post-outcome");
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.textContent()).toContain("The eliminations of FY2026 Q1 are posted to the parent's QuickBooks as entry EL2026Q1.");
    const link = outcome.getByRole("link", { name: /Open entry EL2026Q1 in QuickBooks/ });
    const [posted] = await qbo.query<QboJournalEntry>("JournalEntry", "DocNumber = 'EL2026Q1'").then((all) => {
      expect(all).toHaveLength(1);
      return all;
    });
    expect(await link.getAttribute("href")).toContain(`txnId=${posted!.Id}`);
    expect(posted!.TxnDate).toBe("2026-03-31");
    expect(new Set(posted!.Line.map((l) => l.JournalEntryLineDetail.ClassRef?.name))).toEqual(new Set(["Interco"]));
    // QuickBooks takes only GBP entries on the GBP loan account: its elimination went to the
    // account's dollar counterpart, made once beside it.
    const chart = await api<ChartRow[]>(`/companies/${PARENT.realmId}/accounts`);
    const loan = chart.find((a) => a.name === "Intercompany Loan - Northwind UK")!;
    const counterpart = chart.find((a) => a.name === "Intercompany Loan - Northwind UK - group entries (USD)")!;
    const accounts = new Set(posted!.Line.map((l) => l.JournalEntryLineDetail.AccountRef.value));
    expect(accounts.has(loan.Id)).toBe(false);
    expect(accounts.has(counterpart.Id)).toBe(true);
    // Posted now: Post is off with the reason, and the posted entry is listed.
    await expect.poll(() => entry.getByTestId("post-blocked").textContent()).toMatch(/^Already posted: EL2026Q1 on /);
    expect(await entry.getByRole("button", { name: "Post to QuickBooks" }).isDisabled()).toBe(true);
    await page.getByRole("table", { name: "Posted elimination entries" }).getByRole("row", { name: /FY2026 Q1/ }).waitFor();
    await e2e.shot(page, "83-interco-posted");
  });

  it("Transaction Detail: a parent account's UK transactions from a link, with the company's total and the group total", { timeout: 90_000 }, async () => {
    const chart = await api<ChartRow[]>(`/companies/${PARENT.realmId}/accounts`);
    const account = chart.find((a) => a.name === "Current Portion of Long-term Debt")!;
    const expected = await api<Detail>(`/consolidation/transactions?account=${account.Id}&from=2026-01&to=2026-03`);
    const uk = expected.companies.find((c) => c.realmId === UK.realmId)!;
    expect(uk.transactions.length).toBeGreaterThan(0);

    await page.goto(`${baseUrl}/consolidation/transaction-detail?account=${account.Id}&from=2026-01&to=2026-03`);
    const section = page.getByRole("region", { name: UK.name });
    await section.waitFor({ timeout: 60_000 });
    // The picker fills once the parent's chart has loaded, which may be after the transactions under load.
    await expect.poll(() => page.getByRole("textbox", { name: "Parent account" }).inputValue()).toBe(`${account.acctNum} · ${account.name}`);
    const table = section.getByRole("table", { name: `${UK.name} transactions` });
    expect(await table.locator("tbody tr").count()).toBe(uk.transactions.length);
    expect(await section.getByTestId("company-total").textContent()).toBe(`Total ${UK.name}${gbp(uk.totalLocal)}${usd(uk.totalTranslated!)}`);
    // The transactions' own amounts and the consolidation's account-month translation: any cent between them is its own line.
    const own = uk.transactions.reduce((s, t) => s + t.translated!, 0);
    expect(await section.getByTestId("rounding").count()).toBe(own === uk.totalTranslated ? 0 : 1);
    if (own !== uk.totalTranslated) expect(await section.getByTestId("rounding").textContent()).toContain(usd(uk.totalTranslated! - own));
    const total = expected.companies.reduce((s, c) => s + c.totalTranslated!, 0);
    expect(await page.getByTestId("grand-total").textContent()).toBe(usd(total));
    await e2e.shot(page, "84-transactions-detail");
  });

  it("Verify: March 2026 reconciles with zero differences", { timeout: 120_000 }, async () => {
    await page.goto(`${baseUrl}/consolidation/verify`);
    // The last month anything was posted for is offered first.
    await expect.poll(() => page.getByRole("textbox", { name: "Month-end" }).inputValue(), { timeout: 30_000 }).toBe("March 2026");
    const head = page.getByTestId("verify-headline");
    await head.waitFor({ timeout: 90_000 });
    expect(await head.textContent()).toContain("Everything reconciles");
    const uk = page.getByRole("region", { name: UK.name });
    expect(await uk.getByTestId("check-status").textContent()).toBe("Reconciles");
    expect(await page.getByRole("region", { name: "Group" }).getByTestId("check-status").textContent()).toBe("Reconciles");
    expect(await page.getByRole("table").count()).toBe(0);
    const result = await api<{ ok: boolean; group: { differences: unknown[] } }>("/consolidation/verify?year=2026&month=3");
    expect(result).toMatchObject({ ok: true, group: { differences: [] } });
    await e2e.shot(page, "85-verify-march");
  });
});
