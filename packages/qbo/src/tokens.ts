import { z } from "zod";

/** One company's OAuth tokens, with absolute expiry times (epoch milliseconds). */
export interface TokenSet {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly tokenType: string;
  readonly accessTokenExpiresAt: number;
  readonly refreshTokenExpiresAt: number;
  /** Only on the authorization_code grant with the `openid` scope. */
  readonly idToken?: string | undefined;
}

/**
 * Where tokens live. The server implements it on PostgreSQL (tokens encrypted at rest) with
 * `withRefreshLock` as an advisory lock keyed by realm, so two processes never spend the same
 * refresh token: Intuit rotates refresh tokens, and the loser of a race would be left holding
 * one that is about to die.
 */
export interface TokenStore {
  load(realmId: string): Promise<TokenSet | null>;
  save(realmId: string, tokens: TokenSet): Promise<void>;
  /** Runs `fn` while holding the realm's refresh lock; released when `fn` settles. */
  withRefreshLock<T>(realmId: string, fn: () => Promise<T>): Promise<T>;
  /**
   * QuickBooks refused the realm's tokens for good (the refresh token was rejected or expired, or
   * a refreshed access token was still refused): the company must be connected again. Told once per
   * refused call, so the store can record it where the user sees the company's status.
   */
  refused?(realmId: string): Promise<void>;
}

/** A FIFO mutex per key, for one process. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      // Drop the entry once nobody queued behind us, so the map does not grow per realm forever.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/** Tokens in memory: for tests and for the embedded emulator, where nothing outlives the process. */
export class MemoryTokenStore implements TokenStore {
  private readonly tokens = new Map<string, TokenSet>();
  private readonly mutex = new KeyedMutex();
  /** How many times `save` ran, per realm (tests count refreshes with it). */
  readonly saves = new Map<string, number>();

  async load(realmId: string): Promise<TokenSet | null> {
    return this.tokens.get(realmId) ?? null;
  }

  async save(realmId: string, tokens: TokenSet): Promise<void> {
    this.tokens.set(realmId, tokens);
    this.saves.set(realmId, (this.saves.get(realmId) ?? 0) + 1);
  }

  withRefreshLock<T>(realmId: string, fn: () => Promise<T>): Promise<T> {
    return this.mutex.run(realmId, fn);
  }

  /** How many calls met a refused grant, per realm. */
  readonly refusals = new Map<string, number>();

  async refused(realmId: string): Promise<void> {
    this.refusals.set(realmId, (this.refusals.get(realmId) ?? 0) + 1);
  }
}

const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  token_type: z.string().min(1),
  expires_in: z.coerce.number().positive(),
  x_refresh_token_expires_in: z.coerce.number().positive(),
  id_token: z.string().optional(),
});

/** Parses the token endpoint's JSON; relative lifetimes become absolute times from `now`. */
export function parseTokenResponse(json: unknown, now: number): TokenSet {
  const t = tokenResponseSchema.parse(json);
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    tokenType: t.token_type,
    accessTokenExpiresAt: now + t.expires_in * 1000,
    refreshTokenExpiresAt: now + t.x_refresh_token_expires_in * 1000,
    ...(t.id_token === undefined ? {} : { idToken: t.id_token }),
  };
}

const storedSchema = z.object({
  v: z.literal(1),
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  tokenType: z.string().min(1),
  accessTokenExpiresAt: z.number().int(),
  refreshTokenExpiresAt: z.number().int(),
  idToken: z.string().optional(),
});

/** A versioned JSON text for storage (the server encrypts it before writing). */
export function serializeTokenSet(tokens: TokenSet): string {
  return JSON.stringify({
    v: 1,
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    tokenType: tokens.tokenType,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    refreshTokenExpiresAt: tokens.refreshTokenExpiresAt,
    ...(tokens.idToken === undefined ? {} : { idToken: tokens.idToken }),
  });
}

export function deserializeTokenSet(text: string): TokenSet {
  const { v: _v, ...tokens } = storedSchema.parse(JSON.parse(text));
  return tokens;
}
