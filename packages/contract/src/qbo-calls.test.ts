import { describe, expect, it } from "vitest";
import { QBO_MONTHLY_READ_ALLOWANCE, QBO_READ_WARNING_SHARE, readOutlook } from "./qbo-calls.ts";

describe("readOutlook: a month's reads at the pace so far, against Intuit's allowance", () => {
  it("projects the reads over the days gone to the whole month", () => {
    // 15 of November's 30 days gone: twice the reads so far.
    expect(readOutlook(150_000, new Date("2026-11-16T00:00:00Z"))).toEqual({ projectedReads: 300_000, share: 0.6, warn: false });
    // 26 days gone.
    expect(readOutlook(100_000, new Date("2026-11-27T00:00:00Z")).projectedReads).toBe(Math.round((100_000 * 30) / 26));
    // A leap February has 29 days: 14 gone.
    expect(readOutlook(14_000, new Date("2028-02-15T00:00:00Z")).projectedReads).toBe(29_000);
  });

  it("warns once the projection passes 80 % of the allowance, not at it", () => {
    expect(QBO_MONTHLY_READ_ALLOWANCE).toBe(500_000);
    expect(QBO_READ_WARNING_SHARE).toBe(0.8);
    const midMonth = new Date("2026-11-16T00:00:00Z");
    expect(readOutlook(200_000, midMonth)).toMatchObject({ projectedReads: 400_000, warn: false });
    expect(readOutlook(200_001, midMonth)).toMatchObject({ projectedReads: 400_002, warn: true });
    expect(readOutlook(210_000, midMonth)).toEqual({ projectedReads: 420_000, share: 0.84, warn: true });
    // Another allowance (a paid tier) moves the threshold with it.
    expect(readOutlook(210_000, midMonth, 1_000_000)).toMatchObject({ share: 0.42, warn: false });
  });

  it("counts at least one day gone, so the first hours of a month do not project a year's worth", () => {
    expect(readOutlook(1_000, new Date("2026-12-01T06:00:00Z")).projectedReads).toBe(31_000);
    expect(readOutlook(0, new Date("2026-12-01T00:00:00Z"))).toEqual({ projectedReads: 0, share: 0, warn: false });
  });

  it("never projects fewer reads than were made, at the month's last moment too", () => {
    expect(readOutlook(450_000, new Date("2026-11-30T23:59:59.999Z"))).toMatchObject({ projectedReads: 450_000, warn: true });
  });
});
