import { describe, expect, it } from "vitest";
import { OBAL } from "../../test/fixtures.ts";
import { UK_TB } from "./components/obalFixtures.ts";
import { allowedActions, ctaBreakdown, fixLink, naturalMonthOf, obalStatus, problemsOf } from "./model.ts";

describe("naturalMonthOf (the domain's rule: a fiscal year is named by the calendar year it ends in)", () => {
  it("January start: fiscal and calendar months are the same", () => {
    expect(naturalMonthOf(2025, 1, 1)).toEqual({ year: 2025, month: 1 });
    expect(naturalMonthOf(2025, 12, 1)).toEqual({ year: 2025, month: 12 });
  });
  it("April start: fiscal 2026 runs from April 2025 to March 2026", () => {
    expect(naturalMonthOf(2026, 1, 4)).toEqual({ year: 2025, month: 4 });
    expect(naturalMonthOf(2026, 9, 4)).toEqual({ year: 2025, month: 12 });
    expect(naturalMonthOf(2026, 10, 4)).toEqual({ year: 2026, month: 1 });
    expect(naturalMonthOf(2026, 12, 4)).toEqual({ year: 2026, month: 3 });
  });
  it("December start: only month 1 falls in the previous calendar year", () => {
    expect(naturalMonthOf(2026, 1, 12)).toEqual({ year: 2025, month: 12 });
    expect(naturalMonthOf(2026, 2, 12)).toEqual({ year: 2026, month: 1 });
  });
});

describe("obalStatus and allowedActions (unreviewed → reviewed → confirmed → posted)", () => {
  const s = { ...OBAL, reviewed: { a: true, b: true, c: true }, confirmed: { b: true, c: true }, posted: { c: true } };
  it("derives the status from the state and eligibility", () => {
    expect(obalStatus(s, "z", true)).toBe("unreviewed");
    expect(obalStatus(s, "a", true)).toBe("reviewed");
    expect(obalStatus(s, "b", true)).toBe("confirmed");
    expect(obalStatus(s, "c", true)).toBe("posted");
    expect(obalStatus(s, "z", false)).toBe("notEligible");
    // The entry is in QuickBooks whatever eligibility says now.
    expect(obalStatus(s, "c", false)).toBe("posted");
  });
  it("offers only the allowed transitions", () => {
    expect(allowedActions("notEligible", true)).toEqual([]);
    expect(allowedActions("unreviewed", true)).toEqual(["review"]);
    expect(allowedActions("reviewed", true)).toEqual(["unreview", "confirm"]);
    expect(allowedActions("confirmed", true)).toEqual(["unconfirm", "post"]);
    expect(allowedActions("posted", true)).toEqual(["markDeleted"]);
  });
  it("problems block review, confirm and post, never the way back", () => {
    expect(allowedActions("unreviewed", false)).toEqual([]);
    expect(allowedActions("reviewed", false)).toEqual(["unreview"]);
    expect(allowedActions("confirmed", false)).toEqual(["unconfirm"]);
    expect(allowedActions("posted", false)).toEqual(["markDeleted"]);
  });
});

describe("problems", () => {
  it("links each fixable problem to its screen", () => {
    expect(fixLink("missing_rate")?.href).toBe("/consolidation/fx_rates");
    expect(fixLink("unmapped_account")?.href).toBe("/setup/coa");
    expect(fixLink("missing_historical_equity")?.href).toBe("/setup/cta");
    expect(fixLink("engine_refused")).toBeNull();
  });
  it("reads details.problems and ignores anything else", () => {
    expect(problemsOf({ problems: [{ code: "missing_rate", message: "No rate" }] })).toEqual([{ code: "missing_rate", message: "No rate" }]);
    expect(problemsOf({ problems: "nope" })).toEqual([]);
    expect(problemsOf({})).toEqual([]);
  });
});

describe("ctaBreakdown", () => {
  const cta = UK_TB.view!.cta;
  it("lists the parts and checks they add up to the change on the CTA line", () => {
    const b = ctaBreakdown(cta)!;
    expect(b.parts.map((p) => p.amount)).toEqual([-20_000, -12_000, 0, 0, 2_000]);
    expect(b.sum).toBe(-30_000);
    expect(b.addsUp).toBe(true);
  });
  it("does not add up when the engine's change differs from the line's", () => {
    expect(ctaBreakdown({ ...cta, change: -29_999 })!.addsUp).toBe(false);
  });
  it("is null for an explanation of unknown shape", () => {
    expect(ctaBreakdown({ ...cta, explanation: { text: "?" } })).toBeNull();
  });
});
