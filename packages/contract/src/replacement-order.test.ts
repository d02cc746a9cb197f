import { describe, expect, it } from "vitest";
import { ADJUSTMENTS_REALM } from "./adjustments.ts";
import { INTERCO_REALM } from "./eliminations.ts";
import { replacementOrder } from "./replacement-order.ts";

const names = new Map([
  ["uk", "Acme UK"],
  ["ca", "Acme Canada"],
]);
const nameOf = (realmId: string) => names.get(realmId) ?? realmId;
const entry = (realmId: string, periodTo: string, periodFrom = periodTo) => ({ realmId, periodFrom, periodTo });

describe("replacementOrder", () => {
  it("replaces period by period, earliest first", () => {
    const order = replacementOrder([entry("uk", "2026-03"), entry("uk", "2026-01"), entry("uk", "2026-02")], nameOf);
    expect(order.map((e) => e.periodTo)).toEqual(["2026-01", "2026-02", "2026-03"]);
  });

  it("within a period: subsidiaries by name, then eliminations, then group adjustments", () => {
    const order = replacementOrder(
      [entry(ADJUSTMENTS_REALM, "2026-01"), entry(INTERCO_REALM, "2026-01"), entry("uk", "2026-01"), entry("ca", "2026-01"), entry(INTERCO_REALM, "2025-12")],
      nameOf,
    );
    expect(order.map((e) => `${e.periodTo} ${e.realmId}`)).toEqual(["2025-12 interco", "2026-01 ca", "2026-01 uk", "2026-01 interco", "2026-01 adjustments"]);
  });

  it("a quarter ending in a month comes with that month's entries, and the order does not depend on the input's", () => {
    const input = [entry("uk", "2026-03", "2026-01"), entry("ca", "2026-03"), entry("uk", "2026-02")];
    const once = replacementOrder(input, nameOf);
    expect(once.map((e) => `${e.realmId} ${e.periodFrom}`)).toEqual(["uk 2026-02", "ca 2026-03", "uk 2026-01"]);
    expect(replacementOrder([...input].reverse(), nameOf)).toEqual(once);
    expect(input[0]!.realmId).toBe("uk"); // the input is left as it was
  });
});
