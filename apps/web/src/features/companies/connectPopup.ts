import { popupMessageSchema, type PopupMessage } from "@groupledger/contract";
import { useCallback, useEffect, useRef, useState } from "react";

/** SPEC §2/§9: the pop-up page and its size. */
export const CONNECT_PATH = "/setup/connect";
export const POPUP_WIDTH = 600;
export const POPUP_HEIGHT = 544;
/** One named window: a second "Connect" click reuses (and focuses) the pop-up instead of stacking another. */
export const POPUP_NAME = "groupledger-qbo-connect";
/** How often the opener notices that the user closed the pop-up without finishing. */
const CLOSED_POLL_MS = 500;

/** window.open features: the spec's size, centred over the app window. */
export function popupFeatures(win: Pick<Window, "screenX" | "screenY" | "outerWidth" | "outerHeight">): string {
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - POPUP_WIDTH) / 2));
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - POPUP_HEIGHT) / 2));
  return `width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`;
}

/**
 * The pop-up's message, or null when the event is not one: anything from another origin is
 * ignored (any page can post to this window), and so is anything that is not exactly one of the
 * two messages of the contract.
 */
export function readPopupMessage(event: Pick<MessageEvent, "origin" | "data">, expectedOrigin: string): PopupMessage | null {
  if (event.origin !== expectedOrigin) return null;
  const parsed = popupMessageSchema.safeParse(event.data);
  return parsed.success ? parsed.data : null;
}

export type ConnectOutcome =
  | { kind: "connected"; realmId: string; companyName: string }
  | { kind: "failed"; error: string }
  | { kind: "blocked" };

/**
 * Opens the QuickBooks connection pop-up and listens for its answer (SPEC §4 Companies). The
 * caller refetches and reports; this hook owns the window: it closes and forgets it when the
 * answer arrives, and notices when the user closes it without finishing.
 */
export function useConnectPopup(onOutcome: (outcome: ConnectOutcome) => void) {
  const popup = useRef<Window | null>(null);
  const poll = useRef<ReturnType<typeof setInterval> | null>(null);
  const [connecting, setConnecting] = useState(false);
  // The latest callback, so the message listener never needs re-subscribing.
  const report = useRef(onOutcome);
  useEffect(() => {
    report.current = onOutcome;
  }, [onOutcome]);

  const forget = useCallback(() => {
    if (poll.current !== null) clearInterval(poll.current);
    poll.current = null;
    popup.current = null;
    setConnecting(false);
  }, []);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const message = readPopupMessage(event, window.location.origin);
      if (!message) return;
      const win = popup.current;
      forget();
      // The pop-up closes itself too; closing here covers a pop-up that could not.
      if (win && !win.closed) win.close();
      report.current(
        message.type === "AUTHORIZATION_COMPLETE"
          ? { kind: "connected", realmId: message.realmId, companyName: message.companyName }
          : { kind: "failed", error: message.error },
      );
    };
    window.addEventListener("message", onMessage);
    return () => {
      window.removeEventListener("message", onMessage);
      if (poll.current !== null) clearInterval(poll.current);
    };
  }, [forget]);

  const open = useCallback(() => {
    // Already open (perhaps behind this window): bring it forward rather than start over.
    if (popup.current && !popup.current.closed) {
      popup.current.focus();
      return;
    }
    const win = window.open(CONNECT_PATH, POPUP_NAME, popupFeatures(window));
    // A blocked pop-up is null in every browser; some return a window that is closed at once.
    if (!win || win.closed) {
      forget();
      report.current({ kind: "blocked" });
      return;
    }
    win.focus();
    popup.current = win;
    setConnecting(true);
    if (poll.current !== null) clearInterval(poll.current);
    poll.current = setInterval(() => {
      if (popup.current?.closed) forget();
    }, CLOSED_POLL_MS);
  }, [forget]);

  return { open, connecting };
}
