import { QboError } from "./errors.ts";

/**
 * A 2xx whose body is not what the client relies on (a missing field, a wrong type, not JSON).
 * A QboError (kind 'other', code 'unexpected_response') so callers handle every QBO failure in one place.
 */
export function unexpectedResponse(what: string, detail: string, status = 200, intuitTid?: string): QboError {
  return new QboError({
    status,
    errors: [{ code: "unexpected_response", message: `Unexpected response from QuickBooks Online: ${what}`, detail, element: undefined }],
    intuitTid,
    kind: "other",
  });
}

/** `value` as an object, else an "unexpected response" naming `what`. */
export function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw unexpectedResponse(`expected an object for ${what}`, JSON.stringify(value ?? null).slice(0, 200));
  }
  return value as Record<string, unknown>;
}

/**
 * The request never got an HTTP answer (connection refused or reset, a dropped connection,
 * a timeout). Kind 'server' because, like a 5xx, trying again later may succeed; status 0.
 */
export function networkFailure(cause: unknown): QboError {
  const err = new QboError({
    status: 0,
    errors: [{ code: "network", message: "Could not reach QuickBooks Online", detail: describeCause(cause), element: undefined }],
    kind: "server",
  });
  Object.defineProperty(err, "cause", { value: cause, enumerable: false });
  return err;
}

/** A user (or server shutdown) abort, as opposed to a timeout or a broken connection. */
export function isAbort(e: unknown): boolean {
  return e instanceof Error && e.name === "AbortError";
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = (cause as { cause?: unknown }).cause;
  const code = typeof inner === "object" && inner !== null ? (inner as { code?: unknown }).code : undefined;
  return [cause.message, typeof code === "string" ? code : undefined, inner instanceof Error ? inner.message : undefined]
    .filter((s) => s !== undefined && s !== "")
    .join(": ");
}
