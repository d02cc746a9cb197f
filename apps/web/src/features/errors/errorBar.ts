import { useSyncExternalStore } from "react";

/** SPEC §8, word for word. */
export const REAUTHORIZE_MESSAGE =
  "Uh oh! It looks like you need to re-authorize one or more of your companies. You'll need to fix this before you can continue";
export const GENERIC_ERROR_MESSAGE =
  "Uh oh! Something went wrong. We're looking into the problem, and we'll get it fixed as quickly as possible.";
export const REAUTHORIZE_PATH = "/setup/companies";

/** QuickBooks reports a revoked or expired company authorization as "...; errorCode=003200; ...". */
const REAUTHORIZE_PATTERN = /errorCode\W{0,3}003200/i;

export interface ErrorBarContent {
  message: string;
  /** Where the message links to, when fixing it happens on another screen. */
  href: string | null;
}

/** True when QuickBooks refused a company's authorization somewhere in this error text. */
export function needsReauthorization(errorText: string): boolean {
  return REAUTHORIZE_PATTERN.test(errorText);
}

export function errorBarContent(errorText: string): ErrorBarContent {
  return needsReauthorization(errorText)
    ? { message: REAUTHORIZE_MESSAGE, href: REAUTHORIZE_PATH }
    : { message: GENERIC_ERROR_MESSAGE, href: null };
}

/** The text an error is judged by: its message plus any detail text the server sent with it. */
export function errorText(error: unknown): string {
  if (error instanceof Error) {
    const details = (error as { details?: unknown }).details;
    return details === undefined ? error.message : `${error.message} ${JSON.stringify(details)}`;
  }
  return typeof error === "string" ? error : JSON.stringify(error) ?? "";
}

let current: ErrorBarContent | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/** Shows the error bar for this error; a later error replaces an earlier one. */
export function raiseError(error: unknown): void {
  current = errorBarContent(errorText(error));
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
