import { describe, expect, it } from "vitest";
import { QboClient, accountBody, connectCompany, journalEntryBody, type NewJournalEntry } from "./client.ts";
import { VirtualClock } from "./clock.ts";
import { loadStartSandbox, SANDBOX_CLIENT } from "./contract/sandbox-module.ts";
import { sandboxEndpoints } from "./endpoints.ts";
import { QboError } from "./errors.ts";
import { callKind } from "./http.ts";
import { RealmLimiter } from "./limiter.ts";
import { QboOAuth } from "./oauth.ts";
import { connectionReset, fakeFetch, jsonResponse, type FakeRequest } from "./testing/fake-fetch.ts";
import { readExchange, readSample } from "./testing/samples.ts";
import { MemoryTokenStore, type TokenSet } from "./tokens.ts";

const REALM = "9130357";
const endpoints = sandboxEndpoints("https://qbo.test");
const expired401 = readSample("errors/401_AuthenticationFailed_3200_token_expired__minimul-qbo_api.json") as { body: unknown };

type ApiHandler = (req: FakeRequest, path: string) => Response | Promise<Response>;

/**
 * A small QBO: a token endpoint that rotates refresh tokens (an old one is refused, like a revoked
 * grant would be) and an API that answers 401/3200 to any access token it did not issue last.
 */
function world(api: ApiHandler, options: { accessLifetimeS?: number } = {}) {
  const clock = new VirtualClock();
  let issued = 0;
  let refreshToken = "r0";
  const valid = new Set<string>(["a0"]);
  let revoked = false;
  const store = new MemoryTokenStore();
  const savedBeforeUse: boolean[] = [];
  const fake = fakeFetch(async (req) => {
    if (req.url.pathname === "/oauth2/v1/tokens/bearer") {
      const form = new URLSearchParams(req.body);
      if (revoked || form.get("refresh_token") !== refreshToken) {
        return jsonResponse({ error: "invalid_grant", error_description: "Token invalid" }, 400, { intuit_tid: "tid-oauth" });
      }
      issued++;
      refreshToken = `r${issued}`;
      valid.clear();
      valid.add(`a${issued}`);
      return jsonResponse({ access_token: `a${issued}`, refresh_token: refreshToken, token_type: "bearer", expires_in: options.accessLifetimeS ?? 3600, x_refresh_token_expires_in: 8726400 });
    }
    const prefix = `/v3/company/${REALM}/`;
    if (!req.url.pathname.startsWith(prefix)) return new Response("", { status: 404 });
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    if (!valid.has(token)) return jsonResponse(expired401.body, 401, { intuit_tid: "tid-401" });
    const stored = await store.load(REALM);
    savedBeforeUse.push(stored?.accessToken === token);
    return api(req, req.url.pathname.slice(prefix.length));
  });
  const oauth = new QboOAuth({ clientId: "id", clientSecret: "secret", redirectUri: "https://app/cb", endpoints, fetch: fake.fetch, clock, random: () => 0.5 });
  const seed = async (overrides: Partial<TokenSet> = {}) =>
    store.save(REALM, {
      accessToken: "a0",
      refreshToken: "r0",
      tokenType: "bearer",
      accessTokenExpiresAt: clock.now() + 3600_000,
      refreshTokenExpiresAt: clock.now() + 100 * 86400_000,
      ...overrides,
    });
  const client = (extra: Partial<ConstructorParameters<typeof QboClient>[0]> = {}) =>
    new QboClient({ realmId: REALM, oauth, tokens: store, fetch: fake.fetch, clock, random: () => 0.5, retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 10_000 }, ...extra });
  return {
    clock,
    store,
    fake,
    oauth,
    seed,
    client,
    savedBeforeUse,
    tokenCalls: () => fake.calls.filter((c) => c.url.pathname === "/oauth2/v1/tokens/bearer").length,
    apiCalls: () => fake.calls.filter((c) => c.url.pathname.startsWith("/v3/")),
    revoke: () => {
      revoked = true;
      valid.clear();
    },
    invalidateAccess: () => valid.clear(),
  };
}

const companyInfoBody = { CompanyInfo: readSample("entities/CompanyInfo__fylein-fyle-qbo-api.json"), time: "2024-01-01T00:00:00-08:00" };

describe("query paging", () => {
  // The recorded vendor pages: 26 vendors, 5 a page (STARTPOSITION 1, 6, 11, 16, 21, 26).
  const pages = new Map<number, unknown>();
  for (let i = 1; i <= 6; i++) {
    const ex = readExchange(`minimul-qbo_api/all__vendors_by_5__${i}.json`);
    const start = Number(/STARTPOSITION%20(\d+)/.exec(ex.request.uri)?.[1]);
    pages.set(start, ex.response.body_json);
  }

  it("walks STARTPOSITION by the page size until a short page, like the recorded vendor pages", async () => {
    const w = world((req, path) => {
      expect(path).toBe("query");
      const query = req.url.searchParams.get("query") ?? "";
      const m = /^SELECT \* FROM Vendor STARTPOSITION (\d+) MAXRESULTS 5$/.exec(query);
      expect(m, query).not.toBeNull();
      return jsonResponse(pages.get(Number(m?.[1])));
    });
    await w.seed();
    const vendors = await w.client({ pageSize: 5 }).query<{ Id: string; DisplayName: string }>("SELECT * FROM Vendor");
    expect(vendors).toHaveLength(26);
    expect(vendors[0]).toMatchObject({ Id: "56", DisplayName: "Bob's Burger Joint" });
    expect(new Set(vendors.map((v) => v.Id)).size).toBe(26);
    const calls = w.apiCalls();
    expect(calls.map((c) => Number(/STARTPOSITION (\d+)/.exec(c.url.searchParams.get("query") ?? "")?.[1]))).toEqual([1, 6, 11, 16, 21, 26]);
    for (const c of calls) {
      expect(c.url.searchParams.get("minorversion")).toBe("75");
      expect(c.url.search).toContain("query=SELECT%20*%20FROM%20Vendor%20STARTPOSITION");
      expect(c.method).toBe("GET");
    }
  });

  it("stops at an empty page when the total is a multiple of the page size", async () => {
    const w = world((req) => {
      const start = Number(/STARTPOSITION (\d+)/.exec(req.url.searchParams.get("query") ?? "")?.[1]);
      const rows = start <= 4 ? [{ Id: String(start) }, { Id: String(start + 1) }] : [];
      return jsonResponse(rows.length ? { QueryResponse: { Item: rows, startPosition: start, maxResults: 2 } } : { QueryResponse: {}, time: "x" });
    });
    await w.seed();
    const items = await w.client({ pageSize: 2 }).query("select * from item where Active = true");
    expect(items.map((i) => i["Id"])).toEqual(["1", "2", "3", "4"]);
    expect(w.apiCalls()).toHaveLength(3);
  });

  it("refuses statements it cannot page, and bad page sizes", async () => {
    const w = world(() => jsonResponse({}));
    await w.seed();
    const c = w.client();
    await expect(c.query("SELECT * FROM Account MAXRESULTS 10")).rejects.toThrow(/pages by itself/);
    await expect(c.query("SELECT COUNT(*) FROM Account")).rejects.toThrow(/count\(\)/);
    expect(() => w.client({ pageSize: 1001 })).toThrow(RangeError);
    expect(w.apiCalls()).toHaveLength(0);
  });

  it("sends minorversion 75 and refuses a lower one (Intuit ignores minor versions below 75 since 1 August 2025: blogs.intuit.com, 2025-01-21)", async () => {
    const w = world(() => jsonResponse({ QueryResponse: {} }));
    await w.seed();
    expect(() => w.client({ minorVersion: 74 })).toThrow(/minorVersion must be 75 or more/);
    expect(() => w.client({ minorVersion: 65 })).toThrow(RangeError);
    await w.client().query("SELECT * FROM Account");
    await w.client({ minorVersion: 75 }).query("SELECT * FROM Class");
    expect(w.apiCalls().map((c) => c.url.searchParams.get("minorversion"))).toEqual(["75", "75"]);
  });

  it("count() reads totalCount", async () => {
    const w = world(() => jsonResponse(readExchange("minimul-qbo_api/all__vendors_by_5__0.json").response.body_json));
    await w.seed();
    expect(await w.client().count("Vendor")).toBe(26);
    expect(w.apiCalls()[0]?.url.searchParams.get("query")).toBe("SELECT COUNT(*) FROM Vendor");
  });

  it("accounts() asks for inactive accounts too and validates each row", async () => {
    const w = world((req) => {
      expect(req.url.searchParams.get("query")).toBe("SELECT * FROM Account WHERE Active IN (true, false) STARTPOSITION 1 MAXRESULTS 1000");
      return jsonResponse(readSample("entities/Account_QueryResponse__intuit-docs-example__abossenbroek-qbo-mcp.json"));
    });
    await w.seed();
    const accounts = await w.client().accounts();
    expect(accounts.map((a) => [a.id, a.name, a.currentBalance])).toEqual([["92", "Canadian Accounts Receivable", 0]]);
  });
});

describe("tokens: refresh, rotation and serialization", () => {
  it("20 concurrent requests with an expired token cause exactly one refresh, saved before use; a second client does not refresh again", async () => {
    const w = world(() => jsonResponse(companyInfoBody));
    await w.seed({ accessTokenExpiresAt: 0 });
    const first = w.client();
    const results = await Promise.all(Array.from({ length: 20 }, () => first.companyInfo()));
    expect(results.every((r) => r.companyName === "Sandbox Company_US_4")).toBe(true);
    expect(w.tokenCalls()).toBe(1);
    expect(first.accessTokens.refreshes).toBe(1);
    expect(await w.store.load(REALM)).toMatchObject({ accessToken: "a1", refreshToken: "r1" });
    expect(w.savedBeforeUse).toHaveLength(20);
    expect(w.savedBeforeUse.every(Boolean)).toBe(true); // the API only ever saw a token already in the store

    const second = w.client();
    await Promise.all(Array.from({ length: 5 }, () => second.companyInfo()));
    expect(w.tokenCalls()).toBe(1);
    expect(second.accessTokens.refreshes).toBe(0);
  });

  it("refreshes within 60 s of expiry, not before", async () => {
    const w = world(() => jsonResponse(companyInfoBody));
    await w.seed({ accessTokenExpiresAt: w.clock.now() + 61_000 });
    await w.client().companyInfo();
    expect(w.tokenCalls()).toBe(0);
    w.clock.advance(2_000);
    await w.client().companyInfo();
    expect(w.tokenCalls()).toBe(1);
  });

  it("two clients with separate in-process state still refresh once: the store's lock and the re-load inside it", async () => {
    const w = world(() => jsonResponse(companyInfoBody));
    await w.seed({ accessTokenExpiresAt: 0 });
    const clients = Array.from({ length: 4 }, () => w.client());
    await Promise.all(clients.flatMap((c) => [c.companyInfo(), c.companyInfo()]));
    expect(w.tokenCalls()).toBe(1);
    expect(clients.map((c) => c.accessTokens.refreshes).reduce((a, b) => a + b)).toBe(1);
  });

  it("a 401/3200 refreshes once and repeats the request", async () => {
    const w = world(() => jsonResponse(companyInfoBody));
    await w.seed();
    w.invalidateAccess(); // e.g. revoked access token that has not expired by the clock
    const info = await w.client().companyInfo();
    expect(info.id).toBe("1");
    expect(w.tokenCalls()).toBe(1);
    expect(w.apiCalls().map((c) => c.headers.get("authorization"))).toEqual(["Bearer a0", "Bearer a1"]);
    expect(w.store.refusals.size).toBe(0); // a refresh that worked is no refusal
  });

  it("a 3200 again after the refresh is a 'reauthorize' error", async () => {
    const w = world(() => jsonResponse(expired401.body, 401));
    await w.seed();
    const err = await w.client().companyInfo().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QboError);
    expect(err).toMatchObject({ kind: "reauthorize", code: "3200", status: 401 });
    expect(w.tokenCalls()).toBe(1);
    expect(w.apiCalls()).toHaveLength(2);
    expect(w.store.refusals.get(REALM)).toBe(1); // the store hears of it, once per refused call
  });

  it("a revoked grant is a 'reauthorize' error (invalid_grant on refresh)", async () => {
    const w = world(() => jsonResponse(companyInfoBody));
    await w.seed();
    w.revoke();
    const err = await w.client().companyInfo().catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "reauthorize", code: "invalid_grant", intuitTid: "tid-oauth" });
    expect(w.store.refusals.get(REALM)).toBe(1);
  });

  it("an expired refresh token or no tokens at all asks for re-authorization without calling anyone", async () => {
    const w = world(() => jsonResponse(companyInfoBody));
    await expect(w.client().companyInfo()).rejects.toMatchObject({ kind: "reauthorize", code: "no_tokens" });
    await w.seed({ accessTokenExpiresAt: 0, refreshTokenExpiresAt: w.clock.now() - 1 });
    await expect(w.client().companyInfo()).rejects.toMatchObject({ kind: "reauthorize", code: "refresh_token_expired" });
    expect(w.fake.calls).toHaveLength(0);
    expect(w.store.refusals.get(REALM)).toBe(2);
  });
});

describe("retries and backoff", () => {
  const xml429 =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><IntuitResponse xmlns="http://schema.intuit.com/finance/v3"><Fault type="ThrottleExceeded"><Error code="3001"><Message>message=ThrottleExceeded; errorCode=003001; statusCode=429</Message><Detail>The request limit was reached.</Detail></Error></Fault></IntuitResponse>';

  it("retries 429 honouring Retry-After, then 5xx and a reset connection, and returns the same answer", async () => {
    let n = 0;
    const w = world(() => {
      n++;
      if (n === 1) return new Response(xml429, { status: 429, headers: { "Content-Type": "application/xml", "Retry-After": "3" } });
      if (n === 2) return new Response("<html>bad gateway</html>", { status: 502 });
      if (n === 3) throw connectionReset();
      return jsonResponse(companyInfoBody);
    });
    await w.seed();
    const info = await w.client({ retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 10_000 } }).companyInfo();
    expect(info.companyName).toBe("Sandbox Company_US_4");
    // random() = 0.5: Retry-After 3 s + 50 ms jitter, then full jitter of 200 and 400 ms caps.
    expect(w.clock.sleeps).toEqual([3050, 100, 200]);
  });

  it("tells the observer of every attempt, retries and unanswered ones included, with its realm and what Intuit meters it as", async () => {
    let n = 0;
    const w = world((req) => {
      if (req.method === "POST") return jsonResponse({ Class: { Id: "5", Name: "Unit", SyncToken: "0", Active: true } });
      n++;
      if (n === 1) return new Response("<html>bad gateway</html>", { status: 502 });
      if (n === 2) throw connectionReset();
      return jsonResponse(companyInfoBody);
    });
    await w.seed();
    const seen: unknown[] = [];
    const client = w.client({ onCall: (call) => void seen.push(call) });
    await client.companyInfo();
    await client.createClass("Unit");
    expect(seen).toEqual([
      { realmId: REALM, method: "GET", path: `companyinfo/${REALM}`, kind: "read", status: 502, attempt: 1 },
      { realmId: REALM, method: "GET", path: `companyinfo/${REALM}`, kind: "read", status: 0, attempt: 2 },
      { realmId: REALM, method: "GET", path: `companyinfo/${REALM}`, kind: "read", status: 200, attempt: 3 },
      { realmId: REALM, method: "POST", path: "class", kind: "write", status: 200, attempt: 1 },
    ]);
    expect(w.apiCalls()).toHaveLength(4);
  });

  it("meters queries, reads, reports, CDC and batches as reads; creates, updates and deletes as writes", () => {
    expect(callKind({ method: "GET", path: "query" })).toBe("read");
    expect(callKind({ method: "GET", path: "reports/TrialBalance" })).toBe("read");
    expect(callKind({ method: "GET", path: "cdc" })).toBe("read");
    expect(callKind({ method: "POST", path: "query" })).toBe("read");
    expect(callKind({ method: "POST", path: "batch" })).toBe("read");
    expect(callKind({ method: "POST", path: "journalentry" })).toBe("write");
    expect(callKind({ method: "POST", path: "account" })).toBe("write");
  });

  it("gives up after maxAttempts with the last error", async () => {
    const w = world(() => new Response("", { status: 503 }));
    await w.seed();
    const err = await w.client({ retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 150 } }).companyInfo().catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "server", status: 503 });
    expect(w.apiCalls()).toHaveLength(3);
    expect(w.clock.sleeps).toEqual([50, 75]); // capped at maxDelayMs before jitter
  });

  it("does not retry validation faults", async () => {
    const sample = readSample("errors/400_ValidationFault_4001_invalid_query__minimul-qbo_api.json") as { body: unknown };
    const w = world(() => jsonResponse(sample.body, 400));
    await w.seed();
    await expect(w.client().query("SELECT * FROM Custmoer")).rejects.toMatchObject({ kind: "validation", code: "4001" });
    expect(w.apiCalls()).toHaveLength(1);
  });

  it("retries a POST only when it carries a requestid", async () => {
    const w = world(() => {
      throw connectionReset();
    });
    await w.seed();
    const c = w.client({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 } });
    await expect(c.raw({ method: "POST", path: "customer", body: { DisplayName: "x" } })).rejects.toMatchObject({ code: "network" });
    expect(w.apiCalls()).toHaveLength(1);
    await expect(c.raw({ method: "POST", path: "customer", body: { DisplayName: "x" }, requestId: "rq-1" })).rejects.toMatchObject({ code: "network" });
    expect(w.apiCalls()).toHaveLength(4);
  });

  it("a 2xx that is not JSON is an unexpected response, not retried", async () => {
    const w = world(() => new Response("<html>maintenance</html>", { status: 200, headers: { intuit_tid: "t-1" } }));
    await w.seed();
    await expect(w.client().companyInfo()).rejects.toMatchObject({ code: "unexpected_response", intuitTid: "t-1" });
    expect(w.apiCalls()).toHaveLength(1);
  });

  it("keeps within the realm's concurrency limit", async () => {
    let active = 0;
    let peak = 0;
    const w = world(async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 1));
      active--;
      return jsonResponse(companyInfoBody);
    });
    await w.seed();
    const limiter = new RealmLimiter({ maxConcurrent: 3, maxPerWindow: 500, windowMs: 60_000 }, w.clock);
    const a = w.client({ limiter });
    const b = w.client({ limiter });
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).companyInfo()));
    expect(peak).toBe(3);
  });
});

describe("journal entries, classes, CDC, exchange rates, reports", () => {
  const entry: NewJournalEntry = {
    txnDate: "2024-01-31",
    currency: "USD",
    docNumber: "CONS-2024-01",
    privateNote: "Consolidation Jan 2024",
    lines: [
      { postingType: "Debit", amount: 123456, accountId: "35", description: "UK Ltd", classId: "5" },
      { postingType: "Credit", amount: 100000, accountId: "36" },
      { postingType: "Credit", amount: 23456, accountId: "37", departmentId: "2" },
    ],
  };

  it("builds the JournalEntry body in QBO's shape", () => {
    expect(journalEntryBody(entry)).toEqual({
      TxnDate: "2024-01-31",
      DocNumber: "CONS-2024-01",
      PrivateNote: "Consolidation Jan 2024",
      CurrencyRef: { value: "USD" },
      Line: [
        { DetailType: "JournalEntryLineDetail", Amount: 1234.56, Description: "UK Ltd", JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: "35" }, ClassRef: { value: "5" } } },
        { DetailType: "JournalEntryLineDetail", Amount: 1000, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "36" } } },
        { DetailType: "JournalEntryLineDetail", Amount: 234.56, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "37" }, DepartmentRef: { value: "2" } } },
      ],
    });
    expect(() => journalEntryBody({ ...entry, lines: entry.lines.slice(0, 2) })).toThrow(/does not balance/);
    expect(() => journalEntryBody({ ...entry, txnDate: "31/01/2024" })).toThrow(/YYYY-MM-DD/);
    expect(() => journalEntryBody({ ...entry, lines: [{ ...entry.lines[0]!, amount: 12.5 }, ...entry.lines.slice(1)] })).toThrow(/positive minor units/);
  });

  it("creates with the requestid, retries a dropped POST with the same one, and reads the answer", async () => {
    let n = 0;
    const w = world((req, path) => {
      n++;
      if (n === 1) throw connectionReset();
      expect(path).toBe("journalentry");
      const sent = JSON.parse(req.body) as Record<string, unknown>;
      return jsonResponse({ JournalEntry: { ...sent, Id: "148", SyncToken: "0", domain: "QBO" }, time: "t" });
    });
    await w.seed();
    const created = await w.client().createJournalEntry(entry, "run-42:UK:2024-01:translate");
    expect(created).toMatchObject({ id: "148", syncToken: "0", txnDate: "2024-01-31", currency: "USD" });
    expect(created.lines.map((l) => l.amount)).toEqual([123456, 100000, 23456]);
    const ids = w.apiCalls().map((c) => c.url.searchParams.get("requestid"));
    expect(ids).toEqual(["run-42:UK:2024-01:translate", "run-42:UK:2024-01:translate"]);
  });

  it("validates the requestid before sending anything", async () => {
    const w = world(() => jsonResponse({}));
    await w.seed();
    const c = w.client();
    await expect(c.createJournalEntry(entry, "x".repeat(51))).rejects.toThrow(/1\.\.50/);
    await expect(c.createJournalEntry(entry, "")).rejects.toThrow(RangeError);
    await expect(c.createJournalEntry(entry, "has space")).rejects.toThrow(/visible ASCII/);
    expect(w.fake.calls).toHaveLength(0);
  });

  it("reads and deletes a journal entry", async () => {
    const w = world((req, path) => {
      if (req.method === "GET") {
        expect(path).toBe("journalentry/148");
        return jsonResponse({ JournalEntry: { Id: "148", SyncToken: "1", TxnDate: "2024-01-31", Line: [{ Id: "0", DetailType: "DescriptionOnly", Description: "note" }] } });
      }
      expect(req.url.searchParams.get("operation")).toBe("delete");
      expect(req.url.searchParams.get("requestid")).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(req.body)).toEqual({ Id: "148", SyncToken: "1" });
      return jsonResponse({ JournalEntry: { domain: "QBO", status: "Deleted", Id: "148" }, time: "t" });
    });
    await w.seed();
    const c = w.client();
    const je = await c.readJournalEntry("148");
    expect(je.lines).toEqual([]);
    expect(await c.deleteJournalEntry(je.id, je.syncToken)).toEqual({ id: "148", status: "Deleted" });
  });

  it("createClass sends the name with a fresh requestid", async () => {
    const w = world((req) => jsonResponse({ Class: { ...(JSON.parse(req.body) as object), Id: "5000000000000012345", SyncToken: "0", Active: true } }));
    await w.seed();
    const created = await w.client().createClass("UK Ltd");
    expect(created).toEqual({ id: "5000000000000012345", syncToken: "0", name: "UK Ltd", fullyQualifiedName: "UK Ltd", active: true, parentId: undefined });
    expect(w.apiCalls()[0]?.url.searchParams.get("requestid")).toMatch(/^[0-9a-f-]{36}$/);
    await expect(w.client().createClass("")).rejects.toThrow(RangeError);
  });

  const aoci = { name: "Accumulated OCI – Translation", accountType: "Equity", accountSubType: "AccumulatedAdjustment", description: "CTA of foreign subsidiaries" };

  it("createAccount sends QBO's Account body with a fresh requestid and reads the created account", async () => {
    const recorded = readSample("entities/Account__intuit-docs-example__abossenbroek-qbo-mcp.json") as { Account: Record<string, unknown> };
    const w = world((req, path) => {
      expect(req.method).toBe("POST");
      expect(path).toBe("account");
      expect(JSON.parse(req.body)).toEqual({ Name: aoci.name, AccountType: "Equity", AccountSubType: "AccumulatedAdjustment", Description: aoci.description });
      // Intuit's documented answer, renamed to what was asked for.
      return jsonResponse({ Account: { ...recorded.Account, Name: aoci.name, FullyQualifiedName: aoci.name, Classification: "Equity", AccountType: "Equity", AccountSubType: "AccumulatedAdjustment", Id: "95" }, time: "t" });
    });
    await w.seed();
    const created = await w.client().createAccount(aoci);
    expect(created).toMatchObject({ id: "95", name: aoci.name, accountType: "Equity", accountSubType: "AccumulatedAdjustment", classification: "Equity", currency: "USD", active: true, acctNum: undefined, currentBalance: 0 });
    expect(w.apiCalls()[0]?.url.searchParams.get("requestid")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("createAccount leaves a 6240 duplicate name to the caller, unretried, and refuses bad input before sending", async () => {
    const duplicate = readSample("errors/400_ValidationFault_6240_duplicate_name__minimul-qbo_api.json") as { body: unknown };
    const w = world(() => jsonResponse(duplicate.body, 400));
    await w.seed();
    const error = await w.client().createAccount(aoci).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QboError);
    expect(error).toMatchObject({ code: "6240", kind: "validation", message: "Duplicate Name Exists Error" });
    expect(w.apiCalls()).toHaveLength(1);
    for (const bad of [{ ...aoci, name: " " }, { ...aoci, name: "x".repeat(101) }, { ...aoci, name: "Equity:CTA" }, { ...aoci, name: 'a "b"' }, { ...aoci, accountType: "" }, { ...aoci, description: "d".repeat(101) }]) {
      await expect(w.client().createAccount(bad)).rejects.toThrow(RangeError);
    }
    expect(w.apiCalls()).toHaveLength(1);
    expect(accountBody({ name: "  CTA  ", accountType: "Equity", description: "" })).toEqual({ Name: "CTA", AccountType: "Equity" });
  });

  it("createAccount against the emulator: the account it creates is in the chart the client reads next", async () => {
    const start = await loadStartSandbox();
    if (start === undefined) throw new Error("@groupledger/qbo-sandbox does not export startSandbox");
    const { url, sandbox, close } = await start({ port: 0 });
    try {
      const company = sandbox.companies()[0]!;
      const redirectUri = "http://127.0.0.1/qbo/callback";
      const oauth = new QboOAuth({ ...SANDBOX_CLIENT, redirectUri, endpoints: sandboxEndpoints(url) });
      const tokens = new MemoryTokenStore();
      await connectCompany(oauth, tokens, company.realmId, await sandbox.issueAuthorizationCode(company.realmId, redirectUri));
      const client = new QboClient({ realmId: company.realmId, oauth, tokens });
      const created = await client.createAccount(aoci);
      expect(created).toMatchObject({ name: aoci.name, classification: "Equity", accountSubType: "AccumulatedAdjustment", description: aoci.description, currency: company.homeCurrency, active: true });
      expect((await client.accounts()).find((a) => a.id === created.id)).toEqual(created);
      await expect(client.createAccount({ ...aoci, name: aoci.name.toUpperCase() })).rejects.toMatchObject({ code: "6240" });
    } finally {
      await close();
    }
  });

  it("changeDataCapture reads the recorded CDC answer", async () => {
    const w = world((req, path) => {
      expect(path).toBe("cdc");
      expect(req.url.searchParams.get("entities")).toBe("Estimate,Account");
      expect(req.url.searchParams.get("changedSince")).toBe("2011-10-10T16:00:00.000Z");
      return jsonResponse(readExchange("minimul-qbo_api/cdc__basic__0.json").response.body_json);
    });
    await w.seed();
    const changes = await w.client().changeDataCapture(["Estimate", "Account"], new Date("2011-10-10T09:00:00-07:00"));
    expect(Object.keys(changes).sort()).toEqual(["Account", "Estimate"]);
    expect(changes["Account"]).toEqual([]);
    const estimates = changes["Estimate"] ?? [];
    expect(estimates.length).toBeGreaterThan(0);
    expect(estimates[0]).toMatchObject({ id: "48", deleted: false });
    expect(estimates[0]?.record["DocNumber"]).toBe("1001");
  });

  it("exchangeRate keeps the rate as exact text", async () => {
    const w = world((req) => {
      expect(Object.fromEntries(req.url.searchParams)).toEqual({ sourcecurrencycode: "GBP", asofdate: "2024-01-31", minorversion: "75" });
      return jsonResponse({ ExchangeRate: { SourceCurrencyCode: "GBP", TargetCurrencyCode: "USD", Rate: 1.2712345, AsOfDate: "2024-01-31" } });
    });
    await w.seed();
    expect(await w.client().exchangeRate("GBP", "2024-01-31")).toEqual({ sourceCurrency: "GBP", targetCurrency: "USD", rate: "1.2712345", asOfDate: "2024-01-31" });
  });

  it("report() sends the parameters and parses the answer", async () => {
    const w = world((req, path) => {
      expect(path).toBe("reports/TrialBalance");
      expect(Object.fromEntries(req.url.searchParams)).toEqual({ start_date: "2016-03-01", end_date: "2016-03-14", accounting_method: "Accrual", minorversion: "75" });
      return jsonResponse(readSample("reports/TrialBalance__intuit-docs-example.json"));
    });
    await w.seed();
    const report = await w.client().report("TrialBalance", { start_date: "2016-03-01", end_date: "2016-03-14", accounting_method: "Accrual", summarize_column_by: undefined });
    expect(report.rows.filter((r) => r.kind === "data")).toHaveLength(3);
  });
});

describe("customers and vendors, named journal lines, filtered reports", () => {
  it("customers() asks for inactive ones too and reads the recorded page", async () => {
    const w = world((req, path) => {
      expect(path).toBe("query");
      expect(req.url.searchParams.get("query")).toBe("SELECT * FROM Customer WHERE Active IN (true, false) STARTPOSITION 1 MAXRESULTS 1000");
      return jsonResponse(readExchange("minimul-qbo_api/all__customers__1.json").response.body_json);
    });
    await w.seed();
    const customers = await w.client().customers();
    expect(customers).toHaveLength(41);
    expect(customers[0]).toEqual({ id: "1", syncToken: "0", displayName: "Amy's Bird Sanctuary", active: true });
    expect(w.apiCalls()).toHaveLength(1); // 41 < 1000: one page
  });

  it("vendors() pages like the recorded vendor pages", async () => {
    const pages = new Map<number, unknown>();
    for (let i = 1; i <= 6; i++) {
      const ex = readExchange(`minimul-qbo_api/all__vendors_by_5__${i}.json`);
      pages.set(Number(/STARTPOSITION%20(\d+)/.exec(ex.request.uri)?.[1]), ex.response.body_json);
    }
    const w = world((req) => {
      const m = /^SELECT \* FROM Vendor WHERE Active IN \(true, false\) STARTPOSITION (\d+) MAXRESULTS 5$/.exec(req.url.searchParams.get("query") ?? "");
      expect(m).not.toBeNull();
      return jsonResponse(pages.get(Number(m?.[1])));
    });
    await w.seed();
    const vendors = await w.client({ pageSize: 5 }).vendors();
    expect(vendors).toHaveLength(26);
    expect(vendors.every((v) => typeof v.displayName === "string" && v.active)).toBe(true);
  });

  it("createCustomer sends the recorded create's body with a requestid and reads the answer; createVendor likewise", async () => {
    const recorded = readExchange("minimul-qbo_api/create__customer__0.json");
    const w = world((req, path) => {
      expect(req.method).toBe("POST");
      if (path === "customer") {
        expect(req.body).toBe(recorded.request.body); // {"DisplayName":"Doe5, Jane"}
        return jsonResponse(recorded.response.body_json);
      }
      expect(path).toBe("vendor");
      const batch = readExchange("minimul-qbo_api/batch__basic__0.json").response.body_json as { BatchItemResponse: { Vendor?: unknown }[] };
      expect(JSON.parse(req.body)).toEqual({ DisplayName: "Boraski Family Store" });
      return jsonResponse({ Vendor: batch.BatchItemResponse[0]?.Vendor, time: "t" });
    });
    await w.seed();
    const c = w.client();
    expect(await c.createCustomer("  Doe5, Jane ")).toEqual({ id: "70", syncToken: "0", displayName: "Doe5, Jane", active: true });
    expect(await c.createVendor("Boraski Family Store", "link-vendor-UK-1")).toEqual({ id: "71", syncToken: "0", displayName: "Boraski Family Store", active: true });
    const [first, second] = w.apiCalls().map((call) => call.url.searchParams.get("requestid"));
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe("link-vendor-UK-1");
  });

  it("createCustomer leaves the recorded 6240 to the caller, unretried, and refuses bad names before sending", async () => {
    const duplicate = readExchange("minimul-qbo_api/error__validation__0.json");
    const w = world(() => jsonResponse(duplicate.response.body_json, 400));
    await w.seed();
    await expect(w.client().createCustomer("Weiskopf Consulting")).rejects.toMatchObject({ code: "6240", kind: "validation", message: "Duplicate Name Exists Error" });
    expect(w.apiCalls()).toHaveLength(1);
    for (const bad of ["", "  ", "x".repeat(501), "Parent:Child"]) await expect(w.client().createVendor(bad)).rejects.toThrow(RangeError);
    await expect(w.client().createVendor("ok", "has space")).rejects.toThrow(RangeError);
    expect(w.apiCalls()).toHaveLength(1);
  });

  it("serialises a line's Name as JournalEntryLineDetail.Entity, in Intuit's key order, and reads it back", async () => {
    const named: NewJournalEntry = {
      txnDate: "2025-03-31",
      currency: "USD",
      lines: [
        { postingType: "Debit", amount: 5000, accountId: "6", entity: { type: "Customer", id: "1", name: "Northwind UK Ltd" } },
        { postingType: "Credit", amount: 5000, accountId: "33", entity: { type: "Vendor", id: "6" }, classId: "2" },
      ],
    };
    const body = journalEntryBody(named) as { Line: { JournalEntryLineDetail: Record<string, unknown> }[] };
    expect(body.Line.map((l) => l.JournalEntryLineDetail)).toEqual([
      { PostingType: "Debit", Entity: { Type: "Customer", EntityRef: { value: "1", name: "Northwind UK Ltd" } }, AccountRef: { value: "6" } },
      { PostingType: "Credit", Entity: { Type: "Vendor", EntityRef: { value: "6" } }, AccountRef: { value: "33" }, ClassRef: { value: "2" } },
    ]);
    expect(Object.keys(body.Line[1]?.JournalEntryLineDetail ?? {})).toEqual(["PostingType", "Entity", "AccountRef", "ClassRef"]);
    expect(() => journalEntryBody({ ...named, lines: [{ ...named.lines[0]!, entity: { type: "Customer", id: " " } }, named.lines[1]!] })).toThrow(RangeError);

    const w = world((req) => {
      const sent = JSON.parse(req.body) as { Line: { JournalEntryLineDetail: { Entity: { EntityRef: Record<string, string> } } }[] };
      // QBO answers with the name's DisplayName on every named line.
      for (const l of sent.Line) l.JournalEntryLineDetail.Entity.EntityRef["name"] ??= "Trade suppliers";
      return jsonResponse({ JournalEntry: { ...sent, Id: "9", SyncToken: "0" }, time: "t" });
    });
    await w.seed();
    const created = await w.client().createJournalEntry(named, "ic-2025-03");
    expect(created.lines.map((l) => l.entity)).toEqual([
      { type: "Customer", id: "1", name: "Northwind UK Ltd" },
      { type: "Vendor", id: "6", name: "Trade suppliers" },
    ]);
  });

  it("report() sends customer and vendor as query parameters and reads the Header's echo, like the recorded filtered P&L", async () => {
    const recorded = readExchange("minimul-qbo_api/reports__profit_and_loss__0.json");
    const w = world((req, path) => {
      expect(path).toBe("reports/ProfitAndLoss");
      const sent = Object.fromEntries(req.url.searchParams);
      const want = Object.fromEntries(new URL(recorded.request.uri).searchParams);
      expect(sent).toEqual({ ...want, minorversion: "75" }); // customer=1&end_date&start_date&summarize_column_by=Customers
      return jsonResponse(recorded.response.body_json);
    });
    await w.seed();
    const report = await w.client().report("ProfitAndLoss", { customer: "1", end_date: "2015-07-31", start_date: "2015-01-01", summarize_column_by: "Customers" });
    expect(report).toMatchObject({ name: "ProfitAndLoss", customer: "1", noReportData: true });
    expect(report.vendor).toBeUndefined();

    const v = world((req) => {
      expect(req.url.searchParams.get("vendor")).toBe("1,4");
      const body = recorded.response.body_json as { Header: Record<string, unknown> };
      const { Customer: _c, ...header } = body.Header;
      return jsonResponse({ ...body, Header: { ...header, Vendor: "1,4" } });
    });
    await v.seed();
    expect((await v.client().report("BalanceSheet", { vendor: "1,4", summarize_column_by: "Month" })).vendor).toBe("1,4");
  });
});
