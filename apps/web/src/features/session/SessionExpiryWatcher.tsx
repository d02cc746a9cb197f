import { useEffect } from "react";
import { tokenExpiryMs } from "@groupledger/domain";
import { expireSession } from "./expiry.ts";
import { useToken } from "./useToken.ts";

/** setTimeout takes at most a signed 32-bit delay; longer ones fire at once. */
const MAX_DELAY_MS = 2_147_483_647;

/** Ends the session the moment its token expires, rather than on the next refused call. */
export function SessionExpiryWatcher() {
  const token = useToken();
  useEffect(() => {
    if (!token) return;
    const expiry = tokenExpiryMs(token);
    if (expiry === null) {
      expireSession();
      return;
    }
    const delay = expiry - Date.now();
    if (delay <= 0) {
      expireSession();
      return;
    }
    if (delay > MAX_DELAY_MS) return;
    const timer = setTimeout(expireSession, delay);
    return () => clearTimeout(timer);
  }, [token]);
  return null;
}
