import { and, count, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { auditLog } from "../src/db/schema.ts";
import { testConfig, useTestApp } from "./app.ts";
import { createTestDatabase, drivers } from "./databases.ts";
import { GOOD_PASSWORD, post, signedInUser, verifyCodeOf } from "./flows.ts";

/** A request as it reaches us from `from` (the socket's address), optionally with X-Forwarded-For. */
function from(app: FastifyInstance, address: string, url: string, payload: object, forwardedFor?: string) {
  return app.inject({
    method: "POST",
    url,
    payload,
    remoteAddress: address,
    headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
  });
}

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.each(drivers)("rate limits on %s", (driver) => {
  describe("per email and address", () => {
    const t = useTestApp(driver, { config: { rateLimits: { loginFailuresPerEmailIp: 3, loginPerIp: 100 } } });

    it("stops an address after repeated failures for one email, even with the right password; not other emails or addresses", async () => {
      await signedInUser(t.app, "target@example.com");
      await signedInUser(t.app, "bystander@example.com");
      const attacker = "203.0.113.5";
      for (let i = 0; i < 3; i++) {
        const res = await from(t.app, attacker, "/api/session/token", { email: "target@example.com", password: `Wrong#${i}aaaa` });
        expect(res.statusCode).toBe(401);
      }
      const locked = await from(t.app, attacker, "/api/session/token", { email: "target@example.com", password: GOOD_PASSWORD });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error.code).toBe("rate_limited");
      expect(locked.json().error.message).toMatch(/^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/);
      expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
      const other = await from(t.app, attacker, "/api/session/token", { email: "bystander@example.com", password: GOOD_PASSWORD });
      expect(other.statusCode).toBe(200);
      // The owner, elsewhere, is not locked out by someone else's guesses.
      const owner = await from(t.app, "198.51.100.20", "/api/session/token", { email: "target@example.com", password: GOOD_PASSWORD });
      expect(owner.statusCode).toBe(200);
    });

    it("forgives an address its failures once it signs in", async () => {
      await signedInUser(t.app, "typo@example.com");
      const home = "198.51.100.30";
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 2; i++) {
          expect((await from(t.app, home, "/api/session/token", { email: "typo@example.com", password: `Typo#${i}aaaa` })).statusCode).toBe(401);
        }
        expect((await from(t.app, home, "/api/session/token", { email: "typo@example.com", password: GOOD_PASSWORD })).statusCode).toBe(200);
      }
    });
  });

  describe("a parallel burst against one email", () => {
    const LIMIT = 10;
    const t = useTestApp(driver, { config: { rateLimits: { loginFailuresPerEmailIp: LIMIT, loginFailuresPerEmail: 50, loginPerIp: 1000 } } });

    it("evaluates at most the limit of 200 parallel wrong passwords, and the owner still signs in from elsewhere", async () => {
      const email = "burst@example.com";
      await signedInUser(t.app, email);
      const attacker = "203.0.113.66";
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => from(t.app, attacker, "/api/session/token", { email, password: `Wrong#${i}burst` })),
      );
      const statuses = tally(results.map((r) => r.statusCode));
      expect(Object.keys(statuses).sort()).toEqual(["401", "429"]);
      // 401 = the password was checked; 429 = refused before.
      expect(statuses[401]).toBeLessThanOrEqual(LIMIT);
      const [failed] = await t.db.database.db
        .select({ n: count() })
        .from(auditLog)
        .where(and(eq(auditLog.action, "user.login_failed"), eq(auditLog.ip, attacker)));
      expect(failed!.n).toBe(statuses[401]);

      const owner = await from(t.app, "198.51.100.21", "/api/session/token", { email, password: GOOD_PASSWORD });
      expect(owner.statusCode).toBe(200);
    });
  });

  describe("many addresses against one email", () => {
    const t = useTestApp(driver, { config: { rateLimits: { loginFailuresPerEmailIp: 3, loginFailuresPerEmail: 6, loginPerIp: 1000 } } });

    it("slows the email down for new addresses once failures pile up, but not where the owner signed in before", async () => {
      const email = "spread@example.com";
      await signedInUser(t.app, email); // signs in from 127.0.0.1, the test client's address
      for (let a = 0; a < 3; a++) {
        for (let i = 0; i < 2; i++) {
          expect((await from(t.app, `203.0.113.${a + 1}`, "/api/session/token", { email, password: `Wrong#${a}${i}spread` })).statusCode).toBe(401);
        }
      }
      // Six failures from three addresses: a new address is refused before its password is even checked.
      const fresh = await from(t.app, "203.0.113.99", "/api/session/token", { email, password: "Wrong#99spread" });
      expect(fresh.statusCode).toBe(429);
      expect(fresh.json().error.message).toMatch(/^Too many sign-in attempts\./);
      // The owner, from where they signed in before, still gets in.
      const owner = await from(t.app, "127.0.0.1", "/api/session/token", { email, password: GOOD_PASSWORD });
      expect(owner.statusCode).toBe(200);
      // Other emails are not affected.
      await signedInUser(t.app, "calm@example.com");
      expect((await from(t.app, "203.0.113.99", "/api/session/token", { email: "calm@example.com", password: GOOD_PASSWORD })).statusCode).toBe(200);
    });
  });

  describe("per IP", () => {
    const t = useTestApp(driver, { config: { rateLimits: { loginPerIp: 4, loginFailuresPerEmailIp: 100, mailPerIp: 100 } } });

    it("limits sign-in attempts from one address across emails", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await post(t.app, "/api/session/token", { email: `user${i}@example.com`, password: "Whatever#1" });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
      const fromElsewhere = await from(t.app, "10.9.8.7", "/api/session/token", { email: "user0@example.com", password: "Whatever#1" });
      expect(fromElsewhere.statusCode).toBe(401);
    });
  });

  describe("behind a proxy", () => {
    it("takes the client's address from X-Forwarded-For only when the configured proxy sent it", async () => {
      // TRUST_PROXY as an operator writes it: the load balancer's address.
      const { trustProxy } = loadConfig({ TRUST_PROXY: "10.0.0.1", APP_SECRET: "s".repeat(40) });
      const db = await createTestDatabase(driver);
      const app = await buildApp({
        config: testConfig({ trustProxy, rateLimits: { loginPerIp: 3 } }),
        database: db.database,
        logger: false,
        webDist: false,
      });
      try {
        const attempt = (address: string, forwardedFor?: string) =>
          from(app, address, "/api/session/token", { email: "someone@example.com", password: "Whatever#1" }, forwardedFor).then((r) => r.statusCode);
        // A client talking to us directly cannot pick its address by sending the header.
        const direct: number[] = [];
        for (let i = 0; i < 5; i++) direct.push(await attempt("198.51.100.7", `203.0.113.${i + 1}`));
        expect(direct).toEqual([401, 401, 401, 429, 429]);
        // Through the proxy, each client behind it is counted on its own ...
        const behind: number[] = [];
        for (let i = 0; i < 4; i++) behind.push(await attempt("10.0.0.1", "192.0.2.1"));
        expect(behind).toEqual([401, 401, 401, 429]);
        expect(await attempt("10.0.0.1", "192.0.2.2")).toBe(401);
        // ... by the address the proxy saw: what the client wrote into the header before it does not count.
        expect(await attempt("10.0.0.1", "203.0.113.50, 192.0.2.1")).toBe(429);
      } finally {
        await app.close();
        await db.drop();
      }
    });
  });

  describe("codes and mail", () => {
    const t = useTestApp(driver, { config: { rateLimits: { codePerIp: 3, mailPerIp: 2 } } });

    it("limits code guesses and mail requests per address", async () => {
      const guesses: number[] = [];
      for (let i = 0; i < 4; i++) guesses.push((await post(t.app, "/api/session/validationcode", { validationCode: "ABCD-EFGH" })).statusCode);
      expect(guesses).toEqual([400, 400, 400, 429]);
      const mails: number[] = [];
      for (let i = 0; i < 3; i++) mails.push((await post(t.app, "/api/session/forgotpassword", { email: `x${i}@example.com` })).statusCode);
      expect(mails).toEqual([200, 200, 429]);
    });
  });

  describe("codes without an email", () => {
    const t = useTestApp(driver, { config: { rateLimits: { codeGuessesWithoutEmail: 3, codePerIp: 100 } } });

    it("bounds guessing from any number of addresses: past the budget a code needs its email", async () => {
      const email = "pending-code@example.com";
      await post(t.app, "/api/session/signup", { email, password: GOOD_PASSWORD });
      const code = await verifyCodeOf(t.app, email);
      for (let i = 0; i < 3; i++) {
        const guess = await from(t.app, `198.51.100.${i + 1}`, "/api/session/validationcode", { validationCode: `ZZZZ-ZZZ${i}` });
        expect(guess.statusCode).toBe(400);
      }
      const blocked = await from(t.app, "198.51.100.50", "/api/session/validationcode", { validationCode: code });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error.message).toMatch(/^Too many codes were tried without an email\. Enter your email together with the code/);
      // With its email the code works (and wrong tries with an email burn that one code after five).
      const verified = await from(t.app, "198.51.100.51", "/api/session/validationcode", { validationCode: code, email });
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toEqual({ email });
    });
  });
});
