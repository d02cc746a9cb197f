/** Where the session's pages are, and where logging in leads; no router here (the login shell uses it too). */
export const PUBLIC_HOME = "/home";
export const LOGIN_PATH = "/login";

/** Where the login page sends someone back to after signing in (only app paths, never a public page). */
export interface LoginRedirectState {
  from?: string;
}

/** The app path a logged-out visitor was sent to /login from, or /home; never another site ("//host"). */
export function returnPath(state: unknown): string {
  const from = (state as LoginRedirectState | null)?.from;
  return typeof from === "string" && from.startsWith("/") && !from.startsWith("//") ? from : PUBLIC_HOME;
}
