import { Tooltip } from "@mantine/core";
import { isAdmin } from "@groupledger/contract";
import { cloneElement, type ReactElement } from "react";
import { useSessionUser } from "../session/api.ts";

/**
 * Why an admin-only control is off for this user, or null when they may use it. The server
 * refuses such calls anyway (403); this only saves a member from a button that cannot work.
 * While the session user is loading nothing is disabled: the server still decides.
 */
export function useAdminOnly(what: string): string | null {
  const user = useSessionUser();
  if (!user.data || isAdmin(user.data)) return null;
  return `Only an admin can ${what}. Ask an admin of your account, or to be made an admin in Account Settings.`;
}

/**
 * Wraps one control: with a reason it is disabled and the reason shows on hover and focus. The
 * wrapper span carries the tooltip because a disabled button gets no pointer events.
 */
export function AdminGate({ reason, children }: { reason: string | null; children: ReactElement<{ disabled?: boolean }> }) {
  if (reason === null) return children;
  return (
    <Tooltip label={reason} multiline w={300} withArrow>
      <span tabIndex={0} style={{ display: "inline-block" }} data-admin-only="true" aria-label={reason}>
        {cloneElement(children, { disabled: true })}
      </span>
    </Tooltip>
  );
}
