import { isTokenExpired, TOKEN_STORAGE_KEY } from "@groupledger/domain";

/**
 * The session token lives in sessionStorage under 't' (SPEC §3, §9): it survives a reload of the
 * tab (auto login) but not closing it, and other tabs sign in on their own.
 */
type Listener = (token: string | null) => void;
const listeners = new Set<Listener>();

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    // Storage can be switched off by the browser's privacy settings; then nobody stays signed in.
    return null;
  }
}

export function readToken(): string | null {
  return storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
}

export function saveToken(token: string): void {
  storage()?.setItem(TOKEN_STORAGE_KEY, token);
  for (const l of listeners) l(token);
}

export function clearToken(): void {
  storage()?.removeItem(TOKEN_STORAGE_KEY);
  for (const l of listeners) l(null);
}

export function onTokenChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export type RestoredToken = { state: "none" } | { state: "valid"; token: string } | { state: "expired" };

/**
 * What a stored token means at start-up (SPEC §4 Session): none, usable (auto login), or expired —
 * exp missing or past, or fewer than 3 dot-separated parts — in which case it is deleted here and
 * the caller sends the user to '/'.
 */
export function restoreToken(nowMs: number = Date.now()): RestoredToken {
  const token = readToken();
  if (token === null) return { state: "none" };
  if (isTokenExpired(token, nowMs)) {
    clearToken();
    return { state: "expired" };
  }
  return { state: "valid", token };
}
