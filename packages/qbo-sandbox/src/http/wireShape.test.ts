/** Every response kind the emulator emits, compared structurally with the recorded samples. */
import { beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { firstCompanySession, q } from "../testing/harness.ts";
import { missingPaths, sample, shapeProblems } from "../testing/shape.ts";

let h: Harness;
let parent: string;
let token: string;

beforeAll(async () => {
  ({ h, realm: parent, token } = await firstCompanySession());
});

const API_HEADERS = ["date", "content-type", "strict-transport-security", "intuit_tid", "x-spanid", "x-amzn-trace-id", "qbo-version", "service-time", "expires", "cache-control"];

async function body(path: string): Promise<unknown> {
  const res = await h.get(parent, path, token);
  expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200);
  for (const name of API_HEADERS) expect(res.headers[name], `${path} ${name}`).toBeDefined();
  expect(res.headers["content-type"]).toBe("application/json;charset=utf-8");
  return res.json();
}

describe("entity and query responses have the samples' shape", () => {
  it("query envelope (Account page, empty page, COUNT)", async () => {
    const page = await body(q("SELECT * FROM Account MAXRESULTS 3"));
    expect(shapeProblems(page, [sample("entities/Account_QueryResponse__intuit-docs-example__abossenbroek-qbo-mcp.json")], { extra: ["QueryResponse.Account[].AcctNum"], checkOrder: false })).toEqual([]);
    expect(shapeProblems(page, [sample("minimul-qbo_api/all__vendors_by_5__6.json")], { extra: ["QueryResponse.Account"] })).toEqual([]);
    expect(Object.keys(page as object)).toEqual(["QueryResponse", "time"]);
    expect(await body(q("SELECT * FROM Account STARTPOSITION 5000"))).toEqual({ ...(sample("minimul-qbo_api/all__alt_select__4.json") as object), time: expect.any(String) });
    const count = await body(q("SELECT COUNT(*) FROM Account"));
    expect(shapeProblems(count, [sample("minimul-qbo_api/all__customers__0.json")])).toEqual([]);
  });

  it("Account read matches the recorded account", async () => {
    const account = await body("account/1");
    expect(shapeProblems(account, [sample("minimul-qbo_api/deactivate__account__0.json")], { extra: ["Account.AcctNum"] })).toEqual([]);
    expect(missingPaths(account, sample("minimul-qbo_api/deactivate__account__0.json"), ["Account.Classification", "Account.MetaData.CreateTime", "Account.CurrencyRef.value", "time"])).toEqual([]);
  });

  it("CompanyInfo and Preferences", async () => {
    const info = (await body(`companyinfo/${parent}`)) as { CompanyInfo: unknown };
    expect(shapeProblems(info.CompanyInfo, [sample("entities/CompanyInfo__fylein-fyle-qbo-api.json")], { checkOrder: true })).toEqual([]);
    const prefs = (await body("preferences")) as { Preferences: { AccountingInfoPrefs: unknown; CurrencyPrefs: unknown } };
    const docs = sample("entities/Preferences_read_response__intuit-docs-example__abossenbroek-qbo-mcp.json");
    expect(shapeProblems(prefs, [docs], { extra: ["Preferences.AccountingInfoPrefs"], checkOrder: false })).toEqual([]);
    const fragment = sample("entities/Preferences_AccountingInfoPrefs_fragment__fylein-fyle-qbo-api.json") as { AccountingInfoPrefs: unknown };
    expect(shapeProblems(prefs.Preferences.AccountingInfoPrefs, [fragment.AccountingInfoPrefs])).toEqual([]);
    expect(prefs.Preferences.CurrencyPrefs).toEqual({ MultiCurrencyEnabled: true, HomeCurrency: { value: "USD" } });
  });

  it("JournalEntry create and delete, like the recorded create and delete envelopes", async () => {
    const res = await h.post(parent, "journalentry?requestid=shape-1&minorversion=75", token, {
      TxnDate: "2026-10-15",
      DocNumber: "SHAPE-1",
      Line: [
        { DetailType: "JournalEntryLineDetail", Amount: 10, JournalEntryLineDetail: { PostingType: "Debit", Entity: { Type: "Customer", EntityRef: { value: "5" } }, AccountRef: { value: "6" } } },
        { DetailType: "JournalEntryLineDetail", Amount: 10, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "1" } } },
      ],
    });
    expect(res.statusCode).toBe(200);
    const created = res.json() as { JournalEntry: Record<string, unknown> };
    const invoice = sample("minimul-qbo_api/create__invoice__0.json") as { Invoice: Record<string, unknown> };
    expect(Object.keys(created)).toEqual(["JournalEntry", "time"]);
    expect(Object.keys(invoice)).toEqual(["Invoice", "time"]);
    for (const key of ["domain", "sparse", "Id", "SyncToken", "MetaData", "DocNumber", "TxnDate", "CurrencyRef", "TxnTaxDetail", "TotalAmt"]) {
      expect(typeof created.JournalEntry[key], key).toBe(typeof invoice.Invoice[key]);
    }
    expect(shapeProblems({ MetaData: created.JournalEntry["MetaData"] }, [{ MetaData: invoice.Invoice["MetaData"] }])).toEqual([]);
    const deleted = await h.post(parent, "journalentry?operation=delete", token, { Id: created.JournalEntry["Id"], SyncToken: "0" });
    expect(shapeProblems(deleted.json(), [sample("minimul-qbo_api/delete__invoice__1.json")], { extra: ["JournalEntry"] })).toEqual([]);
    const expected = sample("minimul-qbo_api/delete__invoice__1.json") as { Invoice: object };
    expect(Object.keys((deleted.json() as { JournalEntry: object }).JournalEntry)).toEqual(Object.keys(expected.Invoice));
  });

  it("CDC", async () => {
    const cdc = await body("cdc?entities=Account,JournalEntry&changedSince=2026-10-15T00:00:00-07:00");
    expect(shapeProblems(cdc, [sample("minimul-qbo_api/cdc__basic__0.json")], { extra: ["CDCResponse[].QueryResponse[].Account", "CDCResponse[].QueryResponse[].JournalEntry"] })).toEqual([]);
  });
});

describe("reports have the samples' shape", () => {
  const bsSamples = () => [sample("reports/BalanceSheet_2019_sandbox__shubuu97-pos-terminal-app.json")];

  it("BalanceSheet (Total and by Month)", async () => {
    const bs = await body("reports/BalanceSheet?start_date=2025-01-01&end_date=2025-12-31&accounting_method=Accrual");
    expect(shapeProblems(bs, bsSamples())).toEqual([]);
    expect(missingPaths(bs, bsSamples()[0], ["Header.SummarizeColumnsBy", "Rows.Row[].Header.ColData[].value", "Rows.Row[].Summary.ColData[].value", "Rows.Row[].group", "Columns.Column[].MetaData[].Name"])).toEqual([]);
    const monthly = await body("reports/BalanceSheet?start_date=2025-01-01&end_date=2025-12-31&summarize_column_by=Month");
    expect(shapeProblems(monthly, bsSamples())).toEqual([]);
    const groups = JSON.stringify(bs).match(/"group":"\w+"/g) ?? [];
    for (const g of ["TotalAssets", "CurrentAssets", "BankAccounts", "AR", "OtherCurrentAssets", "FixedAssets", "OtherAssets", "TotalLiabilitiesAndEquity", "Liabilities", "CurrentLiabilities", "AP", "CreditCards", "OtherCurrentLiabilities", "LongTermLiabilities", "Equity", "NetIncome"]) {
      expect(groups, g).toContain(`"group":"${g}"`);
    }
  });

  it("ProfitAndLoss with data and NoReportData", async () => {
    const pl = await body("reports/ProfitAndLoss?start_date=2025-01-01&end_date=2025-12-31&summarize_column_by=Quarter");
    const samples = [...bsSamples(), sample("reports/ProfitAndLoss_2020_sandbox_byCustomers__minimul-qbo_api.json")];
    expect(shapeProblems(pl, samples, { extra: ["Header.Customer"] })).toEqual([]);
    const groups = (pl as { Rows: { Row: { group: string }[] } }).Rows.Row.map((r) => r.group);
    expect(groups).toEqual(["Income", "COGS", "GrossProfit", "Expenses", "NetOperatingIncome", "OtherIncome", "OtherExpenses", "NetOtherIncome", "NetIncome"]);
    const empty = (await body("reports/ProfitAndLoss?start_date=2015-01-01&end_date=2015-07-31")) as Record<string, unknown>;
    const recorded = sample("minimul-qbo_api/reports__profit_and_loss__0.json") as Record<string, unknown>;
    expect(empty["Rows"]).toEqual(recorded["Rows"]);
    const { Time: _t, SummarizeColumnsBy: _s, Customer: _c, ...recordedHeader } = recorded["Header"] as Record<string, unknown>;
    const { Time: _t2, SummarizeColumnsBy: _s2, ...header } = empty["Header"] as Record<string, unknown>;
    expect(header).toEqual(recordedHeader);
  });

  it("TrialBalance: Data rows without type, Debit/Credit columns, GrandTotal", async () => {
    const tb = (await body("reports/TrialBalance?start_date=2025-12-01&end_date=2025-12-31")) as { Rows: { Row: Record<string, unknown>[] }; Columns: unknown };
    expect(shapeProblems(tb, [sample("reports/TrialBalance__intuit-docs-example.json")], { checkOrder: false })).toEqual([]);
    expect(tb.Columns).toEqual((sample("reports/TrialBalance__intuit-docs-example.json") as { Columns: unknown }).Columns);
    expect(tb.Rows.Row.at(-1)).toMatchObject({ group: "GrandTotal", type: "Section" });
    expect(tb.Rows.Row.slice(0, -1).every((r) => !("type" in r))).toBe(true);
  });

  it("GeneralLedger and TransactionList", async () => {
    const gl = await body("reports/GeneralLedger?start_date=2025-03-01&end_date=2025-03-31");
    expect(shapeProblems(gl, [sample("reports/GeneralLedger_2020_sandbox_no-minorversion__minimul-qbo_api.json")])).toEqual([]);
    const tl = (await body("reports/TransactionList?start_date=2025-03-01&end_date=2025-03-31")) as { Rows: { Row: unknown[] } };
    expect(shapeProblems(tl, [sample("reports/GeneralLedger_2020_sandbox_no-minorversion__minimul-qbo_api.json")])).toEqual([]);
    expect(tl.Rows.Row.length).toBeGreaterThan(20);
  });
});

describe("errors have the samples' shape and bytes", () => {
  it("4001 invalid query is the recorded body except for time", async () => {
    const res = await h.get(parent, q("SELECT * FROM Custmoer"), token);
    expect(res.statusCode).toBe(400);
    const { time, ...rest } = res.json() as { time: string };
    const recorded = (sample("errors/400_ValidationFault_4001_invalid_query__minimul-qbo_api.json") as { body: { Fault: unknown } }).body;
    expect(rest).toEqual({ Fault: recorded.Fault });
    expect(res.body.length).toBe(JSON.stringify(recorded).length);
    expect(time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-0[78]:00$/);
    expect(res.headers["intuit_tid"]).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
  });

  it("6240 duplicate class name is the recorded body except for time", async () => {
    const res = await h.post(parent, "class", token, { Name: "Wholesale" });
    expect(res.statusCode).toBe(400);
    const recorded = (sample("errors/400_ValidationFault_6240_duplicate_name__minimul-qbo_api.json") as { body: { Fault: unknown } }).body;
    expect((res.json() as { Fault: unknown }).Fault).toEqual(recorded.Fault);
  });

  it("an unknown path answers the recorded Unsupported Operation fault", async () => {
    const res = await h.get(parent, "customer/1/5", token);
    expect(res.statusCode).toBe(400);
    expect((res.json() as { Fault: { Error: { code: string; Message: string }[] } }).Fault.Error[0]).toMatchObject({ code: "500", Message: "Unsupported Operation" });
  });
});
