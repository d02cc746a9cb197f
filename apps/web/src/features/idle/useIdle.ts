import { useEffect, useRef, useState } from "react";
import { ACTIVITY_DEBOUNCE_MS } from "@groupledger/domain";
import { ACTIVITY_EVENTS, IdleTimer } from "./idleTimer.ts";

/**
 * Runs the idle timer while mounted; returns whether the idle dialog is open, how to close it, and
 * when the session will be logged out without activity (for the dialog's countdown).
 */
export function useIdle(timeoutMs: number, onLogout: () => void): { open: boolean; close: () => void; logoutAt: () => number | undefined } {
  const [open, setOpen] = useState(false);
  const logout = useRef(onLogout);
  logout.current = onLogout;
  const timerRef = useRef<IdleTimer | undefined>(undefined);

  useEffect(() => {
    const timer = new IdleTimer({
      timeoutMs,
      debounceMs: ACTIVITY_DEBOUNCE_MS,
      onIdle: () => setOpen(true),
      onLogout: () => logout.current(),
    });
    timerRef.current = timer;
    const onActivity = () => timer.activity();
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, { passive: true, capture: true });
    timer.start();
    return () => {
      timer.stop();
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, { capture: true });
    };
  }, [timeoutMs]);

  return { open, close: () => setOpen(false), logoutAt: () => timerRef.current?.logoutAt() };
}
