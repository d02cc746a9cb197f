import { describe, expect, it } from "vitest";
import { addMonth } from "./provider.ts";

const at = (iso: string) => addMonth(new Date(iso)).toISOString();

describe("addMonth", () => {
  it("is the same day and time of the next month", () => {
    expect(at("2026-03-15T10:20:30.400Z")).toBe("2026-04-15T10:20:30.400Z");
    expect(at("2026-12-05T00:00:00.000Z")).toBe("2027-01-05T00:00:00.000Z");
  });

  it("clamps to the last day of a shorter month, leap years included", () => {
    expect(at("2026-01-31T09:00:00.000Z")).toBe("2026-02-28T09:00:00.000Z");
    expect(at("2028-01-31T09:00:00.000Z")).toBe("2028-02-29T09:00:00.000Z");
    expect(at("2026-03-31T23:59:59.999Z")).toBe("2026-04-30T23:59:59.999Z");
    expect(at("2026-08-31T00:00:00.000Z")).toBe("2026-09-30T00:00:00.000Z");
  });

  it("steps from the date it is given: after February, a period that began on the 31st renews on the 28th", () => {
    let d = new Date("2026-01-31T00:00:00.000Z");
    const days: number[] = [];
    for (let i = 0; i < 3; i++) {
      d = addMonth(d);
      days.push(d.getUTCDate());
    }
    expect(days).toEqual([28, 28, 28]);
  });
});
