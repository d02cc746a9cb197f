import { resolvePostingPeriod } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import {
  ADJUSTMENTS_REALM,
  adjustmentsDocNumber,
  consolidationDocNumber,
  consolidationRequestId,
  eliminationDocNumber,
  INTERCO_REALM,
  openingDocNumber,
  openingRequestId,
} from "./names.ts";

const ACCOUNT = "3f1c0a52-0000-4000-8000-000000000001";
const REALM = "9341453172384023";
/** QuickBooks' DocNumber holds at most 21 characters. */
const DOC_NUMBER_MAX = 21;

describe("DocNumbers", () => {
  it("name each entry by its kind, period and (for a subsidiary's) the realm's last six digits", () => {
    expect(openingDocNumber("2025-12", REALM)).toBe("OB202512-384023");
    expect(consolidationDocNumber({ code: "202602" }, REALM)).toBe("CR202602-384023");
    expect(eliminationDocNumber("2026Q1")).toBe("EL2026Q1");
    expect(adjustmentsDocNumber("FY2026")).toBe("GAFY2026");
  });

  it("stay within QuickBooks' 21 characters for every period kind the parent's fiscal year gives", () => {
    const periods = [resolvePostingPeriod("month", 2026, 2, 4), resolvePostingPeriod("quarter", 2026, 6, 4), resolvePostingPeriod("year", 2027, 3, 4)];
    expect(periods.map((p) => p.code)).toEqual(["202602", "2027Q1", "FY2027"]);
    for (const p of periods) {
      for (const doc of [consolidationDocNumber(p, REALM), eliminationDocNumber(p.code), adjustmentsDocNumber(p.code)]) expect(doc.length, doc).toBeLessThanOrEqual(DOC_NUMBER_MAX);
    }
    expect(openingDocNumber("2025-12", REALM).length).toBeLessThanOrEqual(DOC_NUMBER_MAX);
  });

  it("a short realm id is used whole", () => {
    expect(openingDocNumber("2025-12", "123")).toBe("OB202512-123");
  });
});

describe("request ids", () => {
  it("are fixed by their parts: a deploy between an attempt and its retry must not change them (QuickBooks would book a second entry)", () => {
    expect(openingRequestId(ACCOUNT, REALM, "2025-12", 0)).toBe("gl-ob-1419cba0a5999881e64474a0ac90e92f1cca25b4");
    expect(consolidationRequestId(ACCOUNT, REALM, { from: "2026-02", to: "2026-02" }, 0)).toBe("gl-cr-5fe16f4b54587065718aae2ad2482b7898ec6370");
  });

  it("the same entry and generation give the same id; a new generation, another part or another kind a new one", () => {
    const ob = openingRequestId(ACCOUNT, REALM, "2025-12", 0);
    expect(openingRequestId(ACCOUNT, REALM, "2025-12", 0)).toBe(ob);
    const others = [
      openingRequestId(ACCOUNT, REALM, "2025-12", 1),
      openingRequestId("3f1c0a52-0000-4000-8000-000000000002", REALM, "2025-12", 0),
      openingRequestId(ACCOUNT, "9341453172384024", "2025-12", 0),
      openingRequestId(ACCOUNT, REALM, "2025-11", 0),
    ];
    expect(new Set([ob, ...others]).size).toBe(5);

    const cr = (realm: string, from: string, to: string, generation: number) => consolidationRequestId(ACCOUNT, realm, { from, to }, generation);
    const crs = [cr(REALM, "2026-01", "2026-03", 0), cr(REALM, "2026-01", "2026-03", 1), cr(REALM, "2026-03", "2026-03", 0), cr(INTERCO_REALM, "2026-01", "2026-03", 0), cr(ADJUSTMENTS_REALM, "2026-01", "2026-03", 0)];
    expect(new Set(crs).size).toBe(crs.length);
    for (const id of [ob, ...crs]) expect(id).toMatch(/^gl-(ob|cr)-[0-9a-f]{40}$/);
  });
});
