/**
 * Session-token helpers. This code also runs in browsers, so it must not use Node's Buffer:
 * base64url is decoded with `atob` and the bytes are read as UTF-8 with `TextDecoder`.
 */

/** A token is header.payload.signature; anything with fewer dot-separated parts is unusable. */
export const TOKEN_MIN_PARTS = 3;

/** `exp` values above this are taken to be milliseconds; lower values are seconds (1e11 s is the year 5138). */
export const TOKEN_EXP_MILLISECONDS_THRESHOLD = 1e11;

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/** Bytes of a base64url (or padded base64url) string; null when it is not valid base64url. */
export function decodeBase64Url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text)) return null;
  const bare = text.replace(/=+$/, "");
  if (bare.length % 4 === 1) return null;
  const base64 = bare.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (bare.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The token's payload (its second part) as a JSON object, or null when it cannot be read. */
export function decodeTokenPayload(token: string | null | undefined): Record<string, unknown> | null {
  if (typeof token !== "string") return null;
  const parts = token.split(".");
  if (parts.length < TOKEN_MIN_PARTS) return null;
  const bytes = decodeBase64Url(parts[1] ?? "");
  if (bytes === null) return null;
  try {
    const json: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * When the token expires, in epoch milliseconds, or null when it has no usable `exp`. `exp` may be
 * given in seconds (the JWT standard) or milliseconds: values above 1e11 are read as milliseconds.
 */
export function tokenExpiryMs(token: string | null | undefined): number | null {
  const exp = decodeTokenPayload(token)?.["exp"];
  if (typeof exp !== "number" || !Number.isFinite(exp)) return null;
  return exp > TOKEN_EXP_MILLISECONDS_THRESHOLD ? exp : exp * 1000;
}

/**
 * True when the token must not be used: missing, fewer than 3 dot-separated parts, a payload that
 * is not base64url-encoded UTF-8 JSON, an `exp` that is missing or not a finite number, or an
 * expiry at or before `nowMs` (as in the JWT spec, the token is only good strictly before `exp`).
 * A `nowMs` that is not a finite number also counts as expired.
 */
export function isTokenExpired(token: string | null | undefined, nowMs: number): boolean {
  const expiry = tokenExpiryMs(token);
  if (expiry === null || !Number.isFinite(nowMs)) return true;
  return expiry <= nowMs;
}
