/** Business constants (SPEC §9). */

/** Current release-notes version; a stored version below this opens the release-notes modal. */
export const RELEASE_NOTES_VERSION = "1";
export const FRONTEND_RELEASE = "1.75.51";
/** 15 minutes without activity opens the idle dialog. */
export const IDLE_TIMEOUT_MS = 900_000;
export const ACTIVITY_DEBOUNCE_MS = 250;
export const DEFAULT_PERMISSION_LEVEL = 0;
/** A lazily loaded screen that has not arrived after this long is an error. */
export const LAZY_LOAD_TIMEOUT_MS = 120_000;
/** Size of the QuickBooks authorization pop-up window, in pixels. */
export const AUTH_POPUP = { width: 600, height: 544 } as const;
export const AUTH_RETURN_PATH = "/qbo/auth/complete";
/** Session-storage key holding the session token. */
export const TOKEN_STORAGE_KEY = "t";
