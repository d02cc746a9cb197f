/** Customers and vendors over HTTP: query, read, create, update, CDC, persistence, wire shape. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { firstCompanySession, harness, q } from "../testing/harness.ts";
import { sample, shapeProblems } from "../testing/shape.ts";

let h: Harness;
let parent: string;
let token: string;

type Rec = Record<string, unknown> & { Id: string; DisplayName: string; Active: boolean; SyncToken: string };

beforeEach(async () => {
  ({ h, realm: parent, token } = await firstCompanySession());
});

async function json(path: string): Promise<Record<string, unknown>> {
  const res = await h.get(parent, path, token);
  return res.json() as Record<string, unknown>;
}

async function page(entity: string, tail = ""): Promise<Rec[]> {
  const body = (await json(q(`SELECT * FROM ${entity}${tail}`))) as { QueryResponse: Record<string, Rec[] | undefined> };
  return body.QueryResponse[entity] ?? [];
}

describe("Customer and Vendor queries", () => {
  it("lists the parent's customers and vendors with the recorded pages' shape, key order included", async () => {
    const customers = (await json(q("SELECT * FROM Customer"))) as { QueryResponse: { Customer: Rec[]; startPosition: number; maxResults: number } };
    // By name, as QuickBooks lists names (minimul-qbo_api/all__customers__1, all__vendors_by_5__*).
    expect(customers.QueryResponse.Customer.map((c) => [c.Id, c.DisplayName])).toEqual([
      ["2", "Northwind Canada Inc."],
      ["3", "Northwind Deutschland GmbH"],
      ["4", "Northwind Retail LLC"],
      ["1", "Northwind UK Ltd"],
      ["5", "Trade customers"],
    ]);
    expect([customers.QueryResponse.startPosition, customers.QueryResponse.maxResults]).toEqual([1, 5]);
    expect(shapeProblems(customers, [sample("minimul-qbo_api/all__customers__1.json")])).toEqual([]);
    expect(customers.QueryResponse.Customer[3]).toMatchObject({ CompanyName: "Northwind UK Ltd", Active: true, SyncToken: "0", CurrencyRef: { value: "USD", name: "United States Dollar" } });

    const vendors = await json(q("SELECT * FROM Vendor"));
    expect(shapeProblems(vendors, [sample("minimul-qbo_api/all__vendors_by_5__6.json"), sample("minimul-qbo_api/get__inactive_vendors__0.json")])).toEqual([]);
    expect(((vendors as { QueryResponse: { Vendor: Rec[] } }).QueryResponse.Vendor).map((v) => [v.Id, v.DisplayName])).toEqual([["6", "Trade suppliers"]]);

    const count = await json(q("SELECT COUNT(*) FROM Customer"));
    expect(count).toEqual({ QueryResponse: { totalCount: 5 }, time: expect.any(String) });
    expect(shapeProblems(count, [sample("minimul-qbo_api/all__customers__0.json")])).toEqual([]);
  });

  it("pages, filters by DisplayName (with \\' escapes, as recorded) and Id, and leaves inactive names out unless asked", async () => {
    expect((await page("Customer", " STARTPOSITION 2 MAXRESULTS 2")).map((c) => c.Id)).toEqual(["3", "4"]);
    expect(await page("Customer", " STARTPOSITION 6 MAXRESULTS 2")).toEqual([]);
    expect((await page("Customer", " WHERE DisplayName = 'Northwind Deutschland GmbH'")).map((c) => c.Id)).toEqual(["3"]);
    expect((await page("Customer", " WHERE Id IN ('1', '4')")).map((c) => c.DisplayName)).toEqual(["Northwind Retail LLC", "Northwind UK Ltd"]);
    const created = await h.post(parent, "customer", token, { DisplayName: "Amy's Bird Sanctuary" });
    expect(created.statusCode).toBe(200);
    // The very query of minimul-qbo_api/get__display_name__0.json.
    const res = await h.app.inject({
      method: "GET",
      url: `/v3/company/${parent}/query?query=SELECT%20*%20FROM%20Customer%20WHERE%20DisplayName%20=%20%27Amy%5C%27s%20Bird%20Sanctuary%27`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect((res.json() as { QueryResponse: { Customer: Rec[]; maxResults: number } }).QueryResponse).toMatchObject({ Customer: [{ DisplayName: "Amy's Bird Sanctuary" }], startPosition: 1, maxResults: 1 });

    const id = (created.json() as { Customer: Rec }).Customer.Id;
    await h.post(parent, "customer", token, { Id: id, SyncToken: "0", sparse: true, Active: false });
    expect((await page("Customer")).map((c) => c.Id)).not.toContain(id);
    expect((await page("Customer", " WHERE Active IN (true, false)")).map((c) => c.Id)).toContain(id);
    expect((await page("Customer", " WHERE Active = false")).map((c) => c.Id)).toEqual([id]);
    expect(await json(q("SELECT COUNT(*) FROM Customer WHERE Active IN (true, false)"))).toMatchObject({ QueryResponse: { totalCount: 6 } });
  });

  it("gives each name the balance its lines leave on A/R (customers) or A/P (vendors)", async () => {
    const accounts = (await page("Account", " MAXRESULTS 1000")) as (Rec & { AccountType: string; CurrentBalance: number })[];
    const ar = accounts.find((a) => a.AccountType === "Accounts Receivable");
    const ap = accounts.find((a) => a.AccountType === "Accounts Payable");
    // Every A/R line of the demo names "Trade customers", every A/P line "Trade suppliers".
    const trade = (await json("customer/5")) as { Customer: { Balance: number; BalanceWithJobs: number } };
    expect(trade.Customer.Balance).toBe(ar?.CurrentBalance);
    expect(trade.Customer.BalanceWithJobs).toBe(ar?.CurrentBalance);
    expect(((await json("vendor/6")) as { Vendor: { Balance: number } }).Vendor.Balance).toBe(-(ap?.CurrentBalance ?? 0));
    expect(((await json("customer/1")) as { Customer: { Balance: number } }).Customer.Balance).toBe(0); // intercompany sits outside A/R
  });
});

describe("Customer and Vendor reads", () => {
  it("reads by id in the recorded single-entity envelope; the other kind's id, an unknown one and a malformed one are refused", async () => {
    const customer = await json("customer/1");
    expect(Object.keys(customer)).toEqual(["Customer", "time"]);
    expect(shapeProblems(customer, [sample("minimul-qbo_api/get__id__0.json"), sample("minimul-qbo_api/create__customer__0.json")])).toEqual([]);
    const vendor = await json("vendor/6");
    expect(shapeProblems({ QueryResponse: { Vendor: [vendor["Vendor"]] } }, [sample("minimul-qbo_api/all__vendors_by_5__6.json")])).toEqual([]);
    expect(await json("vendor/1")).toMatchObject({ Fault: { Error: [{ code: "610", Message: "Object Not Found" }], type: "ValidationFault" } });
    expect(await json("customer/99")).toMatchObject({ Fault: { Error: [{ code: "610" }] } });
    const malformed = await h.get(parent, "customer/1.5", token);
    const recorded = sample("minimul-qbo_api/error__500__1.json") as { Fault: unknown };
    expect(malformed.statusCode).toBe(400);
    expect((malformed.json() as { Fault: unknown }).Fault).toEqual(recorded.Fault);
  });
});

describe("Customer and Vendor create", () => {
  it("creates from a DisplayName, like the recorded create, with the next name id; a requestid replays", async () => {
    const res = await h.post(parent, "customer?requestid=c-1", token, { DisplayName: "Doe5, Jane" });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { Customer: Rec };
    expect(shapeProblems(body, [sample("minimul-qbo_api/create__customer__0.json")])).toEqual([]);
    expect(body.Customer).toMatchObject({ Id: "7", SyncToken: "0", DisplayName: "Doe5, Jane", FullyQualifiedName: "Doe5, Jane", PrintOnCheckName: "Doe5, Jane", Active: true, Balance: 0 });
    expect(body.Customer["CompanyName"]).toBeUndefined();
    const again = await h.post(parent, "customer?requestid=c-1", token, { DisplayName: "Doe5, Jane" });
    expect(again.body).toBe(res.body);
    // Customers and vendors share the id sequence.
    const vendor = await h.post(parent, "vendor", token, { DisplayName: "Boraski Family Store" });
    const recordedVendor = (sample("minimul-qbo_api/batch__basic__0.json") as { BatchItemResponse: { Vendor?: unknown }[] }).BatchItemResponse[0];
    expect(shapeProblems(vendor.json(), [{ Vendor: recordedVendor?.Vendor, time: "2020-09-29T08:13:20.000-07:00" }])).toEqual([]);
    expect((vendor.json() as { Vendor: Rec }).Vendor).toMatchObject({ Id: "8", DisplayName: "Boraski Family Store", Vendor1099: false });
    expect((await json("vendor/8")) as { Vendor: Rec }).toMatchObject({ Vendor: { DisplayName: "Boraski Family Store" } });
  });

  it("refuses a DisplayName taken by any customer or vendor, in any case, with the recorded 6240", async () => {
    const recorded = (sample("errors/400_ValidationFault_6240_duplicate_name__minimul-qbo_api.json") as { body: { Fault: unknown } }).body;
    for (const [path, name] of [
      ["customer", "Northwind UK Ltd"],
      ["customer", "trade CUSTOMERS"],
      ["vendor", "Northwind Canada Inc."], // a customer's name
      ["customer", "Trade suppliers"], // a vendor's name
    ] as const) {
      const res = await h.post(parent, path, token, { DisplayName: name });
      expect(res.statusCode, name).toBe(400);
      expect((res.json() as { Fault: unknown }).Fault, name).toEqual(recorded.Fault);
    }
    expect(await json(q("SELECT COUNT(*) FROM Customer WHERE Active IN (true, false)"))).toMatchObject({ QueryResponse: { totalCount: 5 } });
    // A subsidiary has its own names: the parent's customer names are free there.
    const uk = h.realms[1] as string;
    const ukToken = (await h.tokens(uk)).access_token;
    expect((await h.post(uk, "customer", ukToken, { DisplayName: "Northwind Canada Inc." })).statusCode).toBe(200);
  });

  it("refuses what QBO refuses: no name at all, a colon, a foreign currency in the sandbox, an Id on create", async () => {
    const missing = await h.post(parent, "customer", token, { CompanyName: "Nobody" });
    expect(missing.json()).toMatchObject({ Fault: { Error: [{ code: "2020" }] } });
    expect((await h.post(parent, "customer", token, { GivenName: "Jane", FamilyName: "Doe" })).json()).toMatchObject({ Customer: { DisplayName: "Jane Doe" } });
    expect((await h.post(parent, "vendor", token, { DisplayName: "Parent:Child" })).json()).toMatchObject({ Fault: { Error: [{ code: "2010" }] } });
    expect((await h.post(parent, "vendor", token, { DisplayName: "Euro Supplies", CurrencyRef: { value: "EUR" } })).json()).toMatchObject({ Fault: { Error: [{ code: "2010" }] } });
    expect((await h.post(parent, "customer?operation=create", token, { DisplayName: "X", Id: "3" })).json()).toMatchObject({ Fault: { Error: [{ code: "2010" }] } });
  });
});

describe("Customer and Vendor update", () => {
  it("updates sparse and full, refuses a stale SyncToken, keeps the SyncToken when nothing changes, and shows changes in CDC", async () => {
    const before = ((await json("customer/5")) as { Customer: Rec }).Customer;
    const same = await h.post(parent, "customer", token, { Id: "5", SyncToken: "0", sparse: true, DisplayName: "Trade customers" });
    expect((same.json() as { Customer: Rec }).Customer).toEqual(before);
    const renamed = await h.post(parent, "customer", token, { Id: "5", SyncToken: "0", sparse: true, DisplayName: "Trade debtors" });
    expect((renamed.json() as { Customer: Rec }).Customer).toMatchObject({ Id: "5", SyncToken: "1", DisplayName: "Trade debtors", Active: true });
    const stale = await h.post(parent, "customer", token, { Id: "5", SyncToken: "0", sparse: true, Active: false });
    expect(stale.json()).toMatchObject({ Fault: { Error: [{ code: "5010", Message: "Stale Object Error" }] } });
    // A full update: CompanyName left out goes, Active left out is true.
    const full = await h.post(parent, "customer?operation=update", token, { Id: "1", SyncToken: "0", DisplayName: "Northwind UK Ltd" });
    expect((full.json() as { Customer: Rec }).Customer).toMatchObject({ SyncToken: "1", Active: true });
    expect((full.json() as { Customer: Rec }).Customer["CompanyName"]).toBeUndefined();
    expect((await h.post(parent, "vendor", token, { Id: "1", SyncToken: "0", sparse: true, Active: false })).json()).toMatchObject({ Fault: { Error: [{ code: "610" }] } });
    expect((await h.post(parent, "customer", token, { Id: "2", SyncToken: "0", sparse: true, DisplayName: "Trade suppliers" })).json()).toMatchObject({ Fault: { Error: [{ code: "6240" }] } });

    const cdc = (await json("cdc?entities=Customer,Vendor&changedSince=2026-11-01T00:00:00Z")) as { CDCResponse: { QueryResponse: Record<string, Rec[]>[] }[] };
    const [customers, vendors] = cdc.CDCResponse[0]?.QueryResponse ?? [];
    expect(customers?.["Customer"]?.map((c) => c.Id).sort()).toEqual(["1", "5"]);
    expect(vendors).toEqual({});
  });

  it("keeps created and updated names across a restart with a data folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qbo-sandbox-names-"));
    try {
      const a = await harness({ dataDir: dir });
      const t = (await a.tokens(parent)).access_token;
      const created = (await a.post(parent, "vendor", t, { DisplayName: "Northwind UK Ltd" })).json() as { Vendor?: Rec };
      expect(created.Vendor).toBeUndefined(); // a customer already has that name
      const v = ((await a.post(parent, "vendor", t, { DisplayName: "Northwind UK Ltd (supplier)" })).json() as { Vendor: Rec }).Vendor;
      await a.post(parent, "customer", t, { Id: "4", SyncToken: "0", sparse: true, Active: false });
      const b = await harness({ dataDir: dir });
      expect((await b.get(parent, `vendor/${v.Id}`, t)).json()).toMatchObject({ Vendor: { DisplayName: "Northwind UK Ltd (supplier)" } });
      expect((await b.get(parent, "customer/4", t)).json()).toMatchObject({ Customer: { Active: false, SyncToken: "1" } });
      b.sandbox.reset();
      const c = await harness({ dataDir: dir });
      expect(c.sandbox.ledger(parent)?.parties.map((p) => p.displayName)).not.toContain("Northwind UK Ltd (supplier)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
