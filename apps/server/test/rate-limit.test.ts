import { describe, expect, it } from "vitest";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { GOOD_PASSWORD, post, signedInUser } from "./flows.ts";

describe.each(drivers)("rate limits on %s", (driver) => {
  describe("per email", () => {
    const t = useTestApp(driver, { config: { rateLimits: { loginFailuresPerEmail: 3, loginPerIp: 100 } } });

    it("locks an email after repeated failures, even with the right password, and not other emails", async () => {
      await signedInUser(t.app, "target@example.com");
      await signedInUser(t.app, "bystander@example.com");
      for (let i = 0; i < 3; i++) {
        const res = await post(t.app, "/api/session/token", { email: "target@example.com", password: `Wrong#${i}aaaa` });
        expect(res.statusCode).toBe(401);
      }
      const locked = await post(t.app, "/api/session/token", { email: "target@example.com", password: GOOD_PASSWORD });
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error.code).toBe("rate_limited");
      expect(locked.json().error.message).toMatch(/^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/);
      expect(Number(locked.headers["retry-after"])).toBeGreaterThan(0);
      const other = await post(t.app, "/api/session/token", { email: "bystander@example.com", password: GOOD_PASSWORD });
      expect(other.statusCode).toBe(200);
    });
  });

  describe("per IP", () => {
    const t = useTestApp(driver, { config: { rateLimits: { loginPerIp: 4, loginFailuresPerEmail: 100, mailPerIp: 100 } } });

    it("limits sign-in attempts from one address across emails", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await post(t.app, "/api/session/token", { email: `user${i}@example.com`, password: "Whatever#1" });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
      const fromElsewhere = await t.app.inject({
        method: "POST",
        url: "/api/session/token",
        payload: { email: "user0@example.com", password: "Whatever#1" },
        remoteAddress: "10.9.8.7",
      });
      expect(fromElsewhere.statusCode).toBe(401);
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
});
