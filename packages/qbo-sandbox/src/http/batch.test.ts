/**
 * `POST .../batch` against the recorded exchange (minimul-qbo_api/batch__basic__0) and Intuit's
 * documented example (entities/Batch_request__/Batch_response__intuit-docs-example): items answered
 * in order under their bId, each with its result or its own Fault; the 30-item limit; a batch as
 * one request against the per-realm limits and within the limit on batch requests.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { Sandbox } from "../sandbox.ts";
import type { Harness } from "../testing/harness.ts";
import { harness, q, testClock } from "../testing/harness.ts";
import { SAMPLES } from "../testing/shape.ts";
import { MAX_BATCHES_PER_MINUTE, MAX_CONCURRENT, RealmLimiter } from "../throttle.ts";

type Item = { bId: string; Fault?: { Error: { code: string; Message: string; Detail: string; element: string }[]; type: string }; QueryResponse?: Record<string, unknown> } & Record<string, unknown>;

let h: Harness;
let realm: string;
let token: string;

/** Account 6 is the parent's A/R (its lines name customer 5), account 1 a bank. */
const entry = (docNumber: string, debit: number, credit = debit) => ({
  TxnDate: "2026-10-20",
  DocNumber: docNumber,
  Line: [
    { DetailType: "JournalEntryLineDetail", Amount: debit, JournalEntryLineDetail: { PostingType: "Debit", Entity: { Type: "Customer", EntityRef: { value: "5" } }, AccountRef: { value: "6" } } },
    { DetailType: "JournalEntryLineDetail", Amount: credit, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "1" } } },
  ],
});

async function batch(items: unknown[], path = "batch"): Promise<{ status: number; items: Item[]; body: Record<string, unknown> }> {
  const res = await h.post(realm, path, token, { BatchItemRequest: items });
  const body = res.json() as Record<string, unknown>;
  return { status: res.statusCode, items: (body["BatchItemResponse"] ?? []) as Item[], body };
}

const recording = (rel: string): unknown => JSON.parse(readFileSync(new URL(rel, SAMPLES), "utf8"));

beforeEach(async () => {
  h = await harness({ now: testClock("2026-10-29T17:00:00.000Z").now });
  realm = h.realms[0] as string;
  token = (await h.tokens(realm)).access_token;
});

describe("batch", () => {
  it("answers the recorded batch item by item: the vendor made, the invoice and sales receipt not found, the query answered", async () => {
    const exchange = recording("minimul-qbo_api/batch__basic__0.json") as { request: { body: string } };
    const res = await h.post(realm, "batch?minorversion=75", token, JSON.parse(exchange.request.body));
    expect(res.statusCode).toBe(200);
    const body = res.json() as { BatchItemResponse: Item[]; time: string };
    expect(body.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const [vendor, invoice, receipt, query] = body.BatchItemResponse;
    expect(body.BatchItemResponse.map((i) => i.bId)).toEqual(["bid1", "bid2", "bid3", "bid4"]);
    expect(Object.keys(vendor!)).toEqual(["Vendor", "bId"]);
    expect(vendor!["Vendor"]).toMatchObject({ DisplayName: "Boraski Family Store", Active: true, SyncToken: "0" });
    // The emulator keeps no invoices or sales receipts: neither object exists (the recording's
    // sales receipt did, with a newer SyncToken: 5010 there, 610 here).
    for (const failed of [invoice, receipt]) {
      expect(Object.keys(failed!)).toEqual(["Fault", "bId"]);
      expect(failed!.Fault).toMatchObject({ type: "ValidationFault", Error: [{ code: "610", Message: "Object Not Found", element: "" }] });
    }
    expect(query).toEqual({ QueryResponse: {}, bId: "bid4" });
    // The vendor is really there.
    const vendors = (await h.get(realm, q("SELECT * FROM Vendor WHERE DisplayName = 'Boraski Family Store'"), token)).json() as { QueryResponse: { Vendor?: unknown[] } };
    expect(vendors.QueryResponse.Vendor).toHaveLength(1);
  });

  it("answers Intuit's documented example with its documented 6240 for a name already in use", async () => {
    expect((await h.post(realm, "vendor", token, { DisplayName: "Smith Family Store" })).statusCode).toBe(200);
    const { status, items } = await batch((recording("entities/Batch_request__intuit-docs-example__abossenbroek-qbo-mcp.json") as { BatchItemRequest: unknown[] }).BatchItemRequest);
    expect(status).toBe(200);
    const documented = (recording("entities/Batch_response__intuit-docs-example__abossenbroek-qbo-mcp.json") as { BatchItemResponse: Item[] }).BatchItemResponse;
    expect(items.map((i) => i.bId)).toEqual(documented.map((i) => i.bId));
    expect(items[0]!.Fault?.Error[0]).toMatchObject({ code: "6240", Message: documented[0]!.Fault!.Error[0]!.Message, element: "" });
    expect(items[1]!.Fault?.Error[0]?.code).toBe(documented[1]!.Fault!.Error[0]!.code);
  });

  it("runs queries and writes of the emulator's entities; a failing item leaves the others done", async () => {
    const customer = (await h.get(realm, "customer/5", token)).json() as { Customer: { SyncToken: string } };
    const { status, items } = await batch([
      { bId: "je-ok", operation: "create", JournalEntry: entry("B-1", 10) },
      { bId: "je-unbalanced", operation: "create", JournalEntry: entry("B-2", 10, 9) },
      { bId: "class", operation: "create", Class: { Name: "Batch class" } },
      { bId: "stale", operation: "update", Customer: { Id: "5", SyncToken: String(Number(customer.Customer.SyncToken) + 3), sparse: true, DisplayName: "Renamed" } },
      { bId: "unknown-field", operation: "create", Vendor: { DisplayName: "X", Bogus: 1 } },
      { bId: "bad-query", Query: "SELECT * FROM Nothing" },
      { bId: "docs", Query: "SELECT * FROM JournalEntry WHERE DocNumber IN ('B-1', 'B-2')" },
    ]);
    expect(status).toBe(200);
    const byId = new Map(items.map((i) => [i.bId, i]));
    expect(items.map((i) => i.bId)).toEqual(["je-ok", "je-unbalanced", "class", "stale", "unknown-field", "bad-query", "docs"]);
    expect(byId.get("je-ok")!["JournalEntry"]).toMatchObject({ DocNumber: "B-1", TotalAmt: 10 });
    expect(byId.get("je-unbalanced")!.Fault?.Error[0]?.code).toBe("6000");
    expect(byId.get("class")!["Class"]).toMatchObject({ Name: "Batch class" });
    expect(byId.get("stale")!.Fault?.Error[0]).toMatchObject({ code: "5010", Message: "Stale Object Error" });
    expect(byId.get("unknown-field")!.Fault?.Error[0]).toMatchObject({ code: "2010", Detail: expect.stringContaining('Unrecognized field "Bogus"') });
    expect(byId.get("bad-query")!.Fault?.Error[0]?.code).toBe("4001");
    // Items run in order: the query sees the entry made before it, not the refused one.
    const docs = byId.get("docs")!.QueryResponse as { JournalEntry: { DocNumber: string }[] };
    expect(docs.JournalEntry.map((e) => e.DocNumber)).toEqual(["B-1"]);

    // Updates and deletes by Id and SyncToken, like the entity endpoints.
    const made = byId.get("je-ok")!["JournalEntry"] as { Id: string; SyncToken: string };
    const second = await batch([
      { bId: "delete", operation: "delete", JournalEntry: { Id: made.Id, SyncToken: made.SyncToken } },
      { bId: "again", operation: "delete", JournalEntry: { Id: made.Id, SyncToken: made.SyncToken } },
    ]);
    expect(second.items[0]).toEqual({ JournalEntry: { domain: "QBO", status: "Deleted", Id: made.Id }, bId: "delete" });
    expect(second.items[1]!.Fault?.Error[0]?.code).toBe("610");
  });

  it("refuses an item without its operation, with a Query and an entity, or an operation the entity has not", async () => {
    const { items } = await batch([
      { bId: "a", Vendor: { DisplayName: "No operation" } },
      { bId: "b", Query: "SELECT * FROM Account", Vendor: { DisplayName: "Both" } },
      { bId: "c", operation: "delete", Account: { Id: "1", SyncToken: "0" } },
      { bId: "d", operation: "create", Invoice: { Line: [] } },
      { bId: "e", operation: "create", Nonsense: {} },
    ]);
    expect(items.map((i) => [i.bId, i.Fault?.Error[0]?.code])).toEqual([["a", "2010"], ["b", "2010"], ["c", "2010"], ["d", "500"], ["e", "2010"]]);
    expect(items[2]!.Fault?.Error[0]?.Detail).toBe("Property Name:operation value delete is not supported for Account; use create or update");
    const vendors = (await h.get(realm, q("SELECT COUNT(*) FROM Vendor WHERE DisplayName IN ('No operation', 'Both')"), token)).json() as { QueryResponse: { totalCount: number } };
    expect(vendors.QueryResponse.totalCount).toBe(0);
  });

  it("takes up to 30 items; more, no list, or a missing or repeated bId refuse the whole request", async () => {
    const queries = (n: number) => Array.from({ length: n }, (_, i) => ({ bId: `q${i}`, Query: "SELECT * FROM Class" }));
    const thirty = await batch(queries(30));
    expect(thirty.status).toBe(200);
    expect(thirty.items).toHaveLength(30);
    const refused = async (body: unknown, detail: string) => {
      const res = await h.post(realm, "batch", token, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ Fault: { type: "ValidationFault", Error: [{ code: "2010", Message: "Request has invalid or unsupported property", Detail: detail }] } });
    };
    await refused({ BatchItemRequest: queries(31) }, "Property Name:BatchItemRequest has 31 items; a batch request takes at most 30");
    await refused({}, "Property Name:BatchItemRequest is required: a list of batch items, each an object");
    await refused({ BatchItemRequest: [{ Query: "SELECT * FROM Class" }] }, "Property Name:bId is required on every batch item");
    await refused({ BatchItemRequest: [{ bId: "x", Query: "SELECT * FROM Class" }, { bId: "x", Query: "SELECT * FROM Account" }] }, "Property Name:bId x is used by two batch items; each needs its own");
  });

  it("replays the first answer to a repeated requestid and makes nothing twice", async () => {
    const items = [{ bId: "v", operation: "create", Vendor: { DisplayName: "Once only" } }];
    const first = await batch(items, "batch?requestid=batch-once-1");
    const again = await batch(items, "batch?requestid=batch-once-1");
    expect(again.items).toEqual(first.items);
    expect(first.items[0]!["Vendor"]).toMatchObject({ DisplayName: "Once only" });
    const fresh = await batch(items, "batch?requestid=batch-once-2");
    expect(fresh.items[0]!.Fault?.Error[0]?.code).toBe("6240");
  });

  it("counts as one request of the realm, whatever its items", async () => {
    const before = h.sandbox.requestCounts(realm);
    await batch(Array.from({ length: 30 }, (_, i) => ({ bId: `c${i}`, Query: "SELECT * FROM Customer" })));
    await h.get(realm, q("SELECT * FROM Class"), token);
    const after = h.sandbox.requestCounts(realm);
    expect((after["POST batch"] ?? 0) - (before["POST batch"] ?? 0)).toBe(1);
    expect((after["GET query"] ?? 0) - (before["GET query"] ?? 0)).toBe(1);
    expect(h.sandbox.requestCounts(h.realms[1] as string)).toEqual({});
  });

  it("keeps what a batch wrote in the data folder", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "sandbox-batch-"));
    try {
      h = await harness({ dataDir, now: testClock("2026-10-29T17:00:00.000Z").now });
      token = (await h.tokens(realm)).access_token;
      const { items } = await batch([{ bId: "c", operation: "create", Customer: { DisplayName: "Kept customer" } }, { bId: "j", operation: "create", JournalEntry: entry("KEEP-1", 5) }]);
      expect(items.every((i) => i.Fault === undefined)).toBe(true);
      const restarted = new Sandbox({ dataDir });
      const ledger = restarted.ledger(realm)!;
      expect(ledger.parties.some((p) => p.displayName === "Kept customer")).toBe(true);
      expect(ledger.entries.some((e) => e.docNumber === "KEEP-1")).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("Intuit's limits on batch requests", () => {
  it("allows 40 batch requests per realm per rolling minute, each also one of the realm's 500 requests", () => {
    const limiter = new RealmLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < MAX_BATCHES_PER_MINUTE; i++) {
      expect(limiter.tryAcquire("r", t0 + i, "batch")).toBe(true);
      limiter.release("r");
    }
    expect(limiter.tryAcquire("r", t0 + 1000, "batch")).toBe(false);
    // Other requests of the realm and other realms' batches go on.
    expect(limiter.tryAcquire("r", t0 + 1000)).toBe(true);
    limiter.release("r");
    expect(limiter.tryAcquire("other", t0 + 1000, "batch")).toBe(true);
    expect(limiter.tryAcquire("r", t0 + 60_001, "batch")).toBe(true);
    // A batch is one of the 10 requests in flight.
    for (let i = 0; i < MAX_CONCURRENT - 1; i++) expect(limiter.tryAcquire("busy", t0)).toBe(true);
    expect(limiter.tryAcquire("busy", t0, "batch")).toBe(true);
    expect(limiter.tryAcquire("busy", t0)).toBe(false);
  });

  it("answers the 41st batch of a minute with QuickBooks' 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < MAX_BATCHES_PER_MINUTE; i++) statuses.push((await batch([{ bId: "q", Query: "SELECT * FROM Class" }])).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const last = await h.post(realm, "batch", token, { BatchItemRequest: [{ bId: "q", Query: "SELECT * FROM Class" }] });
    expect(last.statusCode).toBe(429);
    expect(last.json()).toMatchObject({ Fault: { type: "ThrottleExceeded", Error: [{ code: "3001" }] } });
    expect((await h.get(realm, q("SELECT * FROM Class"), token)).statusCode).toBe(200);
  });
});
