/**
 * Names on journal lines over HTTP: JournalEntryLineDetail.Entity on create, read, query and
 * update; bad references; the A/R–A/P rule behind `requireNamesOnReceivablesAndPayables`.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { firstCompanySession, harness, q, testClock } from "../testing/harness.ts";

let h: Harness;
let realm: string;
let token: string;

// Parent accounts: 1 Operating Checking (Bank), 6 Accounts Receivable (A/R), 33 Accounts Payable (A/P), 51 Product Sales.
const BANK = "1";
const AR = "6";
const AP = "33";
const SALES = "51";
const UK_CUSTOMER = { Type: "Customer", EntityRef: { value: "1" } };
const TRADE_SUPPLIERS = { Type: "Vendor", EntityRef: { value: "6" } };

type Line = { Id: string; JournalEntryLineDetail: Record<string, unknown> };
type Entry = { Id: string; SyncToken: string; DocNumber?: string; PrivateNote?: string; TxnDate: string; Line: Line[] };

function line(posting: "Debit" | "Credit", account: string, amount: number, entity?: unknown) {
  return {
    DetailType: "JournalEntryLineDetail",
    Amount: amount,
    JournalEntryLineDetail: { PostingType: posting, AccountRef: { value: account }, ...(entity === undefined ? {} : { Entity: entity }) },
  };
}

function je(lines: unknown[], extra: Record<string, unknown> = {}) {
  return { TxnDate: "2026-10-20", DocNumber: "IC-1", PrivateNote: "Intercompany", Line: lines, ...extra };
}

async function post(body: unknown, path = "journalentry"): Promise<{ status: number; body: { JournalEntry: Entry } & { Fault?: { Error: { code: string; Message: string; Detail: string }[]; type: string } } }> {
  const res = await h.post(realm, path, token, body);
  return { status: res.statusCode, body: res.json() };
}

beforeEach(async () => {
  ({ h, realm, token } = await firstCompanySession());
});

describe("JournalEntryLineDetail.Entity", () => {
  it("is accepted and echoed with the name's DisplayName, in Intuit's key order, on create, read and query", async () => {
    const created = await post(je([line("Debit", "12", 250, UK_CUSTOMER), line("Credit", SALES, 250)]));
    expect(created.status).toBe(200);
    const [first, second] = created.body.JournalEntry.Line;
    expect(first?.JournalEntryLineDetail).toEqual({
      PostingType: "Debit",
      Entity: { Type: "Customer", EntityRef: { value: "1", name: "Northwind UK Ltd" } },
      AccountRef: { value: "12", name: "Intercompany Receivable - Northwind UK" },
    });
    expect(Object.keys(first?.JournalEntryLineDetail ?? {})).toEqual(["PostingType", "Entity", "AccountRef"]);
    expect(second?.JournalEntryLineDetail["Entity"]).toBeUndefined();
    const id = created.body.JournalEntry.Id;
    expect((await h.get(realm, `journalentry/${id}`, token)).json()).toEqual(created.body);
    const queried = (await h.get(realm, q(`SELECT * FROM JournalEntry WHERE Id = '${id}'`), token)).json() as { QueryResponse: { JournalEntry: Entry[] } };
    expect(queried.QueryResponse.JournalEntry[0]?.Line[0]?.JournalEntryLineDetail["Entity"]).toEqual({ Type: "Customer", EntityRef: { value: "1", name: "Northwind UK Ltd" } });
    // The GeneralLedger's Name column shows it, with its id, like the recorded GL.
    const gl = JSON.stringify((await h.get(realm, "reports/GeneralLedger?start_date=2026-10-20&end_date=2026-10-20", token)).json());
    expect(gl).toContain(`{"value":"Journal Entry","id":"${id}"},{"value":"IC-1"},{"value":"Northwind UK Ltd","id":"1"}`);
  });

  it("refuses an unknown name (2500, Names), a name of the other kind, an inactive one (610) and a bad Type (2010)", async () => {
    const unknown = await post(je([line("Debit", AR, 5, { Type: "Customer", EntityRef: { value: "77" } }), line("Credit", SALES, 5)]));
    expect(unknown.status).toBe(400);
    expect(unknown.body.Fault).toEqual({ Error: [{ Message: "Invalid Reference Id", Detail: "Invalid Reference Id : Names element id 77 not found", code: "2500" }], type: "ValidationFault" });
    const otherKind = await post(je([line("Debit", AR, 5, { Type: "Customer", EntityRef: { value: "6" } }), line("Credit", SALES, 5)]));
    expect(otherKind.body.Fault?.Error[0]).toMatchObject({ code: "2500", Detail: "Invalid Reference Id : Names element id 6 not found" });
    await h.post(realm, "customer", token, { Id: "4", SyncToken: "0", sparse: true, Active: false });
    const inactive = await post(je([line("Debit", AR, 5, { Type: "Customer", EntityRef: { value: "4", name: "Northwind Retail LLC" } }), line("Credit", SALES, 5)]));
    expect(inactive.body.Fault?.Error[0]).toMatchObject({ code: "610", Message: "Object Not Found" });
    const badType = await post(je([line("Debit", AR, 5, { Type: "Supplier", EntityRef: { value: "6" } }), line("Credit", SALES, 5)]));
    expect(badType.body.Fault?.Error[0]).toMatchObject({ code: "2010" });
    const noRef = await post(je([line("Debit", AR, 5, { Type: "Customer" }), line("Credit", SALES, 5)]));
    expect(noRef.body.Fault?.Error[0]).toMatchObject({ code: "2010" });
    expect((await h.get(realm, q("SELECT COUNT(*) FROM JournalEntry WHERE DocNumber = 'IC-1'"), token)).json()).toMatchObject({ QueryResponse: { totalCount: 0 } });
  });

  it("counts in the name's balance: a line naming a customer on A/R moves the customer's Balance", async () => {
    const balance = async () => ((await h.get(realm, "customer/1", token)).json() as { Customer: { Balance: number } }).Customer.Balance;
    expect(await balance()).toBe(0);
    await post(je([line("Debit", AR, 120.5, UK_CUSTOMER), line("Credit", SALES, 120.5)]));
    expect(await balance()).toBe(120.5);
  });
});

describe("JournalEntry update", () => {
  it("replaces an entry (full update) and changes only what a sparse update sends; stale and deleted ones are refused", async () => {
    const created = (await post(je([line("Debit", BANK, 40), line("Credit", SALES, 40)]))).body.JournalEntry;
    const full = await post({ Id: created.Id, SyncToken: "0", TxnDate: "2026-10-21", Line: [line("Debit", AR, 40, UK_CUSTOMER), line("Credit", SALES, 40, UK_CUSTOMER)] });
    expect(full.status).toBe(200);
    expect(full.body.JournalEntry).toMatchObject({ Id: created.Id, SyncToken: "1", TxnDate: "2026-10-21" });
    expect(full.body.JournalEntry.DocNumber).toBeUndefined(); // a full update removes what it leaves out
    expect(full.body.JournalEntry.Line.map((l) => l.JournalEntryLineDetail["Entity"])).toEqual([
      { Type: "Customer", EntityRef: { value: "1", name: "Northwind UK Ltd" } },
      { Type: "Customer", EntityRef: { value: "1", name: "Northwind UK Ltd" } },
    ]);
    const sparse = await post({ Id: created.Id, SyncToken: "1", sparse: true, PrivateNote: "Reclassified" });
    expect(sparse.body.JournalEntry).toMatchObject({ SyncToken: "2", TxnDate: "2026-10-21", PrivateNote: "Reclassified" });
    expect(sparse.body.JournalEntry.Line).toEqual(full.body.JournalEntry.Line);
    expect((await h.get(realm, `journalentry/${created.Id}`, token)).json()).toMatchObject({ JournalEntry: { SyncToken: "2", PrivateNote: "Reclassified" } });
    expect((await post({ Id: created.Id, SyncToken: "1", sparse: true, PrivateNote: "late" })).body.Fault?.Error[0]).toMatchObject({ code: "5010" });
    const unbalanced = await post({ Id: created.Id, SyncToken: "2", Line: [line("Debit", BANK, 1), line("Credit", SALES, 2)] }, "journalentry?operation=update");
    expect(unbalanced.body.Fault?.Error[0]).toMatchObject({ code: "6000" });
    await h.post(realm, "journalentry?operation=delete", token, { Id: created.Id, SyncToken: "2" });
    expect((await post({ Id: created.Id, SyncToken: "3", sparse: true, PrivateNote: "x" })).body.Fault?.Error[0]).toMatchObject({ code: "610" });
    const cdc = JSON.stringify((await h.get(realm, "cdc?entities=JournalEntry&changedSince=2026-11-01T00:00:00Z", token)).json());
    expect(cdc).toContain(`"status":"Deleted","Id":"${created.Id}"`);
  });
});

describe("requireNamesOnReceivablesAndPayables", () => {
  const arDetail = "Business Validation Error: When you use Accounts Receivable, you must choose a customer in the Name field.";
  const apDetail = "Business Validation Error: When you use Accounts Payable, you must choose a supplier in the Name field.";
  const message = "A business validation error has occurred while processing your request";

  it("is on by default, as in QBO; switched off (over HTTP), A/R and A/P lines without a name post", async () => {
    expect(h.sandbox.rules).toEqual({ requireNamesOnReceivablesAndPayables: true });
    expect((await h.app.inject({ method: "GET", url: "/_sandbox/rules" })).json()).toEqual({ requireNamesOnReceivablesAndPayables: true });
    expect((await post(je([line("Debit", AR, 10), line("Credit", AP, 10)]))).status).toBe(400);
    const off = await h.app.inject({ method: "PUT", url: "/_sandbox/rules", payload: { requireNamesOnReceivablesAndPayables: false } });
    expect(off.json()).toEqual({ requireNamesOnReceivablesAndPayables: false });
    expect((await post(je([line("Debit", AR, 10), line("Credit", AP, 10)]))).status).toBe(200);
  });

  it("on, refuses an A/R line without a customer and an A/P line without a vendor with QBO's 6000", async () => {
    const put = await h.app.inject({ method: "PUT", url: "/_sandbox/rules", payload: {} });
    expect(put.json()).toEqual({ requireNamesOnReceivablesAndPayables: true });
    const ar = await post(je([line("Debit", AR, 10), line("Credit", SALES, 10)]));
    expect(ar.status).toBe(400);
    expect(ar.body.Fault).toEqual({ Error: [{ Message: message, Detail: arDetail, code: "6000" }], type: "ValidationFault" });
    const arVendor = await post(je([line("Debit", AR, 10, TRADE_SUPPLIERS), line("Credit", SALES, 10)]));
    expect(arVendor.body.Fault?.Error[0]?.Detail).toBe(arDetail);
    const ap = await post(je([line("Debit", BANK, 10), line("Credit", AP, 10)]));
    expect(ap.body.Fault).toEqual({ Error: [{ Message: message, Detail: apDetail, code: "6000" }], type: "ValidationFault" });
    const apCustomer = await post(je([line("Debit", BANK, 10), line("Credit", AP, 10, UK_CUSTOMER)]));
    expect(apCustomer.body.Fault?.Error[0]?.Detail).toBe(apDetail);
    // Named as QBO wants, and lines on other accounts need no name.
    expect((await post(je([line("Debit", AR, 10, { Type: "Customer", EntityRef: { value: "5" } }), line("Credit", AP, 10, TRADE_SUPPLIERS), line("Debit", BANK, 3), line("Credit", SALES, 3)]))).status).toBe(200);
    // The rule holds for updates too.
    const entry = (await post(je([line("Debit", BANK, 4), line("Credit", SALES, 4)]))).body.JournalEntry;
    const update = await post({ Id: entry.Id, SyncToken: "0", sparse: true, Line: [line("Debit", AR, 4), line("Credit", SALES, 4)] });
    expect(update.body.Fault?.Error[0]?.Detail).toBe(arDetail);
    // A switch survives a reset, like the fault settings.
    h.sandbox.setRules({ requireNamesOnReceivablesAndPayables: false });
    h.sandbox.reset();
    expect(h.sandbox.rules.requireNamesOnReceivablesAndPayables).toBe(false);
    h.sandbox.setRules({});
  });

  it("set from the start (SandboxOptions.rules) or by setRules; bad settings are refused", async () => {
    const strict = await harness({ now: testClock().now, rules: { requireNamesOnReceivablesAndPayables: true } });
    const t = (await strict.tokens(realm)).access_token;
    const refused = await strict.post(realm, "journalentry", t, je([line("Debit", AR, 10), line("Credit", SALES, 10)]));
    expect(refused.statusCode).toBe(400);
    strict.sandbox.setRules({ requireNamesOnReceivablesAndPayables: false });
    expect((await strict.post(realm, "journalentry", t, je([line("Debit", AR, 10), line("Credit", SALES, 10)]))).statusCode).toBe(200);
    const bad = await h.app.inject({ method: "PUT", url: "/_sandbox/rules", payload: { requireNamesOnReceivablesAndPayables: "yes", other: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: "invalid_rule_settings" } });
    expect(h.sandbox.rules.requireNamesOnReceivablesAndPayables).toBe(true);
  });
});
