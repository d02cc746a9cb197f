/** Fault injection, Intuit's per-realm limits, the admin routes and byte-identical determinism. */
import { describe, expect, it } from "vitest";
import { startSandbox } from "../server.ts";
import { FaultInjector, MAX_PER_MINUTE, RealmLimiter } from "../throttle.ts";
import { harness, q, testClock } from "../testing/harness.ts";

describe("fault injection", () => {
  it("throttles a seeded, reproducible share of requests with Intuit's 429 Fault", async () => {
    const statuses = async (): Promise<number[]> => {
      const h = await harness({ faults: { rate429: 0.3, seed: 42 } });
      const realm = h.realms[0] as string;
      const t = await h.tokens(realm); // the token call draws too
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await h.get(realm, "preferences", t.access_token)).statusCode);
      return out;
    };
    const first = await statuses();
    expect(await statuses()).toEqual(first);
    const throttled = first.filter((s) => s === 429).length;
    expect(throttled).toBeGreaterThan(3);
    expect(throttled).toBeLessThan(20);
    // the same seed drives the injector the same way
    const injector = new FaultInjector({ rate429: 0.3, seed: 42 });
    injector.decide();
    expect(first.map((s) => s === 429)).toEqual(first.map(() => injector.decide().kind === "throttle"));
    const h = await harness({ faults: { rate429: 1 } });
    const t429 = await h.tokenRequest({ grant_type: "refresh_token", refresh_token: "x" });
    expect(t429.statusCode).toBe(429);
    expect(t429.json()).toMatchObject({ Fault: { Error: [{ code: "3001" }], type: "ThrottleExceeded" } });
  });

  it("answers 500/503 SystemFaults at the 5xx rate", async () => {
    const h = await harness({ faults: { rate5xx: 1, seed: 7 } });
    const res = await h.tokenRequest({ grant_type: "refresh_token", refresh_token: "x" });
    expect([500, 503]).toContain(res.statusCode);
    expect(res.json()).toMatchObject({ Fault: { type: "SystemFault", Error: [{ code: "10000" }] } });
    expect(res.headers["intuit_tid"]).toBeDefined();
  });

  it("adds latency and drops connections over real sockets", async () => {
    const s = await startSandbox({ faults: { latencyMs: 150 } });
    try {
      const realm = s.sandbox.companies()[0]?.realmId as string;
      const started = Date.now();
      const res = await fetch(`${s.url}/v3/company/${realm}/preferences`, { headers: { authorization: "Bearer nope" } });
      expect(res.status).toBe(401);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(res.headers.get("intuit_tid")).toMatch(/^1-/);
      s.sandbox.setFaults({ dropRate: 1 });
      await expect(fetch(`${s.url}/v3/company/${realm}/preferences`, { headers: { authorization: "Bearer nope" } })).rejects.toThrow();
      // the consent page and admin are never faulted
      expect((await fetch(`${s.url}/_sandbox/faults`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe("Intuit's rate limits per realm", () => {
  it("answers 429 beyond 10 concurrent requests", async () => {
    const h = await harness({ faults: { latencyMs: 200 } });
    const realm = h.realms[0] as string;
    const t = await h.tokens(realm);
    const results = await Promise.all(Array.from({ length: 13 }, () => h.get(realm, "preferences", t.access_token)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(3);
    // another realm has its own allowance
    const other = h.realms[1] as string;
    const t2 = await h.tokens(other);
    expect((await h.get(other, "preferences", t2.access_token)).statusCode).toBe(200);
  });

  it("allows 500 requests per rolling minute", () => {
    const limiter = new RealmLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < MAX_PER_MINUTE; i++) {
      expect(limiter.tryAcquire("r", t0 + i)).toBe(true);
      limiter.release("r");
    }
    expect(limiter.tryAcquire("r", t0 + 1000)).toBe(false);
    expect(limiter.tryAcquire("other", t0 + 1000)).toBe(true);
    expect(limiter.tryAcquire("r", t0 + 60_001)).toBe(true); // the first request left the window
  });
});

describe("admin", () => {
  it("is not mounted unless asked for: reset, faults, rules and companies are unknown paths", async () => {
    const h = await harness({ admin: false });
    const realm = h.realms[0] as string;
    const t = await h.tokens(realm);
    for (const [method, url] of [["POST", "/_sandbox/reset"], ["GET", "/_sandbox/faults"], ["PUT", "/_sandbox/faults"], ["GET", "/_sandbox/rules"], ["PUT", "/_sandbox/rules"], ["GET", "/_sandbox/companies"]] as const) {
      const res = await h.app.inject({ method, url, payload: method === "PUT" ? { rate5xx: 1 } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(h.sandbox.faults.current).toEqual({});
    // The emulator itself still answers, and the grant survived the attempted reset.
    expect((await h.get(realm, "preferences", t.access_token)).statusCode).toBe(200);
  });

  it("validates fault settings with a clear message", async () => {
    const h = await harness();
    const bad = await h.app.inject({ method: "PUT", url: "/_sandbox/faults", payload: { rate429: 2, bogus: true } });
    expect(bad.statusCode).toBe(400);
    const error = (bad.json() as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("invalid_fault_settings");
    expect(error.message).toMatch(/rate429/);
    expect(error.message).toMatch(/bogus/);
    const ok = await h.app.inject({ method: "PUT", url: "/_sandbox/faults", payload: { latencyMs: 5, seed: 3 } });
    expect(ok.json()).toEqual({ latencyMs: 5, seed: 3 });
    expect((await h.app.inject({ method: "GET", url: "/_sandbox/faults" })).json()).toEqual({ latencyMs: 5, seed: 3 });
    expect((await h.app.inject({ method: "GET", url: "/_sandbox/companies" })).json()).toEqual(h.sandbox.companies());
  });

  it("reset restores the demo group and drops tokens and posted entries", async () => {
    const h = await harness();
    const realm = h.realms[0] as string;
    const t = await h.tokens(realm);
    const before = (await h.get(realm, q("SELECT COUNT(*) FROM JournalEntry"), t.access_token)).json() as unknown;
    await h.post(realm, "journalentry", t.access_token, {
      Line: [
        { DetailType: "JournalEntryLineDetail", Amount: 1, JournalEntryLineDetail: { PostingType: "Debit", AccountRef: { value: "6" } } },
        { DetailType: "JournalEntryLineDetail", Amount: 1, JournalEntryLineDetail: { PostingType: "Credit", AccountRef: { value: "1" } } },
      ],
    });
    expect((await h.app.inject({ method: "POST", url: "/_sandbox/reset" })).statusCode).toBe(200);
    expect((await h.get(realm, "preferences", t.access_token)).statusCode).toBe(401);
    const t2 = await h.tokens(realm);
    expect((await h.get(realm, q("SELECT COUNT(*) FROM JournalEntry"), t2.access_token)).json()).toMatchObject({ QueryResponse: (before as { QueryResponse: object }).QueryResponse });
  });
});

describe("determinism", () => {
  it("two fresh sandboxes produce byte-identical reports", async () => {
    const paths = [
      "reports/BalanceSheet?start_date=2023-01-01&end_date=2026-10-31&summarize_column_by=Month",
      "reports/ProfitAndLoss?start_date=2023-01-01&end_date=2026-10-31&summarize_column_by=Quarter",
      "reports/TrialBalance?start_date=2025-06-01&end_date=2025-06-30",
      "reports/GeneralLedger?start_date=2024-02-01&end_date=2024-02-29",
    ];
    const bodies = async (): Promise<string[]> => {
      const h = await harness({ now: testClock().now });
      const out: string[] = [];
      for (const realm of h.realms) {
        const t = (await h.tokens(realm)).access_token;
        for (const p of paths) out.push((await h.get(realm, p, t)).body);
      }
      return out;
    };
    const [a, b] = [await bodies(), await bodies()];
    expect(a).toEqual(b);
    expect(a.every((x) => x.startsWith('{"Header":'))).toBe(true);
  });
});
