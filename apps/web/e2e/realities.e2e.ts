import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Issue 20 end to end: QuickBooks as it really is, on the demo group. The parent closed its books
 * through 2023-12-31; Northwind Canada opened sub-accounts under "Computer Equipment" and "Wages
 * and Salaries" in January 2025. In the browser: COA Mapping shows the sub-accounts under their
 * parent accounts and maps each on its own; Opening Balance Sheet refuses an opening month inside
 * the parent's closed books, naming the close date and what to do; the consolidated worksheet takes
 * Canada's wages once (the sub-accounts, never their parent's header row as well). The GBP loan
 * eliminated with its exchange part is covered by interco.e2e.ts.
 */
let baseUrl = "";
let session: e2e.Session;
let page: Page;

const EMAIL = `realities.${Date.now()}@northwind.example`;
const { parent: PARENT, canada: CANADA } = e2e.DEMO;
const api = <T>(path: string, init?: { method?: string; body?: unknown }) => e2e.api<T>(page, baseUrl, path, init);

interface ChartRow {
  Id: string;
  name: string;
  fullyQualifiedName: string;
  acctNum: string | null;
}
type Cell = { value: string; id?: string };
type QboRow = { ColData?: Cell[]; Header?: { ColData: Cell[] }; Rows?: { Row: QboRow[] }; Summary?: { ColData: Cell[] } };
interface Worksheet {
  columns: { id: string }[];
  rows: { account: string; name: string; amounts: number[] }[];
}

e2e.ownServer((url) => (baseUrl = url));
e2e.browserForFile((s) => {
  session = s;
  page = s.page;
});

describe("QuickBooks as it really is, in a browser: closed books and sub-accounts", () => {
  let canadaChart: ChartRow[] = [];
  let parentChart: ChartRow[] = [];
  const idOf = (chart: ChartRow[], name: string) => chart.find((a) => a.name === name)?.Id ?? expect.unreachable(`no account "${name}"`);

  it("connects the demo parent and Northwind Canada", { timeout: 240_000 }, async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, [CANADA]);
    canadaChart = await api<ChartRow[]>(`/companies/${CANADA.realmId}/accounts`);
    parentChart = await api<ChartRow[]>(`/companies/${PARENT.realmId}/accounts`);
  });

  it("COA Mapping shows Canada's sub-accounts under their parent accounts, and each is mapped on its own", { timeout: 120_000 }, async () => {
    await page.goto(`${baseUrl}/setup/coa`);
    const grid = page.getByRole("grid");
    const search = page.getByRole("textbox", { name: "Search" });
    const row = (name: string) => grid.locator(`[data-row-id="${idOf(canadaChart, name)}"]`);
    for (const [parent, subs] of [
      ["Computer Equipment", ["Laptops and Workstations", "Servers and Networking"]],
      ["Wages and Salaries", ["Wages - Toronto", "Wages - Vancouver"]],
    ] as const) {
      // The search finds a sub-account by its full name too: the parent account and its sub-accounts together.
      await search.fill(parent);
      await row(parent).waitFor({ timeout: 60_000 });
      expect(await row(parent).locator("[data-depth]").getAttribute("data-depth"), parent).toBe("0");
      const order = await grid.locator("[data-row-id]").evaluateAll((els) => els.map((el) => el.getAttribute("data-row-id")));
      for (const sub of subs) {
        // One level in, after its parent account, and read out as its sub-account.
        expect(await row(sub).locator("[data-depth]").getAttribute("data-depth"), sub).toBe("1");
        expect(await row(sub).textContent(), sub).toContain(`sub-account of ${parent}`);
        expect(order.indexOf(idOf(canadaChart, sub)), `${sub} after ${parent}`).toBeGreaterThan(order.indexOf(idOf(canadaChart, parent)));
      }
    }
    await e2e.shot(page, "90-coa-sub-accounts");

    await e2e.mapAllAccounts(page, baseUrl, PARENT.realmId, CANADA.realmId);
    const { map } = await api<{ map: Record<string, string> }>(`/companies/${CANADA.realmId}/map`);
    // Each sub-account maps on its own, here where its parent account goes.
    for (const sub of ["Wages - Toronto", "Wages - Vancouver"]) expect(map[idOf(canadaChart, sub)], sub).toBe(idOf(parentChart, "Salaries and Wages"));
    for (const sub of ["Laptops and Workstations", "Servers and Networking"]) expect(map[idOf(canadaChart, sub)], sub).toBe(idOf(parentChart, "Computer Equipment"));
  });

  it("Opening Balance Sheet refuses an opening month inside the parent's closed books, naming the close date and the way out", { timeout: 120_000 }, async () => {
    await e2e.configureTranslation(page, baseUrl, { from: "2023-11", to: "2026-10" }, "2023-11");
    await api("/obal", { method: "POST", body: { year: 2023, month: 12, naturalYear: 2023, naturalMonth: 12 } });
    await page.goto(`${baseUrl}/setup/obal`);
    const panel = page.getByRole("region", { name: CANADA.name });
    await panel.getByTestId("not-eligible-reason").waitFor({ timeout: 60_000 });
    expect(await panel.getByTestId("obal-status").textContent()).toBe("Not eligible");
    expect(await panel.getByTestId("not-eligible-reason").textContent()).toBe(
      `${PARENT.name}'s books are closed through 2023-12-31 in QuickBooks, so the opening entry of ${CANADA.name}, dated 2023-12-31, cannot be posted there. ` +
        `Either choose a later opening month (the opening month is chosen on Opening Balance Sheet before it is locked), or move the closing date before 2023-12-31 in QuickBooks (Settings → Account and settings → Advanced → Accounting → Close the books), sync ${PARENT.name} and post again.`,
    );
    // Nothing to review, confirm or post while it stands.
    expect(await panel.getByRole("button", { name: /review|confirm|post/i }).count()).toBe(0);
    // The API says the same, as a 4xx a person can act on.
    const refused = await api("/obal/review", { method: "POST", body: { realmId: CANADA.realmId } }).then(
      () => "accepted",
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/^POST \/obal\/review answered 4\d\d: .*books are closed through 2023-12-31/);
    await e2e.shot(page, "91-obal-closed-books");

    // A later opening month: the opening balance posts.
    await api("/obal/reset", { method: "POST", body: {} });
    await e2e.postOpeningBalances(page, baseUrl, "2024-12", [CANADA.realmId]);
    await api("/account", { method: "PATCH", body: { onboarding: false } });
  });

  it("the consolidated worksheet takes Canada's wages from its sub-accounts once, never twice", { timeout: 120_000 }, async () => {
    const from = "2025-01";
    const to = "2025-03";
    const r = await api<{ ok: boolean; report: { worksheet: Worksheet } }>(`/consolidation/report?from=${from}&to=${to}`);
    expect(r.ok).toBe(true);
    const col = r.report.worksheet.columns.findIndex((c) => c.id === CANADA.realmId);
    const salaries = idOf(parentChart, "Salaries and Wages");
    const wages = r.report.worksheet.rows.find((x) => x.account === salaries) ?? expect.unreachable("Salaries and Wages in the worksheet");
    const mappedThere = new Set(Object.entries((await api<{ map: Record<string, string> }>(`/companies/${CANADA.realmId}/map`)).map).filter(([, p]) => p === salaries).map(([sub]) => sub));
    for (const n of ["Wages and Salaries", "Wages - Toronto", "Wages - Vancouver"]) expect(mappedThere.has(idOf(canadaChart, n)), n).toBe(true);

    // What Canada's own QuickBooks P&L holds on those accounts in the quarter, month by month: each
    // account's own row once. Its wages are a section (the parent account's own row, then its
    // sub-accounts'), whose total adds them up; the worksheet must not add that total on top.
    const qbo = await e2e.sandboxQbo(baseUrl, CANADA.realmId);
    const pl = await qbo.report<{ Rows: { Row: QboRow[] } }>("ProfitAndLoss", { start_date: `${from}-01`, end_date: "2025-03-31", summarize_column_by: "Month" });
    const months = (cells: Cell[]) => cells.slice(1, 4).map((c) => Math.round(Number(c.value || "0") * 100));
    const own: number[][] = [];
    let wagesSection: number[] = [];
    const walk = (rows: readonly QboRow[]) => {
      for (const row of rows) {
        if (row.ColData && mappedThere.has(row.ColData[0]?.id ?? "")) own.push(months(row.ColData));
        if (row.Header?.ColData[0]?.id === idOf(canadaChart, "Wages and Salaries")) wagesSection = months(row.Summary?.ColData ?? []);
        if (row.Rows) walk(row.Rows.Row);
      }
    };
    walk(pl.Rows.Row);
    expect(wagesSection.every((c) => c > 0), "Canada's P&L nests its wages in a section with a total").toBe(true);
    const byMonth = [0, 1, 2].map((i) => own.reduce((s, m) => s + m[i]!, 0));
    // Translated each month at that month's average rate, as the consolidation does.
    const rates = await api<{ rates: { currency: string; month: string; avgfx: string }[] }>(`/fxrates?from=${from}&to=${to}`);
    const avg = ["2025-01", "2025-02", "2025-03"].map((m) => Number(rates.rates.find((x) => x.currency === "CAD" && x.month === m)!.avgfx));
    const once = byMonth.reduce((s, c, i) => s + c * avg[i]!, 0);
    const twice = once + wagesSection.reduce((s, c, i) => s + c * avg[i]!, 0);
    // Within a cent an account-month (each rounds on its own) of the books' own figures, and far from the section counted again.
    expect(Math.abs(wages.amounts[col]! - once)).toBeLessThanOrEqual(3 * own.length);
    expect(Math.abs(wages.amounts[col]! - twice)).toBeGreaterThan(100_000);

    // On screen: the worksheet's Salaries and Wages row, Canada's column.
    await page.goto(`${baseUrl}/consolidation/reports?reportPeriod=quarter&reportFrom=${from}&reportTo=${to}&reportCompare=none&reportView=worksheet`);
    const sheet = page.getByRole("table", { name: "Consolidation worksheet" });
    await sheet.waitFor({ timeout: 60_000 });
    const cell = sheet.locator(`[role="row"][data-account="${wages.account}"] [role="cell"]`).nth(1 + col);
    await cell.waitFor({ timeout: 60_000 });
    expect(e2e.cents((await cell.textContent()) ?? "")).toBe(wages.amounts[col]);
    await cell.scrollIntoViewIfNeeded();
    await e2e.shot(page, "92-worksheet-sub-accounts");
  });
});
