/** The read-only journal entry view that "Open in QuickBooks" links to for emulator companies. */
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { firstCompanySession } from "../testing/harness.ts";

let h: Harness;
let realm: string;
let token: string;

beforeEach(async () => {
  ({ h, realm, token } = await firstCompanySession());
});

/** Account 6 is the parent's A/R, whose lines name a customer (5); 51 an income account. */
async function postEntry(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await h.post(realm, "journalentry?minorversion=75", token, {
    TxnDate: "2026-10-20",
    DocNumber: "CR202610-384031",
    PrivateNote: "GroupLedger: <consolidation> & CTA",
    Line: [
      { DetailType: "JournalEntryLineDetail", Amount: "1234.5", Description: "Northwind Canada Inc. 2026-10", JournalEntryLineDetail: { PostingType: "Debit", Entity: { Type: "Customer", EntityRef: { value: "5" } }, AccountRef: { value: "6" }, ClassRef: { value: "1" } } },
      { DetailType: "JournalEntryLineDetail", Amount: 1234.5, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "51" } } },
    ],
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { JournalEntry: { Id: string } }).JournalEntry.Id;
}

const view = (query: string) => h.app.inject({ method: "GET", url: `/app/journal${query}` });

describe("GET /app/journal", () => {
  it("shows an entry as QuickBooks would: number, date, memo and every line with its account, amount, name and class", async () => {
    const id = await postEntry();
    const res = await view(`?realmId=${realm}&txnId=${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    const ledger = h.sandbox.ledger(realm)!;
    const ar = ledger.account("6")!;
    const income = ledger.account("51")!;
    expect(res.body).toContain("<h1>Journal entry CR202610-384031</h1>");
    expect(res.body).toContain(ledger.profile.name);
    expect(res.body).toContain("<dd>2026-10-20</dd>");
    // Text from the books is escaped, never markup.
    expect(res.body).toContain("GroupLedger: &lt;consolidation&gt; &amp; CTA");
    expect(res.body).toContain(`${ar.number} ${ar.name}`);
    expect(res.body).toContain(`${income.number} ${income.name}`);
    expect(res.body).toContain(ledger.party("5")!.displayName);
    expect(res.body).toContain("Wholesale");
    expect(res.body.match(/1,234\.50/g)).toHaveLength(4); // each line and both totals
  });

  it("answers 404 in words for an unknown company, an unknown entry and a deleted one; 400 without both ids", async () => {
    const id = await postEntry();
    expect((await view(`?realmId=123&txnId=${id}`)).statusCode).toBe(404);
    const unknown = await view(`?realmId=${realm}&txnId=99999`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain("has no journal entry 99999");
    const deleted = await h.post(realm, "journalentry?operation=delete", token, { Id: id, SyncToken: "0" });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const gone = await view(`?realmId=${realm}&txnId=${id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toContain("it was deleted");
    expect((await view(`?txnId=${id}`)).statusCode).toBe(400);
  });
});
