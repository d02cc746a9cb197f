import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeMissingRate, missingRates, normalizeRate } from "./rate-text.ts";

describe("normalizeRate", () => {
  it.each([
    ["1.2745", "1.2745"],
    [" 1.27450 ", "1.2745"],
    ["01.5", "1.5"],
    ["2", "2"],
    ["0.0000000001", "0.0000000001"],
    ["1.0000000000", "1"],
    ["135.25", "135.25"],
  ])("accepts %j as %j", (input, out) => expect(normalizeRate(input)).toBe(out));

  it.each(["", "0", "0.000", "-1.2", "+1.2", "1,2745", "1.2.3", "1e-3", "abc", "1.00000000001", ".5", "5.", "1 234.5", "NaN", "Infinity"])(
    "refuses %j",
    (input) => expect(normalizeRate(input)).toBeNull(),
  );

  it("is idempotent and never changes the value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999999 }), fc.integer({ min: 0, max: 9999999999 }), (whole, frac) => {
        const text = `${whole}.${String(frac).padStart(10, "0")}`;
        const norm = normalizeRate(text);
        if (whole === 0 && frac === 0) return expect(norm).toBeNull();
        expect(normalizeRate(norm!)).toBe(norm);
        expect(Number(norm)).toBeCloseTo(Number(text), 10);
      }),
    );
  });
});

describe("missingRates", () => {
  it("names each missing average and month-end rate and treats an empty one as missing", () => {
    const available = new Map([
      ["GBP:2026-09", { average: "1.27", closing: "1.28" }],
      ["GBP:2026-10", { average: "1.29", closing: null }],
      ["EUR:2026-10", { average: "", closing: "1.1" }],
    ]);
    const missing = missingRates(
      [
        { currency: "GBP", month: "2026-09", kind: "average" },
        { currency: "GBP", month: "2026-10", kind: "closing" },
        { currency: "EUR", month: "2026-10", kind: "average" },
        { currency: "CAD", month: "2026-10", kind: "closing" },
      ],
      available,
    );
    expect(missing.map(describeMissingRate)).toEqual([
      "Month-end rate for GBP in 2026-10 is missing.",
      "Average rate for EUR in 2026-10 is missing.",
      "Month-end rate for CAD in 2026-10 is missing.",
    ]);
  });
});
