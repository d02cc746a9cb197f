/**
 * The QuickBooks Online error wire format, read tolerantly.
 *
 * Intuit answers a failed call in several shapes (see /work/shared/qbo-samples):
 * - the standard envelope `{"Fault":{"Error":[{"Message","Detail","code","element"}],"type"},"time"}`
 *   (`code` is a string, `element` optional or "");
 * - the gateway's 401 envelope, all lowercase: `{"fault":{"error":[{"message","detail","code","element"}],"type":"AUTHENTICATION"},"time":<epoch ms>,...}`;
 * - the same Fault as XML (`<IntuitResponse><Fault type><Error code><Message/><Detail/></Error></Fault></IntuitResponse>`),
 *   seen mostly on throttling (429, code 3001);
 * - OAuth token-endpoint errors `{"error":"invalid_grant","error_description":"..."}`;
 * - and, from load balancers, empty, HTML or plain-text bodies.
 * `parseQboError` turns any of these into one `QboError` and never throws.
 */

export type QboErrorKind = "reauthorize" | "throttled" | "server" | "validation" | "not_found" | "closed_period" | "other";

/** One `Error` item of a Fault (or the single synthesized item of a non-Fault body). */
export interface QboErrorItem {
  readonly code: string;
  readonly message: string;
  readonly detail: string | undefined;
  readonly element: string | undefined;
}

export type HeadersLike = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface QboErrorInit {
  readonly status: number;
  readonly errors: readonly QboErrorItem[];
  readonly faultType?: string | undefined;
  readonly intuitTid?: string | undefined;
  readonly retryAfterMs?: number | undefined;
  /** Defaults to a classification of status, code and faultType (see `classifyQboError`). */
  readonly kind?: QboErrorKind | undefined;
}

export class QboError extends Error {
  override readonly name = "QboError";
  /** HTTP status of the response. */
  readonly status: number;
  /** Code of the first error: a QBO code ('3200', '6240', ...), an OAuth `error` ('invalid_grant'), or '' when the body had none. */
  readonly code: string;
  readonly detail: string | undefined;
  readonly element: string | undefined;
  /** Fault `type` as sent ('ValidationFault', 'AUTHENTICATION', ...); undefined for non-Fault bodies. */
  readonly faultType: string | undefined;
  /** The `intuit_tid` response header, to quote to Intuit support. */
  readonly intuitTid: string | undefined;
  /** Every error item, in order; `errors[0]` supplies code/message/detail/element. Never empty. */
  readonly errors: readonly QboErrorItem[];
  readonly kind: QboErrorKind;
  /** From a `Retry-After` header, if any. */
  readonly retryAfterMs: number | undefined;

  constructor(init: QboErrorInit) {
    const first: QboErrorItem = init.errors[0] ?? {
      code: "",
      message: describeStatus(init.status),
      detail: undefined,
      element: undefined,
    };
    super(first.message);
    this.status = init.status;
    this.code = first.code;
    this.detail = first.detail;
    this.element = first.element;
    this.faultType = init.faultType;
    this.intuitTid = init.intuitTid;
    this.errors = init.errors.length > 0 ? [...init.errors] : [first];
    this.retryAfterMs = init.retryAfterMs;
    this.kind = init.kind ?? classifyQboError(init.status, first.code, init.faultType);
  }

  /** Worth retrying the same request later (throttling or a server-side failure). */
  get retryable(): boolean {
    return this.kind === "throttled" || this.kind === "server";
  }
}

/**
 * - reauthorize: code 3200 (token expired/revoked) or OAuth `invalid_grant`;
 * - throttled: HTTP 429 or code 3001;
 * - server: HTTP 5xx;
 * - not_found: HTTP 404 or code 610 (object not found or inactive);
 * - validation: a `*ValidationFault*` type, or any HTTP 400 that carried a QBO Fault
 *   (`faultType` defined; pass "" for a Fault without a type);
 * - other: everything else (e.g. 401 without a code, 403 code 3100, OAuth `invalid_client`).
 */
export function classifyQboError(status: number, code: string, faultType: string | undefined): QboErrorKind {
  if (code === "3200" || code === "invalid_grant") return "reauthorize";
  if (status === 429 || code === "3001") return "throttled";
  if (status >= 500 && status <= 599) return "server";
  if (status === 404 || code === "610") return "not_found";
  // Intuit's 6200 "Account Period Closed" (6210 when a password guards it): the books are closed
  // on the transaction's date (Preferences AccountingInfoPrefs.BookCloseDate).
  if (code === "6200" || code === "6210") return "closed_period";
  if (faultType !== undefined && /validation/i.test(faultType)) return "validation";
  if (status === 400 && faultType !== undefined) return "validation";
  return "other";
}

/** Reads an error response. Never throws; anything unrecognised becomes a description of the status. */
export function parseQboError(status: number, headers: HeadersLike, body: string): QboError {
  let intuitTid: string | undefined;
  let retryAfterMs: number | undefined;
  try {
    intuitTid = headerValue(headers, "intuit_tid") ?? headerValue(headers, "intuit-tid");
    retryAfterMs = parseRetryAfter(headers);
  } catch {
    // headers that misbehave are not worth losing the error over
  }
  let parsed: ParsedBody;
  try {
    parsed = parseBody(status, body);
  } catch {
    parsed = { errors: [textItem(status, "")], faultType: undefined, isFault: false };
  }
  const { errors, faultType, isFault } = parsed;
  const kind = classifyQboError(status, errors[0]?.code ?? "", isFault ? (faultType ?? "") : undefined);
  return new QboError({ status, errors, faultType, intuitTid, retryAfterMs, kind });
}

/**
 * The HTTP status QuickBooks answers a call of its own with, by Fault type (recordings: 400
 * ValidationFault, 500 SystemFault, 401 AUTHENTICATION, 429 ThrottleExceeded; Intuit's docs: 403
 * AuthorizationFault). A batch item's Fault comes inside a 200, so this is what places it.
 */
const STATUS_OF_FAULT: Readonly<Record<string, number>> = {
  validationfault: 400,
  systemfault: 500,
  authentication: 401,
  authorizationfault: 403,
  throttleexceeded: 429,
};

/**
 * A batch item's own `Fault` (`{"Error":[...],"type"}`) as the QboError the same Fault would
 * have been had the item been a call of its own: the status of its type (400 when unknown),
 * classified by `classifyQboError`, so callers handle an item's 610 or 6240 as they handle a call's.
 */
export function batchItemError(fault: unknown, intuitTid?: string): QboError {
  const parsed = parseJson({ Fault: fault }) ?? { errors: [item(undefined, undefined, undefined, undefined)], faultType: undefined, isFault: true };
  const status = STATUS_OF_FAULT[(parsed.faultType ?? "").toLowerCase()] ?? 400;
  const kind = classifyQboError(status, parsed.errors[0]?.code ?? "", parsed.faultType ?? "");
  return new QboError({ status, errors: parsed.errors, faultType: parsed.faultType, intuitTid, kind });
}

/**
 * `Retry-After` as milliseconds from now: delta-seconds or an HTTP date (a past date gives 0).
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: HeadersLike, now: number = Date.now()): number | undefined {
  const raw = headerValue(headers, "retry-after")?.trim();
  if (raw === undefined || raw === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  if (!/[a-z]/i.test(raw)) return undefined; // "-5", "1e3" and the like are not HTTP dates
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

// ---------------------------------------------------------------------------------------------

interface ParsedBody {
  readonly errors: QboErrorItem[];
  readonly faultType: string | undefined;
  readonly isFault: boolean;
}

function parseBody(status: number, body: string): ParsedBody {
  const text = body.replace(/^\uFEFF/, "").trim();
  if (text === "") return { errors: [textItem(status, "")], faultType: undefined, isFault: false };

  if (text.startsWith("{") || text.startsWith("[")) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (json !== undefined) {
      const fromJson = parseJson(json);
      if (fromJson !== undefined) return fromJson;
    }
  }

  if (text.startsWith("<")) {
    const fromXml = parseXml(text);
    if (fromXml !== undefined) return fromXml;
  }

  return { errors: [textItem(status, text)], faultType: undefined, isFault: false };
}

function parseJson(json: unknown): ParsedBody | undefined {
  if (!isRecord(json)) return undefined;

  const fault = pick(json, "Fault");
  if (isRecord(fault)) {
    let rawErrors = pick(fault, "Error");
    if (isRecord(rawErrors)) rawErrors = [rawErrors];
    const errors: QboErrorItem[] = [];
    if (Array.isArray(rawErrors)) {
      for (const raw of rawErrors as unknown[]) {
        if (!isRecord(raw)) continue;
        const message = str(pick(raw, "Message"));
        errors.push(
          item(str(pick(raw, "code")) ?? codeFromMessage(message), message, str(pick(raw, "Detail")), str(pick(raw, "element"))),
        );
      }
    }
    if (errors.length === 0) errors.push(item(undefined, undefined, undefined, undefined));
    return { errors, faultType: str(pick(fault, "type")), isFault: true };
  }

  const oauthError = json["error"];
  if (typeof oauthError === "string") {
    const description = str(json["error_description"]);
    return {
      errors: [item(oauthError, description ?? oauthError, undefined, undefined)],
      faultType: undefined,
      isFault: false,
    };
  }
  return undefined;
}

function parseXml(text: string): ParsedBody | undefined {
  const faultMatch = /<(?:[\w.-]+:)?Fault\b([^>]*)>([\s\S]*?)<\/(?:[\w.-]+:)?Fault>/i.exec(text);
  if (faultMatch === null) return undefined;
  const faultType = attribute(faultMatch[1] ?? "", "type");
  const inner = faultMatch[2] ?? "";
  const errors: QboErrorItem[] = [];
  const errorRe = /<(?:[\w.-]+:)?Error\b([^>]*?)(?:\/>|>([\s\S]*?)<\/(?:[\w.-]+:)?Error>)/gi;
  for (let m = errorRe.exec(inner); m !== null; m = errorRe.exec(inner)) {
    const attrs = m[1] ?? "";
    const content = m[2] ?? "";
    const message = childText(content, "Message");
    errors.push(
      item(attribute(attrs, "code") ?? childText(content, "code") ?? codeFromMessage(message), message, childText(content, "Detail"), attribute(attrs, "element")),
    );
  }
  if (errors.length === 0) errors.push(item(undefined, undefined, undefined, undefined));
  return { errors, faultType, isFault: true };
}

function attribute(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "i").exec(attrs);
  if (m === null) return undefined;
  return decodeXml(m[1] ?? m[2] ?? "");
}

function childText(content: string, name: string): string | undefined {
  const m = new RegExp(`<(?:[\\w.-]+:)?${name}\\b[^>]*?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>)`, "i").exec(content);
  if (m === null) return undefined;
  const raw = m[1] ?? "";
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  return cdata !== null ? (cdata[1] ?? "") : decodeXml(raw.trim());
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ent: string) => {
    if (ent.startsWith("#")) {
      const cp = ent[1] === "x" || ent[1] === "X" ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return NAMED_ENTITIES[ent.toLowerCase()] ?? whole;
  });
}

/** Normalises one error item: codes lose zero padding ('003001' -> '3001'), "" and null become undefined. */
function item(code: string | undefined, message: string | undefined, detail: string | undefined, element: string | undefined): QboErrorItem {
  const c = (code ?? "").trim();
  return {
    code: /^\d+$/.test(c) ? String(Number(c)) : c,
    message: message !== undefined && message.trim() !== "" ? message : "QuickBooks Online returned a fault without a message",
    detail: detail !== undefined && detail !== "" ? detail : undefined,
    element: element !== undefined && element !== "" ? element : undefined,
  };
}

/** For a body that is not a Fault: a description of the status, with a snippet of any text as detail. */
function textItem(status: number, text: string): QboErrorItem {
  const snippet = text
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const clipped = snippet.length > 200 ? `${snippet.slice(0, 199)}…` : snippet;
  return { code: "", message: describeStatus(status), detail: clipped === "" ? undefined : decodeXml(clipped), element: undefined };
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

function describeStatus(status: number): string {
  const text = STATUS_TEXT[status];
  return `QuickBooks Online request failed with HTTP ${status}${text === undefined ? "" : ` ${text}`}`;
}

function codeFromMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  return /errorCode=(\d+)/i.exec(message)?.[1];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Property by name, exact first, then case-insensitively (QBO's `Fault`/`fault`, `Message`/`message`). */
function pick(obj: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(obj, name)) return obj[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(obj)) {
    if (key.toLowerCase() === lower) return obj[key];
  }
  return undefined;
}

function str(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

function headerValue(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const lower = name.toLowerCase();
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== lower) continue;
    const v = record[key];
    if (typeof v === "string") return v;
    if (Array.isArray(v)) {
      const first: unknown = v[0];
      if (typeof first === "string") return first;
    }
  }
  return undefined;
}
