import { useSyncExternalStore } from "react";
import { onTokenChange, readToken } from "./tokenStore.ts";

/** The current session token; components re-render when it is saved or cleared. */
export function useToken(): string | null {
  return useSyncExternalStore(
    (notify) => onTokenChange(() => notify()),
    readToken,
    () => null,
  );
}
