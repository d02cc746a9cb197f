import { Navigate, Outlet, useLocation } from "react-router";
import { useToken } from "./useToken.ts";

/**
 * SPEC §2/§6: public pages are for people without a session, app pages for people with one, and
 * a few pop-up pages (/setup/connect, /disconnect) check nothing.
 */
export type RouteAccess = "public" | "authenticated" | "open";

export const PUBLIC_HOME = "/home";
export const LOGIN_PATH = "/login";

/** Where a visitor must go instead, or null to stay. */
export function guardRedirect(access: RouteAccess, hasToken: boolean): string | null {
  if (access === "public" && hasToken) return PUBLIC_HOME;
  if (access === "authenticated" && !hasToken) return LOGIN_PATH;
  return null;
}

/** Where the login page sends someone back to after signing in (only app paths, never a public page). */
export interface LoginRedirectState {
  from?: string;
}

export function Guard({ access }: { access: RouteAccess }) {
  const token = useToken();
  const location = useLocation();
  const target = guardRedirect(access, token !== null);
  if (target === null) return <Outlet />;
  const state: LoginRedirectState | undefined =
    target === LOGIN_PATH ? { from: `${location.pathname}${location.search}` } : undefined;
  return <Navigate to={target} replace state={state} />;
}
