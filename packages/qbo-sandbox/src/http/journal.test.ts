/** Posting through the API: validation Faults, requestid replay, effect on reports, delete. */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { firstCompanySession, harness, q } from "../testing/harness.ts";

let h: Harness;
let realm: string;
let token: string;

/** Account 6 is the parent's A/R: QBO wants a customer on its lines, so they name "Trade customers" (5). */
const AR = "6";
function line(posting: "Debit" | "Credit", account: string, amount: number | string, extra: Record<string, unknown> = {}) {
  const name = account === AR ? { Entity: { Type: "Customer", EntityRef: { value: "5" } } } : {};
  return { DetailType: "JournalEntryLineDetail", Amount: amount, JournalEntryLineDetail: { PostingType: posting, ...name, AccountRef: { value: account }, ...extra } };
}

function je(lines: unknown[], extra: Record<string, unknown> = {}) {
  return { TxnDate: "2026-10-20", DocNumber: "GL-1", PrivateNote: "Consolidation adjustment", Line: lines, ...extra };
}

async function count(): Promise<number> {
  const res = await h.get(realm, q("SELECT COUNT(*) FROM JournalEntry"), token);
  return (res.json() as { QueryResponse: { totalCount: number } }).QueryResponse.totalCount;
}

async function tbAmount(accountId: string, end = "2026-10-31"): Promise<string> {
  const res = await h.get(realm, `reports/TrialBalance?start_date=2026-10-01&end_date=${end}`, token);
  const rows = (res.json() as { Rows: { Row: { ColData?: { value: string; id?: string }[] }[] } }).Rows.Row;
  const row = rows.find((r) => r.ColData?.[0]?.id === accountId);
  return row === undefined ? "" : `${row.ColData?.[1]?.value}|${row.ColData?.[2]?.value}`;
}

beforeEach(async () => {
  ({ h, realm, token } = await firstCompanySession());
});

describe("JournalEntry create", () => {
  it("rejects an unbalanced entry with a 400 ValidationFault 6000 and posts nothing", async () => {
    const before = await count();
    const res = await h.post(realm, "journalentry", token, je([line("Debit", "6", 100), line("Credit", "1", 99.99)]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      Fault: { Error: [{ code: "6000", Message: "A business validation error has occurred while processing your request", Detail: expect.stringMatching(/must balance.*100\.00.*99\.99/) }], type: "ValidationFault" },
    });
    expect(await count()).toBe(before);
  });

  it("rejects an unknown account with 2500 Invalid Reference Id and an inactive one with 610", async () => {
    const unknown = await h.post(realm, "journalentry", token, je([line("Debit", "9999", 5), line("Credit", "1", 5)]));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ Fault: { Error: [{ code: "2500", Message: "Invalid Reference Id", Detail: "Invalid Reference Id : Accounts element id 9999 not found" }] } });
    const inactiveId = h.sandbox.ledger(realm)?.accounts.find((a) => !a.active)?.id as string;
    const inactive = await h.post(realm, "journalentry", token, je([line("Debit", inactiveId, 5), line("Credit", "1", 5)]));
    expect(inactive.json()).toMatchObject({ Fault: { Error: [{ code: "610", Message: "Object Not Found" }] } });
    const badClass = await h.post(realm, "journalentry", token, je([line("Debit", "6", 5, { ClassRef: { value: "77" } }), line("Credit", "1", 5)]));
    expect(badClass.json()).toMatchObject({ Fault: { Error: [{ code: "2500", Detail: "Invalid Reference Id : Klasses element id 77 not found" }] } });
  });

  it("posts a balanced entry that the next TrialBalance includes", async () => {
    const before = await tbAmount("6"); // Accounts Receivable (A/R)
    const res = await h.post(realm, "journalentry?minorversion=75", token, je([line("Debit", "6", "1000.01", { ClassRef: { value: "1" } }), line("Credit", "51", 1000.01)]));
    expect(res.statusCode).toBe(200);
    const entry = (res.json() as { JournalEntry: Record<string, unknown> }).JournalEntry;
    expect(entry).toMatchObject({ SyncToken: "0", TxnDate: "2026-10-20", DocNumber: "GL-1", TotalAmt: 1000.01, CurrencyRef: { value: "USD" } });
    expect((entry["Line"] as { JournalEntryLineDetail: unknown }[])[0]?.JournalEntryLineDetail).toMatchObject({ ClassRef: { value: "1", name: "Wholesale" } });
    const [debitBefore] = before.split("|");
    const [debitAfter] = (await tbAmount("6")).split("|");
    expect(Math.round(Number(debitAfter) * 100) - Math.round(Number(debitBefore) * 100)).toBe(100001);
    const read = await h.get(realm, `journalentry/${entry["Id"] as string}`, token);
    expect((read.json() as { JournalEntry: unknown }).JournalEntry).toEqual(entry);
  });

  it("replays the first response for a repeated requestid, errors included, and posts once", async () => {
    const before = await count();
    const body = je([line("Debit", "6", 10), line("Credit", "51", 10)]);
    const first = await h.post(realm, "journalentry?requestid=run-42-sub-UK", token, body);
    const second = await h.post(realm, "journalentry?requestid=run-42-sub-UK", token, body);
    expect(first.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(await count()).toBe(before + 1);
    const bad = je([line("Debit", "6", 10), line("Credit", "51", 9)]);
    const e1 = await h.post(realm, "journalentry?requestid=bad-1", token, bad);
    const e2 = await h.post(realm, "journalentry?requestid=bad-1", token, je([line("Debit", "6", 10), line("Credit", "51", 10)]));
    expect(e1.statusCode).toBe(400);
    expect(e2.statusCode).toBe(400);
    expect(e2.body).toBe(e1.body);
    // the same requestid in another company is another request
    const other = h.realms[1] as string;
    const otherToken = (await h.tokens(other)).access_token;
    // Two of its accounts that need no Name (not A/R or A/P).
    const [a, b] = h.sandbox.ledger(other)!.accounts.filter((x) => x.active && x.type !== "Accounts Receivable" && x.type !== "Accounts Payable");
    const elsewhere = await h.post(other, "journalentry?requestid=run-42-sub-UK", otherToken, je([line("Debit", a!.id, 10), line("Credit", b!.id, 10)]));
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.body).not.toBe(first.body);
  });

  it("books a foreign-currency entry at the given rate in home currency", async () => {
    const res = await h.post(realm, "journalentry", token, je([line("Debit", "12", 100), line("Credit", "1", 100)], { CurrencyRef: { value: "GBP" }, ExchangeRate: 1.25 }));
    expect(res.statusCode).toBe(200);
    expect((res.json() as { JournalEntry: unknown }).JournalEntry).toMatchObject({ CurrencyRef: { value: "GBP" }, ExchangeRate: 1.25, TotalAmt: 100, HomeTotalAmt: 125 });
    const sub = h.realms[1] as string;
    const subToken = (await h.tokens(sub)).access_token;
    const refused = await h.post(sub, "journalentry", subToken, je([line("Debit", "9", 1), line("Credit", "13", 1)], { CurrencyRef: { value: "USD" } }));
    expect(refused.json()).toMatchObject({ Fault: { Error: [{ code: "6000" }] } });
  });
});

describe("JournalEntry delete", () => {
  it("refuses a stale SyncToken with 5010, deletes with the current one, then the entry is gone", async () => {
    const created = await h.post(realm, "journalentry", token, je([line("Debit", "6", 25), line("Credit", "51", 25)]));
    const id = (created.json() as { JournalEntry: { Id: string } }).JournalEntry.Id;
    const stale = await h.post(realm, "journalentry?operation=delete", token, { Id: id, SyncToken: "3" });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toMatchObject({ Fault: { Error: [{ code: "5010", Message: "Stale Object Error" }] } });
    const ok = await h.post(realm, "journalentry?operation=delete", token, { Id: id, SyncToken: "0" });
    expect(ok.json()).toMatchObject({ JournalEntry: { domain: "QBO", status: "Deleted", Id: id } });
    expect((await h.get(realm, `journalentry/${id}`, token)).json()).toMatchObject({ Fault: { Error: [{ code: "610" }] } });
    const cdc = await h.get(realm, "cdc?entities=JournalEntry&changedSince=2026-11-01T00:00:00Z", token);
    expect(JSON.stringify(cdc.json())).toContain(`{"domain":"QBO","status":"Deleted","Id":"${id}"`);
  });
});

describe("persistence", () => {
  it("keeps posted entries and tokens in the data folder across restarts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qbo-sandbox-"));
    try {
      const a = await harness({ dataDir: dir });
      const t = await a.tokens(realm);
      const posted = await a.post(realm, "journalentry?requestid=p-1", t.access_token, je([line("Debit", "6", 7), line("Credit", "51", 7)]));
      const id = (posted.json() as { JournalEntry: { Id: string } }).JournalEntry.Id;
      const b = await harness({ dataDir: dir });
      const read = await b.get(realm, `journalentry/${id}`, t.access_token);
      expect(read.statusCode).toBe(200);
      expect((await b.post(realm, "journalentry?requestid=p-1", t.access_token, {})).body).toBe(posted.body);
      b.sandbox.reset();
      const c = await harness({ dataDir: dir });
      expect((await c.get(realm, `journalentry/${id}`, t.access_token)).statusCode).toBe(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an unreadable state file", () => {
  it("is moved aside and the emulator starts fresh, saying where it went; later changes are kept again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qbo-sandbox-"));
    try {
      writeFileSync(join(dir, "sandbox-state.json"), '{"version":1,"realms":{'); // cut off mid-way
      const heard: string[] = [];
      const a = await harness({ dataDir: dir, onDiscardedState: (m) => heard.push(m) });
      expect(heard).toHaveLength(1);
      expect(heard[0]).toMatch(/^sandbox-state\.json could not be read \(.+\); moved to .+sandbox-state\.json\.unreadable-.+, the emulator starts fresh$/);
      expect(readdirSync(dir).filter((f) => f.startsWith("sandbox-state.json.unreadable-"))).toHaveLength(1);
      const t = await a.tokens(realm);
      expect(existsSync(join(dir, "sandbox-state.json"))).toBe(true);
      expect(existsSync(join(dir, "sandbox-state.json.tmp"))).toBe(false);
      const b = await harness({ dataDir: dir, onDiscardedState: (m) => heard.push(m) });
      expect((await b.get(realm, "preferences", t.access_token)).statusCode).toBe(200);
      expect(heard).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("queries over the ledger", () => {
  it("pages, orders, filters and counts", async () => {
    const all = (await h.get(realm, q("SELECT * FROM Account WHERE Active IN (true, false) ORDERBY AcctNum DESC MAXRESULTS 1000"), token)).json() as { QueryResponse: { Account: { AcctNum: string; Active: boolean }[]; maxResults: number } };
    const nums = all.QueryResponse.Account.map((a) => a.AcctNum);
    expect(nums).toEqual([...nums].sort().reverse());
    expect(all.QueryResponse.Account.some((a) => !a.Active)).toBe(true);
    const active = (await h.get(realm, q("SELECT COUNT(*) FROM Account"), token)).json() as { QueryResponse: { totalCount: number } };
    expect(active.QueryResponse.totalCount).toBe(all.QueryResponse.Account.filter((a) => a.Active).length);
    const p1 = (await h.get(realm, q("SELECT * FROM Account STARTPOSITION 1 MAXRESULTS 10"), token)).json() as { QueryResponse: { Account: { Id: string }[]; startPosition: number; maxResults: number } };
    const p2 = (await h.get(realm, q("SELECT * FROM Account STARTPOSITION 11 MAXRESULTS 10"), token)).json() as { QueryResponse: { Account: { Id: string }[]; startPosition: number } };
    expect([p1.QueryResponse.startPosition, p1.QueryResponse.maxResults, p2.QueryResponse.startPosition]).toEqual([1, 10, 11]);
    expect(new Set([...p1.QueryResponse.Account, ...p2.QueryResponse.Account].map((a) => a.Id)).size).toBe(20);
    const defaultPage = (await h.get(realm, q("SELECT * FROM JournalEntry"), token)).json() as { QueryResponse: { maxResults: number } };
    expect(defaultPage.QueryResponse.maxResults).toBe(100);
    const full = (await h.get(realm, q("SELECT * FROM JournalEntry MAXRESULTS 1000"), token)).json() as { QueryResponse: { maxResults: number } };
    expect(full.QueryResponse.maxResults).toBe(1000);
    const like = (await h.get(realm, q("SELECT Id, Name FROM Account WHERE Name LIKE '%checking%' AND AccountType = 'Bank'"), token)).json() as { QueryResponse: { Account: { Name: string }[] } };
    expect(like.QueryResponse.Account.map((a) => a.Name)).toEqual(["Operating Checking - Chase", "Payroll Checking - Chase"]);
    const dated = (await h.get(realm, q("SELECT COUNT(*) FROM JournalEntry WHERE TxnDate >= '2026-10-01' AND TxnDate <= '2026-10-31'"), token)).json() as { QueryResponse: { totalCount: number } };
    expect(dated.QueryResponse.totalCount).toBeGreaterThan(20);
    const rates = (await h.get(realm, q("SELECT * FROM ExchangeRate WHERE SourceCurrencyCode = 'GBP' AND AsOfDate = '2024-06-30'"), token)).json() as { QueryResponse: { ExchangeRate: { Rate: number }[] } };
    expect(rates.QueryResponse.ExchangeRate).toHaveLength(1);
    const garbage = await h.get(realm, q("SELECT * FROM Account WHERE Nonsense = 1"), token);
    expect(garbage.json()).toMatchObject({ Fault: { Error: [{ code: "4001" }] } });
  });

  it("answers exchangerate reads from the parent's monthly history", async () => {
    const res = await h.get(realm, "exchangerate?sourcecurrencycode=EUR&asofdate=2025-02-14", token);
    expect(res.json()).toMatchObject({ ExchangeRate: { SourceCurrencyCode: "EUR", TargetCurrencyCode: "USD", AsOfDate: "2025-01-31" } });
  });
});

describe("closed books (Preferences BookCloseDate)", () => {
  const CLOSED = { Fault: { Error: [{ code: "6200", Message: "Account Period Closed, Cannot Update Through Services API", Detail: expect.stringMatching(/^The account period has closed/) }], type: "ValidationFault" } };

  it("the parent says when its books are closed; a company with open books says nothing", async () => {
    const prefs = async (r: string) => ((await h.get(r, "preferences", token)).json() as { Preferences: { AccountingInfoPrefs: Record<string, unknown> } }).Preferences.AccountingInfoPrefs;
    expect((await prefs(realm))["BookCloseDate"]).toBe("2023-12-31");
    const open = h.sandbox.companies().find((c) => h.sandbox.ledger(c.realmId)?.profile.bookCloseDate === undefined)!;
    const openToken = (await h.tokens(open.realmId)).access_token;
    const openPrefs = ((await h.get(open.realmId, "preferences", openToken)).json() as { Preferences: { AccountingInfoPrefs: Record<string, unknown> } }).Preferences.AccountingInfoPrefs;
    expect(openPrefs).not.toHaveProperty("BookCloseDate");
  });

  it("refuses an entry dated on or before the closing date with 6200 and posts nothing; the day after is open", async () => {
    const before = await count();
    const closed = await h.post(realm, "journalentry", token, je([line("Debit", "1", 5), line("Credit", "2", 5)], { TxnDate: "2023-12-31" }));
    expect(closed.statusCode).toBe(400);
    expect(closed.json()).toMatchObject(CLOSED);
    expect(await count()).toBe(before);
    const open = await h.post(realm, "journalentry", token, je([line("Debit", "1", 5), line("Credit", "2", 5)], { TxnDate: "2024-01-01" }));
    expect(open.statusCode, open.body).toBe(200);
  });

  it("refuses to move an entry into the closed period, or to change or delete one in it", async () => {
    const created = (await h.post(realm, "journalentry", token, je([line("Debit", "1", 5), line("Credit", "2", 5)]))).json() as { JournalEntry: { Id: string; SyncToken: string } };
    const moved = await h.post(realm, "journalentry", token, { ...je([line("Debit", "1", 5), line("Credit", "2", 5)], { TxnDate: "2023-06-30" }), Id: created.JournalEntry.Id, SyncToken: created.JournalEntry.SyncToken });
    expect(moved.json()).toMatchObject(CLOSED);
    const old = h.sandbox.ledger(realm)!.entries.find((e) => e.txnDate <= "2023-12-31" && e.deletedTime === undefined)!;
    const changed = await h.post(realm, "journalentry", token, { Id: old.id, SyncToken: String(old.syncToken), sparse: true, PrivateNote: "edited" });
    expect(changed.json()).toMatchObject(CLOSED);
    const deleted = await h.post(realm, "journalentry?operation=delete", token, { Id: old.id, SyncToken: String(old.syncToken) });
    expect(deleted.json()).toMatchObject(CLOSED);
    expect(h.sandbox.ledger(realm)!.entry(old.id)!.deletedTime).toBeUndefined();
  });
});
