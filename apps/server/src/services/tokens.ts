import { randomUUID } from "node:crypto";
import { SignJWT, errors as joseErrors, jwtVerify } from "jose";

export interface TokenClaims {
  sub: string;
  acc: string;
  ver: number;
  jti: string;
  exp: number;
}

export type TokenCheck =
  | { ok: true; claims: TokenClaims }
  | { ok: false; reason: "expired" | "invalid" };

/** Sessions whose signature was checked and are kept checked: a few per signed-in user. */
export const VERIFIED_TOKENS_KEPT = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  /**
   * Tokens already verified, by their exact text: the signature check (WebCrypto's HMAC, a promise
   * and a thread hop) was the largest cost of a signed-in request (issue 22). Only a token that
   * passed every check is kept, so a forged one never gets in; its expiry is checked again on every
   * use; logout and password changes are the database's to refuse (auth.ts), as before. Bounded:
   * the oldest kept token is forgotten first (it is verified again if it comes back).
   */
  private readonly verified = new Map<string, TokenClaims>();
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly kept = VERIFIED_TOKENS_KEPT,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** How many verified tokens are kept now (tests). */
  get keptCount(): number {
    return this.verified.size;
  }

  async issue(user: { id: string; accountId: string; tokenVersion: number }): Promise<{ token: string; expiresAt: Date }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + this.ttlSeconds;
    const token = await new SignJWT({ acc: user.accountId, ver: user.tokenVersion })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .setIssuer("groupledger")
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  async check(token: string): Promise<TokenCheck> {
    const known = this.verified.get(token);
    if (known) {
      // jose's rule: expired once the clock reaches exp.
      if (Math.floor(Date.now() / 1000) >= known.exp) {
        this.verified.delete(token);
        return { ok: false, reason: "expired" };
      }
      return { ok: true, claims: known };
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ["HS256"],
        issuer: "groupledger",
        requiredClaims: ["exp", "sub", "jti"],
      });
      const { sub, acc, ver, jti, exp } = payload;
      if (typeof sub !== "string" || typeof acc !== "string" || typeof ver !== "number" || typeof jti !== "string" || typeof exp !== "number") {
        return { ok: false, reason: "invalid" };
      }
      const claims = { sub, acc, ver, jti, exp };
      if (this.verified.size >= this.kept) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, claims);
      return { ok: true, claims };
    } catch (err) {
      return { ok: false, reason: err instanceof joseErrors.JWTExpired ? "expired" : "invalid" };
    }
  }
}
