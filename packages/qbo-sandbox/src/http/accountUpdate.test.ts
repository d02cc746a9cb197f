/** Updating accounts through the API: full and sparse updates, SyncToken, QBO's refusals, and what a deactivation changes downstream. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { harness, q, testClock } from "../testing/harness.ts";
import { sample, shapeProblems } from "../testing/shape.ts";

type Wire = Record<string, unknown> & { Id: string; SyncToken: string; Name: string; Active: boolean; MetaData: { CreateTime: string; LastUpdatedTime: string } };
type Fault = { Fault: { Error: { Message: string; Detail: string; code: string }[]; type: string } };

const SAMPLE_6240 = sample("errors/400_ValidationFault_6240_duplicate_name__minimul-qbo_api.json") as { body: Fault };
const SAMPLE_UPDATE = sample("minimul-qbo_api/deactivate__account__1.json");
/** The recorded batch item 5010; its Detail names the other user, so only Message and code are Intuit's words to compare. */
const SAMPLE_5010 = (sample("minimul-qbo_api/batch__basic__0.json") as { BatchItemResponse: (Partial<Fault> & { bId: string })[] }).BatchItemResponse.find((i) => i.bId === "bid3")?.Fault;
/** What the server's sync reads as the chart (packages/qbo client.accounts()). */
const CHART_QUERY = "SELECT * FROM Account WHERE Active IN (true, false)";

let h: Harness;
let clock: ReturnType<typeof testClock>;
let realm: string;
let token: string;

const read = async (id: string): Promise<Wire> => ((await h.get(realm, `account/${id}`, token)).json() as { Account: Wire }).Account;
const update = (body: unknown, path = "account?minorversion=75") => h.post(realm, path, token, body);
const queried = async (text: string): Promise<Wire[]> => ((await h.get(realm, q(text), token)).json() as { QueryResponse: { Account?: Wire[] } }).QueryResponse.Account ?? [];
/** An active expense account with a number and postings: the kind a subsidiary maps onto. */
const pick = () => h.sandbox.ledger(realm)?.accounts.find((a) => a.active && a.type === "Expense" && a.number !== "" && h.sandbox.ledger(realm)?.hasPostings(a.id, "2023-01-01", "2026-12-31")) ?? expect.unreachable("an expense account");

beforeEach(async () => {
  clock = testClock();
  h = await harness({ now: clock.now });
  realm = h.realms[0] as string;
  token = (await h.tokens(realm)).access_token;
});

describe("Account full update", () => {
  it("replaces the writable fields, bumps SyncToken and LastUpdatedTime, and shows in reads, queries and CDC", async () => {
    const before = await read(pick().id);
    clock.advance(60_000);
    const res = await update({ ...before, Name: "Cloud software and hosting", AcctNum: "6995", Description: "SaaS tools" });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { Account: Wire };
    expect(Object.keys(body)).toEqual(["Account", "time"]);
    expect(body.Account).toMatchObject({
      Id: before.Id,
      Name: "Cloud software and hosting",
      FullyQualifiedName: "Cloud software and hosting",
      AcctNum: "6995",
      Description: "SaaS tools",
      AccountType: before["AccountType"],
      AccountSubType: before["AccountSubType"],
      Active: true,
      sparse: false,
      SyncToken: String(Number(before.SyncToken) + 1),
      MetaData: { CreateTime: before.MetaData.CreateTime, LastUpdatedTime: "2026-11-02T09:01:00-08:00" },
    });
    expect(shapeProblems(body, [SAMPLE_UPDATE], { extra: ["Account.AcctNum", "Account.Description"] })).toEqual([]);
    expect(await read(before.Id)).toEqual(body.Account);
    expect((await queried("SELECT * FROM Account WHERE Name = 'Cloud software and hosting'")).map((a) => a.Id)).toEqual([before.Id]);
    const cdc = (await h.get(realm, "cdc?entities=Account&changedSince=2026-11-02T17:00:30Z", token)).json() as { CDCResponse: { QueryResponse: { Account?: Wire[] }[] }[] };
    expect(cdc.CDCResponse[0]?.QueryResponse[0]?.Account?.map((a) => a.Id)).toEqual([before.Id]);
    // Postings stay on the account, under its new name.
    const posted = h.sandbox.ledger(realm)?.entries.find((e) => e.lines.some((l) => l.accountId === before.Id)) ?? expect.unreachable("an entry on the account");
    const je = (await h.get(realm, `journalentry/${posted.id}`, token)).json() as { JournalEntry: { Line: { JournalEntryLineDetail: { AccountRef: { value: string; name: string } } }[] } };
    const refs = je.JournalEntry.Line.map((l) => l.JournalEntryLineDetail.AccountRef).filter((r) => r.value === before.Id);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.every((r) => r.name === "Cloud software and hosting")).toBe(true);
  });

  it("sets writable fields left out of a full update back to their defaults", async () => {
    const id = pick().id;
    const withMore = (await update({ ...(await read(id)), Description: "kept?", Active: false })).json() as { Account: Wire };
    expect(withMore.Account).toMatchObject({ Description: "kept?", Active: false });
    const res = await update({ Id: id, SyncToken: withMore.Account.SyncToken, Name: withMore.Account.Name, AccountType: "Expense" });
    expect(res.statusCode, res.body).toBe(200);
    const after = (res.json() as { Account: Wire }).Account;
    expect(after).toMatchObject({ Active: true, AccountSubType: "OfficeGeneralAdministrativeExpenses" });
    expect(after).not.toHaveProperty("AcctNum");
    expect(after).not.toHaveProperty("Description");
  });

  it("changes nothing when every account of every demo chart is sent back as read, like QBO keeping SyncToken and LastUpdatedTime", async () => {
    for (const realmId of h.realms) {
      realm = realmId;
      token = (await h.tokens(realmId)).access_token;
      const chart = await queried(`${CHART_QUERY} MAXRESULTS 1000`);
      expect(chart.length).toBeGreaterThan(60);
      clock.advance(1000);
      for (const account of chart) {
        const res = await update(account);
        expect(res.statusCode, `${realmId} ${account.Name}: ${res.body}`).toBe(200);
        expect((res.json() as { Account: Wire }).Account).toEqual(account);
      }
    }
  });
});

describe("Account sparse update", () => {
  it("changes only the fields sent: Active false deactivates and keeps number, type and detail type", async () => {
    const before = await read(pick().id);
    clock.advance(5_000);
    // The body minimul/qbo_api's deactivate sends (recorded against Intuit's sandbox).
    const res = await update({ Id: before.Id, SyncToken: before.SyncToken, sparse: true, Active: false, Name: before.Name });
    expect(res.statusCode, res.body).toBe(200);
    const after = (res.json() as { Account: Wire }).Account;
    // An inactive account is shown as "<name> (deleted)" (minimul-qbo_api/deactivate__account__0).
    const shown = `${String(before.Name)} (deleted)`;
    expect(after).toEqual({ ...before, Name: shown, FullyQualifiedName: shown, Active: false, SyncToken: String(Number(before.SyncToken) + 1), MetaData: { ...before.MetaData, LastUpdatedTime: "2026-11-02T09:00:05-08:00" } });
    expect(shapeProblems({ Account: after, time: "" }, [SAMPLE_UPDATE], { extra: ["Account.AcctNum"] })).toEqual([]);
  });

  it("renames with the rules of create: a taken name in any case is the recorded 6240, its own name in another case is fine", async () => {
    const account = pick();
    const other = h.sandbox.ledger(realm)?.accounts.find((a) => a.id !== account.id) ?? expect.unreachable("a second account");
    const base = { Id: account.id, SyncToken: String(account.syncToken), sparse: true };
    const taken = await update({ ...base, Name: other.name.toUpperCase() });
    expect(taken.statusCode).toBe(400);
    expect((taken.json() as Fault).Fault).toEqual(SAMPLE_6240.body.Fault);
    const refused = async (body: Record<string, unknown>) => {
      const res = await update({ ...base, ...body });
      expect(res.statusCode).toBe(400);
      return (res.json() as Fault).Fault.Error[0];
    };
    expect(await refused({ Name: "Expenses:Software" })).toMatchObject({ code: "2010", Detail: expect.stringMatching(/colon/) });
    expect(await refused({ Name: "x".repeat(101) })).toMatchObject({ code: "2010", Detail: expect.stringMatching(/1 to 100 characters/) });
    // Name is required in a sparse update too (minimul/qbo_api sends it when deactivating for this reason).
    expect(await refused({ Active: false })).toMatchObject({ code: "2010", Detail: expect.stringMatching(/^Property Name:Name is required/) });
    expect(await refused({ Name: account.name, AcctNum: other.number })).toMatchObject({ code: "6000", Detail: `Business Validation Error: Another account already uses the number ${other.number}.` });
    expect(await refused({ Name: account.name, AccountType: "Reserve" })).toMatchObject({ Detail: expect.stringMatching(/^Property Name:AccountType value "Reserve" is not an account type/) });
    expect(await refused({ Name: account.name, AccountSubType: "Checking" })).toMatchObject({ Detail: "Property Name:AccountSubType value Checking is not a detail type of Expense accounts" });
    expect(await refused({ Name: account.name, Active: "no" })).toMatchObject({ Detail: 'Property Name:Active value "no" must be true or false' });
    expect(await refused({ Name: account.name, CurrencyRef: { value: "EUR" } })).toMatchObject({ Detail: expect.stringMatching(/currency cannot be changed/) });
    // A sub-account has its parent's type (subAccounts.test.ts has the other sub-account refusals).
    expect(await refused({ Name: account.name, SubAccount: true, ParentRef: { value: other.id } })).toMatchObject({ code: "6000", Detail: `Business Validation Error: A sub-account must have its parent account's type: "${other.name}" is ${other.type}, not Expense.` });
    // Nothing above changed the account.
    expect((await read(account.id)).SyncToken).toBe(String(account.syncToken));

    const renamed = await update({ ...base, Name: account.name.toUpperCase() });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((renamed.json() as { Account: Wire }).Account).toMatchObject({ Name: account.name.toUpperCase(), SyncToken: String(account.syncToken + 1) });
  });

  it("a new type without a detail type takes the type's default unless the old detail type belongs to it", async () => {
    const account = pick();
    const res = await update({ Id: account.id, SyncToken: String(account.syncToken), sparse: true, Name: account.name, AccountType: "Other Expense" });
    expect((res.json() as { Account: Wire }).Account).toMatchObject({ AccountType: "Other Expense", Classification: "Expense", AccountSubType: "OtherMiscellaneousExpense", AcctNum: account.number });
  });
});

describe("SyncToken and identity", () => {
  it("answers a stale SyncToken with Intuit's 5010 Stale Object Error and changes nothing", async () => {
    const before = await read(pick().id);
    const first = await update({ Id: before.Id, SyncToken: before.SyncToken, sparse: true, Name: before.Name, Description: "first" });
    expect(first.statusCode).toBe(200);
    // A second writer still holding the token the first one used.
    const stale = await update({ Id: before.Id, SyncToken: before.SyncToken, sparse: true, Name: before.Name, Description: "second" });
    expect(stale.statusCode).toBe(400);
    const fault = (stale.json() as Fault).Fault;
    expect(fault.type).toBe(SAMPLE_5010?.type);
    expect(fault.Error[0]).toMatchObject({ code: SAMPLE_5010?.Error[0]?.code, Message: SAMPLE_5010?.Error[0]?.Message });
    expect(fault.Error[0]?.Detail).toMatch(/^Stale Object Error : You and .+ were working on this at the same time\. .+ finished before you did, so your work was not saved\.$/);
    expect(await read(before.Id)).toMatchObject({ Description: "first", SyncToken: (first.json() as { Account: Wire }).Account.SyncToken });
    // A token from the future is as wrong as an old one.
    expect((await update({ Id: before.Id, SyncToken: "99", sparse: true, Name: before.Name })).statusCode).toBe(400);
  });

  it("needs Id and SyncToken, an existing Id, and names unknown operations", async () => {
    const account = pick();
    const missing = await update({ Name: account.name, sparse: true }, "account?operation=update");
    expect((missing.json() as Fault).Fault.Error[0]).toMatchObject({ code: "2020", Detail: "Required parameter Id and SyncToken are missing in the request" });
    expect((await update({ Id: account.id, Name: account.name, sparse: true })).json()).toMatchObject({ Fault: { Error: [{ code: "2020" }] } });
    expect((await update({ Id: "99999", SyncToken: "0", Name: "Ghost", sparse: true })).json()).toMatchObject({ Fault: { Error: [{ code: "610", Message: "Object Not Found" }] } });
    expect((await update({ Id: "abc", SyncToken: "0", Name: "Ghost" })).json()).toMatchObject({ Fault: { Error: [{ code: "2030" }] } });
    expect((await update({ Id: account.id, SyncToken: String(account.syncToken), Name: account.name, sparse: "yes" })).json()).toMatchObject({ Fault: { Error: [{ Detail: 'Property Name:sparse value "yes" must be true or false' }] } });
    expect((await update({}, "account?operation=merge")).json()).toMatchObject({ Fault: { Error: [{ Detail: "Property Name:operation value merge is not supported for Account; use create or update" }] } });
  });

  it("replays a repeated requestid instead of updating twice", async () => {
    const account = pick();
    const body = { Id: account.id, SyncToken: String(account.syncToken), sparse: true, Name: account.name, Active: false };
    const first = await update(body, "account?requestid=deactivate-1");
    const again = await update(body, "account?requestid=deactivate-1");
    expect(first.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect((await read(account.id)).SyncToken).toBe(String(account.syncToken + 1));
  });
});

describe("A deactivated account", () => {
  it("leaves default queries, shows Active=false in the chart the server syncs, refuses postings, and can be reactivated", async () => {
    const account = pick();
    const token0 = account.syncToken;
    const chartBefore = await queried(`${CHART_QUERY} MAXRESULTS 1000`);
    const defaultBefore = await queried("SELECT * FROM Account MAXRESULTS 1000");
    expect(defaultBefore.map((a) => a.Id)).toContain(account.id);
    expect((await update({ Id: account.id, SyncToken: String(token0), sparse: true, Name: account.name, Active: false })).statusCode).toBe(200);

    // Like QBO, a query that does not mention Active lists active accounts only.
    const defaultAfter = await queried("SELECT * FROM Account MAXRESULTS 1000");
    expect(defaultAfter.map((a) => a.Id)).not.toContain(account.id);
    expect(defaultAfter).toHaveLength(defaultBefore.length - 1);
    expect((await queried("SELECT * FROM Account WHERE Active = false MAXRESULTS 1000")).find((a) => a.Id === account.id)).toMatchObject({ Active: false, SyncToken: String(token0 + 1) });
    const chartAfter = await queried(`${CHART_QUERY} MAXRESULTS 1000`);
    expect(chartAfter).toHaveLength(chartBefore.length);
    expect(chartAfter.find((a) => a.Id === account.id)).toMatchObject({ Name: `${account.name} (deleted)`, Active: false, AcctNum: account.number });
    expect(chartAfter.filter((a) => a.Id !== account.id)).toEqual(chartBefore.filter((a) => a.Id !== account.id));

    const je = {
      TxnDate: "2026-10-31",
      Line: [
        { DetailType: "JournalEntryLineDetail", Amount: 10, JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: account.id } } },
        { DetailType: "JournalEntryLineDetail", Amount: 10, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "1" } } },
      ],
    };
    expect((await h.post(realm, "journalentry", token, je)).json()).toMatchObject({ Fault: { Error: [{ code: "610" }] } });
    expect((await update({ Id: account.id, SyncToken: String(token0 + 1), sparse: true, Name: account.name, Active: true })).json()).toMatchObject({ Account: { Active: true, SyncToken: String(token0 + 2) } });
    expect((await h.post(realm, "journalentry", token, je)).statusCode).toBe(200);
  });

  it("stays deactivated across a restart with a data folder, and is restored by reset", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qbo-sandbox-"));
    try {
      const a = await harness({ dataDir: dir });
      const t = (await a.tokens(realm)).access_token;
      const account = pick();
      expect((await a.post(realm, "account", t, { Id: account.id, SyncToken: String(account.syncToken), sparse: true, Name: `${account.name} (old)`, Active: false })).statusCode).toBe(200);
      const b = await harness({ dataDir: dir });
      expect(b.sandbox.ledger(realm)?.account(account.id)).toMatchObject({ name: `${account.name} (old)`, active: false, syncToken: account.syncToken + 1 });
      expect(b.sandbox.ledger(realm)?.accounts.filter((x) => x.id === account.id)).toHaveLength(1);
      b.sandbox.reset();
      const c = await harness({ dataDir: dir });
      expect(c.sandbox.ledger(realm)?.account(account.id)).toMatchObject({ name: account.name, active: true, syncToken: account.syncToken });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
