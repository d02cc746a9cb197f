/**
 * Issue #20 item 7: QuickBooks' smaller limits and habits, each against a recording in
 * ../shared/qbo-samples or Intuit's documented text.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { harness, q, testClock } from "../testing/harness.ts";
import { sample, shapeProblems } from "../testing/shape.ts";

let h: Harness;
let clock: ReturnType<typeof testClock>;
let parent: string;
let token: string;

type Fault = { Fault: { Error: { Message: string; Detail: string; code: string }[]; type: string } };
type Rec = Record<string, unknown> & { Id: string };

beforeEach(async () => {
  clock = testClock();
  h = await harness({ now: clock.now });
  parent = h.realms[0] as string;
  token = (await h.tokens(parent)).access_token;
});

const RECORDED_2010 = sample("errors/400_ValidationFault_2010_unknown_property__minimul-qbo_api.json") as { status: { code: number }; body: Fault };
const RECORDED_4001 = sample("errors/400_ValidationFault_4001_invalid_query__minimul-qbo_api.json") as { body: Fault };

describe("minorversion", () => {
  it("answers every value up to 75 as 75 (Intuit: versions below 75 are ignored since 1 August 2025) and counts what was sent", async () => {
    for (const v of ["1", "65", "75"]) {
      expect((await h.get(parent, `preferences?minorversion=${v}`, token)).statusCode).toBe(200);
    }
    expect((await h.get(parent, "preferences", token)).statusCode).toBe(200);
    expect(h.sandbox.minorVersionsSeen()).toEqual({ "1": 1, "65": 1, "75": 1, none: 1 });
  });
});

describe("query MAXRESULTS", () => {
  it("serves 1000 rows a page and refuses more with the recorded 4001 'Invalid query' shape", async () => {
    const ok = await h.get(parent, q("SELECT * FROM JournalEntry MAXRESULTS 1000"), token);
    expect((ok.json() as { QueryResponse: { maxResults: number } }).QueryResponse.maxResults).toBe(1000);
    const res = await h.get(parent, q("SELECT * FROM JournalEntry STARTPOSITION 1 MAXRESULTS 1001"), token);
    expect(res.statusCode).toBe(400);
    const body = res.json() as Fault;
    expect(body.Fault).toEqual({ Error: [{ Message: "Invalid query", Detail: "QueryValidationError: value 1001 is too large. Max allowed value is 1000", code: "4001" }], type: "ValidationFault" });
    expect(shapeProblems(body, [RECORDED_4001.body])).toEqual([]);
  });
});

describe("unknown fields in a body", () => {
  const DETAIL = (entity: string) =>
    new RegExp(`^Property Name:Unrecognized field "BadJson" \\(class com\\.intuit\\.schema\\.finance\\.v3\\.${entity}\\), not marked as ignorable \\(\\d+ known properties: "Id", .*"\\]\\)\\n specified is unsupported or invalid$`, "s");

  it("answers 400 2010 'Unrecognized field' as recorded (errors/400_ValidationFault_2010...) and changes nothing", async () => {
    const ledger = h.sandbox.ledger(parent);
    if (ledger === undefined) throw new Error("no parent");
    const before = { accounts: ledger.accounts.length, entries: ledger.entries.length, classes: ledger.classes.length };
    const cash = ledger.accounts.find((a) => a.type === "Bank" && a.active);
    const expense = ledger.accounts.find((a) => a.type === "Expense" && a.active);
    const cases: [string, string, unknown][] = [
      ["account", "Account", { Name: "Brand new", AccountType: "Expense", BadJson: 1 }],
      ["customer", "Customer", { DisplayName: "Brand new customer", BadJson: "x" }],
      ["vendor", "Vendor", { DisplayName: "Brand new vendor", BadJson: true }],
      ["class", "Class", { Name: "Brand new class", BadJson: null }],
      [
        "journalentry",
        "JournalEntry",
        {
          TxnDate: "2026-10-31",
          BadJson: {},
          Line: [
            { DetailType: "JournalEntryLineDetail", Amount: 10, JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: expense?.id } } },
            { DetailType: "JournalEntryLineDetail", Amount: 10, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: cash?.id } } },
          ],
        },
      ],
    ];
    for (const [path, entity, body] of cases) {
      const res = await h.post(parent, path, token, body);
      expect(res.statusCode, path).toBe(RECORDED_2010.status.code);
      const fault = res.json() as Fault;
      expect(shapeProblems(fault, [RECORDED_2010.body])).toEqual([]);
      expect(fault.Fault.type).toBe("ValidationFault");
      expect(fault.Fault.Error).toHaveLength(1);
      expect(fault.Fault.Error[0]).toMatchObject({ Message: "Request has invalid or unsupported property", code: "2010" });
      expect(fault.Fault.Error[0]?.Detail).toMatch(DETAIL(entity));
    }
    // The recorded Detail follows the same pattern (there for an Invoice).
    expect(RECORDED_2010.body.Fault.Error[0]?.Detail).toMatch(/^Property Name:Unrecognized field "BadJson" \(class com\.intuit\.schema\.finance\.v3\.Invoice\), not marked as ignorable \(83 known properties: "DocNumber", /);
    expect({ accounts: ledger.accounts.length, entries: ledger.entries.length, classes: ledger.classes.length }).toEqual(before);
  });

  it("accepts the schema's own properties the emulator does not keep, and a read body sent back as an update", async () => {
    const created = await h.post(parent, "vendor", token, { DisplayName: "Schema vendor", Vendor1099: false, PrimaryEmailAddr: { Address: "a@b.example" }, domain: "QBO", sparse: false });
    expect(created.statusCode, created.body).toBe(200);
    const vendor = (created.json() as { Vendor: Rec }).Vendor;
    // Everything a read answers (Balance, CurrencyRef, MetaData, PrintOnCheckName...) is a known property.
    const back = await h.post(parent, "vendor", token, { ...vendor, CompanyName: "Schema Ltd" });
    expect(back.statusCode, back.body).toBe(200);
    const account = (await h.get(parent, `account/${h.sandbox.ledger(parent)?.accounts[0]?.id}`, token)).json() as { Account: Rec };
    expect((await h.post(parent, "account", token, account.Account)).statusCode).toBe(200);
  });
});

describe("CDC look-back", () => {
  it("answers up to 30 days back and refuses older changedSince (Intuit: 'CDC operations can track changes within the last 30 days')", async () => {
    const daysAgo = (d: number) => new Date(clock.now().getTime() - d * 24 * 3600 * 1000).toISOString();
    expect((await h.get(parent, `cdc?entities=Account&changedSince=${daysAgo(29)}`, token)).statusCode).toBe(200);
    expect((await h.get(parent, `cdc?entities=Account&changedSince=${daysAgo(30)}`, token)).statusCode).toBe(200);
    const since = daysAgo(31);
    const res = await h.get(parent, `cdc?entities=Account,JournalEntry&changedSince=${since}`, token);
    expect(res.statusCode).toBe(400);
    expect((res.json() as Fault).Fault).toEqual({
      Error: [{ Message: "Request has invalid or unsupported property", Detail: `Operation cdc with changedSince date ${since} which is older than fixed days is not supported.`, code: "2010" }],
      type: "ValidationFault",
    });
  });
});

describe("inactive names", () => {
  it("show ' (deleted)' in an Account's Name and FullyQualifiedName (deactivate__account__0) and in the references to it", async () => {
    const ledger = h.sandbox.ledger(parent);
    const retired = ledger?.accounts.find((a) => !a.active && ledger.entries.some((e) => e.deletedTime === undefined && e.lines.some((l) => l.accountId === a.id)));
    if (ledger === undefined || retired === undefined) throw new Error("the demo parent has an account retired after use");
    const read = (await h.get(parent, `account/${retired.id}`, token)).json() as { Account: Rec };
    expect(read.Account).toMatchObject({ Name: `${retired.name} (deleted)`, FullyQualifiedName: `${retired.name} (deleted)`, Active: false });
    const entry = ledger.entries.find((e) => e.deletedTime === undefined && e.lines.some((l) => l.accountId === retired.id));
    const je = (await h.get(parent, `journalentry/${entry?.id}`, token)).json() as { JournalEntry: { Line: { JournalEntryLineDetail: { AccountRef: { value: string; name: string } } }[] } };
    const refs = je.JournalEntry.Line.map((l) => l.JournalEntryLineDetail.AccountRef).filter((r) => r.value === retired.id);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.every((r) => r.name === `${retired.name} (deleted)`)).toBe(true);
    // The recorded deactivate sends the shown name back (deactivate__account__1): nothing changes.
    const again = await h.post(parent, "account", token, { Id: retired.id, SyncToken: read.Account["SyncToken"], sparse: true, Active: false, Name: `${retired.name} (deleted)` });
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json() as { Account: Rec }).Account).toMatchObject({ Name: `${retired.name} (deleted)`, SyncToken: read.Account["SyncToken"] });
    expect(ledger.account(retired.id)?.name).toBe(retired.name);
  });

  it("show ' (deleted)' in a vendor's DisplayName but not its PrintOnCheckName (get__inactive_vendors__0, all__employees_including_active__1)", async () => {
    const created = (await h.post(parent, "vendor", token, { DisplayName: "United States Treasury" })).json() as { Vendor: Rec };
    await h.post(parent, "vendor", token, { Id: created.Vendor.Id, SyncToken: "0", sparse: true, Active: false });
    const all = (await h.get(parent, q("SELECT * FROM Vendor WHERE Active IN (true, false)"), token)).json() as { QueryResponse: { Vendor: Rec[] } };
    expect(all.QueryResponse.Vendor.find((v) => v.Id === created.Vendor.Id)).toMatchObject({ DisplayName: "United States Treasury (deleted)", PrintOnCheckName: "United States Treasury", Active: false });
    // Reactivated, the plain name is back.
    const active = await h.post(parent, "vendor", token, { Id: created.Vendor.Id, SyncToken: "1", sparse: true, Active: true, DisplayName: "United States Treasury (deleted)" });
    expect((active.json() as { Vendor: Rec }).Vendor).toMatchObject({ DisplayName: "United States Treasury", Active: true });
  });
});

describe("query order", () => {
  it("lists vendors by DisplayName character by character, as recorded (all__vendors_by_5__*: Bob's, Books, ..., PG&E before Pam Seitz)", async () => {
    for (const name of ["Pam Seitz", "PG&E", "Books by Bessie", "Bob's Burger Joint"]) {
      expect((await h.post(parent, "vendor", token, { DisplayName: name })).statusCode).toBe(200);
    }
    const page = (await h.get(parent, q("SELECT * FROM Vendor"), token)).json() as { QueryResponse: { Vendor: Rec[] } };
    expect(page.QueryResponse.Vendor.map((v) => v.DisplayName)).toEqual(["Bob's Burger Joint", "Books by Bessie", "PG&E", "Pam Seitz", "Trade suppliers"]);
    const recorded = [1, 2, 3, 4, 5, 6].flatMap((n) => ((sample(`minimul-qbo_api/all__vendors_by_5__${n}.json`) as { QueryResponse: { Vendor?: { DisplayName: string }[] } }).QueryResponse.Vendor ?? []).map((v) => v.DisplayName));
    expect(recorded).toEqual([...recorded].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // An explicit ORDERBY still wins.
    const byId = (await h.get(parent, q("SELECT * FROM Vendor ORDERBY Id"), token)).json() as { QueryResponse: { Vendor: Rec[] } };
    expect(byId.QueryResponse.Vendor.map((v) => Number(v.Id))).toEqual(byId.QueryResponse.Vendor.map((v) => Number(v.Id)).sort((a, b) => a - b));
  });
});
