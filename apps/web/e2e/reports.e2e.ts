import type { BudgetVsActualReport, CashFlowReport, ConsolidatedReport, SegmentReport } from "@groupledger/contract";
import ExcelJS from "exceljs";
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Issue 9 end to end, the consolidated reports on the demo group (the UK in GBP and Retail in USD
 * under the USD parent). Prerequisites through the API (maps, CTA settings, rates fetched). Then in
 * the browser on /consolidation/reports: Q1 2026 against Q1 2025, the balance sheet balanced and
 * its totals the API's, a worksheet figure drilling down to its transactions and Back to the same
 * report, the Excel workbook downloaded and read, and a month without rates naming what to fix.
 */
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));

const EMAIL = `reporter.${Date.now()}@northwind.example`;
const { parent: PARENT, uk: UK, retail: RETAIL } = e2e.DEMO;
/** The demo group's books and offline rates run to this month (packages/qbo-sandbox demo). */
const DEMO_LAST_MONTH = "2026-10";

let session: e2e.Session;
let page: Page;
const api = <T>(path: string, init?: { method?: string; body?: unknown }) => e2e.api<T>(page, baseUrl, path, init);
/** A dev mailbox message (the board pack steps). */
type PackMail = { subject: string; text: string; attachments: { filename: string; contentType: string; size: number }[] };
/** The board pack's recipient outside the team (double opt-in). */
const STRANGER = "stranger@elsewhere.example";

/** The figure of a total row's column (1 = the period, 2 = the comparison). */
const figure = async (testId: string, column = 1) => e2e.cents((await page.getByTestId(testId).locator("td").nth(column).textContent()) ?? "");

e2e.browserForFile((s) => {
  session = s;
  page = s.page;
});

describe("Consolidated reports in a browser, on the demo group", () => {
  it("connects the demo parent, the UK and Retail", { timeout: 240_000 }, async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, [UK, RETAIL]);
  });

  it("maps both subsidiaries, chooses the CTA account and historical rates, and fetches the rates", { timeout: 180_000 }, async () => {
    for (const sub of [UK, RETAIL]) await e2e.mapAllAccounts(page, baseUrl, PARENT.realmId, sub.realmId);
    await e2e.configureTranslation(page, baseUrl, { from: "2024-11", to: DEMO_LAST_MONTH });
    await api("/account", { method: "PATCH", body: { onboarding: false } });
  });

  it("opens on the latest complete month, balanced", { timeout: 120_000 }, async () => {
    await page.goto(`${baseUrl}/consolidation/reports`);
    await page.getByRole("heading", { name: "Consolidated reports" }).waitFor();
    // The demo books were synced just now: the month before the current one is the latest complete one.
    const now = new Date();
    const previous = new Date(now.getFullYear(), now.getMonth() - 1, 1);
    const label = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric" }).format(previous);
    await page.getByRole("heading", { name: new RegExp(`consolidated, ${label}$`) }).waitFor({ timeout: 60_000 });
    const month = `${previous.getFullYear()}-${String(previous.getMonth() + 1).padStart(2, "0")}`;
    // The demo books and rates end in DEMO_LAST_MONTH; a later month can only name what is missing.
    if (month <= DEMO_LAST_MONTH) await page.getByTestId("balanced").getByText("Balanced").waitFor();
    else await page.getByTestId("report-problems").waitFor();
    await e2e.shot(page, "70-reports-default-month");
  });

  it("Q1 2026 against the prior year: the balance sheet is balanced and its totals are the API's", { timeout: 120_000 }, async () => {
    await page.getByRole("radio", { name: "Quarter" }).dispatchEvent("click");
    await page.getByRole("textbox", { name: "Fiscal quarter" }).click();
    await page.getByRole("option", { name: "FY2026 Q1 (Jan – Mar 2026)" }).click();
    await page.getByRole("textbox", { name: "Compare with" }).click();
    await page.getByRole("option", { name: "Prior year (same months)" }).click();
    await page.getByRole("heading", { name: /consolidated, FY2026 Q1 \(Jan – Mar 2026\)$/ }).waitFor({ timeout: 60_000 });
    const table = page.getByRole("table", { name: "Consolidated balance sheet" });
    await table.getByRole("columnheader", { name: "Jan – Mar 2025" }).waitFor({ timeout: 60_000 });
    await page.getByTestId("balanced").getByText("Balanced").waitFor();

    const r = await api<ConsolidatedReport>("/consolidation/report?from=2026-01&to=2026-03&compare=prior_year");
    expect(r.ok, JSON.stringify(r.problems)).toBe(true);
    const b = r.report!.balanceSheet;
    expect(b.balanced).toBe(true);
    expect(await figure("total-assets")).toBe(b.totalAssets);
    expect(await figure("total-liabilities")).toBe(b.totalLiabilities);
    expect(await figure("total-equity")).toBe(b.totalEquity);
    expect(await figure("line-nci")).toBe(b.nonControllingInterests);
    expect(await figure("line-total-liabilities-equity")).toBe(b.totalAssets);
    expect(await figure("total-assets", 2)).toBe(r.comparison!.balanceSheet!.totalAssets);
    expect(new URL(page.url()).searchParams.get("reportCompare")).toBe("prior_year");
    await page.screenshot({ path: `${e2e.SHOTS}71-reports-balance-sheet.png`, fullPage: true });

    await page.getByRole("tab", { name: "Income statement" }).click();
    await page.getByRole("table", { name: "Consolidated income statement" }).waitFor();
    expect(await figure("line-net-income")).toBe(r.report!.incomeStatement.netIncome);
    await page.screenshot({ path: `${e2e.SHOTS}72-reports-income-statement.png`, fullPage: true });
  });

  it("the statement of changes in equity of the same quarter reconciles to the balance sheet on screen (issue 23)", { timeout: 120_000 }, async () => {
    await page.getByRole("tab", { name: "Changes in equity" }).click();
    const table = page.getByRole("table", { name: "Consolidated statement of changes in equity" });
    await table.waitFor({ timeout: 60_000 });
    await page.getByTestId("equity-reconciliation").getByText(/^✓ Reconciles to the consolidated balance sheet at the end of March 2026/).waitFor();
    const r = await api<ConsolidatedReport>("/consolidation/report?from=2026-01&to=2026-03");
    const b = r.report!.balanceSheet;
    // The closing row's last two columns: non-controlling interests and total equity.
    const closing = page.getByTestId("equity-row-closing").locator("td");
    expect(e2e.cents((await closing.last().textContent()) ?? "")).toBe(b.totalEquity + b.nonControllingInterests);
    expect(e2e.cents((await closing.nth(-2).textContent()) ?? "")).toBe(b.nonControllingInterests);
    await page.screenshot({ path: `${e2e.SHOTS}73-reports-changes-in-equity.png`, fullPage: true });
    // Back to the statements, on the same quarter and the tab left open there (the income statement).
    await page.getByRole("tab", { name: "Consolidated report" }).click();
    await page.getByRole("table", { name: "Consolidated income statement" }).waitFor({ timeout: 60_000 });
  });

  it("a worksheet figure opens its transactions with the account, months and company; Back returns to the same report", { timeout: 60_000 }, async () => {
    await page.getByRole("tab", { name: "Worksheet" }).click();
    const sheet = page.getByRole("table", { name: "Consolidation worksheet" });
    await sheet.waitFor();
    await e2e.shot(page, "73-reports-worksheet");

    const r = await api<ConsolidatedReport>("/consolidation/report?from=2026-01&to=2026-03&compare=prior_year");
    const ws = r.report!.worksheet;
    const ukColumn = ws.columns.findIndex((c) => c.id === UK.realmId);
    const row = ws.rows.find((x) => x.role === "account" && x.amounts[ukColumn] !== 0)!;
    const cell = sheet.locator(`[role="row"][data-account="${row.account}"] [role="cell"]`).nth(1 + ukColumn);
    const link = cell.getByRole("link");
    expect(e2e.cents((await link.textContent()) ?? "")).toBe(row.amounts[ukColumn]);
    await link.click();
    await page.waitForURL("**/consolidation/transaction-detail?**");
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ account: row.account, from: "2026-01", to: "2026-03", realmId: UK.realmId });

    await page.goBack();
    await page.getByRole("table", { name: "Consolidation worksheet" }).waitFor();
    await page.getByRole("heading", { name: /consolidated, FY2026 Q1/ }).waitFor();
    expect(await page.getByRole("tab", { name: "Worksheet" }).getAttribute("aria-selected")).toBe("true");
  });

  it("shows each entity and the trend of the quarter month by month", { timeout: 120_000 }, async () => {
    await page.getByRole("tab", { name: "Entities" }).click();
    const entities = page.getByRole("table", { name: "Entities" });
    await entities.getByRole("cell", { name: UK.name }).waitFor();
    await entities.getByRole("cell", { name: RETAIL.name }).waitFor();
    await e2e.shot(page, "74-reports-entities");

    await page.getByRole("tab", { name: "Trend" }).click();
    const byMonth = page.getByRole("table", { name: "Key figures by month" });
    await byMonth.waitFor({ timeout: 90_000 });
    expect(await byMonth.locator("tbody tr").count()).toBe(3);
    const march = await api<ConsolidatedReport>("/consolidation/report?from=2026-03&to=2026-03&compare=none");
    const marchRow = byMonth.locator("tbody tr").nth(2);
    expect(e2e.cents((await marchRow.locator("td").nth(3).textContent()) ?? "")).toBe(march.report!.incomeStatement.netIncome);
    expect(e2e.cents((await marchRow.locator("td").nth(4).textContent()) ?? "")).toBe(march.report!.balanceSheet.totalAssets);
    await page.screenshot({ path: `${e2e.SHOTS}75-reports-trend.png`, fullPage: true });
  });

  it("downloads the Excel workbook under the server's name: one sheet per report, the total assets the screen's", { timeout: 60_000 }, async () => {
    const r = await api<ConsolidatedReport>("/consolidation/report?from=2026-01&to=2026-03&compare=prior_year");
    const downloaded = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download Excel" }).click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe("consolidation-2026-01to2026-03.xlsx");
    await page.getByTestId("download-result").getByText("Saved consolidation-2026-01to2026-03.xlsx.").waitFor();

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile((await file.path())!);
    expect(wb.worksheets.map((s) => s.name)).toEqual(["Worksheet", "Balance Sheet", "Income Statement", "Trial Balance", "Entities"]);
    const bs = wb.getWorksheet("Balance Sheet")!;
    let totalAssets: unknown = null;
    bs.eachRow((row) => {
      if (row.getCell(2).value === "Total assets") totalAssets = row.getCell(3).value;
    });
    expect(Math.round(Number(totalAssets) * 100)).toBe(r.report!.balanceSheet.totalAssets);

    const csv = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download CSV" }).click();
    const csvFile = await csv;
    expect(csvFile.suggestedFilename()).toBe("consolidation-2026-01to2026-03.csv");
    const text = await readFile((await csvFile.path())!, "utf8");
    expect(text.split(/\r?\n/)[0]).toContain("Consolidated");
  });

  it("a month without rates names what is missing, links to FOREX Management and offers no file", { timeout: 60_000 }, async () => {
    await page.getByRole("radio", { name: "Month" }).dispatchEvent("click");
    await page.getByRole("button", { name: "Month" }).click();
    await page.getByRole("button", { name: "November 2026" }).click();
    const problems = page.getByTestId("report-problems");
    await problems.waitFor({ timeout: 60_000 });
    await problems.getByText(/2026-11/).first().waitFor();
    await problems.getByRole("link", { name: "Enter the rates in FOREX Management" }).first().waitFor();
    expect(await page.getByRole("button", { name: "Download Excel" }).isDisabled()).toBe(true);
    const current = new Date();
    if (current.getFullYear() === 2026 && current.getMonth() === 10) await page.getByTestId("in-progress").getByText("November 2026 is not over yet").waitFor();
    await e2e.shot(page, "76-reports-problems");
    await problems.getByRole("link", { name: "Enter the rates in FOREX Management" }).first().click();
    await page.waitForURL("**/consolidation/fx_rates");
  });
  it("cash flow reconciles opening to closing cash: the Cash flow tab of the reports area, Q1 2026 (issue 23)", { timeout: 120_000 }, async () => {
    await page.goto(`${baseUrl}/consolidation/reports?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03`);
    await page.getByRole("tab", { name: "Cash flow" }).click();
    await page.waitForURL("**/consolidation/reports/cash-flow?*");
    const reconciliation = page.getByTestId("cash-flow-reconciliation");
    await reconciliation.getByText(/Reconciles to the cent\.$/).waitFor({ timeout: 60_000 });
    const r = await api<CashFlowReport>("/consolidation/cash-flow?from=2026-01&to=2026-03");
    expect(r.ok, JSON.stringify(r.problems)).toBe(true);
    const s = r.statement!;
    expect(s.reconciliation).toEqual({ computedClosingCash: s.closingCash, difference: 0, reconciles: true });
    // The screen's figures are the API's, and the closing cash is the balance sheet's Bank accounts.
    const table = page.getByRole("table", { name: "Consolidated statement of cash flows" });
    expect(e2e.cents((await table.getByTestId("cf-closing").locator("td").nth(1).textContent()) ?? "")).toBe(s.closingCash);
    expect(e2e.cents((await table.getByTestId("cf-fx").locator("td").nth(1).textContent()) ?? "")).toBe(s.exchangeEffect.total);
    const report = await api<ConsolidatedReport>("/consolidation/report?from=2026-01&to=2026-03&compare=none");
    const bank = report.report!.balanceSheet.assets.filter((a) => s.cashAccounts.some((c) => c.account === a.account));
    expect(bank.reduce((sum, a) => sum + a.amount, 0)).toBe(s.closingCash);
    await page.getByRole("table", { name: "Effect of exchange rate changes on cash by subsidiary" }).getByText("Northwind UK Ltd").waitFor();
    await e2e.shot(page, "77-reports-cash-flow");
  });

  // Board pack (issue 23): the PDF downloads, its pages are rendered with pdftoppm and its text read
  // with pdftotext, the balance sheet's totals equal to the screen's; then the monthly schedule's
  // "Send now" mails it to the dev mailbox, and an address outside the team is sent nothing until it is confirmed.
  it("board pack: the PDF of Q1 2026 carries the screen's balance sheet totals, and the schedule mails it (issue 23)", { timeout: 120_000 }, async () => {
    await page.goto(`${baseUrl}/consolidation/reports?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03&reportCompare=prior_year`);
    await page.getByRole("table", { name: "Consolidated balance sheet" }).getByRole("columnheader", { name: "Jan – Mar 2025" }).waitFor({ timeout: 60_000 });
    const onScreen = { assets: await figure("total-assets"), liabilities: await figure("total-liabilities"), equity: await figure("total-equity"), prior: await figure("total-assets", 2) };
    await page.getByRole("tab", { name: "Board pack" }).click();
    await page.waitForURL("**/consolidation/reports/board-pack?*");
    const pack = page.getByTestId("board-pack");
    await pack.waitFor({ timeout: 60_000 });
    await page.getByTestId("board-pack-group").getByText("Northwind Holdings Inc.").waitFor();
    const bsRow = (label: string) => page.getByTestId("board-pack-balance-sheet").getByRole("row", { name: new RegExp(`^${label} `) }).locator("td");
    expect(e2e.cents((await bsRow("Total assets").nth(1).textContent()) ?? "")).toBe(onScreen.assets);
    expect(e2e.cents((await bsRow("Total assets").nth(2).textContent()) ?? "")).toBe(onScreen.prior);
    await e2e.shot(page, "78-reports-board-pack");
    // The printable page: the app's navigation and the controls are left off paper.
    await page.emulateMedia({ media: "print" });
    expect(await page.getByRole("tab", { name: "Board pack" }).isVisible()).toBe(false);
    expect(await page.getByTestId("board-pack-download").isVisible()).toBe(false);
    await page.screenshot({ path: `${e2e.SHOTS}78-reports-board-pack-print.png`, fullPage: true });
    await page.emulateMedia({ media: "screen" });

    const downloaded = page.waitForEvent("download");
    await page.getByTestId("board-pack-download").click();
    const file = await downloaded;
    expect(file.suggestedFilename()).toBe("board-pack-2026-01_to_2026-03.pdf");
    const pdf = (await file.path())!;
    // Every page as a PNG beside the screenshots (looked at by people), and the text to compare.
    execFileSync("pdftoppm", ["-png", "-r", "60", pdf, `${e2e.SHOTS}79-board-pack-page`]);
    const pages = readdirSync(e2e.SHOTS).filter((f) => f.startsWith("79-board-pack-page") && f.endsWith(".png"));
    expect(pages.length).toBeGreaterThanOrEqual(8);
    const text = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" });
    expect(text).toContain("Northwind Holdings Inc.");
    expect(text).toContain("January 2026 to March 2026");
    const amounts = (label: string) => {
      const line = text.split("\n").find((l) => l.trimStart().startsWith(`${label} `));
      return (line?.slice(label.length).match(/\(?\$[\d,]+\.\d{2}\)?/g) ?? []).map(e2e.cents);
    };
    expect(amounts("Total assets")).toEqual([onScreen.assets, onScreen.prior]);
    expect(amounts("Total liabilities")[0]).toBe(onScreen.liabilities);
    expect(amounts("Total equity")[0]).toBe(onScreen.equity);
    for (const title of ["Consolidated statement of cash flows", "Consolidated statement of changes in equity", "Exchange rates used", "Translation reserve (CTA): how it was computed"]) expect(text).toContain(title);

    // The schedule: an address outside the team is kept awaiting its confirmation and is sent nothing but
    // the confirmation mail (the last step of this file confirms it); the user's own email gets the pack.
    const recipients = page.getByRole("textbox", { name: "Recipients" });
    await recipients.fill(STRANGER);
    await recipients.press("Enter");
    await recipients.fill(EMAIL);
    await recipients.press("Enter");
    await page.getByRole("switch", { name: "Mail the board pack every month" }).dispatchEvent("click");
    await page.getByTestId("board-pack-schedule-save").click();
    await page.getByTestId("board-pack-schedule-saved").getByText("Saved: each month's pack goes out on day 1 of the month after.").waitFor();
    await page.getByTestId(`board-pack-recipient-${STRANGER}`).getByText(/^Awaiting confirmation since /).waitFor();
    await page.getByTestId(`board-pack-recipient-${EMAIL}`).getByText("Verified (your team)").waitFor();
    await page.getByTestId("board-pack-send").click();
    await page.getByTestId("board-pack-sent").getByText(`The pack of March 2026 is on its way to ${EMAIL}. Not sent to ${STRANGER} (awaiting confirmation).`).waitFor();
    let mail: PackMail | undefined;
    for (let i = 0; i < 60 && !mail; i++) {
      const box = await api<{ messages: PackMail[] }>(`/dev/mailbox?to=${encodeURIComponent(EMAIL)}`);
      mail = box.messages.find((m) => m.subject.startsWith("Board pack March 2026"));
      if (!mail) await new Promise((r) => setTimeout(r, 500));
    }
    expect(mail?.attachments).toEqual([{ filename: "board-pack-2026-03.pdf", contentType: "application/pdf", size: expect.any(Number) }]);
    expect((await api<{ messages: PackMail[] }>(`/dev/mailbox?to=${encodeURIComponent(STRANGER)}`)).messages.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Confirm your address for .+'s board pack$/),
    ]);
    await e2e.shot(page, "80-reports-board-pack-schedule");
  });

  // Segments (issue 23): the P&L by class, with the intra-group eliminations in their own column.
  it("a statement by class shows the eliminations column: the Segments tab, Q1 2026, figures equal to the API's (issue 23)", { timeout: 120_000 }, async () => {
    // The parent's management fees to the UK, paired for this step (and unpaired after it, so later steps see the group as before).
    type Account = { Id: string; name: string };
    const parentChart = await api<Account[]>(`/companies/${PARENT.realmId}/accounts`);
    const ukChart = await api<Account[]>(`/companies/${UK.realmId}/accounts`);
    const pair = await api<{ id: string }>("/eliminations/pairs", {
      method: "POST",
      body: {
        name: "UK management fees (segments e2e)",
        kind: "revenueExpense",
        left: { realmId: PARENT.realmId, accountId: parentChart.find((a) => a.name === "Management Fee Income - Intercompany")!.Id },
        right: { realmId: UK.realmId, accountId: ukChart.find((a) => a.name === "Management Charges - Group")!.Id },
      },
    });
    try {
      await page.goto(`${baseUrl}/consolidation/reports?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03`);
      await page.getByRole("tab", { name: "Segments" }).click();
      await page.waitForURL("**/consolidation/reports/segments?*");
      // Segments are off until asked for (each class costs QuickBooks calls on every sync): read them.
      await page.getByRole("button", { name: "Read classes and locations from QuickBooks" }).click();
      const table = page.getByRole("table", { name: "Profit and loss by class" });
      await table.waitFor({ timeout: 90_000 });
      await page.getByTestId("segments-reconciliation").getByText(/to the cent/).waitFor();
      const r = await api<SegmentReport>("/consolidation/segments?from=2026-01&to=2026-03&by=class");
      expect(r.ok, JSON.stringify(r.problems)).toBe(true);
      const s = r.statement!;
      expect(s.reconciles).toBe(true);
      // The Eliminations column, after the segments and No class; Wholesale matched across the parent and the UK.
      const headers = (await table.locator("thead th").allTextContents()).map((t) => t.trim());
      expect(headers).toEqual(["Account", ...s.segments.map((c) => c.name), "No class", "Eliminations", "Consolidated"]);
      expect(s.segments.find((c) => c.name === "Wholesale")!.members.length).toBeGreaterThan(1);
      await page.getByTestId("segments-matched").getByText(/Matched: .*Wholesale/).waitFor();
      // The screen's net income row is the API's, column by column; the fee line is eliminated to nothing.
      const cells = async (testId: string) => (await table.getByTestId(testId).locator("td").allTextContents()).slice(1).map((t) => e2e.cents(t) || 0);
      const n = s.netIncome;
      expect(await cells("seg-net-income")).toEqual([...n.segments, n.unallocated, n.eliminations, n.total]);
      const fee = s.revenue.find((x) => x.name === "Management Fee Income - Intercompany")!;
      expect(fee.eliminations).toBeLessThan(0);
      expect(await cells(`seg-revenue:${fee.account}`)).toEqual([...fee.segments, fee.unallocated, fee.eliminations, 0]);
      const report = await api<ConsolidatedReport>("/consolidation/report?from=2026-01&to=2026-03&compare=none");
      expect(n.total).toBe(report.report!.incomeStatement.netIncome);
      // The shot shows the Eliminations column beside the consolidated one.
      await table.getByTestId("seg-col-eliminations").scrollIntoViewIfNeeded();
      await e2e.shot(page, "78-reports-segments");
      // The balance sheet by class (issue 23, any statement by segment): at 31 March, total assets column by column the API's, which is the report's.
      await page.getByText("Balance sheet", { exact: true }).click();
      const sheet = page.getByRole("table", { name: "Balance sheet by class" });
      await sheet.waitFor({ timeout: 60_000 });
      await page.getByTestId("segments-reconciliation").getByText(/to the cent: total assets/).waitFor();
      const b = (await api<SegmentReport>("/consolidation/segments?from=2026-01&to=2026-03&by=class&statement=balance")).balanceSheet!;
      expect(b.totalAssets.total).toBe(report.report!.balanceSheet.totalAssets);
      const ta = b.totalAssets;
      const sheetCells = (await sheet.getByTestId("seg-assets-total").locator("td").allTextContents()).slice(1).map((t) => e2e.cents(t) || 0);
      const hasGroup = [...b.assets, ...b.liabilities, ...b.equity].some((r) => r.group !== 0);
      expect(sheetCells).toEqual([...ta.segments, ta.unallocated, ta.eliminations, ...(hasGroup ? [ta.group] : []), ta.total]);
      expect(ta.segments.some((v) => v !== 0)).toBe(true);
      await sheet.getByTestId("seg-col-eliminations").scrollIntoViewIfNeeded();
      await e2e.shot(page, "78b-reports-segments-balance-sheet");
      // The cash flow by class: its own Eliminations column, every column reconciling its opening to its closing cash.
      await page.getByTestId("segments").getByText("Cash flow", { exact: true }).click();
      const flows = page.getByRole("table", { name: "Statement of cash flows by class" });
      await flows.waitFor({ timeout: 60_000 });
      await page.getByTestId("segments-reconciliation").getByText(/^Every column reconciles its opening to its closing cash/).waitFor();
      expect(await flows.getByTestId("seg-col-eliminations").textContent()).toBe("Eliminations");
    } finally {
      await api(`/eliminations/pairs/${pair.id}`, { method: "DELETE" });
    }
  });

  // Budget vs actual (issue 23): a missing budget rate named, the rate set, the QuickBooks budgets read, Retail's by CSV (a bad line refused first).
  it("budget vs actual: the Budget vs actual tab of the reports area, Q1 2026 (issue 23)", { timeout: 120_000 }, async () => {
    await page.goto(`${baseUrl}/consolidation/reports/cash-flow?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03`);
    await page.getByRole("tab", { name: "Budget vs actual" }).click();
    await page.waitForURL("**/consolidation/reports/budget?*");
    await page.getByText(/^No budget rate for GBP \(Northwind UK Ltd\) in fiscal year 2026/).waitFor({ timeout: 60_000 });
    await e2e.shot(page, "78a-reports-budget-rate-missing");

    await page.getByRole("textbox", { name: "GBP budget rate" }).fill("1.27");
    await page.getByRole("button", { name: "Save rates" }).click();
    await page.getByRole("button", { name: "Read budgets from QuickBooks" }).click();
    await page.getByTestId("budget-read-result").getByText(/Northwind Retail LLC: No active profit and loss budget in QuickBooks/).waitFor({ timeout: 30_000 });

    const importer = page.getByRole("region", { name: "Import a budget from CSV" });
    await importer.getByRole("textbox", { name: "Company" }).click();
    await page.getByRole("option", { name: RETAIL.name }).click();
    const file = importer.locator('input[type="file"]');
    await file.setInputFiles({ name: "retail-bad.csv", mimeType: "text/csv", buffer: Buffer.from("account,month,amount\r\nStore Sales,2026-01,25000\r\n4000,2026-01,100\r\n") });
    await importer.getByRole("button", { name: "Import" }).click();
    await page.getByTestId("budget-import-errors").getByText(`Line 3: "4000" is not an account of ${RETAIL.name} (by number or name).`).waitFor();
    const rows = ["2026-01", "2026-02", "2026-03"].flatMap((m) => [`Store Sales,${m},250000`, `Store Wages,${m},60000.50`]);
    await file.setInputFiles({ name: "retail-2026.csv", mimeType: "text/csv", buffer: Buffer.from(`account,month,amount\r\n${rows.join("\r\n")}\r\n`) });
    await importer.getByRole("button", { name: "Import" }).click();
    await importer.getByText(`Imported 6 budget lines for ${RETAIL.name}, 2026-01 to 2026-03.`).waitFor();

    const table = page.getByRole("table", { name: "Budget vs actual" });
    await table.waitFor({ timeout: 60_000 });
    const r = await api<BudgetVsActualReport>("/consolidation/budget-vs-actual?from=2026-01&to=2026-03");
    expect(r.ok, JSON.stringify(r.problems)).toBe(true);
    const s = r.statement!;
    const report = await api<ConsolidatedReport>("/consolidation/report?from=2026-01&to=2026-03&compare=none");
    expect(s.netIncome.actual).toBe(report.report!.incomeStatement.netIncome);
    expect(s.netIncome.variance).toBe(s.netIncome.constantCurrencyVariance + s.netIncome.fxEffect);
    const net = (col: string) => table.getByTestId("bva-net-income").locator(`td[data-col="${col}"]`);
    // The statement asked again after the import: the screen's budget is the API's.
    await expect.poll(async () => e2e.cents((await net("budget").textContent()) ?? ""), { timeout: 30_000 }).toBe(s.netIncome.budget);
    expect(e2e.cents((await net("actual").textContent()) ?? "")).toBe(s.netIncome.actual);
    expect(e2e.cents((await net("constantCurrencyVariance").textContent()) ?? "")).toBe(s.netIncome.constantCurrencyVariance);
    expect(e2e.cents((await net("fxEffect").textContent()) ?? "")).toBe(s.netIncome.fxEffect);
    await page.getByRole("table", { name: "Profit by company at the budget rate" }).getByText("1.27 USD/GBP").waitFor();
    await page.screenshot({ path: `${e2e.SHOTS}78-reports-budget-vs-actual.png`, fullPage: true });
  });
  // Board pack recipients outside the team (issue 23, double opt-in): the address chosen in the board
  // pack step opens the link of its confirmation mail, confirms, and "Send now" mails it the pack.
  it("board pack: an outside recipient confirms from the mailed link, then Send now mails it the pack (issue 23)", { timeout: 60_000 }, async () => {
    const box = await api<{ messages: PackMail[] }>(`/dev/mailbox?to=${encodeURIComponent(STRANGER)}`);
    const link = box.messages[0]?.text.match(/https?:\/\/\S+\/board-pack\/confirm#token=[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByRole("heading", { name: /^Receive .+'s board pack\?$/ }).waitFor();
    await page.getByText(`chose ${STRANGER} to receive`, { exact: false }).waitFor();
    await e2e.shot(page, "81-board-pack-confirm");
    await page.getByTestId("board-pack-confirm").click();
    await page.getByTestId("board-pack-confirmed").getByText(`${STRANGER} now receives the board pack of`).waitFor();

    await page.goto(`${baseUrl}/consolidation/reports/board-pack?reportPeriod=quarter&reportFrom=2026-01&reportTo=2026-03&reportCompare=prior_year`);
    await page.getByTestId(`board-pack-recipient-${STRANGER}`).getByText(/^Confirmed /).waitFor({ timeout: 30_000 });
    await page.getByTestId("board-pack-send").click();
    await page.getByTestId("board-pack-sent").getByText(`The pack of March 2026 is on its way to ${STRANGER}, ${EMAIL}.`).waitFor();
    let pack: PackMail | undefined;
    for (let i = 0; i < 60 && !pack; i++) {
      pack = (await api<{ messages: PackMail[] }>(`/dev/mailbox?to=${encodeURIComponent(STRANGER)}`)).messages.find((m) => m.subject.startsWith("Board pack March 2026"));
      if (!pack) await new Promise((r) => setTimeout(r, 500));
    }
    expect(pack?.attachments).toEqual([{ filename: "board-pack-2026-03.pdf", contentType: "application/pdf", size: expect.any(Number) }]);
    expect(pack!.text).toMatch(/unsubscribe here:\nhttps?:\/\/\S+\/board-pack\/unsubscribe#token=/);
    await page.getByTestId("board-pack-recipients").scrollIntoViewIfNeeded();
    await e2e.shot(page, "82-board-pack-recipient-confirmed");
  });
});
