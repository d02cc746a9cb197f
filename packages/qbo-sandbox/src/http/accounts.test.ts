/** Creating accounts through the API: the wire shape of the samples, QBO's refusals, replay, persistence. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { firstCompanySession, harness, q } from "../testing/harness.ts";
import { sample, shapeProblems } from "../testing/shape.ts";

let h: Harness;
let realm: string;
let token: string;

const AOCI = { Name: "Accumulated OCI – Translation", AccountType: "Equity", AccountSubType: "AccumulatedAdjustment", Description: "Translation differences of foreign subsidiaries" };
type Created = { Account: Record<string, unknown> & { Id: string } };
const SAMPLE_6240 = sample("errors/400_ValidationFault_6240_duplicate_name__minimul-qbo_api.json") as { body: { Fault: unknown } };

async function accountCount(): Promise<number> {
  const res = await h.get(realm, q("SELECT COUNT(*) FROM Account WHERE Active IN (true, false)"), token);
  return (res.json() as { QueryResponse: { totalCount: number } }).QueryResponse.totalCount;
}

beforeEach(async () => {
  ({ h, realm, token } = await firstCompanySession());
});

describe("Account create", () => {
  it("creates an equity account shaped like Intuit's Account, readable, queryable and in CDC", async () => {
    const before = await accountCount();
    const res = await h.post(realm, "account?minorversion=75", token, AOCI);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Created;
    expect(Object.keys(body)).toEqual(["Account", "time"]);
    expect(body.Account).toMatchObject({
      Name: AOCI.Name,
      FullyQualifiedName: AOCI.Name,
      Active: true,
      Classification: "Equity",
      AccountType: "Equity",
      AccountSubType: "AccumulatedAdjustment",
      Description: AOCI.Description,
      CurrentBalance: 0,
      SubAccount: false,
      SyncToken: "0",
      CurrencyRef: { value: "USD", name: "United States Dollar" },
    });
    // No AcctNum was given, so none is sent back (the samples' accounts have none either).
    expect(body.Account).not.toHaveProperty("AcctNum");
    expect(shapeProblems(body, [sample("minimul-qbo_api/deactivate__account__0.json")], { extra: ["Account.Description"] })).toEqual([]);
    expect(shapeProblems(body, [sample("entities/Account__intuit-docs-example__abossenbroek-qbo-mcp.json")], { extra: ["Account.Description"], checkOrder: false })).toEqual([]);

    expect(await accountCount()).toBe(before + 1);
    const read = await h.get(realm, `account/${body.Account.Id}`, token);
    expect((read.json() as Created).Account).toEqual(body.Account);
    const found = (await h.get(realm, q(`SELECT * FROM Account WHERE Name = '${AOCI.Name}'`), token)).json() as { QueryResponse: { Account: { Id: string }[] } };
    expect(found.QueryResponse.Account.map((a) => a.Id)).toEqual([body.Account.Id]);
    const cdc = (await h.get(realm, "cdc?entities=Account&changedSince=2026-11-01T00:00:00Z", token)).json() as { CDCResponse: { QueryResponse: { Account?: { Id: string }[] }[] }[] };
    expect(cdc.CDCResponse[0]?.QueryResponse[0]?.Account?.map((a) => a.Id)).toContain(body.Account.Id);
  });

  it("answers a duplicate name, in any case, with the recorded 6240 and creates nothing", async () => {
    const existing = h.sandbox.ledger(realm)?.accounts.find((a) => a.subType === "AccumulatedAdjustment")?.name as string;
    const before = await accountCount();
    const res = await h.post(realm, "account", token, { ...AOCI, Name: existing.toUpperCase() });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { Fault: unknown }).Fault).toEqual(SAMPLE_6240.body.Fault);
    expect(await accountCount()).toBe(before);
  });

  it("refuses what QBO refuses: no name, reserved characters, unknown types and detail types, a taken number", async () => {
    const refused = async (body: unknown) => {
      const res = await h.post(realm, "account", token, body);
      expect(res.statusCode).toBe(400);
      return (res.json() as { Fault: { Error: { code: string; Detail: string }[]; type: string } }).Fault;
    };
    const before = await accountCount();
    expect(await refused({ AccountType: "Equity" })).toMatchObject({ type: "ValidationFault", Error: [{ code: "2010", Detail: expect.stringMatching(/^Property Name:Name is required/) }] });
    expect((await refused({ ...AOCI, Name: "x".repeat(101) })).Error[0]?.Detail).toMatch(/1 to 100 characters/);
    expect((await refused({ ...AOCI, Name: "Equity:CTA" })).Error[0]?.Detail).toMatch(/colon/);
    expect((await refused({ ...AOCI, Name: 'The "CTA"' })).Error[0]?.Detail).toMatch(/double quote/);
    expect((await refused({ Name: "CTA", AccountType: "Reserve" })).Error[0]?.Detail).toMatch(/^Property Name:AccountType value "Reserve" is not an account type/);
    expect((await refused({ Name: "CTA", AccountType: "Equity", AccountSubType: "Checking" })).Error[0]?.Detail).toBe("Property Name:AccountSubType value Checking is not a detail type of Equity accounts");
    expect((await refused({ ...AOCI, Description: "d".repeat(101) })).Error[0]?.Detail).toMatch(/at most 100 characters/);
    expect((await refused({ ...AOCI, AcctNum: "3600" })).Error[0]).toMatchObject({ code: "6000", Detail: "Business Validation Error: Another account already uses the number 3600." });
    // An Id makes the body an update; with operation=create it is refused rather than ignored.
    const withId = await h.post(realm, "account?operation=create", token, { ...AOCI, Id: "7" });
    expect((withId.json() as { Fault: { Error: { Detail: string }[] } }).Fault.Error[0]?.Detail).toMatch(/^Property Name:Id must not be sent when creating an account/);
    expect(await refused([AOCI])).toMatchObject({ Error: [{ code: "2010" }] });
    expect(await accountCount()).toBe(before);
  });

  it("defaults the detail type like QBO (Opening balance equity for Equity) and keeps a given number", async () => {
    const res = await h.post(realm, "account", token, { Name: "Owner Draws", AccountType: "Equity", AcctNum: "3950" });
    expect((res.json() as Created).Account).toMatchObject({ AccountSubType: "OpeningBalanceEquity", AcctNum: "3950" });
  });

  it("replays a repeated requestid instead of creating twice", async () => {
    const first = await h.post(realm, "account?requestid=acct-1", token, AOCI);
    const again = await h.post(realm, "account?requestid=acct-1", token, AOCI);
    expect(again.body).toBe(first.body);
    expect(first.statusCode).toBe(200);
    // A new requestid runs again: now the name is taken.
    expect((await h.post(realm, "account?requestid=acct-2", token, AOCI)).statusCode).toBe(400);
  });

  it("keeps created accounts across a restart with a data folder, and forgets them on reset", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qbo-sandbox-"));
    try {
      const a = await harness({ dataDir: dir });
      const t = await a.tokens(realm);
      const id = ((await a.post(realm, "account", t.access_token, AOCI)).json() as Created).Account.Id;
      // An entry posted to the new account must survive the restart too.
      const je = {
        TxnDate: "2026-10-31",
        Line: [
          { DetailType: "JournalEntryLineDetail", Amount: 12.5, JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: id } } },
          { DetailType: "JournalEntryLineDetail", Amount: 12.5, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "1" } } },
        ],
      };
      expect((await a.post(realm, "journalentry", t.access_token, je)).statusCode).toBe(200);
      const b = await harness({ dataDir: dir });
      const read = (await b.get(realm, `account/${id}`, t.access_token)).json() as Created;
      expect(read.Account).toMatchObject({ Name: AOCI.Name, CurrentBalance: 12.5 });
      b.sandbox.reset();
      const c = await harness({ dataDir: dir });
      expect(c.sandbox.ledger(realm)?.account(id)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
