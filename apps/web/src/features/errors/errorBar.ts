import { useSyncExternalStore } from "react";
import { ErrorCodes } from "@groupledger/contract";

/** SPEC §8, word for word. */
export const REAUTHORIZE_MESSAGE =
  "Uh oh! It looks like you need to re-authorize one or more of your companies. You'll need to fix this before you can continue";
export const GENERIC_ERROR_MESSAGE =
  "Uh oh! Something went wrong. We're looking into the problem, and we'll get it fixed as quickly as possible.";
export const REAUTHORIZE_PATH = "/setup/companies";

/**
 * The server answers every QuickBooks refusal of a company's authorization (errorCode 003200) with
 * this code, in one place (apps/server modules/qbo/errors.ts); its message names the company and
 * the 003200. The code, not the text, is what the app acts on.
 */
const REAUTHORIZE_CODE = ErrorCodes.qboReauthorizationRequired;

export interface ErrorBarContent {
  message: string;
  /** Where the message links to, when fixing it happens on another screen. */
  href: string | null;
}

/** True when the error is the server's answer that QuickBooks refused a company's authorization. */
export function needsReauthorization(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === REAUTHORIZE_CODE;
}

export function errorBarContent(error: unknown): ErrorBarContent {
  return needsReauthorization(error)
    ? { message: REAUTHORIZE_MESSAGE, href: REAUTHORIZE_PATH }
    : { message: GENERIC_ERROR_MESSAGE, href: null };
}

let current: ErrorBarContent | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/** Shows the error bar for this error; a later error replaces an earlier one. */
export function raiseError(error: unknown): void {
  current = errorBarContent(error);
  notify();
}

/**
 * A company's status says QuickBooks refused its authorization (a 3200 during a sync): the same
 * 003200 message as when a call fails with it (SPEC §8), raised from the status instead.
 */
export function raiseReauthorization(): void {
  current = { message: REAUTHORIZE_MESSAGE, href: REAUTHORIZE_PATH };
  notify();
}

export function dismissError(): void {
  current = null;
  notify();
}

export function useErrorBar(): ErrorBarContent | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
    () => null,
  );
}
