import type { NightlySync } from "@groupledger/contract";

/** The runtime's IANA zones (UTC first, which `Intl` leaves out), and `extra` (the saved zone) if it is not among them. */
export function timeZoneNames(extra: readonly string[] = []): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set(["UTC", ...extra, ...known])];
}

/** The time zones to choose from, the browser's own marked and first after UTC, for a Select. */
export function timeZoneOptions(saved: string, browserZone: string | undefined): { value: string; label: string }[] {
  const names = timeZoneNames([saved, ...(browserZone ? [browserZone] : [])]);
  const ordered = browserZone && browserZone !== "UTC" ? ["UTC", browserZone, ...names.filter((z) => z !== "UTC" && z !== browserZone)] : names;
  return ordered.map((zone) => ({ value: zone, label: zone === browserZone ? `${zone.replaceAll("_", " ")} (this browser's zone)` : zone.replaceAll("_", " ") }));
}

/** What the saved setting does, in a sentence. */
export function nightlySyncSentence(setting: Pick<NightlySync, "enabled" | "time" | "timeZone"> & { replaceChanged?: boolean }): string {
  if (!setting.enabled) return "The nightly sync is off: companies sync when you ask, and when QuickBooks reports a change.";
  const then = setting.replaceChanged ? " Entries it finds changed are then replaced, and the admins get a summary by mail." : "";
  return `Every connected company is synced each day at ${setting.time}, ${setting.timeZone.replaceAll("_", " ")} time.${then}`;
}
