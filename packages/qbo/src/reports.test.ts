import { describe, expect, it } from "vitest";
import { QboError } from "./errors.ts";
import { balancesByAccount, moneyColumns, parseReport, type Report, type ReportRow } from "./reports.ts";
import { listSamples, readExchange, readSample } from "./testing/samples.ts";

const TB = "reports/TrialBalance__intuit-docs-example.json";
const BS_DOCS = "reports/BalanceSheet__intuit-docs-example__abossenbroek-qbo-mcp.json";
const BS_2019 = "reports/BalanceSheet_2019_sandbox__shubuu97-pos-terminal-app.json";
const GL = "reports/GeneralLedger_2020_sandbox_no-minorversion__minimul-qbo_api.json";
const PL = "reports/ProfitAndLoss_2020_sandbox_byCustomers__minimul-qbo_api.json";
const GL_EXCHANGE = "minimul-qbo_api/reports__gl__0.json";
const PL_EXCHANGE = "minimul-qbo_api/reports__profit_and_loss__0.json";

/** Every report body on disk, with the file it came from. */
const REPORT_FILES = [...listSamples("reports"), ...listSamples("minimul-qbo_api", (n) => n.startsWith("reports__"))];

function load(rel: string): Report {
  const json = rel.startsWith("minimul-qbo_api/") ? readExchange(rel).response.body_json : readSample(rel);
  return parseReport(json);
}

const byKind = (report: Report, kind: ReportRow["kind"]): ReportRow[] => report.rows.filter((r) => r.kind === kind);
const row = (report: Report, name: string, kind: ReportRow["kind"] = "data"): ReportRow => {
  const found = report.rows.filter((r) => r.kind === kind && r.accountName === name);
  expect(found, `${kind} row "${name}"`).toHaveLength(1);
  return found[0] as ReportRow;
};

describe("parseReport on every report sample", () => {
  it("covers exactly the samples named below (a new sample needs its own assertions)", () => {
    expect([...REPORT_FILES].sort()).toEqual([BS_2019, BS_DOCS, GL, PL, TB, GL_EXCHANGE, PL_EXCHANGE].sort());
  });

  it("TrialBalance: data rows without `type`, Debit/Credit columns, a GrandTotal section with only a Summary", () => {
    const r = load(TB);
    expect(r.name).toBe("TrialBalance");
    expect(r.currency).toBe("USD");
    expect([r.startPeriod, r.endPeriod, r.basis]).toEqual(["2016-03-01", "2016-03-14", "Accrual"]);
    expect(r.columns.map((c) => [c.title, c.type, c.money, c.key])).toEqual([
      ["", "Account", false, undefined],
      ["Debit", "Money", true, undefined],
      ["Credit", "Money", true, undefined],
    ]);
    expect(byKind(r, "data")).toHaveLength(3);
    expect(row(r, "Checking")).toMatchObject({ accountId: "35", amounts: [null, 415174, null], depth: 0, path: [], group: undefined });
    expect(row(r, "Meals and Entertainment").amounts).toEqual([null, null, 4600]);
    expect(row(r, "QuickBooks Payments Fees").amounts).toEqual([null, 44, null]);
    const total = row(r, "TOTAL", "summary");
    expect(total).toMatchObject({ group: "GrandTotal", accountId: undefined, amounts: [null, 3658747, 3658747] });
    expect(byKind(r, "header")).toHaveLength(0);
    // debit − credit, one signed number per account
    expect(balancesByAccount(r)).toEqual(
      new Map([
        ["35", [415174]],
        ["13", [-4600]],
        ["93", [44]],
      ]),
    );
  });

  for (const [file, expected] of [
    [BS_DOCS, { checking: 135055, ar: 638312, retained: 9125, netIncome: 244027, total: 2474244, bankTotal: 215055, start: "2016-01-01", end: "2016-10-31" }],
    [BS_2019, { checking: 120100, ar: 528152, retained: 167646, netIncome: -3400, total: 2343629, bankTotal: 200100, start: "2019-01-01", end: "2019-02-01" }],
  ] as const) {
    it(`BalanceSheet ${file}: nested sections with groups, summaries, a parent-account header and a Net Income row`, () => {
      const r = load(file);
      expect(r.name).toBe("BalanceSheet");
      expect([r.startPeriod, r.endPeriod, r.summarizeColumnsBy]).toEqual([expected.start, expected.end, "Total"]);
      expect(r.options).toEqual({ AccountingStandard: "GAAP", NoReportData: "false" });
      expect(r.columns.map((c) => [c.type, c.money, c.key])).toEqual([
        ["Account", false, "account"],
        ["Money", true, "total"],
      ]);
      expect([byKind(r, "data").length, byKind(r, "header").length, byKind(r, "summary").length]).toEqual([15, 15, 15]);

      expect(row(r, "Checking")).toMatchObject({
        accountId: "35",
        group: "BankAccounts",
        depth: 3,
        path: ["ASSETS", "Current Assets", "Bank Accounts"],
        amounts: [null, expected.checking],
      });
      expect(row(r, "Accounts Receivable (A/R)")).toMatchObject({ accountId: "84", group: "AR", amounts: [null, expected.ar] });
      expect(row(r, "Accounts Payable (A/P)")).toMatchObject({ group: "AP", depth: 4, path: ["LIABILITIES AND EQUITY", "Liabilities", "Current Liabilities", "Accounts Payable"] });
      expect(row(r, "Opening Balance Equity").amounts).toEqual([null, -933750]);
      expect(row(r, "Retained Earnings")).toMatchObject({ accountId: "2", group: "Equity", amounts: [null, expected.retained] });
      // A data row with a group of its own and no account.
      expect(row(r, "Net Income")).toMatchObject({ accountId: undefined, group: "NetIncome", amounts: [null, expected.netIncome] });
      // A parent account with sub-accounts is a section header carrying the account id.
      expect(row(r, "Truck", "header")).toMatchObject({ accountId: "37", group: "FixedAssets", depth: 2, amounts: [null, null] });
      expect(row(r, "Original Cost")).toMatchObject({ accountId: "38", sectionAccountId: "37", amounts: [null, 1349500] });
      expect(row(r, "Total Bank Accounts", "summary")).toMatchObject({ group: "BankAccounts", depth: 2, amounts: [null, expected.bankTotal] });
      expect(row(r, "TOTAL ASSETS", "summary")).toMatchObject({ group: "TotalAssets", depth: 0, amounts: [null, expected.total] });
      expect(row(r, "TOTAL LIABILITIES AND EQUITY", "summary").amounts).toEqual([null, expected.total]);

      const sectionGroups = [...new Set(r.rows.filter((x) => x.kind === "summary").map((x) => x.group))];
      expect(sectionGroups).toEqual([
        "BankAccounts",
        "AR",
        "OtherCurrentAssets",
        "CurrentAssets",
        "FixedAssets",
        "TotalAssets",
        "AP",
        "CreditCards",
        "OtherCurrentLiabilities",
        "CurrentLiabilities",
        "LongTermLiabilities",
        "Liabilities",
        "Equity",
        "TotalLiabilitiesAndEquity",
      ]);

      // Every summary is the exact sum of the data rows inside its section: no cent lost in parsing.
      for (const summary of byKind(r, "summary")) {
        const index = r.rows.indexOf(summary);
        const header = r.rows.slice(0, index).reverse().find((x) => x.kind === "header" && x.depth === summary.depth);
        const inside = r.rows.filter(
          (x) => x.kind === "data" && header !== undefined && x.path.length > summary.depth && x.path.slice(0, summary.depth + 1).join("/") === [...summary.path, header.accountName].join("/"),
        );
        expect(inside.reduce((sum, x) => sum + (x.amounts[1] ?? 0), 0), summary.accountName).toBe(summary.amounts[1]);
      }

      const balances = balancesByAccount(r);
      expect(balances.size).toBe(14); // 15 data rows less Net Income, which is no account
      expect(balances.get("38")).toEqual([1349500]);
      expect(balances.has("37")).toBe(false); // a header, its balance is its sub-accounts'
    });
  }

  for (const file of [GL, GL_EXCHANGE]) {
    it(`GeneralLedger ${file}: one section per account, lines carry the section's account`, () => {
      const r = load(file);
      expect(r.name).toBe("GeneralLedger");
      expect(r.columns.map((c) => c.type)).toEqual(["tx_date", "txn_type", "doc_num", "name", "memo", "split_acc", "subt_nat_amount", "rbal_nat_amount"]);
      expect(moneyColumns(r).map((c) => c.title)).toEqual(["Amount", "Balance"]);
      expect(byKind(r, "header")).toHaveLength(19); // 17 accounts + 2 sub-account sections without ids
      expect(byKind(r, "data")).toHaveLength(21);
      const ar = r.rows.filter((x) => x.kind === "data" && x.sectionAccountId === "84");
      expect(ar.map((x) => [x.accountName, x.amounts[6], x.amounts[7]])).toEqual([
        ["Beginning Balance", null, 500402],
        ["2020-09-29", 10000, 510402],
        ["2020-09-29", 10000, 520402],
      ]);
      expect(ar[1]?.cells[1]).toEqual({ value: "Invoice", id: "264" });
      expect(ar[1]?.cells[5]).toEqual({ value: "Services", id: "1" });
      // An empty `id` is no id.
      const receipt = r.rows.find((x) => x.sectionAccountId === "4" && x.cells[1]?.value === "Sales Receipt");
      expect(receipt?.cells[3]).toEqual({ value: "", id: undefined });
      expect(row(r, "Total for Accounts Receivable (A/R)", "summary").amounts[6]).toBe(20000);
      expect(row(r, "Total for Checking", "summary").amounts).toEqual([null, null, null, null, null, null, null, null]);
      // Sub-account sections (no id of their own) keep the parent's account.
      const telephone = r.rows.find((x) => x.kind === "data" && x.path.includes("Telephone"));
      expect(telephone).toMatchObject({ sectionAccountId: "77", depth: 2, amounts: [null, null, null, null, null, null, null, 52052] });
      // No data row names an account in its first cell: balancesByAccount has nothing to say.
      expect(balancesByAccount(r).size).toBe(0);
    });
  }

  for (const file of [PL, PL_EXCHANGE]) {
    it(`ProfitAndLoss ${file}: NoReportData=true gives no rows, columns still read`, () => {
      const r = load(file);
      expect(r.name).toBe("ProfitAndLoss");
      expect(r.noReportData).toBe(true);
      expect(r.summarizeColumnsBy).toBe("Customers");
      expect(r.rows).toEqual([]);
      expect(r.columns.map((c) => [c.title, c.key, c.money])).toEqual([
        ["", "account", false],
        ["TOTAL", "total", true],
      ]);
      expect(balancesByAccount(r).size).toBe(0);
    });
  }
});

describe("parseReport on shapes the samples do not show", () => {
  const header = { ReportName: "ProfitAndLoss", Currency: "USD", SummarizeColumnsBy: "Month", Option: [{ Name: "NoReportData", Value: "false" }] };
  const monthColumns = {
    Column: [
      { ColTitle: "", ColType: "Account", MetaData: [{ Name: "ColKey", Value: "account" }] },
      { ColTitle: "Jan 2024", ColType: "Money", MetaData: [{ Name: "StartDate", Value: "2024-01-01" }, { Name: "EndDate", Value: "2024-01-31" }, { Name: "ColKey", Value: "Jan 2024" }] },
      { ColTitle: "Feb 2024", ColType: "Money", MetaData: [{ Name: "StartDate", Value: "2024-02-01" }, { Name: "EndDate", Value: "2024-02-29" }, { Name: "ColKey", Value: "Feb 2024" }] },
      { ColTitle: "Total", ColType: "Money", MetaData: [{ Name: "ColKey", Value: "total" }] },
    ],
  };

  it("reads month columns' dates, Sections with only a Header, missing Rows and empty cells", () => {
    const r = parseReport({
      Header: header,
      Columns: monthColumns,
      Rows: {
        Row: [
          {
            Header: { ColData: [{ value: "Income" }, { value: "" }, { value: "" }, { value: "" }] },
            Rows: { Row: [{ ColData: [{ value: "Sales", id: "7" }, { value: "100.10" }, { value: "" }, { value: "100.10" }], type: "Data" }] },
            Summary: { ColData: [{ value: "Total Income" }, { value: "100.10" }, { value: "" }, { value: "100.10" }] },
            type: "Section",
            group: "Income",
          },
          { Header: { ColData: [{ value: "Other Income" }] }, type: "Section", group: "OtherIncome" },
          { type: "Section", group: "Empty" },
        ],
      },
    });
    expect(r.columns.map((c) => [c.key, c.startDate, c.endDate])).toEqual([
      ["account", undefined, undefined],
      ["Jan 2024", "2024-01-01", "2024-01-31"],
      ["Feb 2024", "2024-02-01", "2024-02-29"],
      ["total", undefined, undefined],
    ]);
    expect(r.rows.map((x) => [x.kind, x.accountName, x.group])).toEqual([
      ["header", "Income", "Income"],
      ["data", "Sales", "Income"],
      ["summary", "Total Income", "Income"],
      ["header", "Other Income", "OtherIncome"],
    ]);
    expect(r.rows[3]?.amounts).toEqual([null, null, null, null]); // a short ColData is empty cells
    expect(balancesByAccount(r).get("7")).toEqual([10010, 0, 10010]);
  });

  it("uses the report currency's exponent and rejects more decimals than it has", () => {
    const jpy = (value: string): unknown => ({
      Header: { ReportName: "TrialBalance", Currency: "JPY" },
      Columns: { Column: [{ ColType: "Account" }, { ColTitle: "Debit", ColType: "Money" }, { ColTitle: "Credit", ColType: "Money" }] },
      Rows: { Row: [{ ColData: [{ value: "Cash", id: "1" }, { value }, { value: "" }] }] },
    });
    expect(balancesByAccount(parseReport(jpy("15000"))).get("1")).toEqual([15000]);
    expect(() => parseReport(jpy("150.5"))).toThrow(QboError);
    expect(() => parseReport(jpy("n/a"))).toThrow(/not an amount/);
  });

  it("throws an 'unexpected response' QboError for a body that is not a report", () => {
    for (const body of [null, {}, { Header: {} }, { Header: { ReportName: "X" }, Rows: { Row: "nope" } }]) {
      let caught: unknown;
      try {
        parseReport(body);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(QboError);
      expect((caught as QboError).code).toBe("unexpected_response");
    }
  });

  it("refuses a TrialBalance without Debit/Credit columns in balancesByAccount", () => {
    const r = parseReport({ Header: { ReportName: "TrialBalance" }, Columns: { Column: [{ ColType: "Account" }, { ColTitle: "Total", ColType: "Money" }] } });
    expect(() => balancesByAccount(r)).toThrow(/Debit and Credit/);
  });
});
