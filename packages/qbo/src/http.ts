import type { AccessTokens } from "./auth.ts";
import type { Clock } from "./clock.ts";
import { QboError, parseQboError } from "./errors.ts";
import { isAbort, networkFailure, unexpectedResponse } from "./failures.ts";
import type { RealmLimiter } from "./limiter.ts";
import { backoffDelay, type RetryOptions } from "./retry.ts";

export const MINOR_VERSION = 75;

/** The batch endpoint, below `/v3/company/{realmId}/`: Intuit limits batch requests on their own. */
export const BATCH_PATH = "batch";

export interface ApiRequest {
  readonly method: "GET" | "POST";
  /** Below `/v3/company/{realmId}/`, e.g. `query`, `reports/TrialBalance`, `journalentry`. */
  readonly path: string;
  readonly params?: Readonly<Record<string, string>> | undefined;
  readonly body?: unknown;
  /** Makes a POST idempotent (QBO answers a repeat with the first response), hence retryable. */
  readonly requestId?: string | undefined;
}

/**
 * What a call is to Intuit's meter: a read (GET: reads, queries, reports, CDC; a query sent by POST;
 * a batch, whose items are mostly queries here) or a write (a create, update or delete POSTed to an
 * entity's endpoint). Intuit meters reads by the month (500,000 on the free tier); writes are not
 * metered.
 */
export type CallKind = "read" | "write";

export function callKind(request: Pick<ApiRequest, "method" | "path">): CallKind {
  return request.method === "GET" || request.path === "query" || request.path === BATCH_PATH ? "read" : "write";
}

/**
 * Told about every HTTP attempt, retries and requests that got no answer (status 0) included: each
 * went out to QuickBooks. The bench and the server's count of calls (apps/server modules/qbo/usage.ts)
 * read it; it is never told tokens.
 */
export type CallObserver = (call: {
  readonly realmId: string;
  readonly method: string;
  readonly path: string;
  readonly kind: CallKind;
  readonly status: number;
  readonly attempt: number;
}) => void;

export interface TransportOptions {
  readonly realmId: string;
  readonly apiBaseUrl: string;
  readonly tokens: AccessTokens;
  readonly limiter: RealmLimiter;
  readonly fetch: typeof fetch;
  readonly clock: Clock;
  readonly random: () => number;
  readonly retry: RetryOptions;
  readonly minorVersion: number;
  readonly timeoutMs: number;
  readonly onCall?: CallObserver | undefined;
}

/**
 * One realm's Accounting API calls: token, limiter slot, fetch, Fault parsing, retries.
 * - throttled (429/3001) and server (5xx) answers, and requests that got no answer at all, are
 *   retried with jittered backoff (Retry-After honoured), but a POST only when it has a
 *   requestid: without one a lost answer may hide a posted transaction.
 * - a 401 refreshes the token once and repeats the request; a second 401 is thrown (kind
 *   'reauthorize' for code 3200: the user must connect the company again).
 * - the limiter slot is held only while the request is in flight, never while backing off.
 */
export class QboTransport {
  constructor(private readonly o: TransportOptions) {}

  async send(request: ApiRequest): Promise<unknown> {
    try {
      return await this.sendOnce(request);
    } catch (e) {
      // Every refusal of the realm's grant, whichever call met it, is recorded in one place. The
      // refusal is what the caller must see: recording it is best effort (the next call tries again).
      if (e instanceof QboError && e.kind === "reauthorize") await this.o.tokens.refused().catch(() => undefined);
      throw e;
    }
  }

  private async sendOnce(request: ApiRequest): Promise<unknown> {
    const idempotent = request.method === "GET" || request.requestId !== undefined;
    const url = this.url(request);
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      const token = await this.o.tokens.current();
      const outcome = await this.attempt(request, url, token, attempt);
      if (!(outcome instanceof QboError)) return outcome.json;
      const failure = outcome;
      if (failure.status === 401 && !refreshed) {
        refreshed = true;
        await this.o.tokens.afterRejection(token);
        attempt--; // a refresh is not a failed attempt
        continue;
      }
      if (failure.retryable && idempotent && attempt < this.o.retry.maxAttempts) {
        await this.o.clock.sleep(backoffDelay(attempt, this.o.retry, this.o.random, failure.retryAfterMs));
        continue;
      }
      throw failure;
    }
  }

  private async attempt(request: ApiRequest, url: string, token: string, attempt: number): Promise<{ json: unknown } | QboError> {
    const release = await this.o.limiter.acquire(request.path === BATCH_PATH ? "batch" : "request");
    let status = 0;
    try {
      const res = await this.o.fetch(url, {
        method: request.method,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: "application/json",
          ...(request.body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
      status = res.status;
      // Reading the body inside the try: a connection dropped mid-body is a network failure too.
      const text = await res.text();
      if (!res.ok) return parseQboError(res.status, res.headers, text);
      try {
        return { json: JSON.parse(text) as unknown };
      } catch {
        const tid = res.headers.get("intuit_tid") ?? res.headers.get("intuit-tid") ?? undefined;
        return unexpectedResponse(`${request.method} ${request.path} answered with something other than JSON`, text.slice(0, 200), res.status, tid);
      }
    } catch (e) {
      if (isAbort(e)) throw e;
      return networkFailure(e);
    } finally {
      release();
      this.o.onCall?.({ realmId: this.o.realmId, method: request.method, path: request.path, kind: callKind(request), status, attempt });
    }
  }

  private url(request: ApiRequest): string {
    const params: [string, string][] = Object.entries(request.params ?? {});
    if (request.requestId !== undefined) params.push(["requestid", request.requestId]);
    params.push(["minorversion", String(this.o.minorVersion)]);
    // encodeURIComponent rather than URLSearchParams: spaces as %20, the way Intuit's SDKs send queries.
    const search = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
    return `${this.o.apiBaseUrl.replace(/\/+$/, "")}/v3/company/${encodeURIComponent(this.o.realmId)}/${request.path}?${search}`;
  }
}
