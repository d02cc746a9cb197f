import { systemClock, type Clock } from "./clock.ts";
import type { QboEndpoints } from "./endpoints.ts";
import { QboError, parseQboError } from "./errors.ts";
import { isAbort, networkFailure, unexpectedResponse } from "./failures.ts";
import { backoffDelay, DEFAULT_RETRY, type RetryOptions } from "./retry.ts";
import { parseTokenResponse, type TokenSet } from "./tokens.ts";

export const ACCOUNTING_SCOPE = "com.intuit.quickbooks.accounting";

export interface QboOAuthOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Must match one registered on the app, character for character. */
  readonly redirectUri: string;
  readonly endpoints: QboEndpoints;
  readonly fetch?: typeof fetch | undefined;
  readonly clock?: Clock | undefined;
  readonly random?: (() => number) | undefined;
  /** Applies to refresh and revoke only; a code exchange is never repeated (codes are single-use). */
  readonly retry?: Partial<RetryOptions> | undefined;
  readonly timeoutMs?: number | undefined;
}

/** What Intuit appends to the redirect URI after consent. */
export interface AuthorizationCallback {
  readonly code: string;
  readonly realmId: string;
  readonly state: string;
}

/** OAuth 2.0 against Intuit (or the emulator): authorization URL, code exchange, refresh, revoke. */
export class QboOAuth {
  private readonly fetch: typeof fetch;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly retry: RetryOptions;
  private readonly timeoutMs: number;

  constructor(private readonly options: QboOAuthOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.retry = { ...DEFAULT_RETRY, maxAttempts: 3, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  get endpoints(): QboEndpoints {
    return this.options.endpoints;
  }

  /** The consent page URL. `state` must be unguessable and checked on the way back (CSRF). */
  authorizationUrl(state: string, scopes: readonly string[] = [ACCOUNTING_SCOPE]): string {
    if (state === "") throw new Error("state must not be empty");
    const url = new URL(this.options.endpoints.authorizeUrl);
    url.searchParams.set("client_id", this.options.clientId);
    url.searchParams.set("redirect_uri", this.options.redirectUri);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", scopes.join(" "));
    url.searchParams.set("state", state);
    return url.toString();
  }

  /**
   * Reads the redirect back from the consent page. Throws QboError when the user declined
   * (`error=access_denied`), and a plain Error when the state does not match (a forged callback).
   */
  parseCallback(callback: URL | URLSearchParams | string, expectedState: string): AuthorizationCallback {
    const params =
      callback instanceof URLSearchParams ? callback : callback instanceof URL ? callback.searchParams : new URL(callback, "http://callback.invalid").searchParams;
    const state = params.get("state") ?? "";
    if (state !== expectedState) throw new Error("OAuth state does not match: the callback was not started by this session");
    const error = params.get("error");
    if (error !== null) {
      throw new QboError({ status: 400, errors: [{ code: error, message: params.get("error_description") ?? error, detail: undefined, element: undefined }], kind: "other" });
    }
    const code = params.get("code");
    const realmId = params.get("realmId");
    if (code === null || code === "" || realmId === null || realmId === "") {
      throw new QboError({ status: 400, errors: [{ code: "invalid_callback", message: "The authorization callback has no code or realmId", detail: undefined, element: undefined }], kind: "other" });
    }
    return { code, realmId, state };
  }

  /** Trades the single-use authorization code for tokens. */
  async exchangeCode(code: string): Promise<TokenSet> {
    const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: this.options.redirectUri });
    return this.tokenRequest(body, 1);
  }

  /** A new access token; the answer carries the refresh token to use next time (store it first). */
  async refresh(refreshToken: string): Promise<TokenSet> {
    const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken });
    // Safe to repeat: Intuit keeps the previous refresh token valid for 24 h after rotating it.
    return this.tokenRequest(body, this.retry.maxAttempts);
  }

  /** Revokes the grant (a refresh token revokes both tokens). */
  async revoke(token: string): Promise<void> {
    await this.send(this.options.endpoints.revokeUrl, "application/json", JSON.stringify({ token }), this.retry.maxAttempts);
  }

  private async tokenRequest(body: URLSearchParams, attempts: number): Promise<TokenSet> {
    // Lifetimes count from before the request, so a slow answer errs towards refreshing early.
    const requestedAt = this.clock.now();
    const { text, status, tid } = await this.send(this.options.endpoints.tokenUrl, "application/x-www-form-urlencoded", body.toString(), attempts);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw unexpectedResponse("token endpoint answered with something other than JSON", text.slice(0, 200), status, tid);
    }
    try {
      return parseTokenResponse(json, requestedAt);
    } catch (e) {
      throw unexpectedResponse("token response is missing fields", e instanceof Error ? e.message : String(e), status, tid);
    }
  }

  private async send(url: string, contentType: string, body: string, attempts: number): Promise<{ text: string; status: number; tid: string | undefined }> {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`, "utf8").toString("base64");
    for (let attempt = 1; ; attempt++) {
      let failure: QboError;
      try {
        const res = await this.fetch(url, {
          method: "POST",
          headers: { Authorization: `Basic ${basic}`, "Content-Type": contentType, Accept: "application/json" },
          body,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        const text = await res.text();
        if (res.ok) return { text, status: res.status, tid: res.headers.get("intuit_tid") ?? res.headers.get("intuit-tid") ?? undefined };
        failure = parseQboError(res.status, res.headers, text);
      } catch (e) {
        if (isAbort(e)) throw e;
        failure = networkFailure(e);
      }
      if (!failure.retryable || attempt >= attempts) throw failure;
      await this.clock.sleep(backoffDelay(attempt, this.retry, this.random, failure.retryAfterMs));
    }
  }
}
