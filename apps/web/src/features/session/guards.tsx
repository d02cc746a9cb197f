import { Navigate, Outlet, useLocation } from "react-router";
import { LOGIN_PATH, returnPath, type LoginRedirectState } from "./paths.ts";
import { useToken } from "./useToken.ts";

/**
 * SPEC §2/§6: public pages are for people without a session, app pages for people with one, and
 * a few pop-up pages (/setup/connect, /disconnect) check nothing.
 */
export type RouteAccess = "public" | "authenticated" | "open";

/**
 * Where a visitor must go instead, or null to stay. A public page seen with a token sends the user
 * on to the app: to the deep link that sent them to /login (its router state) when there is one.
 */
export function guardRedirect(access: RouteAccess, hasToken: boolean, state: unknown = null): string | null {
  if (access === "public" && hasToken) return returnPath(state);
  if (access === "authenticated" && !hasToken) return LOGIN_PATH;
  return null;
}

/**
 * Logging in only saves the token: this guard then leaves /login for the deep link, as the one
 * place that decides (a second navigation from the login form raced it to /home).
 */
export function Guard({ access }: { access: RouteAccess }) {
  const token = useToken();
  const location = useLocation();
  const target = guardRedirect(access, token !== null, location.state);
  if (target === null) return <Outlet />;
  const state: LoginRedirectState | undefined =
    target === LOGIN_PATH ? { from: `${location.pathname}${location.search}` } : undefined;
  return <Navigate to={target} replace state={state} />;
}
