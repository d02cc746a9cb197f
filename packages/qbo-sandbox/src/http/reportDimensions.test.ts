/**
 * Issue #20 item 4: the `department` (location) filter, summarize_column_by Classes/Departments/
 * Customers on BalanceSheet and ProfitAndLoss, and the filters the emulator does not implement
 * refused (2010, as Intuit refuses an invalid parameter: errors/400_ValidationFault_2010...) rather
 * than answered with unfiltered figures. The by-customer layout is that of the recording
 * reports/ProfitAndLoss_2020_sandbox_byCustomers__minimul-qbo_api.json.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { firstCompanySession, q } from "../testing/harness.ts";
import { sample } from "../testing/shape.ts";

let h: Harness;
let parent: string;
let token: string;
let cash: string;
let income: string;
let classId: string;
let deptA: string;
let deptB: string;
/** The demo's own figures in June at each location and in each class (demo/segments.ts tags its P&L lines), before the test's sales. */
let before: { atA: Map<string, number[]>; both: Map<string, number[]>; byDept: Report; bsByClass: Report; bsAtB: Map<string, number[]> };

type Cell = { value: string; id?: string };
type Row = { ColData?: Cell[]; Rows?: { Row: Row[] }; Summary?: { ColData: Cell[] }; Header?: { ColData: Cell[] }; group?: string };
type Column = { ColTitle: string; ColType: string; MetaData?: { Name: string; Value: string }[] };
type Report = { Header: Record<string, unknown>; Columns: { Column: Column[] }; Rows: { Row?: Row[] }; Fault?: { Error: { code: string; Message: string; Detail: string }[]; type: string } };

async function report(path: string): Promise<{ status: number; body: Report }> {
  const res = await h.get(parent, `reports/${path}`, token);
  return { status: res.statusCode, body: res.json() };
}

const cents = (v: string | undefined): number => Math.round(Number(v === undefined || v === "" ? "0" : v) * 100);

/** Every row with figures (data rows and section summaries), as label → cents per money column. */
function figures(r: Report): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const walk = (rows: readonly Row[], path: string): void => {
    for (const row of rows) {
      const cellsOf = row.ColData ?? row.Summary?.ColData;
      if (row.ColData !== undefined) out.set(`${path}/${row.ColData[0]?.id ?? row.ColData[0]?.value}`, row.ColData.slice(1).map((c) => cents(c.value)));
      const title = row.Header?.ColData[0]?.value ?? row.group ?? "";
      if (row.Rows !== undefined) walk(row.Rows.Row, `${path}/${title}`);
      if (row.Summary !== undefined && cellsOf !== undefined) out.set(`${path}/${row.group ?? title}:summary`, row.Summary.ColData.slice(1).map((c) => cents(c.value)));
    }
  };
  walk(r.Rows.Row ?? [], "");
  return out;
}

function line(PostingType: "Debit" | "Credit", account: string, amount: number, refs: { classId?: string; dept?: string } = {}) {
  return {
    Amount: amount,
    DetailType: "JournalEntryLineDetail",
    JournalEntryLineDetail: {
      PostingType,
      AccountRef: { value: account },
      ...(refs.classId === undefined ? {} : { ClassRef: { value: refs.classId } }),
      ...(refs.dept === undefined ? {} : { DepartmentRef: { value: refs.dept } }),
    },
  };
}

beforeAll(async () => {
  ({ h, realm: parent, token } = await firstCompanySession());
  const ledger = h.sandbox.ledger(parent)!;
  cash = ledger.accounts.find((a) => a.type === "Bank" && a.active)!.id;
  income = ledger.accounts.find((a) => a.type === "Income" && a.active)!.id;
  const depts = (await h.get(parent, q("SELECT * FROM Department"), token)).json() as { QueryResponse: { Department: { Id: string }[] } };
  [deptA, deptB] = depts.QueryResponse.Department.map((d) => d.Id) as [string, string];
  classId = ((await h.post(parent, "class", token, { Name: "Dimension test class" })).json() as { Class: { Id: string } }).Class.Id;
  before = {
    atA: figures((await report(`ProfitAndLoss?${JUNE}&department=${deptA}`)).body),
    both: figures((await report(`ProfitAndLoss?${JUNE}&department=${deptA},${deptB}`)).body),
    byDept: (await report(`ProfitAndLoss?${JUNE}&summarize_column_by=Departments`)).body,
    bsByClass: (await report(`BalanceSheet?${JUNE}&summarize_column_by=Classes`)).body,
    // The demo carries an entry's one location to its bank line (demo/segments.ts): location B's cash before the test's sale.
    bsAtB: figures((await report(`BalanceSheet?${JUNE}&department=${deptB}`)).body),
  };
  // A sale of 100.00 at location A, another of 50.00 at location B in the test class (June 2026:
  // the demo's activity ends in 2026-10, so the month also has unlocated, unclassed lines).
  for (const [amount, refs] of [[100, { dept: deptA }], [50, { dept: deptB, classId }]] as const) {
    const res = await h.post(parent, "journalentry", token, { TxnDate: "2026-06-15", Line: [line("Debit", cash, amount, refs), line("Credit", income, amount, refs)] });
    expect(res.statusCode, res.body).toBe(200);
  }
});

const JUNE = "start_date=2026-06-01&end_date=2026-06-30";

describe("department (location) filter", () => {
  it("keeps only the lines at those locations, echoes Department in the Header, and never answers unfiltered figures", async () => {
    const all = await report(`ProfitAndLoss?${JUNE}`);
    const atA = await report(`ProfitAndLoss?${JUNE}&department=${deptA}`);
    expect(atA.status).toBe(200);
    expect(atA.body.Header["Department"]).toBe(deptA);
    const f = figures(atA.body);
    const was = (m: Map<string, number[]>, key: string) => m.get(key)?.[0] ?? 0;
    expect(f.get(`/Income/${income}`)).toEqual([was(before.atA, `/Income/${income}`) + 10_000]);
    expect(f.get("/NetIncome:summary")).toEqual([was(before.atA, "/NetIncome:summary") + 10_000]);
    expect(figures(all.body).get("/NetIncome:summary")).not.toEqual(f.get("/NetIncome:summary"));
    const both = figures((await report(`ProfitAndLoss?${JUNE}&department=${deptA},${deptB}`)).body);
    expect(both.get("/NetIncome:summary")).toEqual([was(before.both, "/NetIncome:summary") + 15_000]);
    // On the BalanceSheet too: only the located cash, at its balance.
    const bs = figures((await report(`BalanceSheet?${JUNE}&department=${deptB}`)).body);
    expect(bs.get(`/ASSETS/Current Assets/Bank Accounts/${cash}`)).toEqual([was(before.bsAtB, `/ASSETS/Current Assets/Bank Accounts/${cash}`) + 5_000]);
  });

  it("refuses an id that is not a department of the company (2010 naming the parameter)", async () => {
    const bad = await report(`ProfitAndLoss?${JUNE}&department=99999`);
    expect(bad.status).toBe(400);
    expect(bad.body.Fault).toMatchObject({ type: "ValidationFault", Error: [{ code: "2010", Message: "Request has invalid or unsupported property", Detail: expect.stringContaining("Property Name:department ") }] });
  });
});

describe("filters the emulator does not implement are refused, not ignored", () => {
  for (const [reportName, param] of [
    ["ProfitAndLoss", "item"],
    ["ProfitAndLoss", "employee"],
    ["BalanceSheet", "item"],
    ["TrialBalance", "department"],
    ["TrialBalance", "employee"],
    ["TransactionList", "account"],
    ["ProfitAndLoss", "account"],
    ["GeneralLedger", "department"],
    ["TransactionList", "customer"],
  ] as const) {
    it(`${reportName}?${param}=1 → 400 2010 naming ${param}`, async () => {
      const res = await report(`${reportName}?${JUNE}&${param}=1`);
      expect(res.status).toBe(400);
      expect(res.body.Fault?.Error[0]).toMatchObject({ code: "2010", Detail: expect.stringContaining(`Property Name:${param} `) });
    });
  }

  it("TrialBalance, GeneralLedger and TransactionList refuse a column per class/department/customer", async () => {
    for (const name of ["TrialBalance", "GeneralLedger", "TransactionList"]) {
      const res = await report(`${name}?${JUNE}&summarize_column_by=Classes`);
      expect(res.status, name).toBe(400);
      expect(res.body.Fault?.Error[0]?.Detail).toContain("Property Name:summarize_column_by ");
    }
  });
});

describe("summarize_column_by Classes / Departments / Customers", () => {
  it("answers the recorded by-customer request with the recording's columns, header and rows (NoReportData)", async () => {
    const recorded = sample("minimul-qbo_api/reports__profit_and_loss__0.json") as Report;
    // The recorded request: reports/ProfitAndLoss?customer=1&end_date=2015-07-31&start_date=2015-01-01&summarize_column_by=Customers
    const res = await report("ProfitAndLoss?customer=1&end_date=2015-07-31&start_date=2015-01-01&summarize_column_by=Customers");
    expect(res.status).toBe(200);
    expect(res.body.Columns).toEqual(recorded.Columns);
    expect(res.body.Rows).toEqual(recorded.Rows);
    expect({ ...res.body.Header, Time: "" }).toEqual({ ...recorded.Header, Time: "" });
  });

  it("Departments: a column per location with lines, Not Specified for the rest, TOTAL = the unsummarized report", async () => {
    const r = await report(`ProfitAndLoss?${JUNE}&summarize_column_by=Departments`);
    expect(r.status).toBe(200);
    expect(r.body.Header["SummarizeColumnsBy"]).toBe("Departments");
    const ledger = h.sandbox.ledger(parent)!;
    const name = (id: string) => ledger.departments.find((d) => d.id === id)!.name;
    const expectedTitles = ["", ...[deptA, deptB].map(name).sort(), "Not Specified", "TOTAL"];
    expect(r.body.Columns.Column.map((c) => c.ColTitle)).toEqual(expectedTitles);
    expect(r.body.Columns.Column.at(-1)).toEqual({ ColTitle: "TOTAL", ColType: "Money", MetaData: [{ Name: "ColKey", Value: "total" }] });
    const colOf = (id: string) => r.body.Columns.Column.findIndex((c) => c.MetaData?.some((m) => m.Name === "ColKey" && m.Value === id)) - 1;
    const f = figures(r.body);
    const was = figures(before.byDept);
    const wasCol = (id: string) => before.byDept.Columns.Column.findIndex((c) => c.MetaData?.some((m) => m.Name === "ColKey" && m.Value === id)) - 1;
    const wasAt = (id: string) => (wasCol(id) < 0 ? 0 : (was.get(`/Income/${income}`)?.[wasCol(id)] ?? 0));
    expect(f.get(`/Income/${income}`)?.[colOf(deptA)]).toBe(wasAt(deptA) + 10_000);
    expect(f.get(`/Income/${income}`)?.[colOf(deptB)]).toBe(wasAt(deptB) + 5_000);
    const total = figures((await report(`ProfitAndLoss?${JUNE}`)).body);
    for (const [key, values] of f) {
      // Every row: the columns add up to TOTAL, and TOTAL is what the unsummarized report says.
      expect(values.slice(0, -1).reduce((a, b) => a + b, 0), key).toBe(values.at(-1));
      expect(values.at(-1), key).toBe(total.get(key)?.[0] ?? 0);
    }
  });

  it("Classes on the BalanceSheet: balances per class at the end date; TOTAL equals the unsummarized balance sheet", async () => {
    const r = await report(`BalanceSheet?${JUNE}&summarize_column_by=Classes`);
    expect(r.status).toBe(200);
    // The demo's classes (demo/segments.ts), the test's, by name, then Not Specified and TOTAL.
    const demoTitles = before.bsByClass.Columns.Column.map((c) => c.ColTitle).filter((t) => !["", "Not Specified", "TOTAL"].includes(t));
    expect(r.body.Columns.Column.map((c) => c.ColTitle)).toEqual(["", ...[...demoTitles, "Dimension test class"].sort(), "Not Specified", "TOTAL"]);
    const col = r.body.Columns.Column.findIndex((c) => c.ColTitle === "Dimension test class") - 1;
    const f = figures(r.body);
    expect(f.get(`/ASSETS/Current Assets/Bank Accounts/${cash}`)?.[col]).toBe(5_000);
    // The class's profit sits in its Net Income row; its assets equal its liabilities and equity.
    expect(f.get("/LIABILITIES AND EQUITY/Equity/Net Income")?.[col]).toBe(5_000);
    // (The demo tags only profit-and-loss lines, so its classes' columns hold profit with no assets.)
    for (const c of [col, -1]) expect(f.get("/TotalAssets:summary")?.at(c)).toBe(f.get("/TotalLiabilitiesAndEquity:summary")?.at(c));
    const total = figures((await report(`BalanceSheet?${JUNE}`)).body);
    for (const [key, values] of f) {
      expect(values.slice(0, -1).reduce((a, b) => a + b, 0), key).toBe(values.at(-1));
      expect(values.at(-1), key).toBe(total.get(key)?.[0] ?? 0);
    }
  });

  it("Customers on the parent's ProfitAndLoss: a column per subsidiary named on its lines, adding up to TOTAL", async () => {
    const r = await report("ProfitAndLoss?start_date=2025-01-01&end_date=2025-12-31&summarize_column_by=Customers");
    expect(r.status).toBe(200);
    const titles = r.body.Columns.Column.map((c) => c.ColTitle);
    expect(titles[0]).toBe("");
    expect(titles.at(-1)).toBe("TOTAL");
    expect(titles).toContain("Northwind UK Ltd");
    expect(titles).toContain("Not Specified");
    const ukKey = r.body.Columns.Column.find((c) => c.ColTitle === "Northwind UK Ltd")!.MetaData![0]!.Value;
    expect(h.sandbox.ledger(parent)!.party(ukKey)?.displayName).toBe("Northwind UK Ltd");
    const byUk = figures((await report(`ProfitAndLoss?start_date=2025-01-01&end_date=2025-12-31&customer=${ukKey}`)).body);
    const col = titles.indexOf("Northwind UK Ltd") - 1;
    const f = figures(r.body);
    expect(f.get("/NetIncome:summary")?.[col]).toBe(byUk.get("/NetIncome:summary")?.[0]);
    for (const [key, values] of f) expect(values.slice(0, -1).reduce((a, b) => a + b, 0), key).toBe(values.at(-1));
  });
});
