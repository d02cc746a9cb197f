import type { Clock } from "./clock.ts";
import { QboError } from "./errors.ts";
import type { QboOAuth } from "./oauth.ts";
import type { TokenSet, TokenStore } from "./tokens.ts";

/** Refresh this long before the access token expires, so no request carries a token that dies in flight. */
export const REFRESH_SKEW_MS = 60_000;

function reauthorize(code: string, message: string): QboError {
  return new QboError({ status: 401, errors: [{ code, message, detail: undefined, element: undefined }], kind: "reauthorize" });
}

/**
 * A realm's access token, refreshed when due. Refreshes are serialized twice over: within the
 * process (concurrent callers share one refresh) and across processes (the store's lock, inside
 * which the tokens are loaded again, because another process may have refreshed meanwhile).
 * The rotated refresh token is saved before the new access token is handed out.
 */
export class AccessTokens {
  private inflight: Promise<string> | undefined;
  /**
   * The last tokens seen, so a call costs no store read while the access token is fresh. Safe
   * across processes: an access token stays valid until it expires even after another process
   * refreshed, and a 401 always goes back to the store.
   */
  private cached: TokenSet | undefined;
  /** Refreshes this instance performed (not the ones it found done by others). */
  refreshes = 0;

  constructor(
    private readonly realmId: string,
    private readonly store: TokenStore,
    private readonly oauth: QboOAuth,
    private readonly clock: Clock,
    private readonly skewMs: number = REFRESH_SKEW_MS,
  ) {}

  /** A token good for at least `skewMs` more. */
  async current(): Promise<string> {
    if (this.cached !== undefined && this.fresh(this.cached)) return this.cached.accessToken;
    const tokens = await this.store.load(this.realmId);
    this.cached = tokens ?? undefined;
    if (tokens === null) throw reauthorize("no_tokens", "This company is not connected to QuickBooks Online: connect it again");
    if (this.fresh(tokens)) return tokens.accessToken;
    return this.refresh(undefined);
  }

  /** QBO will not take this realm's tokens any more: the store records it (see TokenStore.refused). */
  async refused(): Promise<void> {
    await this.store.refused?.(this.realmId);
  }

  /** QBO refused `rejected` (401): refresh unless someone already replaced it. */
  async afterRejection(rejected: string): Promise<string> {
    return this.refresh(rejected);
  }

  private refresh(rejected: string | undefined): Promise<string> {
    // Callers arriving while a refresh runs share its outcome instead of queueing on the lock.
    this.inflight ??= this.store
      .withRefreshLock(this.realmId, () => this.refreshLocked(rejected))
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }

  private async refreshLocked(rejected: string | undefined): Promise<string> {
    const tokens = await this.store.load(this.realmId);
    this.cached = tokens ?? undefined;
    if (tokens === null) throw reauthorize("no_tokens", "This company is not connected to QuickBooks Online: connect it again");
    const replaced = rejected !== undefined && tokens.accessToken !== rejected;
    if (this.fresh(tokens) && (rejected === undefined || replaced)) return tokens.accessToken;
    if (tokens.refreshTokenExpiresAt <= this.clock.now()) {
      throw reauthorize("refresh_token_expired", "The QuickBooks Online connection has expired: connect the company again");
    }
    const next = await this.oauth.refresh(tokens.refreshToken);
    this.refreshes++;
    await this.store.save(this.realmId, next);
    this.cached = next;
    return next.accessToken;
  }

  private fresh(tokens: TokenSet): boolean {
    return tokens.accessTokenExpiresAt - this.skewMs > this.clock.now();
  }
}
