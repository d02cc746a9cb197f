import { describe, expect, it } from "vitest";
import { monthlyFromDaily } from "./monthly-from-daily.ts";

describe("monthlyFromDaily", () => {
  it("averages each month exactly and takes the last published rate as month-end", () => {
    expect(
      monthlyFromDaily([
        { date: "2026-10-02", rate: "1.2" },
        { date: "2026-10-01", rate: "1.1" },
        { date: "2026-10-30", rate: "1.3" },
        { date: "2026-11-02", rate: "1.25" },
      ]),
    ).toEqual([
      { month: "2026-10", average: "1.2", closing: "1.3", days: 3 },
      { month: "2026-11", average: "1.25", closing: "1.25", days: 1 },
    ]);
  });

  it("rounds the mean half-up at 10 decimals without binary drift", () => {
    // (0.1 + 0.2 + 0.2) / 3 = 0.1666…, rounded at the 10th decimal.
    expect(monthlyFromDaily([{ date: "2026-01-05", rate: "0.1" }, { date: "2026-01-06", rate: "0.2" }, { date: "2026-01-07", rate: "0.2" }])[0]!.average).toBe("0.1666666667");
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; here the mean is exact.
    expect(monthlyFromDaily([{ date: "2026-01-05", rate: "0.1" }, { date: "2026-01-06", rate: "0.2" }])[0]!.average).toBe("0.15");
    // Half-up at the 10th decimal: the mean 1.00000000005 becomes 1.0000000001.
    expect(monthlyFromDaily([{ date: "2026-01-05", rate: "1.0000000001" }, { date: "2026-01-06", rate: "1" }])[0]!.average).toBe("1.0000000001");
  });

  it("refuses malformed input with the offending date", () => {
    expect(() => monthlyFromDaily([{ date: "2026-01-05", rate: "-1" }])).toThrow("the rate published for 2026-01-05 is not a positive decimal: -1");
    expect(() => monthlyFromDaily([{ date: "5 Jan", rate: "1" }])).toThrow("not a date: 5 Jan");
    expect(() => monthlyFromDaily([{ date: "2026-01-05", rate: "1.00000000005" }])).toThrow(/not a positive decimal/);
    expect(monthlyFromDaily([])).toEqual([]);
  });
});
