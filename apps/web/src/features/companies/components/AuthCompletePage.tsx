import { Anchor, Group, Loader, Text } from "@mantine/core";
import {
  AUTHORIZATION_COMPLETE,
  AUTHORIZATION_FAILED,
  authorizationCallbackSchema,
  type AuthorizationCallbackRequest,
  type AuthorizationResult,
  type PopupMessage,
} from "@groupledger/contract";
import { IconAlertTriangle, IconCircleCheck, IconPlugConnected } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { qboApi } from "../api.ts";
import { PopupFrame } from "./PopupFrame.tsx";

/**
 * What QuickBooks put on the return URL (OAuth 2 names), as the callback request, or the reason
 * it cannot be one (e.g. no state).
 */
export function callbackRequestFrom(search: string): { request: AuthorizationCallbackRequest } | { error: string } {
  const params = new URLSearchParams(search);
  const pick = (name: string) => params.get(name) ?? undefined;
  const candidate = {
    state: params.get("state") ?? "",
    code: pick("code"),
    realmId: pick("realmId"),
    error: pick("error"),
    errorDescription: pick("error_description"),
  };
  const parsed = authorizationCallbackSchema.safeParse(
    Object.fromEntries(Object.entries(candidate).filter(([, v]) => v !== undefined)),
  );
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "The authorization response is not valid." };
  return { request: parsed.data };
}

function failureMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : "The company could not be connected.";
}

// One exchange per return URL: the state is single use, so a second POST (React's development
// double-mount, or a re-render) would turn a success into "state already used".
const exchanges = new Map<string, Promise<AuthorizationResult>>();
function exchangeOnce(search: string, request: AuthorizationCallbackRequest): Promise<AuthorizationResult> {
  let p = exchanges.get(search);
  if (!p) {
    p = qboApi.callback(request);
    exchanges.set(search, p);
  }
  return p;
}

export function resetAuthCompleteForTests(): void {
  exchanges.clear();
}

/**
 * Hands the result to the window that opened the pop-up and closes; false when there is no such
 * window (the page was opened directly, or the browser cut the link), so the page shows it itself.
 */
function tellOpener(message: PopupMessage): boolean {
  const opener = window.opener as Window | null;
  if (!opener || opener.closed) return false;
  try {
    // Only our own origin may read it: the message names the company that was just connected.
    opener.postMessage(message, window.location.origin);
  } catch {
    return false;
  }
  window.close();
  return true;
}

type State =
  | { kind: "working" }
  | { kind: "connected"; companyName: string; reconnected: boolean; handedOver: boolean }
  | { kind: "failed"; message: string; handedOver: boolean };

/** /qbo/auth/complete (SPEC §2, authenticated, no layout): finishes the connection QuickBooks started. */
export function AuthCompletePage() {
  const { search } = useLocation();
  const [state, setState] = useState<State>({ kind: "working" });

  useEffect(() => {
    let live = true;
    const fail = (message: string) => {
      const handedOver = tellOpener({ type: AUTHORIZATION_FAILED, error: message });
      if (live) setState({ kind: "failed", message, handedOver });
    };
    const parsed = callbackRequestFrom(search);
    if ("error" in parsed) {
      fail(parsed.error);
      return;
    }
    exchangeOnce(search, parsed.request).then(
      ({ company, reconnected }) => {
        const handedOver = tellOpener({ type: AUTHORIZATION_COMPLETE, realmId: company.realmId, companyName: company.companyName });
        if (live) setState({ kind: "connected", companyName: company.companyName, reconnected, handedOver });
      },
      (error: unknown) => fail(failureMessage(error)),
    );
    return () => {
      live = false;
    };
  }, [search]);

  if (state.kind === "working") {
    return (
      <PopupFrame icon={<IconPlugConnected size={24} aria-hidden />} title="Finishing the connection">
        <Group gap="sm" role="status" aria-live="polite">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Connecting your QuickBooks company…</Text>
        </Group>
      </PopupFrame>
    );
  }
  const next = state.handedOver ? (
    <Text size="sm" c="dimmed">
      You can close this window.
    </Text>
  ) : (
    <Anchor component={Link} to="/setup/companies" size="sm">
      Go to Connected Companies
    </Anchor>
  );
  if (state.kind === "connected") {
    return (
      <PopupFrame icon={<IconCircleCheck size={24} aria-hidden />} color="teal" title={state.reconnected ? "Company reconnected" : "Company connected"}>
        <Text size="sm" role="status">
          {state.companyName} is {state.reconnected ? "reconnected" : "connected"}. Its chart of accounts and balances are syncing now.
        </Text>
        {next}
      </PopupFrame>
    );
  }
  return (
    <PopupFrame icon={<IconAlertTriangle size={24} aria-hidden />} color="red" title="The company was not connected">
      <Text size="sm" role="alert">
        {state.message}
      </Text>
      {next}
    </PopupFrame>
  );
}
