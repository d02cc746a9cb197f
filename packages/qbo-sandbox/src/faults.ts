/**
 * Error responses exactly as QuickBooks Online sends them, for the offline emulator.
 *
 * Every renderer here is pinned to the recorded samples in /work/shared/qbo-samples by faults.test.ts
 * (same keys at every level, same key casing and order, same value types, same headers, and for the
 * recorded cases the very same bytes). This package must not import @groupledger/qbo: the samples,
 * not the client, are the reference.
 *
 * Header names: the API recordings were made through Ruby's WebMock, which rewrites every header name
 * as Capitalized-Dash-Words (`intuit_tid` -> `Intuit-Tid`, `WWW-Authenticate` -> `Www-Authenticate`).
 * The one raw capture (the OAuth error mock) and Intuit's documentation spell the transaction id header
 * `intuit_tid`, so that is what is sent here.
 */
import { randomBytes, randomUUID } from "node:crypto";

/** A rendered HTTP response. `headers` never includes Connection/Server, which the HTTP layer adds. */
export interface WireResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** One item of a Fault's `Error` array. */
export interface FaultError {
  readonly message: string;
  readonly detail: string;
  readonly code: string;
  /** The offending field. Omitted from the JSON when undefined; batch item faults send "". */
  readonly element?: string | undefined;
}

export interface FaultResponseInput {
  readonly status: number;
  /** 'ValidationFault', 'SystemFault', 'AuthorizationFault', ... */
  readonly type: string;
  readonly errors: readonly FaultError[];
  /** Server time of the response; defaults to now. */
  readonly time?: Date | undefined;
  /** `intuit_tid`; defaults to a fresh `newIntuitTid(time)`. */
  readonly tid?: string | undefined;
}

/** The `Fault` object, as it appears in a fault response and in a failed batch item. */
export interface FaultBody {
  readonly Error: { Message: string; Detail: string; code: string; element?: string }[];
  readonly type: string;
}

/** Intuit's server clock: US Pacific time. */
export const INTUIT_TIME_ZONE = "America/Los_Angeles";

const JSON_CONTENT_TYPE = "application/json";
const OAUTH_CONTENT_TYPE = "application/json;charset=UTF-8";
const HSTS = "max-age=15552000";

/** `{"Error":[{"Message","Detail","code","element"?}],"type"}`, keys in Intuit's order. */
export function faultBody(type: string, errors: readonly FaultError[]): FaultBody {
  return {
    Error: errors.map((e) => ({
      Message: e.message,
      Detail: e.detail,
      code: e.code,
      ...(e.element === undefined ? {} : { element: e.element }),
    })),
    type,
  };
}

/** A QBO API fault: `{"Fault":{"Error":[...],"type"},"time":"2020-09-29T06:58:50.262-07:00"}`. */
export function faultResponse(input: FaultResponseInput): WireResponse {
  const time = input.time ?? new Date();
  const tid = input.tid ?? newIntuitTid(time);
  const body = JSON.stringify({ Fault: faultBody(input.type, input.errors), time: intuitTime(time) });
  return { status: input.status, headers: apiHeaders(time, tid, body), body };
}

export interface AuthFailureInput {
  /** e.g. `Token expired: <token>` (what the sample says), `Token revoked`, `Token invalid`. Defaults to "Token expired". */
  readonly detail?: string | undefined;
  readonly time?: Date | undefined;
  readonly tid?: string | undefined;
}

/**
 * The gateway's 401 for an expired or revoked access token (code 3200): lowercase `fault`,
 * `"type":"AUTHENTICATION"`, `time` in epoch milliseconds, a `WWW-Authenticate` challenge,
 * and none of the API's Strict-Transport-Security / X-Spanid / X-Amzn-Trace-Id headers.
 */
export function authFailureResponse(input: AuthFailureInput = {}): WireResponse {
  const time = input.time ?? new Date();
  const tid = input.tid ?? newIntuitTid(time);
  const body = JSON.stringify({
    warnings: null,
    intuitObject: null,
    fault: {
      error: [
        {
          message: "message=AuthenticationFailed; errorCode=003200; statusCode=401",
          detail: input.detail ?? "Token expired",
          code: "3200",
          element: null,
        },
      ],
      type: "AUTHENTICATION",
    },
    report: null,
    queryResponse: null,
    batchItemResponse: [],
    attachableResponse: [],
    syncErrorResponse: null,
    requestId: null,
    time: time.getTime(),
    status: null,
    cdcresponse: [],
  });
  return {
    status: 401,
    headers: {
      Date: time.toUTCString(),
      "Content-Type": JSON_CONTENT_TYPE,
      "Content-Length": String(Buffer.byteLength(body)),
      intuit_tid: tid,
      "WWW-Authenticate": 'Bearer realm="Intuit", error="invalid_token"',
    },
    body,
  };
}

export interface ThrottledInput {
  readonly time?: Date | undefined;
  readonly tid?: string | undefined;
  /** Adds a `Retry-After` header (seconds). Intuit does not promise one, so by default there is none. */
  readonly retryAfterSeconds?: number | undefined;
}

/** HTTP 429 with the standard JSON Fault, code 3001, in the gateway's `message=...; errorCode=...` wording. */
export function throttledResponse(input: ThrottledInput = {}): WireResponse {
  const response = faultResponse({
    status: 429,
    type: "ThrottleExceeded",
    errors: [
      {
        message: "message=ThrottleExceeded; errorCode=003001; statusCode=429",
        detail: "The request limit was reached.",
        code: "3001",
      },
    ],
    time: input.time,
    tid: input.tid,
  });
  if (input.retryAfterSeconds === undefined) return response;
  return { ...response, headers: { ...response.headers, "Retry-After": String(Math.max(0, Math.ceil(input.retryAfterSeconds))) } };
}

export interface OAuthErrorInput {
  /** RFC 6749 error: 'invalid_grant' (bad/expired/revoked refresh token or code), 'invalid_client', 'invalid_request', ... */
  readonly error: string;
  readonly description?: string | undefined;
  /** Defaults to 400 (401 is usual for invalid_client). */
  readonly status?: number | undefined;
  readonly time?: Date | undefined;
  readonly tid?: string | undefined;
}

/** The token endpoint's error: `{"error_description":"Token invalid","error":"invalid_grant"}`. */
export function oauthErrorResponse(input: OAuthErrorInput): WireResponse {
  const time = input.time ?? new Date();
  const tid = input.tid ?? newIntuitTid(time);
  const body = JSON.stringify({
    ...(input.description === undefined ? {} : { error_description: input.description }),
    error: input.error,
  });
  return {
    status: input.status ?? 400,
    headers: {
      "content-type": OAUTH_CONTENT_TYPE,
      "content-length": String(Buffer.byteLength(body)),
      date: time.toUTCString(),
      "strict-transport-security": HSTS,
      intuit_tid: tid,
      "cache-control": "no-cache, no-store",
      pragma: "no-cache",
    },
    body,
  };
}

/**
 * A transaction id as Intuit mints them (an AWS X-Ray trace id): `1-<epoch seconds, 8 hex>-<96 random bits, 24 hex>`,
 * e.g. `1-5f733d9a-1d4e21aa217ba43177113df4`.
 */
export function newIntuitTid(now: Date = new Date()): string {
  const seconds = Math.max(0, Math.floor(now.getTime() / 1000));
  return `1-${seconds.toString(16).padStart(8, "0")}-${randomBytes(12).toString("hex")}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

// Building an Intl formatter costs far more than using one; reports and queries format thousands of times.
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset at an instant of whole seconds, in ms: its wall time read as UTC, less the instant. */
function exactOffset(timeZone: string, wholeSeconds: number): number {
  const parts = formatterFor(timeZone).formatToParts(new Date(wholeSeconds));
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second")) - wholeSeconds;
}

/**
 * Offsets by zone and quarter hour (ms since the epoch / 15 min): the zone's offset when it is the
 * same at the block's first and last second, else null (a transition inside it: each instant asks
 * the formatter). No zone changes its offset twice within 15 minutes, so equal ends mean no change
 * between them. `formatToParts` for every timestamp was most of the emulator's time rendering
 * entities (each carries two) and 5% of the server's thread in the soak (docs/performance.md).
 */
const BLOCK_MS = 15 * 60_000;
const offsets = new Map<string, Map<number, number | null>>();

function offsetAt(timeZone: string, wholeSeconds: number): number {
  let zone = offsets.get(timeZone);
  if (zone === undefined) offsets.set(timeZone, (zone = new Map()));
  const block = Math.floor(wholeSeconds / BLOCK_MS);
  let offset = zone.get(block);
  if (offset === undefined) {
    const start = block * BLOCK_MS;
    const first = exactOffset(timeZone, start);
    offset = first === exactOffset(timeZone, start + BLOCK_MS - 1000) ? first : null;
    // Bounded: a long-running emulator renders ever newer times.
    if (zone.size >= 10_000) zone.clear();
    zone.set(block, offset);
  }
  return offset ?? exactOffset(timeZone, wholeSeconds);
}

/** `2020-09-29T06:58:50.262-07:00`: the instant in Intuit's time zone, with milliseconds and offset. */
export function intuitTime(date: Date, timeZone: string = INTUIT_TIME_ZONE): string {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError("intuitTime: invalid date");
  const wholeSeconds = Math.floor(ms / 1000) * 1000;
  const offset = offsetAt(timeZone, wholeSeconds);
  // The wall time: the instant moved by the offset, read in UTC.
  const wall = new Date(wholeSeconds + offset);
  const [y, mo, d, h, mi, s] = [wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate(), wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds()];
  const offsetMinutes = Math.round(offset / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const two = (n: number): string => String(n).padStart(2, "0");
  const millis = String(ms - wholeSeconds).padStart(3, "0");
  return `${String(y).padStart(4, "0")}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}.${millis}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

function apiHeaders(time: Date, tid: string, body: string): Record<string, string> {
  return {
    Date: time.toUTCString(),
    "Content-Type": JSON_CONTENT_TYPE,
    "Content-Length": String(Buffer.byteLength(body)),
    "Strict-Transport-Security": HSTS,
    intuit_tid: tid,
    "X-Spanid": randomUUID(),
    "X-Amzn-Trace-Id": `Root=${tid}`,
  };
}
