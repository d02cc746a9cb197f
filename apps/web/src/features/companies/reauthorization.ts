import { useEffect, useRef } from "react";
import { raiseReauthorization } from "../errors/errorBar.ts";
import type { StatusMap } from "./api.ts";

/** The companies whose QuickBooks authorization must be renewed (SPEC §8 003200). */
export function companiesNeedingReauthorization(status: StatusMap | undefined): string[] {
  return Object.entries(status ?? {})
    .filter(([, s]) => s.connection === "needs_reauthorization")
    .map(([realmId]) => realmId)
    .sort();
}

/**
 * Raises the 003200 error bar when a company needs re-authorization. Once per company: the status
 * is polled every second during a sync, and a dismissed bar must stay dismissed until another
 * company breaks (or the same one breaks again after a Reconnect).
 */
export function useReauthorizationAlert(status: StatusMap | undefined): void {
  const alerted = useRef(new Set<string>());
  useEffect(() => {
    if (!status) return;
    const now = companiesNeedingReauthorization(status);
    const fresh = now.some((realmId) => !alerted.current.has(realmId));
    alerted.current = new Set(now);
    if (fresh) raiseReauthorization();
  }, [status]);
}
