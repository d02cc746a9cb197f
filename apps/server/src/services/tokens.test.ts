import { SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TokenService } from "./tokens.ts";

const SECRET = "an-app-secret-that-is-long-enough-0123456789";
const USER = { id: "user-1", accountId: "account-1", tokenVersion: 3 };
const key = (secret: string) => new TextEncoder().encode(secret);

/** A token signed with `secret` as someone other than TokenService.issue would make it. */
function forged(claims: Record<string, unknown>, { secret = SECRET, issuer = "groupledger", exp = Math.floor(Date.now() / 1000) + 60 }: { secret?: string; issuer?: string | null; exp?: number } = {}) {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject(USER.id).setJti("jti-1").setExpirationTime(exp);
  if (issuer) jwt.setIssuer(issuer);
  return jwt.sign(key(secret));
}

describe("TokenService", () => {
  const tokens = new TokenService(SECRET, 3600);

  it("issues an HS256 session for the user that checks out with its claims: user, account, token version, id and expiry", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { token, expiresAt } = await tokens.issue(USER);
    const checked = await tokens.check(token);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.claims).toMatchObject({ sub: "user-1", acc: "account-1", ver: 3 });
    expect(checked.claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(checked.claims.exp).toBeGreaterThanOrEqual(before + 3600);
    expect(checked.claims.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
    expect(expiresAt.getTime()).toBe(checked.claims.exp * 1000);
    expect(JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString())).toEqual({ alg: "HS256", typ: "JWT" });
  });

  it("gives every session its own id, so one can be revoked alone", async () => {
    const a = await tokens.check((await tokens.issue(USER)).token);
    const b = await tokens.check((await tokens.issue(USER)).token);
    expect(a.ok && b.ok && a.claims.jti !== b.claims.jti).toBe(true);
  });

  it("tells an expired session from any other bad token", async () => {
    const expired = new TokenService(SECRET, -60);
    expect(await tokens.check((await expired.issue(USER)).token)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a token signed with another secret, altered, of another issuer, or not a token at all", async () => {
    const { token } = await tokens.issue(USER);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), acc: "account-2" })).toString("base64url");
    for (const bad of [
      await new TokenService("another-app-secret-also-long-enough-000", 3600).issue(USER).then((t) => t.token),
      `${header}.${altered}.${signature}`,
      await forged({ acc: USER.accountId, ver: 3 }, { issuer: "someone-else" }),
      await forged({ acc: USER.accountId, ver: 3 }, { issuer: null }),
      "not.a.token",
      "",
    ]) {
      expect(await tokens.check(bad), bad).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("refuses unsigned tokens (alg none)", async () => {
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify({ sub: "user-1", acc: "account-1", ver: 3, jti: "j", exp: 9999999999, iss: "groupledger" })).toString("base64url")}.`;
    expect(await tokens.check(none)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses a correctly signed token whose claims are missing or of the wrong type", async () => {
    expect(await tokens.check(await forged({ ver: 3 }))).toEqual({ ok: false, reason: "invalid" });
    expect(await tokens.check(await forged({ acc: USER.accountId, ver: "3" }))).toEqual({ ok: false, reason: "invalid" });
    // The same forger with every claim right is accepted: the refusals above are for the claims.
    expect((await tokens.check(await forged({ acc: USER.accountId, ver: 3 }))).ok).toBe(true);
  });

  describe("tokens already verified", () => {
    afterEach(() => vi.useRealTimers());

    it("are answered again without a signature check until they expire, then as expired", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const short = new TokenService(SECRET, 60);
      const { token } = await short.issue(USER);
      const first = await short.check(token);
      expect(first.ok).toBe(true);
      expect(short.keptCount).toBe(1);
      expect(await short.check(token)).toEqual(first);
      vi.setSystemTime(Date.now() + 60_000);
      expect(await short.check(token)).toEqual({ ok: false, reason: "expired" });
      expect(short.keptCount).toBe(0);
    });

    it("never let a token in that did not pass, nor one altered from a kept one", async () => {
      const { token } = await tokens.issue(USER);
      expect((await tokens.check(token)).ok).toBe(true);
      const [header, payload, signature] = token.split(".") as [string, string, string];
      const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), acc: "account-2" })).toString("base64url");
      const kept = tokens.keptCount;
      expect(await tokens.check(`${header}.${altered}.${signature}`)).toEqual({ ok: false, reason: "invalid" });
      expect(tokens.keptCount).toBe(kept);
    });

    it("are kept up to a bound, the oldest forgotten first and verified again when it comes back", async () => {
      const small = new TokenService(SECRET, 3600, 2);
      const [a, b, c] = await Promise.all([small.issue(USER), small.issue(USER), small.issue(USER)]);
      for (const t of [a, b, c]) expect((await small.check(t.token)).ok).toBe(true);
      expect(small.keptCount).toBe(2);
      expect((await small.check(a.token)).ok).toBe(true);
      expect(small.keptCount).toBe(2);
    });
  });
});
