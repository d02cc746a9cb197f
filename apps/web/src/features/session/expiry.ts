import { clearToken } from "./tokenStore.ts";

/**
 * SPEC §4/§8 session expiry: the stored token is deleted and the user is sent to '/'. A full page
 * load (rather than a client-side navigation) also drops every cached answer of the old session.
 */
export function expireSession(): void {
  clearToken();
  window.location.assign("/");
}

/** SPEC §8: a 401 'Invalid token' deletes the token and reloads the page. */
export function dropInvalidToken(): void {
  clearToken();
  window.location.reload();
}
