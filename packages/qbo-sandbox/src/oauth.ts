/**
 * Intuit's OAuth 2.0 grant life cycle: single-use authorization codes (10 minutes), access tokens
 * (1 hour by default), rotating refresh tokens whose predecessor keeps working for 24 hours after
 * a newer one is issued, and revocation of the whole grant by either token.
 */
import { randomBytes } from "node:crypto";

export const CODE_TTL_MS = 10 * 60 * 1000;
export const SUPERSEDED_GRACE_MS = 24 * 60 * 60 * 1000;

export interface CodeRecord {
  readonly realmId: string;
  readonly redirectUri: string;
  readonly expiresAt: number;
  used: boolean;
}

export interface GrantRecord {
  readonly realmId: string;
  revoked: boolean;
}

export interface AccessRecord {
  readonly grantId: string;
  readonly expiresAt: number;
}

export interface RefreshRecord {
  readonly grantId: string;
  readonly expiresAt: number;
  supersededAt?: number | undefined;
}

export interface OAuthState {
  codes: Record<string, CodeRecord>;
  grants: Record<string, GrantRecord>;
  access: Record<string, AccessRecord>;
  refresh: Record<string, RefreshRecord>;
}

export interface TokenSet {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
  readonly refreshExpiresIn: number;
  readonly realmId: string;
}

export type OAuthOutcome<T> = { ok: true; value: T } | { ok: false; error: "invalid_grant"; description: string };

export type AccessCheck =
  | { ok: true; realmId: string }
  | { ok: false; reason: "invalid" | "expired" | "revoked" };

function token(prefix: string, now: number, bytes: number): string {
  return `${prefix}${Math.floor(now / 1000)}${randomBytes(bytes).toString("base64url")}`;
}

export function emptyOAuthState(): OAuthState {
  return { codes: {}, grants: {}, access: {}, refresh: {} };
}

export class OAuthStore {
  constructor(
    public state: OAuthState,
    private readonly accessTtlMs: number,
    private readonly refreshTtlMs: number,
  ) {}

  issueCode(realmId: string, redirectUri: string, now: number): string {
    const code = token("AB11", now, 24);
    this.state.codes[code] = { realmId, redirectUri, expiresAt: now + CODE_TTL_MS, used: false };
    return code;
  }

  exchangeCode(code: string, redirectUri: string, now: number): OAuthOutcome<TokenSet> {
    const record = this.state.codes[code];
    if (record === undefined || record.used || now >= record.expiresAt || record.redirectUri !== redirectUri) {
      return { ok: false, error: "invalid_grant", description: "Token invalid" };
    }
    record.used = true;
    const grantId = randomBytes(12).toString("hex");
    this.state.grants[grantId] = { realmId: record.realmId, revoked: false };
    return { ok: true, value: this.issueTokens(grantId, now) };
  }

  refresh(refreshToken: string, now: number): OAuthOutcome<TokenSet> {
    const record = this.state.refresh[refreshToken];
    const grant = record === undefined ? undefined : this.state.grants[record.grantId];
    const invalid = { ok: false, error: "invalid_grant", description: "Token invalid" } as const;
    if (record === undefined || grant === undefined || grant.revoked) return invalid;
    if (now >= record.expiresAt) return invalid;
    if (record.supersededAt !== undefined && now >= record.supersededAt + SUPERSEDED_GRACE_MS) return invalid;
    return { ok: true, value: this.issueTokens(record.grantId, now) };
  }

  /** Revokes the grant behind an access or refresh token. Unknown tokens are ignored (RFC 7009). */
  revoke(tokenValue: string): void {
    const grantId = this.state.access[tokenValue]?.grantId ?? this.state.refresh[tokenValue]?.grantId;
    const grant = grantId === undefined ? undefined : this.state.grants[grantId];
    if (grant !== undefined) grant.revoked = true;
  }

  checkAccess(accessToken: string, now: number): AccessCheck {
    const record = this.state.access[accessToken];
    const grant = record === undefined ? undefined : this.state.grants[record.grantId];
    if (record === undefined || grant === undefined) return { ok: false, reason: "invalid" };
    if (grant.revoked) return { ok: false, reason: "revoked" };
    if (now >= record.expiresAt) return { ok: false, reason: "expired" };
    return { ok: true, realmId: grant.realmId };
  }

  /** Drops what can never be used again, so a persisted state does not grow without end. */
  prune(now: number): void {
    const s = this.state;
    for (const [k, v] of Object.entries(s.codes)) if (now >= v.expiresAt) delete s.codes[k];
    for (const [k, v] of Object.entries(s.access)) if (now >= v.expiresAt || s.grants[v.grantId]?.revoked !== false) delete s.access[k];
    for (const [k, v] of Object.entries(s.refresh)) {
      const dead = now >= v.expiresAt || (v.supersededAt !== undefined && now >= v.supersededAt + SUPERSEDED_GRACE_MS);
      if (dead || s.grants[v.grantId]?.revoked !== false) delete s.refresh[k];
    }
  }

  private issueTokens(grantId: string, now: number): TokenSet {
    for (const r of Object.values(this.state.refresh)) {
      if (r.grantId === grantId && r.supersededAt === undefined) r.supersededAt = now;
    }
    const accessToken = `eyJ${randomBytes(48).toString("base64url")}`;
    const refreshToken = token("AB11", now, 30);
    this.state.access[accessToken] = { grantId, expiresAt: now + this.accessTtlMs };
    this.state.refresh[refreshToken] = { grantId, expiresAt: now + this.refreshTtlMs };
    const grant = this.state.grants[grantId] as GrantRecord;
    return {
      accessToken,
      refreshToken,
      expiresIn: Math.round(this.accessTtlMs / 1000),
      refreshExpiresIn: Math.round(this.refreshTtlMs / 1000),
      realmId: grant.realmId,
    };
  }
}
