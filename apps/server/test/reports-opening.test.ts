import { describe, expect, it } from "vitest";
import { useSandboxApp } from "./app.ts";
import { DEMO, translatedGroup } from "./connect.ts";
import { drivers } from "./databases.ts";
import { get, post } from "./flows.ts";

/**
 * Issue 18: the report's heading says "opening balances as at the end of <openingMonth>". With the
 * opening balances locked at December 2025 that is December 2025, not the December 2024 anchor the
 * roll-forward starts from.
 */
describe.each(drivers)("the opening month a report names, on %s", (driver) => {
  const { sandbox, t } = useSandboxApp(driver);

  it("is the locked opening month once the period follows it; a fresh start's month before it", async () => {
    const token = await translatedGroup(t.app, sandbox, "opening@northwind.example", [{ realmId: DEMO.uk, historicalRate: "1.2650" }], { from: "2023-01", to: "2026-10" });
    const opening = async (from: string, to: string) => {
      const res = await get(t.app, `/api/consolidation/report?from=${from}&to=${to}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().openingMonth as string;
    };
    // Nothing locked: every report starts afresh the month before its period.
    expect(await opening("2026-01", "2026-03")).toBe("2025-12");

    const locked = await post(t.app, "/api/obal", { year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12 }, token);
    expect(locked.statusCode, locked.body).toBe(200);
    expect(await opening("2026-01", "2026-03")).toBe("2025-12");
    expect(await opening("2026-10", "2026-10")).toBe("2025-12");
    // Inside the locked month's fiscal year: rolled from its start, as the opening balances themselves are.
    expect(await opening("2025-06", "2025-06")).toBe("2024-12");
    // Before that fiscal year: a fresh start.
    expect(await opening("2024-06", "2024-06")).toBe("2024-05");
  });
});
