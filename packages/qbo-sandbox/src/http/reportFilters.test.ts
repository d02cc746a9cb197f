/** BalanceSheet and ProfitAndLoss filtered by `customer` / `vendor` over HTTP: header, data, refusals. */
import { beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { firstCompanySession } from "../testing/harness.ts";
import { sample, shapeProblems } from "../testing/shape.ts";

let h: Harness;
let parent: string;
let token: string;

beforeAll(async () => {
  ({ h, realm: parent, token } = await firstCompanySession());
});

type Cell = { value: string; id?: string };
type Row = { ColData?: Cell[]; Rows?: { Row: Row[] }; Summary?: { ColData: Cell[] }; group?: string };
type Report = { Header: Record<string, unknown> & { Option: { Name: string; Value: string }[] }; Columns: unknown; Rows: { Row?: Row[] } };

async function report(path: string, realm = parent, t = token): Promise<{ status: number; body: Report & { Fault?: { Error: { code: string; Detail: string }[] } } }> {
  const res = await h.get(realm, `reports/${path}`, t);
  return { status: res.statusCode, body: res.json() };
}

function summary(r: Report, group: string): string[] {
  const find = (rows: readonly Row[]): Row | undefined => {
    for (const row of rows) {
      if (row.group === group) return row;
      const inner = row.Rows === undefined ? undefined : find(row.Rows.Row);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  return (find(r.Rows.Row ?? [])?.Summary?.ColData ?? []).slice(1).map((c) => c.value);
}

function accountValues(r: Report): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (rows: readonly Row[]): void => {
    for (const row of rows) {
      const id = row.ColData?.[0]?.id;
      if (id !== undefined) out.set(id, (row.ColData ?? []).slice(1).map((c) => c.value));
      if (row.Rows !== undefined) walk(row.Rows.Row);
    }
  };
  walk(r.Rows.Row ?? []);
  return out;
}

const cents = (v: string | undefined): number => Math.round(Number(v === undefined || v === "" ? "0" : v) * 100);
const YEAR = "start_date=2025-01-01&end_date=2025-12-31&summarize_column_by=Month";

describe("customer and vendor filters", () => {
  it("echo the filter in the Header after Currency, as the recorded report does, and keep the samples' shape", async () => {
    const pl = await report(`ProfitAndLoss?${YEAR}&customer=1`);
    expect(pl.status).toBe(200);
    expect(pl.body.Header["Customer"]).toBe("1");
    expect(Object.keys(pl.body.Header)).toEqual(["Time", "ReportName", "ReportBasis", "StartPeriod", "EndPeriod", "SummarizeColumnsBy", "Currency", "Customer", "Option"]);
    const samples = [sample("reports/BalanceSheet_2019_sandbox__shubuu97-pos-terminal-app.json"), sample("reports/ProfitAndLoss_2020_sandbox_byCustomers__minimul-qbo_api.json"), sample("minimul-qbo_api/reports__profit_and_loss__0.json")];
    expect(shapeProblems(pl.body, samples)).toEqual([]);
    const bs = await report(`BalanceSheet?${YEAR}&customer=2,1`);
    expect(bs.body.Header["Customer"]).toBe("2,1");
    expect(shapeProblems(bs.body, samples)).toEqual([]);
    const ukRealm = h.realms[1] as string;
    const ukToken = (await h.tokens(ukRealm)).access_token;
    const vendor = await report(`ProfitAndLoss?${YEAR}&vendor=1`, ukRealm, ukToken);
    expect(Object.keys(vendor.body.Header)).toEqual(["Time", "ReportName", "ReportBasis", "StartPeriod", "EndPeriod", "SummarizeColumnsBy", "Currency", "Vendor", "Option"]);
    expect(vendor.body.Header["Vendor"]).toBe("1");
    // The UK's P&L with the parent: management charges, loan interest; nothing else.
    const names = [...accountValues(vendor.body).keys()].map((id) => h.sandbox.ledger(ukRealm)?.account(id)?.name);
    expect(names.sort()).toEqual(["Loan Interest - Group", "Management Charges - Group"]);
  });

  it("with no matching line answer like the recorded filtered report: NoReportData true, the same empty rows", async () => {
    const recorded = sample("minimul-qbo_api/reports__profit_and_loss__0.json") as Report;
    // Trade customers (5) only ever appears on A/R: nothing of it reaches the P&L.
    const empty = await report("ProfitAndLoss?start_date=2025-01-01&end_date=2025-07-31&customer=5");
    expect(empty.body.Rows).toEqual(recorded.Rows);
    expect(empty.body.Header.Option).toEqual(recorded.Header.Option);
    const { Time: _t, SummarizeColumnsBy: _s, ...recordedHeader } = recorded.Header;
    const { Time: _t2, SummarizeColumnsBy: _s2, ...header } = empty.body.Header;
    expect(header).toEqual({ ...recordedHeader, StartPeriod: "2025-01-01", EndPeriod: "2025-07-31", Customer: "5" });
    // Before the group existed, the balance sheet for a subsidiary is empty too.
    const early = await report("BalanceSheet?start_date=2022-01-01&end_date=2022-12-31&customer=1");
    expect(early.body.Header.Option.find((o) => o.Name === "NoReportData")?.Value).toBe("true");
    // customer and vendor together: a line has one name, so nothing satisfies both.
    const both = await report(`ProfitAndLoss?${YEAR}&customer=1&vendor=6`);
    expect(both.body.Header).toMatchObject({ Customer: "1", Vendor: "6" });
    expect(both.body.Header.Option.find((o) => o.Name === "NoReportData")?.Value).toBe("true");
  });

  it("add up: customers 1,2 is customer 1 plus customer 2, and the receivable balances are the unfiltered ones", async () => {
    const one = await report(`ProfitAndLoss?${YEAR}&customer=1`);
    const two = await report(`ProfitAndLoss?${YEAR}&customer=2`);
    const both = await report(`ProfitAndLoss?${YEAR}&customer=1,2`);
    const net = (r: Report) => summary(r, "NetIncome").map(cents);
    expect(net(both.body)).toEqual(net(one.body).map((v, i) => v + (net(two.body)[i] ?? 0)));
    expect(net(one.body).every((v) => v !== 0)).toBe(true); // fees, interest, FX and dividends every month
    const all = accountValues((await report(`BalanceSheet?${YEAR}`)).body);
    const uk = accountValues((await report(`BalanceSheet?${YEAR}&customer=1`)).body);
    expect(uk.get("12")).toEqual(all.get("12")); // Intercompany Receivable - Northwind UK
    expect(uk.has("13")).toBe(false); // Intercompany Receivable - Northwind Canada
    const bs = (await report(`BalanceSheet?${YEAR}&customer=1`)).body;
    expect(summary(bs, "TotalAssets")).toEqual(summary(bs, "TotalLiabilitiesAndEquity")); // a filtered balance sheet still balances
  });

  it("refuse what is not a customer (or vendor) id of the company, and filters on reports the sandbox does not filter", async () => {
    for (const [query, param] of [
      ["customer=99", "customer"],
      ["customer=6", "customer"], // a vendor's id
      ["vendor=1", "vendor"], // a customer's id
      ["customer=abc", "customer"],
      ["customer=", "customer"],
      ["customer=1,,2", "customer"],
    ] as const) {
      const res = await report(`ProfitAndLoss?${YEAR}&${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.Fault?.Error[0], query).toMatchObject({ code: "2010", Detail: expect.stringContaining(`Property Name:${param} `) });
    }
    for (const name of ["TrialBalance", "GeneralLedger", "TransactionList"]) {
      const res = await report(`${name}?start_date=2025-01-01&end_date=2025-01-31&customer=1`);
      expect(res.body.Fault?.Error[0], name).toMatchObject({ code: "2010", Detail: expect.stringContaining("Property Name:customer ") });
    }
    // An inactive customer still has history to report.
    await h.post(parent, "customer", token, { Id: "3", SyncToken: "0", sparse: true, Active: false });
    expect((await report(`BalanceSheet?${YEAR}&customer=3`)).status).toBe(200);
  });
});

describe("class filter", () => {
  it("keeps only the lines carrying one of the classes, echoes it in the Header, and refuses an unknown class", async () => {
    const klass = (await h.post(parent, "class", token, { Name: "Filter test class" })).json() as { Class: { Id: string } };
    const classId = klass.Class.Id;
    const accounts = accountValues((await report(`BalanceSheet?${YEAR}`)).body);
    const [cash] = [...accounts.keys()];
    const line = (PostingType: string, AccountRef: string, ClassRef?: string) => ({
      Amount: 123.45,
      DetailType: "JournalEntryLineDetail",
      JournalEntryLineDetail: { PostingType, AccountRef: { value: AccountRef }, ...(ClassRef ? { ClassRef: { value: ClassRef } } : {}) },
    });
    // Retained-earnings side unclassed, cash side classed: the class's own view sees only cash.
    const re = [...accounts.keys()].find((id) => h.sandbox.ledger(parent)?.account(id)?.type === "Equity")!;
    const posted = await h.post(parent, "journalentry", token, { TxnDate: "2025-06-15", Line: [line("Debit", cash!, classId), line("Credit", re)] });
    expect(posted.statusCode, posted.body).toBe(200);
    const filtered = await report(`BalanceSheet?${YEAR}&class=${classId}`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.Header["Class"]).toBe(classId);
    const values = accountValues(filtered.body);
    expect([...values.keys()]).toEqual([cash]);
    expect(values.get(cash!)!.map(cents)).toEqual(["2025-01", "2025-02", "2025-03", "2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12"].map((m) => (m >= "2025-06" ? 12_345 : 0)));
    const bad = await report(`BalanceSheet?${YEAR}&class=99999`);
    expect(bad.status).toBe(400);
    expect(bad.body.Fault?.Error[0]).toMatchObject({ code: "2010", Detail: expect.stringContaining("Property Name:class ") });
  });
});

describe("an inactive account in reports", () => {
  it("is named '<name> (deleted)' in every report's rows, as QuickBooks names it everywhere (deactivate__account__0)", async () => {
    // The parent's Miscellaneous Expense was used through 2023 and then made inactive.
    const year = "start_date=2023-01-01&end_date=2023-12-31";
    const shown = "Miscellaneous Expense (deleted)";
    for (const name of ["ProfitAndLoss", "TrialBalance", "GeneralLedger"]) {
      const text = JSON.stringify((await report(`${name}?${year}`)).body);
      expect(text, name).toMatch(new RegExp(`\\{"value":"${shown.replace(/[()]/g, "\\$&")}","id":"\\d+"\\}`));
      // Its plain name is never a cell that names the account (the GL's memos may still say it).
      expect(text, name).not.toMatch(/\{"value":"Miscellaneous Expense","id":/);
    }
    expect(JSON.stringify((await report(`GeneralLedger?${year}`)).body)).toContain(`"Total for ${shown}"`);
  });
});
