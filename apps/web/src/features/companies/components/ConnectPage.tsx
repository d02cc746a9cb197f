import { Button, Group, Loader, Text } from "@mantine/core";
import { IconAlertTriangle, IconPlugConnected } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { ApiError } from "../../../lib/http.ts";
import { readToken } from "../../session/tokenStore.ts";
import { qboApi } from "../api.ts";
import { PopupFrame } from "./PopupFrame.tsx";

/**
 * Only an absolute http(s) URL is followed: the answer comes from our server, but a javascript:
 * URL would run in this window, so anything else is refused. A relative path is the built-in
 * QuickBooks emulator on this origin.
 */
export function safeAuthorizeUrl(raw: string, origin: string): string | null {
  try {
    const url = new URL(raw, origin);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

export function authorizeFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) {
    return "Your GroupLedger session has ended. Close this window, sign in again and connect the company from Connected Companies.";
  }
  const reason = error instanceof Error && error.message ? ` ${error.message}` : "";
  return `QuickBooks could not be opened.${reason}`;
}

// One authorization per page load: React's development double-mount must not mint two states.
let pending: Promise<string> | null = null;
function authorizeOnce(): Promise<string> {
  pending ??= qboApi.authorize().then((r) => {
    const url = safeAuthorizeUrl(r.authorizeUrl, window.location.origin);
    if (!url) throw new Error("The server gave an authorization address that cannot be opened.");
    return url;
  });
  return pending;
}

/** Leaving for QuickBooks; a seam because jsdom cannot navigate (tests replace it). */
export const connectNavigation = {
  // replace: Back in the consent page must not land here and start another authorization.
  go: (url: string) => window.location.replace(url),
};

/** Tests start each render from a fresh page load. */
export function resetConnectPageForTests(): void {
  pending = null;
}

type State = { kind: "starting" } | { kind: "signedOut" } | { kind: "failed"; message: string };

/**
 * /setup/connect, opened as the 600x544 pop-up (SPEC §2, no session check of its own): asks the
 * server for a single-use authorization and goes on to QuickBooks' consent page. The pop-up
 * started with a copy of the opener's sessionStorage, so the session token is already here.
 */
export function ConnectPage() {
  const [state, setState] = useState<State>(() => (readToken() ? { kind: "starting" } : { kind: "signedOut" }));

  useEffect(() => {
    if (state.kind !== "starting") return;
    let live = true;
    authorizeOnce().then(
      (url) => {
        if (live) connectNavigation.go(url);
      },
      (error: unknown) => {
        pending = null; // "Try again" asks for a new state
        if (live) setState({ kind: "failed", message: authorizeFailureMessage(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [state.kind]);

  if (state.kind === "starting") {
    return (
      <PopupFrame icon={<IconPlugConnected size={24} aria-hidden />} title="Connect to QuickBooks Online">
        <Group gap="sm" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Opening QuickBooks sign-in…</Text>
        </Group>
      </PopupFrame>
    );
  }
  const message =
    state.kind === "signedOut"
      ? "You are not signed in to GroupLedger in this window. Close it, sign in, and use Connect company on the Connected Companies screen."
      : state.message;
  return (
    <PopupFrame icon={<IconAlertTriangle size={24} aria-hidden />} color="red" title="Cannot connect to QuickBooks">
      <Text size="sm" role="alert">
        {message}
      </Text>
      <Group gap="sm">
        {state.kind === "failed" ? <Button onClick={() => setState({ kind: "starting" })}>Try again</Button> : null}
        {window.opener ? (
          <Button variant="default" onClick={() => window.close()}>
            Close this window
          </Button>
        ) : (
          <Button component="a" href="/setup/companies" variant="default">
            Go to Connected Companies
          </Button>
        )}
      </Group>
    </PopupFrame>
  );
}
