import { describe, expect, it } from "vitest";
import { useTestApp } from "./app.ts";
import { drivers } from "./databases.ts";
import { GOOD_PASSWORD, get, post } from "./flows.ts";

describe.each(drivers)("mail on %s", (driver) => {
  describe("when delivery fails", () => {
    const t = useTestApp(driver, {
      mailTransport: {
        kind: "smtp",
        send: async () => {
          throw new Error("connect ECONNREFUSED 127.0.0.1:2525");
        },
      },
    });

    it("still signs the user up and keeps the mail in the outbox with its error", async () => {
      const res = await post(t.app, "/api/session/signup", { email: "offline@example.com", password: GOOD_PASSWORD });
      expect(res.statusCode).toBe(201);
      const box = (await get(t.app, "/api/dev/mailbox?to=offline@example.com")).json().messages;
      expect(box).toHaveLength(1);
      expect(box[0].status).toBe("failed");
      expect(box[0].text).toMatch(/verification code is [0-9A-Z]{4}-[0-9A-Z]{4}/);
    });
  });

  describe("when delivery is slow", () => {
    const DELAY_MS = 600;
    const t = useTestApp(driver, {
      mailTransport: { kind: "smtp", send: () => new Promise((resolve) => setTimeout(resolve, DELAY_MS)) },
    });

    it("answers forgot-password and resend without waiting for the mail, which still goes out", async () => {
      await post(t.app, "/api/session/signup", { email: "slow@example.com", password: GOOD_PASSWORD });
      for (const url of ["/api/session/resendcode", "/api/session/forgotpassword"]) {
        const start = performance.now();
        const res = await post(t.app, url, { email: "slow@example.com" });
        expect(res.statusCode).toBe(200);
        // Waiting for the mail server would tell a caller that the email exists.
        expect(performance.now() - start).toBeLessThan(DELAY_MS / 2);
      }
      const box = (await get(t.app, "/api/dev/mailbox?to=slow@example.com")).json().messages;
      expect(box.map((m: { subject: string; status: string }) => [m.subject, m.status])).toEqual([
        ["Reset your GroupLedger password", "sent"],
        ["Your GroupLedger verification code", "sent"],
        ["Your GroupLedger verification code", "sent"],
      ]);
    });
  });

  describe("without SMTP", () => {
    const t = useTestApp(driver);

    it("logs the mail and shows it in the dev mailbox, newest first", async () => {
      await post(t.app, "/api/session/signup", { email: "first@example.com", password: GOOD_PASSWORD });
      await post(t.app, "/api/session/signup", { email: "second@example.com", password: GOOD_PASSWORD });
      const all = (await get(t.app, "/api/dev/mailbox")).json().messages;
      expect(all.map((m: { to: string }) => m.to)).toEqual(["second@example.com", "first@example.com"]);
      expect(all.every((m: { status: string }) => m.status === "logged")).toBe(true);
      const bad = await get(t.app, "/api/dev/mailbox?limit=0");
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details.fields[0].path).toBe("query.limit");
    });
  });

  describe("in production", () => {
    const t = useTestApp(driver, { config: { env: "production", devMailbox: false } });

    it("has no dev mailbox", async () => {
      expect((await get(t.app, "/api/dev/mailbox")).statusCode).toBe(404);
    });
  });
});
