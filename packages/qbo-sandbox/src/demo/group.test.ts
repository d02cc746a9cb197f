/**
 * The demo group's books, checked through the same report code the API serves: every trial
 * balance balances, every balance sheet balances, the fiscal-year close is consistent, and each
 * intercompany pair agrees after FX at every month-end.
 */
import { describe, expect, it } from "vitest";
import { monthEnd, monthRange } from "../calendar.ts";
import type { Json } from "../entities.ts";
import { CompanyLedger } from "../ledger.ts";
import { convert, convertCross, parseAmount } from "../money.ts";
import { runReport } from "../reports/index.ts";
import { CA_CHART, DE_CHART, PARENT_CHART, UK_CHART, US2_CHART } from "./charts.ts";
import { DEMO_COMPANIES, demoGroup } from "./companies.ts";
import { DEMO_FIRST_MONTH, DEMO_LAST_MONTH, demoFxRates, FxTable } from "./fx.ts";
import { buildDemoCompanies } from "./index.ts";

const NOW = new Date("2026-11-02T17:00:00.000Z");
const ledgers = buildDemoCompanies().map((d) => new CompanyLedger(d));
const byCode = new Map(DEMO_COMPANIES.map((p, i) => [p.code, ledgers[i] as CompanyLedger]));
const months = monthRange(DEMO_FIRST_MONTH, DEMO_LAST_MONTH);
const fx = new FxTable(demoFxRates());

function cents(value: unknown): number {
  const c = parseAmount(value === "" ? "0" : value);
  if (c === undefined) throw new Error(`not an amount: ${String(value)}`);
  return c;
}

type Row = Json & { ColData?: { value: string; id?: string }[]; Rows?: { Row: Row[] }; Summary?: { ColData: { value: string }[] }; group?: string };

function sectionByGroup(rows: readonly Row[], group: string): Row | undefined {
  for (const r of rows) {
    if (r.group === group) return r;
    const inner = r.Rows === undefined ? undefined : sectionByGroup(r.Rows.Row, group);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** A foreign-currency account's debit-positive balance in its own currency at the end of `date`. */
function foreignBalanceAt(ledger: CompanyLedger, accountId: string, date: string): number {
  let sum = 0;
  for (const e of ledger.liveEntriesByDate()) {
    if (e.txnDate > date) break;
    for (const l of e.lines) if (l.accountId === accountId) sum += l.posting === "Debit" ? l.amount : -l.amount;
  }
  return sum;
}

function rowsOf(report: Json): Row[] {
  return (report["Rows"] as { Row: Row[] }).Row;
}

/** account id -> signed (debit-positive) trial-balance amount at a date */
function trialBalance(ledger: CompanyLedger, end: string): { byId: Map<string, number>; debit: number; credit: number } {
  const report = runReport(ledger, "TrialBalance", { end_date: end, start_date: `${end.slice(0, 8)}01` }, NOW);
  const byId = new Map<string, number>();
  let total = { debit: 0, credit: 0 };
  for (const row of rowsOf(report)) {
    if (row.group === "GrandTotal") {
      const cd = (row.Summary as { ColData: { value: string }[] }).ColData;
      total = { debit: cents(cd[1]?.value), credit: cents(cd[2]?.value) };
      continue;
    }
    const cd = row.ColData as { value: string; id?: string }[];
    byId.set(cd[0]?.id as string, cents(cd[1]?.value) - cents(cd[2]?.value));
  }
  return { byId, ...total };
}

function roleId(ledger: CompanyLedger, chart: typeof PARENT_CHART, role: string): string {
  const index = chart.findIndex((a) => a.role === role);
  if (index < 0) throw new Error(`no ${role}`);
  return ledger.accounts[index]?.id as string;
}

describe("the demo group", () => {
  it("is the parent and four subsidiaries with fixed 16-digit realm ids, one with an April fiscal year", () => {
    const group = demoGroup();
    expect(group.map((c) => [c.country, c.currency, c.isParent])).toEqual([
      ["US", "USD", true],
      ["GB", "GBP", false],
      ["CA", "CAD", false],
      ["DE", "EUR", false],
      ["US", "USD", false],
    ]);
    for (const c of group) expect(c.realmId).toMatch(/^\d{16}$/);
    expect(group.filter((c) => c.fiscalYearStartMonth === 4).map((c) => c.currency)).toEqual(["GBP"]);
  });

  it("has charts of 60-150 accounts each, numbered differently, with inactive and never-used accounts", () => {
    const charts = [PARENT_CHART, UK_CHART, CA_CHART, DE_CHART, US2_CHART];
    charts.forEach((chart, i) => {
      const ledger = ledgers[i] as CompanyLedger;
      expect(chart.length).toBeGreaterThanOrEqual(60);
      expect(chart.length).toBeLessThanOrEqual(150);
      expect(new Set(chart.map((a) => a.number)).size).toBe(chart.length);
      expect(new Set(chart.map((a) => a.name)).size).toBe(chart.length);
      expect(ledger.accounts.filter((a) => !a.active).length).toBeGreaterThanOrEqual(2);
      const unused = ledger.accounts.filter((a) => !ledger.hasPostings(a.id, "0000-01-01", "9999-12-31"));
      expect(unused.length).toBeGreaterThanOrEqual(3);
      // an account retired after use still has history
      expect(ledger.accounts.some((a) => !a.active && ledger.hasPostings(a.id, "0000-01-01", "9999-12-31"))).toBe(true);
    });
    const parentNames = new Set(PARENT_CHART.map((a) => a.name));
    for (const chart of [UK_CHART, DE_CHART]) expect(chart.filter((a) => parentNames.has(a.name)).length).toBeLessThan(chart.length / 4);
  });

  it("is generated the same way every time", () => {
    expect(JSON.stringify(buildDemoCompanies())).toBe(JSON.stringify(buildDemoCompanies()));
    expect(demoFxRates()).toEqual(demoFxRates());
  });

  it("has monthly average and closing rates for GBP, CAD and EUR with six decimals", () => {
    const rates = demoFxRates();
    expect(rates).toHaveLength(3 * months.length);
    for (const r of rates) {
      expect(r.average).toMatch(/^\d\.\d{6}$/);
      expect(r.closing).toMatch(/^\d\.\d{6}$/);
      const [lo, hi] = { GBP: [1.1, 1.45], CAD: [0.65, 0.82], EUR: [0.95, 1.25] }[r.currency];
      expect(Number(r.closing)).toBeGreaterThan(lo as number);
      expect(Number(r.closing)).toBeLessThan(hi as number);
    }
  });

  it("has a balanced trial balance at every month-end for every company", () => {
    for (const ledger of ledgers) {
      for (const month of months) {
        const tb = trialBalance(ledger, monthEnd(`${month}-01`));
        expect(tb.debit, `${ledger.profile.name} ${month}`).toBe(tb.credit);
        expect(tb.debit).toBeGreaterThan(0);
        expect([...tb.byId.values()].reduce((s, v) => s + v, 0)).toBe(0);
      }
    }
  });

  it("has assets = liabilities + equity at every month-end", () => {
    for (const ledger of ledgers) {
      const report = runReport(ledger, "BalanceSheet", { start_date: "2023-01-01", end_date: "2026-10-31", summarize_column_by: "Month" }, NOW);
      const assets = sectionByGroup(rowsOf(report), "TotalAssets")?.Summary?.ColData.slice(1).map((c) => cents(c.value)) ?? [];
      const le = sectionByGroup(rowsOf(report), "TotalLiabilitiesAndEquity")?.Summary?.ColData.slice(1).map((c) => cents(c.value)) ?? [];
      expect(assets).toHaveLength(months.length);
      expect(le, ledger.profile.name).toEqual(assets);
    }
  });

  it("closes each fiscal year: P&L net income equals the change in Retained Earnings + Net Income", () => {
    for (const ledger of ledgers) {
      const fyMonth = ledger.profile.fiscalYearStartMonth;
      for (const year of [2024, 2025]) {
        const start = `${year}-${String(fyMonth).padStart(2, "0")}-01`;
        const end = monthEnd(`${year + 1}-${String(fyMonth === 1 ? 12 : fyMonth - 1).padStart(2, "0")}-01`).replace(/^\d{4}/, String(fyMonth === 1 ? year : year + 1));
        const priorEnd = monthEnd(`${fyMonth === 1 ? year - 1 : year}-${String(fyMonth === 1 ? 12 : fyMonth - 1).padStart(2, "0")}-01`);
        const pl = runReport(ledger, "ProfitAndLoss", { start_date: start, end_date: end }, NOW);
        const netIncome = cents(sectionByGroup(rowsOf(pl), "NetIncome")?.Summary?.ColData[1]?.value);
        const equityAt = (date: string): number => {
          const bs = runReport(ledger, "BalanceSheet", { start_date: date, end_date: date }, NOW);
          const equity = sectionByGroup(rowsOf(bs), "Equity")?.Rows?.Row ?? [];
          const re = equity.find((r) => r.ColData?.[0]?.value.match(/Retained Earnings|Profit and Loss Reserve|Gewinnvortrag/));
          const ni = equity.find((r) => r.group === "NetIncome");
          return cents(re?.ColData?.[1]?.value) + cents(ni?.ColData?.[1]?.value);
        };
        expect(netIncome).not.toBe(0);
        expect(equityAt(end) - equityAt(priorEnd), `${ledger.profile.name} FY${year}`).toBe(netIncome);
      }
    }
  });

  it("keeps every intercompany pair in agreement after FX at each month-end", () => {
    const parent = byCode.get("PARENT") as CompanyLedger;
    const pairs = [
      { code: "UK", chart: UK_CHART },
      { code: "CA", chart: CA_CHART },
      { code: "DE", chart: DE_CHART },
      { code: "US2", chart: US2_CHART },
    ] as const;
    for (const month of months) {
      const end = monthEnd(`${month}-01`);
      const parentTb = trialBalance(parent, end);
      for (const { code, chart } of pairs) {
        const sub = byCode.get(code) as CompanyLedger;
        const subTb = trialBalance(sub, end);
        const closing = fx.closing(sub.profile.currency, month);
        for (const [parentRole, subRole] of [
          [`icLoan:${code}`, "icLoanPay"],
          [`icRecv:${code}`, "icPay"],
        ] as const) {
          const owed = 0 - (subTb.byId.get(roleId(sub, chart, subRole)) ?? 0);
          const account = roleId(parent, PARENT_CHART, parentRole);
          if (parent.isForeign(parent.account(account)!)) {
            // Lent in the subsidiary's currency: the two books agree in that currency, to the cent.
            expect(parent.account(account)!.currency, parentRole).toBe(sub.profile.currency);
            expect(foreignBalanceAt(parent, account, end), `${code} ${parentRole} ${month}`).toBe(owed);
            continue;
          }
          const held = parentTb.byId.get(account) ?? 0;
          expect(held, `${code} ${parentRole} ${month}`).toBe(convert(owed, closing));
        }
      }
      const uk = byCode.get("UK") as CompanyLedger;
      const de = byCode.get("DE") as CompanyLedger;
      const eur = trialBalance(de, end).byId.get(roleId(de, DE_CHART, "icRecvSub:UK")) ?? 0;
      const gbp = 0 - (trialBalance(uk, end).byId.get(roleId(uk, UK_CHART, "icPaySub:DE")) ?? 0);
      expect(gbp, `UK-DE ${month}`).toBe(convertCross(eur, fx.closing("EUR", month), fx.closing("GBP", month)));
    }
    // The foreign loans keep their home amount at the rates of the day (nothing revalues them): at
    // the end it differs from the closing rate's, the exchange difference the eliminations show.
    const end = monthEnd(`${DEMO_LAST_MONTH}-01`);
    for (const [code, currency] of [["UK", "GBP"], ["CA", "CAD"], ["DE", "EUR"]] as const) {
      const account = roleId(parent, PARENT_CHART, `icLoan:${code}`);
      const home = trialBalance(parent, end).byId.get(account) ?? 0;
      expect(home, code).not.toBe(convert(foreignBalanceAt(parent, account, end), fx.closing(currency, DEMO_LAST_MONTH)));
    }
    // The loans, fees and trade are really there.
    const loan = trialBalance(parent, "2024-12-31").byId.get(roleId(parent, PARENT_CHART, "icLoan:CA")) ?? 0;
    expect(loan).toBeGreaterThan(cents("2000000"));
  });

  it("pays dividends from every subsidiary to the parent once a year from its first year in the group", () => {
    const parent = byCode.get("PARENT") as CompanyLedger;
    const dividendIncome = roleId(parent, PARENT_CHART, "dividendIncome");
    // Retail joins the group in July 2024, after the March its dividends are declared in.
    for (const [year, count] of [
      [2023, 3],
      [2024, 3],
      [2025, 4],
      [2026, 4],
    ] as const) {
      const declared = parent.entries.filter((e) => e.txnDate.startsWith(String(year)) && e.lines.some((l) => l.accountId === dividendIncome));
      expect(declared.length, String(year)).toBe(count);
    }
  });
});
