import { describe, expect, it } from "vitest";
import { localDateTime, nightlyDueDate } from "./nightly.ts";

const at = (iso: string) => new Date(iso);

describe("localDateTime", () => {
  it("reads an instant on a zone's wall clock, daylight saving included", () => {
    expect(localDateTime(at("2026-03-08T04:59:00Z"), "Europe/Berlin")).toEqual({ date: "2026-03-08", time: "05:59" });
    expect(localDateTime(at("2026-03-08T04:59:00Z"), "America/New_York")).toEqual({ date: "2026-03-07", time: "23:59" });
    // New York moves its clocks forward at 02:00 on 8 March 2026: 07:00Z is 03:00 EDT, not 02:00 EST.
    expect(localDateTime(at("2026-03-08T06:59:00Z"), "America/New_York")).toEqual({ date: "2026-03-08", time: "01:59" });
    expect(localDateTime(at("2026-03-08T07:00:00Z"), "America/New_York")).toEqual({ date: "2026-03-08", time: "03:00" });
    expect(localDateTime(at("2026-03-08T00:00:00Z"), "UTC")).toEqual({ date: "2026-03-08", time: "00:00" });
    expect(localDateTime(at("2026-03-08T12:00:00Z"), "Asia/Kolkata")).toEqual({ date: "2026-03-08", time: "17:30" });
    expect(() => localDateTime(at("2026-03-08T12:00:00Z"), "Mars/Olympus")).toThrow(RangeError);
  });
});

describe("nightlyDueDate", () => {
  const berlin = { time: "06:00", timeZone: "Europe/Berlin", lastRunDate: null };

  it("is due once the zone's clock reaches the time, for that local date, until that date has run", () => {
    expect(nightlyDueDate(berlin, at("2026-03-08T04:59:00Z"))).toBeNull();
    expect(nightlyDueDate(berlin, at("2026-03-08T05:00:00Z"))).toBe("2026-03-08");
    expect(nightlyDueDate(berlin, at("2026-03-08T22:59:00Z"))).toBe("2026-03-08");
    expect(nightlyDueDate({ ...berlin, lastRunDate: "2026-03-08" }, at("2026-03-08T22:59:00Z"))).toBeNull();
    // Past midnight in Berlin it is the 9th, but before 06:00: not yet.
    expect(nightlyDueDate({ ...berlin, lastRunDate: "2026-03-08" }, at("2026-03-08T23:00:00Z"))).toBeNull();
    expect(nightlyDueDate({ ...berlin, lastRunDate: "2026-03-08" }, at("2026-03-09T05:00:00Z"))).toBe("2026-03-09");
    // A day missed (the server was down) runs as soon as it is back, once.
    expect(nightlyDueDate({ ...berlin, lastRunDate: "2026-03-05" }, at("2026-03-08T14:00:00Z"))).toBe("2026-03-08");
  });

  it("follows daylight saving: 06:00 in New York is 11:00Z before the change and 10:00Z after it", () => {
    const newYork = { time: "06:00", timeZone: "America/New_York", lastRunDate: null };
    expect(nightlyDueDate(newYork, at("2026-03-07T10:59:00Z"))).toBeNull();
    expect(nightlyDueDate(newYork, at("2026-03-07T11:00:00Z"))).toBe("2026-03-07");
    expect(nightlyDueDate({ ...newYork, lastRunDate: "2026-03-07" }, at("2026-03-08T09:59:00Z"))).toBeNull();
    expect(nightlyDueDate({ ...newYork, lastRunDate: "2026-03-07" }, at("2026-03-08T10:00:00Z"))).toBe("2026-03-08");
  });

  it("a time the clocks skip runs at the first minute after it; a time they pass twice runs the first time", () => {
    // 02:30 does not exist in New York on 8 March 2026 (02:00 EST → 03:00 EDT).
    const skipped = { time: "02:30", timeZone: "America/New_York", lastRunDate: "2026-03-07" };
    expect(nightlyDueDate(skipped, at("2026-03-08T06:59:00Z"))).toBeNull();
    expect(nightlyDueDate(skipped, at("2026-03-08T07:00:00Z"))).toBe("2026-03-08");
    // 01:30 happens twice on 1 November 2026 (EDT 05:30Z, then EST 06:30Z).
    const twice = { time: "01:30", timeZone: "America/New_York", lastRunDate: "2026-10-31" };
    expect(nightlyDueDate(twice, at("2026-11-01T05:29:00Z"))).toBeNull();
    expect(nightlyDueDate(twice, at("2026-11-01T05:30:00Z"))).toBe("2026-11-01");
    expect(nightlyDueDate({ ...twice, lastRunDate: "2026-11-01" }, at("2026-11-01T06:30:00Z"))).toBeNull();
  });

  it("never runs a group's first night before its set time has come round after it connected its first company", () => {
    // Connected at 21:00 UTC with 06:00 UTC: the connection's own sync has just read the books; the
    // first nightly run is the next morning's, not the next tick's (it would re-read every company).
    const utc = { time: "06:00", timeZone: "UTC", lastRunDate: null, connectedSince: at("2026-11-28T21:00:00Z") };
    expect(nightlyDueDate(utc, at("2026-11-28T21:01:00Z"))).toBeNull();
    expect(nightlyDueDate(utc, at("2026-11-28T23:59:00Z"))).toBeNull();
    expect(nightlyDueDate(utc, at("2026-11-29T05:59:00Z"))).toBeNull();
    expect(nightlyDueDate(utc, at("2026-11-29T06:00:00Z"))).toBe("2026-11-29");
    // Connected before the day's time: that same day's run is the first.
    const early = { ...utc, connectedSince: at("2026-11-28T05:00:00Z") };
    expect(nightlyDueDate(early, at("2026-11-28T05:59:00Z"))).toBeNull();
    expect(nightlyDueDate(early, at("2026-11-28T06:00:00Z"))).toBe("2026-11-28");
    // On the group's own clock: 21:00 UTC is already the 29th at 06:00 in Tokyo, so the first is the 30th's.
    const tokyo = { time: "06:00", timeZone: "Asia/Tokyo", lastRunDate: null, connectedSince: at("2026-11-28T21:00:00Z") };
    expect(nightlyDueDate(tokyo, at("2026-11-29T20:59:00Z"))).toBeNull();
    expect(nightlyDueDate(tokyo, at("2026-11-29T21:00:00Z"))).toBe("2026-11-30");
    // Once it has run, the date it ran decides, as before.
    expect(nightlyDueDate({ ...utc, lastRunDate: "2026-11-29" }, at("2026-11-30T06:00:00Z"))).toBe("2026-11-30");
  });
});

