import { StrictMode, forwardRef, useEffect, type MouseEvent } from "react";
import type { Root } from "react-dom/client";
import { PublicChrome } from "../features/public/components/PublicChrome.tsx";
import { LoginForm, loginNotice } from "../features/session/components/LoginForm.tsx";
import { returnPath } from "../features/session/paths.ts";
import { useToken } from "../features/session/useToken.ts";
import { analytics } from "./analytics.ts";
import { LinkProvider, type LinkProps } from "./links.tsx";
import { MantineRoot } from "./MantineRoot.tsx";
import { startApp } from "./start.ts";

/** A plain click on a shell link starts the app at its target; a new tab or window is the browser's. */
function followsInApp(event: MouseEvent<HTMLAnchorElement>): boolean {
  return !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.currentTarget.target;
}

const ShellLink = forwardRef<HTMLAnchorElement, LinkProps>(function ShellLink({ to, onClick, ...rest }, ref) {
  return (
    <a
      ref={ref}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (!followsInApp(event)) return;
        event.preventDefault();
        void startApp({ to, history: "push" });
      }}
      {...rest}
    />
  );
});

/**
 * The router keeps its navigation state under `usr` in the history entry; a reload of /login after
 * the guard sent a visitor there still holds the deep link they came from.
 */
const routerState = (): unknown => (window.history.state as { usr?: unknown } | null)?.usr ?? null;

/** /login on a first visit: the public chrome and the login form, and nothing the form does not need. */
export function LoginShell() {
  const token = useToken();
  const params = new URLSearchParams(window.location.search);
  useEffect(() => {
    analytics().pageView(`${window.location.pathname}${window.location.search}`);
  }, []);
  useEffect(() => {
    // Signed in: on to the deep link that brought the visitor here, or /home, as the router's guard does.
    if (token !== null) void startApp({ to: returnPath(routerState()), history: "replace" });
  }, [token]);
  return (
    <PublicChrome>
      <LoginForm notice={loginNotice(routerState(), params)} initialEmail={params.get("email") ?? ""} />
    </PublicChrome>
  );
}

export function renderShell(root: Root): void {
  root.render(
    <StrictMode>
      <MantineRoot>
        <LinkProvider component={ShellLink}>
          <LoginShell />
        </LinkProvider>
      </MantineRoot>
    </StrictMode>,
  );
}
