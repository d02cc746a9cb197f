/**
 * Issue #20 item 7: Bill and BillPayment over HTTP (create, read, query, delete, CDC, batch), their
 * shapes in the key order of Intuit's API reference examples (Bill: "Read a bill"; BillPayment:
 * "Read a billpayment" and its query example), their refusals, and the accounting_method=Cash view
 * of them: cash differs from accrual exactly by the bills still open.
 *
 * The demo parent: vendor 6 "Trade suppliers", customer 5, A/P 33 "Accounts Payable (A/P)",
 * bank 1, card 34, expenses 68 "Advertising and Marketing" and 72 "Office Supplies". Its books end
 * on 2026-10-31, so November 2026 holds only what a test posts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { firstCompanySession, harness, q, testClock } from "../testing/harness.ts";
import type { WireRow } from "../testing/reportRows.ts";
import { findRow } from "../testing/reportRows.ts";

let h: Harness;
let realm: string;
let token: string;

beforeEach(async () => {
  ({ h, realm, token } = await firstCompanySession());
});

type Rec = Record<string, unknown>;
type FaultBody = { Fault: { Error: { code: string; Message: string; Detail: string }[]; type: string } };

/** The demo parent's ids these tests use (see the header). */
const PARENT = { vendor: "6", bank: "1", card: "34", ap: "33", advertising: "68", office: "72" } as const;

function expense(account: string, amount: number, extra: Rec = {}): Rec {
  return { DetailType: "AccountBasedExpenseLineDetail", Amount: amount, AccountBasedExpenseLineDetail: { AccountRef: { value: account }, ...extra } };
}

function billBody(lines: Rec[], extra: Rec = {}): Rec {
  return { VendorRef: { value: PARENT.vendor }, TxnDate: "2026-11-05", Line: lines, ...extra };
}

function paymentBody(links: [string, number][], extra: Rec = {}): Rec {
  const total = links.reduce((s, [, a]) => s + Math.round(a * 100), 0) / 100;
  return {
    VendorRef: { value: PARENT.vendor },
    TxnDate: "2026-11-20",
    TotalAmt: total,
    PayType: "Check",
    Line: links.map(([id, amount]) => ({ Amount: amount, LinkedTxn: [{ TxnId: id, TxnType: "Bill" }] })),
    CheckPayment: { BankAccountRef: { value: PARENT.bank } },
    ...extra,
  };
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Rec & Partial<FaultBody> }> {
  const res = await h.post(realm, path, token, body);
  return { status: res.statusCode, json: res.json() };
}

async function createBill(lines: Rec[], extra: Rec = {}): Promise<Rec> {
  const res = await post("bill?minorversion=75", billBody(lines, extra));
  expect(res.status).toBe(200);
  return res.json["Bill"] as Rec;
}

async function pay(links: [string, number][], extra: Rec = {}): Promise<Rec> {
  const res = await post("billpayment?minorversion=75", paymentBody(links, extra));
  expect(res.status).toBe(200);
  return res.json["BillPayment"] as Rec;
}

async function read(path: string): Promise<{ status: number; json: Rec & Partial<FaultBody> }> {
  const res = await h.get(realm, path, token);
  return { status: res.statusCode, json: res.json() };
}

async function refusal(path: string, body: unknown): Promise<{ code: string; Message: string; Detail: string }> {
  const res = await post(path, body);
  expect(res.status).toBe(400);
  expect(res.json.Fault?.type).toBe("ValidationFault");
  return res.json.Fault?.Error[0] as { code: string; Message: string; Detail: string };
}

const BUSINESS = "A business validation error has occurred while processing your request";

describe("Bill", () => {
  it("creates from Intuit's minimal request (VendorRef and one AccountBasedExpenseLineDetail line) in the key order of Intuit's read example", async () => {
    // Intuit's "Create a bill" request, with the demo's vendor and account.
    const res = await post("bill?minorversion=75", { Line: [{ DetailType: "AccountBasedExpenseLineDetail", Amount: 200.0, Id: "1", AccountBasedExpenseLineDetail: { AccountRef: { value: PARENT.advertising } } }], VendorRef: { value: PARENT.vendor } });
    expect(res.status).toBe(200);
    const bill = res.json["Bill"] as Rec;
    expect(Object.keys(bill)).toEqual(["SyncToken", "domain", "APAccountRef", "VendorRef", "TxnDate", "TotalAmt", "CurrencyRef", "DueDate", "sparse", "Line", "Balance", "Id", "MetaData"]);
    expect(bill).toMatchObject({
      SyncToken: "0",
      domain: "QBO",
      APAccountRef: { name: "Accounts Payable (A/P)", value: PARENT.ap },
      VendorRef: { name: "Trade suppliers", value: PARENT.vendor },
      TxnDate: "2026-11-02", // the server's date (the test clock), as Intuit documents for a TxnDate left out
      TotalAmt: 200,
      CurrencyRef: { name: "United States Dollar", value: "USD" },
      DueDate: "2026-11-02",
      sparse: false,
      Balance: 200,
    });
    expect(Object.keys(bill["APAccountRef"] as Rec)).toEqual(["name", "value"]);
    expect(bill["Line"]).toEqual([
      { DetailType: "AccountBasedExpenseLineDetail", Amount: 200, Id: "1", AccountBasedExpenseLineDetail: { AccountRef: { name: "Advertising and Marketing", value: PARENT.advertising }, BillableStatus: "NotBillable" } },
    ]);
    const again = await read(`bill/${bill["Id"] as string}`);
    expect(again.json["Bill"]).toEqual(bill);
  });

  it("keeps DocNumber, PrivateNote, DueDate, line descriptions, classes and the location, and sums TotalAmt whatever is sent", async () => {
    const vendorBalance = async (): Promise<number> => Math.round((((await read(`vendor/${PARENT.vendor}`)).json["Vendor"] as Rec)["Balance"] as number) * 100);
    const owedBefore = await vendorBalance();
    const bill = await createBill([expense(PARENT.advertising, 1000, { ClassRef: { value: "1" } }), { ...expense(PARENT.office, 500.5), Description: "Paper" }], {
      DocNumber: "INV-77",
      PrivateNote: "November supplies",
      DueDate: "2026-12-05",
      DepartmentRef: { value: "1" },
      TotalAmt: 1,
    });
    expect(Object.keys(bill)).toEqual(["DocNumber", "SyncToken", "domain", "APAccountRef", "VendorRef", "TxnDate", "TotalAmt", "CurrencyRef", "PrivateNote", "DepartmentRef", "DueDate", "sparse", "Line", "Balance", "Id", "MetaData"]);
    expect(bill).toMatchObject({ DocNumber: "INV-77", TotalAmt: 1500.5, Balance: 1500.5, DueDate: "2026-12-05", DepartmentRef: { name: "Seattle HQ", value: "1" } });
    const lines = bill["Line"] as Rec[];
    expect(lines.map((l) => l["Id"])).toEqual(["1", "2"]);
    expect((lines[0]?.["AccountBasedExpenseLineDetail"] as Rec)["ClassRef"]).toEqual({ name: "Wholesale", value: "1" });
    expect(Object.keys(lines[1] as Rec)).toEqual(["Description", "DetailType", "Amount", "Id", "AccountBasedExpenseLineDetail"]);
    // The vendor is owed its open bills too.
    expect((await vendorBalance()) - owedBefore).toBe(150050);
  });

  it("is listed by queries (SELECT * FROM Bill, filtered by vendor and Balance) and not as a JournalEntry; ids are one sequence", async () => {
    const bill = await createBill([expense(PARENT.advertising, 10)]);
    const id = bill["Id"] as string;
    const all = (await read(q("select * from bill maxresults 2"))).json["QueryResponse"] as Rec;
    expect(all).toMatchObject({ Bill: [bill], startPosition: 1, maxResults: 1 });
    const open = (await read(q(`SELECT * FROM Bill WHERE VendorRef = '${PARENT.vendor}' AND Balance > '0'`))).json["QueryResponse"] as Rec;
    expect((open["Bill"] as Rec[]).map((b) => b["Id"])).toEqual([id]);
    const asEntry = (await read(q(`SELECT * FROM JournalEntry WHERE Id = '${id}'`))).json["QueryResponse"];
    expect(asEntry).toEqual({});
    expect((await read(`journalentry/${id}`)).json.Fault?.Error[0]?.code).toBe("610");
    const lastEntry = h.sandbox.ledger(realm)?.entries.filter((e) => e.document === undefined).at(-1)?.id as string;
    expect((await read(`bill/${lastEntry}`)).json.Fault?.Error[0]?.code).toBe("610");
    expect(Number(id)).toBe(Number(lastEntry) + 1);
  });

  it("credits the company's first A/P account when it names none, and the one APAccountRef names", async () => {
    const made = await post("account", { Name: "Accounts Payable - Projects", AccountType: "Accounts Payable" });
    expect(made.status).toBe(200);
    const second = (made.json["Account"] as Rec)["Id"] as string;
    const byDefault = await createBill([expense(PARENT.advertising, 5)]);
    expect(byDefault["APAccountRef"]).toEqual({ name: "Accounts Payable (A/P)", value: PARENT.ap });
    const named = await createBill([expense(PARENT.advertising, 5)], { APAccountRef: { value: second } });
    expect(named["APAccountRef"]).toEqual({ name: "Accounts Payable - Projects", value: second });
    const notPayable = await refusal("bill", billBody([expense(PARENT.advertising, 5)], { APAccountRef: { value: PARENT.bank } }));
    expect(notPayable).toMatchObject({ code: "6000", Message: BUSINESS, Detail: expect.stringContaining("is not an Accounts Payable account") });
  });

  it("refuses a bill without a vendor (2020), with a customer or unknown name (2500), an unknown or inactive account (2500, 610), an A/P line, a foreign currency, items and update bodies", async () => {
    expect(await refusal("bill", { Line: [expense(PARENT.advertising, 5)] })).toMatchObject({ code: "2020", Detail: "Required parameter VendorRef is missing in the request" });
    expect(await refusal("bill", billBody([expense(PARENT.advertising, 5)], { VendorRef: { value: "5" } }))).toMatchObject({ code: "2500", Detail: "Invalid Reference Id : Names element id 5 not found" });
    expect(await refusal("bill", billBody([]))).toMatchObject({ code: "2020", Detail: "Required parameter Line is missing in the request" });
    expect(await refusal("bill", billBody([expense("9999", 5)]))).toMatchObject({ code: "2500", Detail: "Invalid Reference Id : Accounts element id 9999 not found" });
    expect(await refusal("bill", billBody([expense("86", 5)]))).toMatchObject({ code: "610", Message: "Object Not Found" });
    expect(await refusal("bill", billBody([expense(PARENT.ap, 5)]))).toMatchObject({ code: "6000", Message: BUSINESS, Detail: expect.stringContaining("cannot post to the Accounts Payable account") });
    expect(await refusal("bill", billBody([{ Amount: 5, DetailType: "AccountBasedExpenseLineDetail", AccountBasedExpenseLineDetail: {} }]))).toMatchObject({ code: "6000", Detail: "Business Validation Error: You must select an account for each split line with an amount." });
    expect(await refusal("bill", billBody([expense(PARENT.advertising, 5)], { CurrencyRef: { value: "GBP" } }))).toMatchObject({ code: "6000", Message: BUSINESS, Detail: expect.stringContaining("CurrencyRef must be USD, not GBP") });
    expect(await refusal("bill", billBody([{ DetailType: "ItemBasedExpenseLineDetail", Amount: 5, ItemBasedExpenseLineDetail: { ItemRef: { value: "1" } } }]))).toMatchObject({ code: "2010", Detail: expect.stringContaining("AccountBasedExpenseLineDetail") });
    expect(await refusal("bill", billBody([expense(PARENT.advertising, 5)], { Id: "1", SyncToken: "0" }))).toMatchObject({ code: "2010", Detail: expect.stringContaining("does not update") });
    expect(await refusal("bill", billBody([expense(PARENT.advertising, 5)], { BadJson: 1 }))).toMatchObject({ code: "2010", Detail: expect.stringContaining('Unrecognized field "BadJson" (class com.intuit.schema.finance.v3.Bill)') });
    expect(await refusal("bill?operation=update", billBody([expense(PARENT.advertising, 5)]))).toMatchObject({ code: "2010", Detail: expect.stringContaining("use create or delete") });
    // The parent's books are closed through 2023-12-31.
    expect(await refusal("bill", billBody([expense(PARENT.advertising, 5)], { TxnDate: "2023-06-30" }))).toMatchObject({ code: "6200" });
    expect((await read(q("SELECT COUNT(*) FROM Bill"))).json["QueryResponse"]).toEqual({ totalCount: 0 });
  });

  it("deletes with {Id, SyncToken} as the recorded delete answers; a deleted bill reads 610 and shows in CDC as Deleted", async () => {
    const bill = await createBill([expense(PARENT.advertising, 10)]);
    const id = bill["Id"] as string;
    expect(await refusal("bill?operation=delete", { Id: id, SyncToken: "7" })).toMatchObject({ code: "5010" });
    const res = await post("bill?operation=delete", { Id: id, SyncToken: "0" });
    expect(res.status).toBe(200);
    expect(res.json["Bill"]).toEqual({ domain: "QBO", status: "Deleted", Id: id });
    expect((await read(`bill/${id}`)).json.Fault?.Error[0]?.code).toBe("610");
    expect((await read(q("SELECT COUNT(*) FROM Bill"))).json["QueryResponse"]).toEqual({ totalCount: 0 });
    const cdc = (await read("cdc?entities=Bill&changedSince=2026-11-01T00:00:00Z")).json as { CDCResponse: { QueryResponse: Rec[] }[] };
    expect(cdc.CDCResponse[0]?.QueryResponse[0]?.["Bill"]).toEqual([{ domain: "QBO", status: "Deleted", Id: id, MetaData: { LastUpdatedTime: expect.any(String) } }]);
  });
});

describe("BillPayment", () => {
  it("pays a bill by check in the key order of Intuit's read example, lowering its Balance and linking it back", async () => {
    const bill = await createBill([expense(PARENT.advertising, 300)]);
    const billId = bill["Id"] as string;
    // Intuit's "Create a billpayment" request, with the demo's ids.
    const res = await post("billpayment", {
      PrivateNote: "Acct. 1JK90",
      VendorRef: { name: "Trade suppliers", value: PARENT.vendor },
      TotalAmt: 200.0,
      PayType: "Check",
      Line: [{ Amount: 200.0, LinkedTxn: [{ TxnId: billId, TxnType: "Bill" }] }],
      CheckPayment: { BankAccountRef: { name: "Operating Checking - Chase", value: PARENT.bank } },
    });
    expect(res.status).toBe(200);
    const payment = res.json["BillPayment"] as Rec;
    expect(Object.keys(payment)).toEqual(["SyncToken", "domain", "VendorRef", "TxnDate", "TotalAmt", "CurrencyRef", "PayType", "PrivateNote", "sparse", "Line", "Id", "CheckPayment", "MetaData"]);
    expect(payment).toMatchObject({
      VendorRef: { name: "Trade suppliers", value: PARENT.vendor },
      TotalAmt: 200,
      PayType: "Check",
      PrivateNote: "Acct. 1JK90",
      Line: [{ Amount: 200, LinkedTxn: [{ TxnId: billId, TxnType: "Bill" }] }],
      CheckPayment: { PrintStatus: "NeedToPrint", BankAccountRef: { name: "Operating Checking - Chase", value: PARENT.bank } },
    });
    expect(Object.keys(payment["CheckPayment"] as Rec)).toEqual(["PrintStatus", "BankAccountRef"]);
    expect((await read(`billpayment/${payment["Id"] as string}`)).json["BillPayment"]).toEqual(payment);
    const after = (await read(`bill/${billId}`)).json["Bill"] as Rec;
    expect(after).toMatchObject({ Balance: 100, TotalAmt: 300, LinkedTxn: [{ TxnId: payment["Id"], TxnType: "BillPaymentCheck" }] });
    expect(Object.keys(after).slice(6, 9)).toEqual(["CurrencyRef", "LinkedTxn", "DueDate"]);
    const listed = (await read(q(`select * from billpayment Where VendorRef = '${PARENT.vendor}'`))).json["QueryResponse"] as Rec;
    expect(listed["BillPayment"]).toEqual([payment]);
  });

  it("pays by credit card with CreditCardPayment before Line, as Intuit's query example lists card payments", async () => {
    const bill = await createBill([expense(PARENT.office, 86.44)]);
    const payment = await pay([[bill["Id"] as string, 86.44]], { PayType: "CreditCard", CheckPayment: undefined, CreditCardPayment: { CCAccountRef: { value: PARENT.card } }, DocNumber: "1" });
    expect(Object.keys(payment)).toEqual(["DocNumber", "SyncToken", "domain", "VendorRef", "TxnDate", "TotalAmt", "CurrencyRef", "PayType", "sparse", "CreditCardPayment", "Line", "Id", "MetaData"]);
    expect(payment["CreditCardPayment"]).toEqual({ CCAccountRef: { name: "Amex Corporate Card", value: PARENT.card } });
    const after = (await read(`bill/${bill["Id"] as string}`)).json["Bill"] as Rec;
    expect(after).toMatchObject({ Balance: 0, LinkedTxn: [{ TxnId: payment["Id"], TxnType: "BillPaymentCreditCard" }] });
  });

  it("refuses paying more than a bill's open balance (6000), another vendor's bill, an unknown bill, a TotalAmt the lines do not make, and a payment from the wrong kind of account", async () => {
    const bill = await createBill([expense(PARENT.advertising, 100)]);
    const id = bill["Id"] as string;
    await pay([[id, 60]]);
    expect(await refusal("billpayment", paymentBody([[id, 40.01]]))).toMatchObject({
      code: "6000",
      Message: BUSINESS,
      Detail: `Business Validation Error: The payment of 40.01 on bill ${id} is more than its open balance of 40.00.`,
    });
    // Two lines on one bill count together.
    expect(await refusal("billpayment", paymentBody([[id, 30], [id, 20]]))).toMatchObject({ code: "6000", Detail: expect.stringContaining("more than its open balance of 40.00") });
    const vendor = await post("vendor", { DisplayName: "Another Supplier" });
    const other = (vendor.json["Vendor"] as Rec)["Id"] as string;
    expect(await refusal("billpayment", paymentBody([[id, 10]], { VendorRef: { value: other } }))).toMatchObject({ code: "6000", Detail: expect.stringContaining("another vendor's") });
    expect(await refusal("billpayment", paymentBody([["99999", 10]]))).toMatchObject({ code: "610" });
    expect(await refusal("billpayment", paymentBody([[id, 10]], { TotalAmt: 15 }))).toMatchObject({ code: "6000", Detail: expect.stringContaining("TotalAmt (15.00) must equal the sum of the lines (10.00)") });
    expect(await refusal("billpayment", paymentBody([[id, 10]], { CheckPayment: { BankAccountRef: { value: PARENT.card } } }))).toMatchObject({ code: "6000", Detail: expect.stringContaining("is not a Bank account") });
    expect(await refusal("billpayment", paymentBody([[id, 10]], { CheckPayment: undefined }))).toMatchObject({ code: "2020", Detail: "Required parameter CheckPayment.BankAccountRef is missing in the request" });
    expect(await refusal("billpayment", paymentBody([[id, 10]], { PayType: "Cash" }))).toMatchObject({ code: "2010" });
    expect(await refusal("billpayment", paymentBody([[id, 10]], { VendorRef: undefined }))).toMatchObject({ code: "2020", Detail: "Required parameter VendorRef is missing in the request" });
    expect(await refusal("billpayment", { ...paymentBody([[id, 10]]), Line: [{ Amount: 10, LinkedTxn: [{ TxnId: id, TxnType: "VendorCredit" }] }] })).toMatchObject({ code: "2010" });
    expect(((await read(`bill/${id}`)).json["Bill"] as Rec)["Balance"]).toBe(40);
  });

  it("deleting a payment reopens its bills; a bill with a payment cannot be deleted until the payment is", async () => {
    const bill = await createBill([expense(PARENT.advertising, 100)]);
    const id = bill["Id"] as string;
    const payment = await pay([[id, 100]]);
    expect(await refusal("bill?operation=delete", { Id: id, SyncToken: "0" })).toMatchObject({ code: "6000", Detail: expect.stringContaining(`linked to it (${payment["Id"] as string})`) });
    const deleted = await post("billpayment?operation=delete", { Id: payment["Id"], SyncToken: "0" });
    expect(deleted.json["BillPayment"]).toEqual({ domain: "QBO", status: "Deleted", Id: payment["Id"] });
    const reopened = (await read(`bill/${id}`)).json["Bill"] as Rec;
    expect(reopened["Balance"]).toBe(100);
    expect(reopened["LinkedTxn"]).toBeUndefined();
    expect((await post("bill?operation=delete", { Id: id, SyncToken: "0" })).status).toBe(200);
  });
});

describe("batch, CDC and persistence", () => {
  it("runs Bill and BillPayment items and Bill queries in a batch, and lists both in CDC", async () => {
    const bill = await createBill([expense(PARENT.advertising, 50)]);
    const res = await post("batch", {
      BatchItemRequest: [
        { bId: "b1", operation: "create", Bill: billBody([expense(PARENT.office, 20)]) },
        { bId: "p1", operation: "create", BillPayment: paymentBody([[bill["Id"] as string, 50]]) },
        { bId: "q1", Query: "select * from Bill where Balance = '0'" },
        { bId: "x1", operation: "update", Bill: { Id: bill["Id"], SyncToken: "0" } },
      ],
    });
    expect(res.status).toBe(200);
    const items = res.json["BatchItemResponse"] as Rec[];
    expect(Object.keys(items[0] as Rec)).toEqual(["Bill", "bId"]);
    expect((items[1]?.["BillPayment"] as Rec)["TotalAmt"]).toBe(50);
    expect(((items[2]?.["QueryResponse"] as Rec)["Bill"] as Rec[]).map((b) => b["Id"])).toEqual([bill["Id"]]);
    expect((items[3]?.["Fault"] as FaultBody["Fault"]).Error[0]?.code).toBe("2010");
    const cdc = (await read("cdc?entities=Bill,BillPayment,JournalEntry&changedSince=2026-11-01T00:00:00Z")).json as { CDCResponse: { QueryResponse: Rec[] }[] };
    const [bills, payments, entries] = cdc.CDCResponse[0]?.QueryResponse ?? [];
    expect((bills?.["Bill"] as Rec[]).length).toBe(2);
    expect((payments?.["BillPayment"] as Rec[]).length).toBe(1);
    expect(entries).toEqual({});
  });

  it("keeps bills and payments across a restart with the data folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qbo-bills-"));
    try {
      const clock = testClock();
      const first = await harness({ dataDir: dir, now: clock.now });
      const t1 = (await first.tokens(realm)).access_token;
      const made = await first.post(realm, "bill", t1, billBody([expense(PARENT.advertising, 70)]));
      const billId = ((made.json() as Rec)["Bill"] as Rec)["Id"] as string;
      expect((await first.post(realm, "billpayment", t1, paymentBody([[billId, 30]]))).statusCode).toBe(200);
      const second = await harness({ dataDir: dir, now: clock.now });
      const t2 = (await second.tokens(realm)).access_token;
      const again = (await second.get(realm, `bill/${billId}`, t2)).json() as Rec;
      expect(again["Bill"]).toMatchObject({ Id: billId, TotalAmt: 70, Balance: 40 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

type Report = { Header: Rec; Rows: { Row?: WireRow[] } };

async function report(name: string, query: string): Promise<Report> {
  const res = await h.get(realm, `reports/${name}?${query}`, token);
  expect(res.statusCode).toBe(200);
  return res.json() as Report;
}

const cents = (v: string | undefined): number => Math.round(Number(v === undefined || v === "" ? "0" : v) * 100);

/** A group's figure (a section's Summary, or a Data row such as the balance sheet's Net Income), cents, first money column. */
function total(r: Report, group: string): number {
  const row = findRow(r.Rows.Row ?? [], (x) => x.group === group);
  return cents((row?.Summary?.ColData ?? row?.ColData)?.[1]?.value);
}

/** An account's row, cents, first money column (TrialBalance: Debit; 0 when the report has no row for it). */
function amountOf(r: Report, accountId: string): number {
  return cents(findRow(r.Rows.Row ?? [], (row) => row.ColData?.[0]?.id === accountId)?.ColData?.[1]?.value);
}

const NOV = "start_date=2026-11-01&end_date=2026-11-30";
const both = async (name: string, query: string): Promise<[Report, Report]> => [await report(name, `${query}&accounting_method=Accrual`), await report(name, `${query}&accounting_method=Cash`)];

describe("accounting_method=Cash with bills", () => {
  it("counts an open bill on the accrual basis only: ProfitAndLoss, BalanceSheet and TrialBalance differ by it", async () => {
    // Journal entries count in full on both bases: the demo's books (journal entries only) read the same.
    const [demoYear, demoYearCash] = await both("ProfitAndLoss", "start_date=2025-01-01&end_date=2025-12-31&summarize_column_by=Month");
    expect(demoYearCash.Rows).toEqual(demoYear.Rows);
    const [plBefore] = await both("ProfitAndLoss", NOV);
    expect(total(plBefore, "Expenses")).toBe(0);
    const [bsBefore, bsCashBefore] = await both("BalanceSheet", NOV);
    await createBill([expense(PARENT.advertising, 1000), expense(PARENT.office, 500)]);

    const [pl, plCash] = await both("ProfitAndLoss", NOV);
    expect(pl.Header["ReportBasis"]).toBe("Accrual");
    expect(plCash.Header["ReportBasis"]).toBe("Cash");
    expect(total(pl, "Expenses")).toBe(150000);
    expect(amountOf(pl, PARENT.advertising)).toBe(100000);
    expect(total(plCash, "Expenses")).toBe(0);
    expect(total(plCash, "NetIncome")).toBe(0);

    const [bs, bsCash] = await both("BalanceSheet", NOV);
    expect(amountOf(bs, PARENT.ap) - amountOf(bsBefore, PARENT.ap)).toBe(150000);
    expect(amountOf(bsCash, PARENT.ap)).toBe(amountOf(bsCashBefore, PARENT.ap)); // the bill leaves A/P alone on the cash basis
    expect(total(bs, "NetIncome") - total(bsCash, "NetIncome")).toBe(-150000);
    expect(total(bsCash, "TotalAssets")).toBe(total(bsCashBefore, "TotalAssets"));

    const [tb, tbCash] = await both("TrialBalance", "end_date=2026-11-30");
    expect(amountOf(tb, PARENT.advertising)).toBe(amountOf(tbCash, PARENT.advertising) + 100000);
    expect(total(tb, "GrandTotal")).not.toBe(total(tbCash, "GrandTotal"));
  });

  it("counts a partly paid bill pro rata on each payment's date, and agrees with accrual once it is paid in full", async () => {
    const bill = await createBill([expense(PARENT.advertising, 10), expense(PARENT.office, 20)]);
    const id = bill["Id"] as string;
    await pay([[id, 10]]); // 2026-11-20: a third of the bill
    const [, plCash] = await both("ProfitAndLoss", NOV);
    // 10.00 over lines of 10.00 and 20.00: 3.33 and 6.67 (the larger remainder takes the cent).
    expect(amountOf(plCash, PARENT.advertising)).toBe(333);
    expect(amountOf(plCash, PARENT.office)).toBe(667);
    expect(total(plCash, "Expenses")).toBe(1000);
    // Filters read the cash view too: the paid share carries the bill's vendor.
    expect(total(await report("ProfitAndLoss", `${NOV}&accounting_method=Cash&vendor=${PARENT.vendor}`), "Expenses")).toBe(1000);
    const [bs, bsCash] = await both("BalanceSheet", NOV);
    expect(amountOf(bs, PARENT.ap) - amountOf(bsCash, PARENT.ap)).toBe(2000); // what is still open
    expect(amountOf(bs, PARENT.bank)).toBe(amountOf(bsCash, PARENT.bank));

    await pay([[id, 20]], { TxnDate: "2026-12-03" });
    const DEC = "start_date=2026-12-01&end_date=2026-12-31";
    const [plDec, plDecCash] = await both("ProfitAndLoss", DEC);
    expect(total(plDec, "Expenses")).toBe(0);
    expect(amountOf(plDecCash, PARENT.advertising)).toBe(667);
    expect(amountOf(plDecCash, PARENT.office)).toBe(1333);
    const TWO_MONTHS = "start_date=2026-11-01&end_date=2026-12-31";
    const [plAll, plAllCash] = await both("ProfitAndLoss", TWO_MONTHS);
    expect(plAllCash.Rows).toEqual(plAll.Rows);
    const [bsAll, bsAllCash] = await both("BalanceSheet", TWO_MONTHS);
    expect(bsAllCash.Rows).toEqual(bsAll.Rows);
    const [tbAll, tbAllCash] = await both("TrialBalance", "end_date=2026-12-31");
    expect(tbAllCash.Rows).toEqual(tbAll.Rows);
  });

  it("shows bills and bill payments in the GeneralLedger by their QuickBooks type; on the cash basis the expense comes with the payment", async () => {
    const bill = await createBill([expense(PARENT.advertising, 400)], { DocNumber: "B-1" });
    const payment = await pay([[bill["Id"] as string, 100]]);
    const rowsOf = (r: Report, account: string) => {
      const section = findRow(r.Rows.Row ?? [], (row) => row.Header?.ColData[0]?.id === account);
      return (section?.Rows?.Row ?? []).filter((row) => row.ColData?.[0]?.value !== "Beginning Balance").map((row) => row.ColData?.map((c) => c.value));
    };
    const [gl, glCash] = await both("GeneralLedger", `${NOV}&columns=tx_date,txn_type,doc_num,name,split_acc,subt_nat_amount`);
    expect(rowsOf(gl, PARENT.advertising)).toEqual([["2026-11-05", "Bill", "B-1", "Trade suppliers", "Accounts Payable (A/P)", "400.00"]]);
    expect(rowsOf(gl, PARENT.ap)).toEqual([
      ["2026-11-05", "Bill", "B-1", "Trade suppliers", "Advertising and Marketing", "400.00"],
      ["2026-11-20", "Bill Payment (Check)", "", "Trade suppliers", "Operating Checking - Chase", "-100.00"],
    ]);
    expect(rowsOf(glCash, PARENT.advertising)).toEqual([["2026-11-20", "Bill Payment (Check)", "", "Trade suppliers", "Operating Checking - Chase", "100.00"]]);
    expect(rowsOf(glCash, PARENT.ap)).toEqual([]);
    const list = await report("TransactionList", NOV);
    const rows = (list.Rows.Row ?? []).map((row) => row.ColData?.map((c) => c.value));
    expect(rows).toEqual([
      ["2026-11-05", "Bill", "B-1", "Yes", "Trade suppliers", "", "Accounts Payable (A/P)", "Advertising and Marketing", "400.00"],
      ["2026-11-20", "Bill Payment (Check)", "", "Yes", "Trade suppliers", "", "Operating Checking - Chase", "Accounts Payable (A/P)", "100.00"],
    ]);
    expect(findRow(list.Rows.Row ?? [], (row) => row.ColData?.[1]?.value === "Bill Payment (Check)")?.ColData?.[1]?.id).toBe(payment["Id"]);
  });
});
