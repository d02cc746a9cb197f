import { RELEASE_NOTES_VERSION } from "@groupledger/domain";

/** Versions are whole numbers kept as strings ('0', '1', ...); compare them as numbers so '10' > '9'. */
export function isOlderVersion(stored: string, current: string = RELEASE_NOTES_VERSION): boolean {
  const a = Number(stored);
  const b = Number(current);
  if (!Number.isFinite(a)) return true;
  return a < b;
}

/**
 * SPEC §4 Release notes: an older stored version opens the modal, except while onboarding, when
 * the version is set to the current one at once (a brand-new user has nothing to catch up on).
 */
export function releaseNotesAction(storedVersion: string, onboarding: boolean): "none" | "open" | "acknowledge" {
  if (!isOlderVersion(storedVersion)) return "none";
  return onboarding ? "acknowledge" : "open";
}
