/**
 * Multicurrency (issue #20 item 2) against Intuit's API reference: the CompanyCurrency and
 * ExchangeRate pages' examples (key order of read, create, query and update answers, the
 * documented update rules), QuickBooks' help on which accounts take a foreign currency, and
 * GeneralLedger's multicurrency columns. No recording of these exists in ../shared/qbo-samples.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { harness, q, testClock } from "../testing/harness.ts";

let h: Harness;
let parent: string;
let uk: string;
let token: string;
let ukToken: string;

type Body = Record<string, unknown>;
type Fault = { Fault: { Error: { code: string; Detail: string }[]; type: string } };

/** Key order of Intuit's CompanyCurrency examples (read, create, query rows, update). */
const COMPANY_CURRENCY_KEYS = ["SyncToken", "domain", "Code", "Name", "sparse", "Active", "Id", "MetaData"];
/** Key order of Intuit's ExchangeRate read and update examples. */
const EXCHANGE_RATE_KEYS = ["SyncToken", "domain", "AsOfDate", "SourceCurrencyCode", "Rate", "sparse", "TargetCurrencyCode", "MetaData"];
/** Its query example's rows carry neither domain nor sparse. */
const EXCHANGE_RATE_QUERY_KEYS = ["SyncToken", "AsOfDate", "SourceCurrencyCode", "Rate", "TargetCurrencyCode", "MetaData"];

beforeEach(async () => {
  h = await harness({ now: testClock().now });
  [parent, uk] = h.realms as [string, string];
  token = (await h.tokens(parent)).access_token;
  ukToken = (await h.tokens(uk)).access_token;
});

function faultOf(res: { statusCode: number; json(): unknown }): { code: string; Detail: string } {
  expect(res.statusCode).toBe(400);
  return (res.json() as Fault).Fault.Error[0] as { code: string; Detail: string };
}

async function currencies(where = ""): Promise<Body[]> {
  const res = await h.get(parent, q(`select * from companycurrency ${where}`), token);
  expect(res.statusCode, res.body).toBe(200);
  return ((res.json() as { QueryResponse: { CompanyCurrency?: Body[] } }).QueryResponse.CompanyCurrency ?? []);
}

async function accountId(where: string): Promise<string> {
  const res = await h.get(parent, q(`SELECT * FROM Account WHERE ${where}`), token);
  return ((res.json() as { QueryResponse: { Account: { Id: string }[] } }).QueryResponse.Account[0] as { Id: string }).Id;
}

describe("CompanyCurrency", () => {
  it("lists the multicurrency parent's foreign currencies, never the home one, shaped like Intuit's query example", async () => {
    const rows = await currencies();
    expect(rows.map((r) => r["Code"]).sort()).toEqual(["CAD", "EUR", "GBP"]);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(COMPANY_CURRENCY_KEYS);
      expect(Object.keys(r["MetaData"] as Body)).toEqual(["CreateTime", "LastUpdatedTime"]);
    }
    expect(rows.find((r) => r["Code"] === "GBP")).toMatchObject({ Name: "British Pound Sterling", Active: true, SyncToken: "0", domain: "QBO", sparse: false });
    const read = await h.get(parent, `companycurrency/${String(rows[0]?.["Id"])}?minorversion=75`, token);
    expect(read.statusCode).toBe(200);
    expect(Object.keys(read.json() as Body)).toEqual(["CompanyCurrency", "time"]);
    expect((read.json() as { CompanyCurrency: Body }).CompanyCurrency).toEqual(rows[0]);
    expect(faultOf(await h.get(parent, "companycurrency/99", token)).code).toBe("610");
    // A company without multicurrency has none.
    const ukRows = await h.get(uk, q("select * from companycurrency"), ukToken);
    expect(ukRows.json()).toMatchObject({ QueryResponse: {} });
  });

  it("creates from Code as in Intuit's create example and refuses the home currency, a duplicate and a company without multicurrency", async () => {
    const res = await h.post(parent, "companycurrency?minorversion=75", token, { Code: "JPY" });
    expect(res.statusCode, res.body).toBe(200);
    const created = (res.json() as { CompanyCurrency: Body }).CompanyCurrency;
    expect(Object.keys(created)).toEqual(COMPANY_CURRENCY_KEYS);
    expect(created).toMatchObject({ SyncToken: "0", Code: "JPY", Name: "Japanese Yen", Active: true, Id: "4" });
    expect((await currencies()).map((r) => r["Code"])).toContain("JPY");

    expect(faultOf(await h.post(parent, "companycurrency", token, { Code: "GBP" })).code).toBe("6000");
    expect(faultOf(await h.post(parent, "companycurrency", token, { Code: "USD" })).code).toBe("6000");
    expect(faultOf(await h.post(parent, "companycurrency", token, { Code: "XX1" })).code).toBe("2010");
    expect(faultOf(await h.post(uk, "companycurrency", ukToken, { Code: "EUR" })).Detail).toContain("Multicurrency is not enabled");
    expect(faultOf(await h.post(parent, "companycurrency", token, { Code: "CHF", Symbol: "Fr" })).code).toBe("2010");
  });

  it("deletes by an update with Active false (Intuit's update example: SyncToken 0 → 1), hidden from default queries; stale → 5010", async () => {
    // The demo parent's GBP, CAD and EUR each hold an intercompany loan: a currency nothing uses.
    expect((await h.post(parent, "companycurrency", token, { Code: "CHF" })).statusCode).toBe(200);
    const [chf] = (await currencies("where Code = 'CHF'")) as [Body];
    const res = await h.post(parent, "companycurrency", token, { ...chf, Active: false });
    expect(res.statusCode, res.body).toBe(200);
    const updated = (res.json() as { CompanyCurrency: Body }).CompanyCurrency;
    expect(Object.keys(updated)).toEqual(COMPANY_CURRENCY_KEYS);
    expect(updated).toMatchObject({ SyncToken: "1", Active: false, Code: "CHF" });
    expect((await currencies()).map((r) => r["Code"])).not.toContain("CHF");
    expect((await currencies("where Active = false")).map((r) => r["Code"])).toEqual(["CHF"]);
    expect(faultOf(await h.post(parent, "companycurrency", token, { ...chf, Active: true })).code).toBe("5010");
    // Full update: Active left out is true again.
    const back = await h.post(parent, "companycurrency", token, { Id: chf["Id"], SyncToken: "1", Code: "CHF" });
    expect((back.json() as { CompanyCurrency: Body }).CompanyCurrency).toMatchObject({ Active: true, SyncToken: "2" });
  });

  it("will not turn off a currency an active account holds", async () => {
    const [gbp] = (await currencies("where Code = 'GBP'")) as [Body];
    expect(faultOf(await h.post(parent, "companycurrency", token, { ...gbp, Active: false })).Detail).toContain("used by an active account");
    await h.post(parent, "account", token, { Name: "Bank EUR", AccountType: "Bank", AccountSubType: "Checking", CurrencyRef: { value: "EUR" } });
    const [eur] = (await currencies("where Code = 'EUR'")) as [Body];
    expect(faultOf(await h.post(parent, "companycurrency", token, { ...eur, Active: false })).code).toBe("6000");
  });
});

describe("ExchangeRate", () => {
  it("reads the rate in force on a date, keys as in Intuit's read example", async () => {
    const res = await h.get(parent, "exchangerate?sourcecurrencycode=EUR&asofdate=2024-02-15&minorversion=75", token);
    expect(res.statusCode, res.body).toBe(200);
    const rate = (res.json() as { ExchangeRate: Body }).ExchangeRate;
    expect(Object.keys(rate)).toEqual(EXCHANGE_RATE_KEYS);
    expect(rate).toMatchObject({ AsOfDate: "2024-01-31", SourceCurrencyCode: "EUR", TargetCurrencyCode: "USD", SyncToken: "0" });
    expect(typeof rate["Rate"]).toBe("number");
  });

  it("answers a query by SourceCurrencyCode and AsOfDate with each currency's rate in force that day, as Intuit's query example does", async () => {
    const res = await h.get(parent, q("select * from exchangerate where sourcecurrencycode in ('EUR', 'GBP') and asofdate='2024-02-15'"), token);
    expect(res.statusCode, res.body).toBe(200);
    const rows = (res.json() as { QueryResponse: { ExchangeRate: Body[] } }).QueryResponse.ExchangeRate;
    expect(rows.map((r) => [r["SourceCurrencyCode"], r["AsOfDate"]]).sort()).toEqual([["EUR", "2024-01-31"], ["GBP", "2024-01-31"]]);
    for (const r of rows) expect(Object.keys(r)).toEqual(EXCHANGE_RATE_QUERY_KEYS);
    // Without AsOfDate: each currency's latest rate.
    const latest = await h.get(parent, q("select * from exchangerate"), token);
    const all = (latest.json() as { QueryResponse: { ExchangeRate: Body[] } }).QueryResponse.ExchangeRate;
    expect(all.map((r) => r["SourceCurrencyCode"]).sort()).toEqual(["CAD", "EUR", "GBP"]);
    expect(new Set(all.map((r) => r["AsOfDate"]))).toEqual(new Set(["2026-10-31"]));
  });

  it("is set by an update (Intuit's update example: a new date starts at SyncToken 0, TargetCurrencyCode defaults to home) that journal entries then use", async () => {
    const res = await h.post(parent, "exchangerate?minorversion=75", token, { SyncToken: "0", AsOfDate: "2026-11-20", SourceCurrencyCode: "EUR", Rate: 1.1 });
    expect(res.statusCode, res.body).toBe(200);
    const set = (res.json() as { ExchangeRate: Body }).ExchangeRate;
    expect(Object.keys(set)).toEqual(EXCHANGE_RATE_KEYS);
    expect(set).toMatchObject({ SyncToken: "0", AsOfDate: "2026-11-20", SourceCurrencyCode: "EUR", Rate: 1.1, TargetCurrencyCode: "USD" });
    const read = await h.get(parent, "exchangerate?sourcecurrencycode=EUR&asofdate=2026-11-21", token);
    expect((read.json() as { ExchangeRate: Body }).ExchangeRate).toMatchObject({ AsOfDate: "2026-11-20", Rate: 1.1 });

    const again = await h.post(parent, "exchangerate", token, { SyncToken: "0", AsOfDate: "2026-11-20", SourceCurrencyCode: "EUR", Rate: 1.2 });
    expect((again.json() as { ExchangeRate: Body }).ExchangeRate).toMatchObject({ SyncToken: "1", Rate: 1.2 });
    expect(faultOf(await h.post(parent, "exchangerate", token, { SyncToken: "0", AsOfDate: "2026-11-20", SourceCurrencyCode: "EUR", Rate: 1.3 })).code).toBe("5010");

    // A EUR entry without ExchangeRate converts at the stored rate.
    const cash = await accountId("AccountType = 'Bank'");
    const equity = await accountId("AccountType = 'Equity'");
    const je = await h.post(parent, "journalentry", token, {
      TxnDate: "2026-11-21",
      CurrencyRef: { value: "EUR" },
      Line: [
        { Amount: 100, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: cash } } },
        { Amount: 100, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: equity } } },
      ],
    });
    expect(je.statusCode, je.body).toBe(200);
    expect((je.json() as { JournalEntry: Body }).JournalEntry).toMatchObject({ ExchangeRate: 1.2, HomeTotalAmt: 120 });
  });

  it("refuses what Intuit documents as refused: the home currency, a missing field, a company without multicurrency", async () => {
    expect(faultOf(await h.post(parent, "exchangerate", token, { AsOfDate: "2026-11-20", SourceCurrencyCode: "USD", Rate: 1 })).code).toBe("6000");
    expect(faultOf(await h.post(parent, "exchangerate", token, { AsOfDate: "2026-11-20", SourceCurrencyCode: "EUR" })).code).toBe("2010");
    expect(faultOf(await h.post(parent, "exchangerate", token, { SourceCurrencyCode: "EUR", Rate: 1.1 })).code).toBe("2010");
    expect(faultOf(await h.post(parent, "exchangerate", token, { AsOfDate: "2026-11-20", SourceCurrencyCode: "JPY", Rate: 150 })).code).toBe("6000");
    expect(faultOf(await h.post(uk, "exchangerate", ukToken, { AsOfDate: "2026-11-20", SourceCurrencyCode: "EUR", Rate: 0.85 })).Detail).toContain("Multicurrency is not enabled");
  });
});

describe("foreign-currency accounts", () => {
  const eurBank = { Name: "Bank EUR", AccountType: "Bank", AccountSubType: "Checking", CurrencyRef: { value: "EUR" } };

  it("are created with CurrencyRef in a multicurrency company for asset and liability types only", async () => {
    const res = await h.post(parent, "account", token, eurBank);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { Account: Body }).Account).toMatchObject({ CurrencyRef: { value: "EUR", name: "Euro" }, CurrentBalance: 0 });
    for (const [type, sub] of [["Accounts Receivable", "AccountsReceivable"], ["Accounts Payable", "AccountsPayable"], ["Credit Card", "CreditCard"], ["Other Current Asset", "OtherCurrentAssets"], ["Other Current Liability", "OtherCurrentLiabilities"], ["Long Term Liability", "NotesPayable"]]) {
      const ok = await h.post(parent, "account", token, { Name: `${type} GBP`, AccountType: type, AccountSubType: sub, CurrencyRef: { value: "GBP" } });
      expect(ok.statusCode, `${type}: ${ok.body}`).toBe(200);
    }
    // Income and expense accounts always use the home currency (QuickBooks' help).
    for (const [type, sub] of [["Income", "ServiceFeeIncome"], ["Expense", "BankCharges"], ["Other Expense", "ExchangeGainOrLoss"], ["Equity", "RetainedEarnings"]]) {
      expect(faultOf(await h.post(parent, "account", token, { Name: `${type} EUR`, AccountType: type, AccountSubType: sub, CurrencyRef: { value: "EUR" } })).code).toBe("6000");
    }
    // A currency the company has not turned on, and a company without multicurrency.
    expect(faultOf(await h.post(parent, "account", token, { ...eurBank, Name: "Bank JPY", CurrencyRef: { value: "JPY" } })).code).toBe("6000");
    expect(faultOf(await h.post(uk, "account", ukToken, eurBank)).Detail).toContain("Multicurrency is not enabled");
    // The home currency named explicitly is an ordinary account.
    const home = await h.post(uk, "account", ukToken, { ...eurBank, Name: "Bank GBP 2", CurrencyRef: { value: "GBP" } });
    expect((home.json() as { Account: Body }).Account).toMatchObject({ CurrencyRef: { value: "GBP" } });
  });

  it("take journal lines only in their currency, carrying the entry's CurrencyRef and ExchangeRate; reports show home amounts", async () => {
    const created = await h.post(parent, "account", token, eurBank);
    const bank = (created.json() as { Account: { Id: string } }).Account.Id;
    const equity = await accountId("AccountType = 'Equity'");
    const lines = [
      { Amount: 1000, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: bank } } },
      { Amount: 1000, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: equity } } },
    ];
    const je = await h.post(parent, "journalentry", token, { TxnDate: "2026-11-20", CurrencyRef: { value: "EUR" }, ExchangeRate: 1.1, Line: lines });
    expect(je.statusCode, je.body).toBe(200);
    expect((je.json() as { JournalEntry: Body }).JournalEntry).toMatchObject({ CurrencyRef: { value: "EUR" }, ExchangeRate: 1.1, TotalAmt: 1000, HomeTotalAmt: 1100 });
    expect(faultOf(await h.post(parent, "journalentry", token, { TxnDate: "2026-11-20", Line: lines })).Detail).toContain("must be in EUR");
    expect(faultOf(await h.post(parent, "journalentry", token, { TxnDate: "2026-11-20", CurrencyRef: { value: "GBP" }, ExchangeRate: 1.3, Line: lines })).Detail).toContain("must be in EUR");

    // The account's balance is in its own currency; the balance sheet is in the home currency.
    const account = await h.get(parent, `account/${bank}`, token);
    expect((account.json() as { Account: Body }).Account).toMatchObject({ CurrentBalance: 1000, CurrencyRef: { value: "EUR" } });
    const bs = await h.get(parent, "reports/BalanceSheet?start_date=2026-11-01&end_date=2026-11-30", token);
    expect(JSON.stringify(bs.json())).toContain(`{"value":"Bank EUR","id":"${bank}"},{"value":"1100.00"}`);
  });

  it("show their foreign amounts in the GeneralLedger columns nat_foreign_amount, currency and exch_rate when asked for", async () => {
    const created = await h.post(parent, "account", token, eurBank);
    const bank = (created.json() as { Account: { Id: string } }).Account.Id;
    const equity = await accountId("AccountType = 'Equity'");
    await h.post(parent, "journalentry", token, {
      TxnDate: "2026-11-20",
      CurrencyRef: { value: "EUR" },
      ExchangeRate: 1.1,
      Line: [
        { Amount: 1000, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: bank } } },
        { Amount: 1000, DetailType: "JournalEntryLineDetail", JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: equity } } },
      ],
    });
    const cols = "tx_date,txn_type,subt_nat_amount,rbal_nat_amount,nat_foreign_amount,currency,exch_rate";
    const res = await h.get(parent, `reports/GeneralLedger?start_date=2026-11-01&end_date=2026-11-30&columns=${cols}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { Columns: { Column: { ColTitle: string; ColType: string }[] }; Rows: { Row: { Header: { ColData: { value: string; id?: string }[] }; Rows: { Row: { ColData: { value: string }[] }[] } }[] } };
    expect(body.Columns.Column.map((c) => c.ColType)).toEqual(cols.split(","));
    const section = body.Rows.Row.find((r) => r.Header.ColData[0]?.id === bank);
    expect(section?.Rows.Row.map((r) => r.ColData.map((c) => c.value))).toEqual([
      ["Beginning Balance", "", "", "0.00", "", "", ""],
      ["2026-11-20", "Journal Entry", "1100.00", "1100.00", "1000.00", "EUR", "1.1"],
    ]);
    // `account=` (Intuit's GeneralLedger filter: comma-separated account ids): that account's section alone.
    const one = await h.get(parent, `reports/GeneralLedger?start_date=2026-11-01&end_date=2026-11-30&account=${bank}&columns=${cols}`, token);
    expect((one.json() as typeof body).Rows.Row.map((r) => r.Header.ColData[0]?.id)).toEqual([bank]);
    expect(faultOf(await h.get(parent, "reports/GeneralLedger?account=x1", token)).Detail).toContain("Property Name:account ");
    // A column the emulator does not serve is refused, not left out.
    expect(faultOf(await h.get(parent, "reports/GeneralLedger?columns=tx_date,debt_home_amt", token)).code).toBe("2010");
  });
});

describe("the demo parent's intercompany loans", () => {
  it("are held in the borrower's currency: GBP in the GeneralLedger's Foreign Amount, USD at the day's rate in Amount", async () => {
    const found = await h.get(parent, q("select * from Account where Name = 'Intercompany Loan - Northwind UK'"), token);
    const [loan] = (found.json() as { QueryResponse: { Account: Body[] } }).QueryResponse.Account as [Body];
    expect(loan).toMatchObject({ CurrencyRef: { value: "GBP" }, CurrentBalance: 1_000_000 });
    const cols = "tx_date,subt_nat_amount,nat_foreign_amount,currency,exch_rate";
    const res = await h.get(parent, `reports/GeneralLedger?start_date=2023-01-01&end_date=2025-12-31&account=${String(loan["Id"])}&columns=${cols}`, token);
    const body = res.json() as { Rows: { Row: { Rows: { Row: { ColData: { value: string }[] }[] } }[] } };
    const rows = body.Rows.Row[0]!.Rows.Row.map((r) => r.ColData.map((c) => c.value)).filter((r) => r[0] !== "Beginning Balance");
    // Lent in February 2023, a third repaid in June 2025; each at its month's rate, never revalued.
    expect(rows.map((r) => [r[0], r[2], r[3]])).toEqual([
      ["2023-02-10", "1500000.00", "GBP"],
      ["2025-06-12", "-500000.00", "GBP"],
    ]);
    for (const r of rows) expect(Number(r[1])).toBeCloseTo(Number(r[2]) * Number(r[4]), 2);
  });
});

describe("batch", () => {
  it("runs CompanyCurrency and ExchangeRate items as the endpoints do; ExchangeRate has no create", async () => {
    const res = await h.post(parent, "batch", token, {
      BatchItemRequest: [
        { bId: "c", operation: "create", CompanyCurrency: { Code: "CHF" } },
        { bId: "r", operation: "update", ExchangeRate: { AsOfDate: "2026-11-20", SourceCurrencyCode: "CHF", Rate: 1.12 } },
        { bId: "x", operation: "create", ExchangeRate: { AsOfDate: "2026-11-20", SourceCurrencyCode: "CHF", Rate: 1.13 } },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = (res.json() as { BatchItemResponse: Body[] }).BatchItemResponse;
    expect(items[0]).toMatchObject({ CompanyCurrency: { Code: "CHF", Active: true }, bId: "c" });
    expect(items[1]).toMatchObject({ ExchangeRate: { SourceCurrencyCode: "CHF", Rate: 1.12, SyncToken: "0" }, bId: "r" });
    expect(items[2]).toMatchObject({ Fault: { Error: [{ code: "2010" }] }, bId: "x" });
    const read = await h.get(parent, "exchangerate?sourcecurrencycode=CHF&asofdate=2026-11-20", token);
    expect((read.json() as { ExchangeRate: Body }).ExchangeRate).toMatchObject({ Rate: 1.12 });
  });
});

describe("persistence", () => {
  it("keeps created currencies and set rates across a restart with a data folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qbo-mc-"));
    try {
      const first = await harness({ dataDir: dir, now: testClock().now });
      const t = (await first.tokens(parent)).access_token;
      expect((await first.post(parent, "companycurrency", t, { Code: "JPY" })).statusCode).toBe(200);
      expect((await first.post(parent, "exchangerate", t, { AsOfDate: "2026-11-20", SourceCurrencyCode: "JPY", Rate: 0.0065 })).statusCode).toBe(200);
      await first.app.close();
      const second = await harness({ dataDir: dir, now: testClock().now });
      const t2 = (await second.tokens(parent)).access_token;
      const rate = await second.get(parent, "exchangerate?sourcecurrencycode=JPY&asofdate=2026-11-25", t2);
      expect((rate.json() as { ExchangeRate: Body }).ExchangeRate).toMatchObject({ Rate: 0.0065, AsOfDate: "2026-11-20" });
      await second.app.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
