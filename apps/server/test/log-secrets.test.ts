import { describe, expect, it, vi } from "vitest";
import type { Mail, Transport } from "../src/services/mailer.ts";
import { useSandboxApp } from "./app.ts";
import { DEMO, configureForTranslation, consent, drainJobs } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";

/**
 * No secret ever reaches the logs: the app runs at its most verbose level through a whole
 * working session (sign-up, wrong and right passwords, reset, QuickBooks consent and token
 * refresh, sync, rates, opening balances posted, a run) and every captured line is searched for
 * every secret that passed through it. Mail goes to a transport of its own, as with SMTP in
 * production (without SMTP the outbox is printed to the log on purpose, for development).
 */
describe.each(drivers)("secrets stay out of the logs on %s", (driver) => {
  const lines: string[] = [];
  const mails: Mail[] = [];
  const transport: Transport = { kind: "smtp", send: async (_from, m) => void mails.push(m) };
  const { sandbox, t } = useSandboxApp(driver, { config: { logLevel: "trace", env: "production" }, mailTransport: transport, logStream: { write: (line: string) => void lines.push(line) } });

  it("logs requests, jobs and QuickBooks calls without passwords, codes, session or QuickBooks tokens", async () => {
    const { app } = t;
    const secrets: string[] = [];
    const email = "secretive@northwind.example";
    const password = "Ledger#Secret2026";
    secrets.push(password);
    expect((await post(app, "/api/session/signup", { email, password })).statusCode).toBe(201);
    const code = /code is ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(mails.at(-1)!.text)![1]!;
    secrets.push(code);
    expect((await post(app, "/api/session/validationcode", { validationCode: code, email })).statusCode).toBe(200);
    const wrong = "Wrong#Password2026";
    secrets.push(wrong);
    expect((await post(app, "/api/session/token", { email, password: wrong })).statusCode).toBe(401);
    await post(app, "/api/session/forgotpassword", { email });
    // The reset mail is prepared after the answer (so a real email answers as fast as an unknown one).
    await vi.waitFor(() => expect(mails.at(-1)!.subject).toMatch(/reset/i));
    const resetCode = /([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(mails.at(-1)!.text)![1]!;
    secrets.push(resetCode);
    const login = await post(app, "/api/session/token", { email, password });
    const token = login.json().token as string;
    secrets.push(token);

    // QuickBooks: consent, callback, sync (with a token refresh on the way), rates, a posting.
    for (const realmId of [DEMO.parent, DEMO.uk]) {
      const { state, code: authCode } = await consent(app, sandbox, token, realmId);
      secrets.push(state, authCode);
      expect((await post(app, "/api/qbo/account/callback", { state, code: authCode, realmId }, token)).statusCode).toBe(200);
    }
    await drainJobs(app);
    for (const realmId of [DEMO.parent, DEMO.uk]) {
      const stored = await app.services.tokenStore.load(realmId);
      secrets.push(stored!.accessToken, stored!.refreshToken);
      // Expire the access token so the next call refreshes it, and remember the new pair.
      await app.services.tokenStore.save(realmId, { ...stored!, accessTokenExpiresAt: Date.now() - 1000 });
    }
    await post(app, "/api/companies/parent", { realmId: DEMO.parent }, token);
    await post(app, "/api/obal", { year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 }, token);
    await configureForTranslation(app, token, [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2024-12", to: "2026-02" });
    for (const action of ["review", "confirm"]) await post(app, `/api/obal/${action}`, { realmId: DEMO.uk }, token);
    expect((await post(app, `/api/balances/post/${DEMO.uk}`, undefined, token)).statusCode).toBe(200);
    expect((await post(app, "/api/consolidation/post", { realmId: DEMO.uk, period: { kind: "month", year: 2026, month: 1 } }, token)).statusCode).toBe(200);
    for (const realmId of [DEMO.parent, DEMO.uk]) {
      const rotated = await app.services.tokenStore.load(realmId);
      secrets.push(rotated!.accessToken, rotated!.refreshToken);
    }
    await get(app, "/api/session", `${token}tampered`);
    expect((await post(app, "/api/session/logout", undefined, token)).statusCode).toBeLessThan(300);

    const log = lines.join("");
    // The capture is real: requests, the sync job and QuickBooks traffic are all in it.
    expect(lines.length).toBeGreaterThan(50);
    expect(log).toContain("/api/session/token");
    expect(log).toContain("/api/consolidation/post");
    const leaked = [...new Set(secrets)].filter((s) => s.length >= 6 && log.includes(s));
    expect(leaked, "secrets found in the log").toEqual([]);
    // Only redacted placeholders where an authorization header would have been.
    expect(log).not.toMatch(/Bearer\s+[A-Za-z0-9._-]{20,}/);
  });
});
