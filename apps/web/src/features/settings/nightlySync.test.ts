import { describe, expect, it } from "vitest";
import { nightlySyncSentence, timeZoneNames, timeZoneOptions } from "./nightlySync.ts";

describe("time zones for the nightly sync", () => {
  it("lists UTC first, then the runtime's IANA zones, keeping a saved zone the runtime does not list", () => {
    const names = timeZoneNames();
    expect(names[0]).toBe("UTC");
    expect(names).toContain("Europe/Berlin");
    expect(names).toContain("America/New_York");
    expect(new Set(names).size).toBe(names.length);
    expect(timeZoneNames(["Etc/GMT+5"])).toContain("Etc/GMT+5");
  });

  it("puts the browser's zone right after UTC and says so", () => {
    const options = timeZoneOptions("UTC", "America/Los_Angeles");
    expect(options.slice(0, 2)).toEqual([
      { value: "UTC", label: "UTC" },
      { value: "America/Los_Angeles", label: "America/Los Angeles (this browser's zone)" },
    ]);
    expect(options.filter((o) => o.value === "America/Los_Angeles")).toHaveLength(1);
    expect(timeZoneOptions("Asia/Tokyo", undefined)[0]).toEqual({ value: "UTC", label: "UTC" });
  });

  it("says what the setting does", () => {
    expect(nightlySyncSentence({ enabled: true, time: "06:00", timeZone: "America/New_York" })).toBe("Every connected company is synced each day at 06:00, America/New York time.");
    expect(nightlySyncSentence({ enabled: false, time: "06:00", timeZone: "UTC" })).toMatch(/^The nightly sync is off/);
  });
});
