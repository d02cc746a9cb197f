import {
  errorBodySchema,
  ErrorCodes,
  INVALID_TOKEN_MESSAGE,
  pathOf,
  successOf,
  type DownloadedFile,
  type Endpoint,
  type EndpointInput,
  type EndpointOutput,
  type EndpointSpec,
} from "@groupledger/contract";
import { needsReauthorization } from "../features/errors/errorBar.ts";
import { readToken } from "../features/session/tokenStore.ts";

/** A failed call: the server's error body when it sent one, else a network or shape failure (status 0). */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** Field errors the server attached (details.fields), keyed by path; the first message per path wins. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    const fields = this.details["fields"];
    if (!Array.isArray(fields)) return out;
    for (const f of fields as unknown[]) {
      if (typeof f !== "object" || f === null) continue;
      const { path, message } = f as { path?: unknown; message?: unknown };
      if (typeof path === "string" && typeof message === "string" && !(path in out)) out[path] = message;
    }
    return out;
  }
}

export const NETWORK_ERROR_CODE = "network_error";
export const BAD_RESPONSE_CODE = "bad_response";

/**
 * What happens to every failed response before it is rejected to the caller (SPEC §7, §8). The app
 * installs real handlers at start-up; tests install their own.
 */
export interface ResponseHandlers {
  /** 401 'Invalid token': the token is dropped and the page reloads. */
  invalidToken(): void;
  /** EXPIRED_TOKEN: the token is dropped and the user is sent to '/'. */
  expiredToken(): void;
  /** Anything the caller is not expected to explain itself (network, 5xx, a company needing re-authorization): the error bar. */
  unexpected(error: ApiError): void;
}

let handlers: ResponseHandlers = { invalidToken: () => {}, expiredToken: () => {}, unexpected: () => {} };

export function setResponseHandlers(next: ResponseHandlers): void {
  handlers = next;
}

/** The one global response handler: classifies a failure, runs its side effect, and hands it back to be rejected. */
export function handleFailure(error: ApiError): ApiError {
  if (error.code === ErrorCodes.expiredToken) handlers.expiredToken();
  else if (error.status === 401 && error.message === INVALID_TOKEN_MESSAGE) handlers.invalidToken();
  else if (error.status === 0 || error.status >= 500 || needsReauthorization(error)) handlers.unexpected(error);
  return error;
}

export interface CallOptions {
  /** Logout must not reload the page when its token was already refused. */
  skipGlobalHandler?: boolean;
  /** A query's abort signal (TanStack Query passes one, possibly undefined). */
  signal?: AbortSignal | undefined;
}

async function errorFrom(res: Response): Promise<ApiError> {
  let parsed: unknown = null;
  try {
    parsed = await res.json();
  } catch {
    // A proxy or a crashed server may answer with HTML or nothing; the status still tells the story.
  }
  const body = errorBodySchema.safeParse(parsed);
  if (body.success) {
    const { code, message, details } = body.data.error;
    return new ApiError(res.status, code, message, details ?? {});
  }
  return new ApiError(res.status, BAD_RESPONSE_CODE, `The server answered ${res.status}.`);
}

const bodyAndTypeOf = (e: EndpointSpec, body: unknown): { body: string; type: string } | null => {
  if (body === undefined) return null;
  if (e.bodyType) return { body: String(body), type: e.bodyType };
  return { body: JSON.stringify(body), type: "application/json" };
};

type CallArgs<E extends EndpointSpec> = object extends EndpointInput<E>
  ? [input?: EndpointInput<E>, options?: CallOptions]
  : [input: EndpointInput<E>, options?: CallOptions];

/**
 * Calls an endpoint the contract declares, with the session token: the path built from its params
 * and query, the body sent as it says, the answer parsed by its success schema (a file as a blob).
 * Every failure is an ApiError that went through the global handler first.
 */
export async function call<E extends Endpoint>(e: E, ...[input, options = {}]: CallArgs<E>): Promise<EndpointOutput<E>> {
  const path = pathOf(e, input ?? {});
  const success = successOf(e);
  const headers: Record<string, string> = { accept: success.body === "file" ? "*/*" : "application/json" };
  const token = readToken();
  if (token) headers["authorization"] = `Bearer ${token}`;
  const sent = bodyAndTypeOf(e, (input as { body?: unknown } | undefined)?.body);
  if (sent) headers["content-type"] = sent.type;
  const fail = (error: ApiError) => (options.skipGlobalHandler ? error : handleFailure(error));

  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: e.method,
      headers,
      ...(sent ? { body: sent.body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw fail(new ApiError(0, NETWORK_ERROR_CODE, "The server could not be reached. Check your connection and try again."));
  }
  if (!res.ok) throw fail(await errorFrom(res));
  if (success.body === "file") {
    const file: DownloadedFile = { blob: await res.blob(), disposition: res.headers.get("content-disposition") };
    return file as unknown as EndpointOutput<E>;
  }
  if (res.status === 204 || success.body === null) return undefined as EndpointOutput<E>;
  const parsed = success.body.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) {
    throw fail(new ApiError(0, BAD_RESPONSE_CODE, `The server's answer to ${e.method} ${e.path} has an unexpected shape.`));
  }
  return parsed.data as EndpointOutput<E>;
}
