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

export class TokenService {
  private readonly key: Uint8Array;
  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
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
      return { ok: true, claims: { sub, acc, ver, jti, exp } };
    } catch (err) {
      return { ok: false, reason: err instanceof joseErrors.JWTExpired ? "expired" : "invalid" };
    }
  }
}
