import { describe, expect, it } from "vitest";
import { Sandbox } from "../sandbox.ts";
import { signedHome } from "../ledger.ts";
import { generatedGroup } from "./group.ts";

describe("generated groups (benchmarks)", () => {
  const options = { companies: 6, firstMonth: "2024-11", months: 14, until: "2025-12-20", currencies: ["USD", "GBP", "EUR"] } as const;

  it("are the same on every call, with unique 16-digit realms, the parent first", () => {
    const group = generatedGroup(options);
    expect(JSON.stringify(generatedGroup(options))).toBe(JSON.stringify(group));
    expect(group.map((c) => c.profile.realmId)).toEqual(["4815162300000000", "4815162300000001", "4815162300000002", "4815162300000003", "4815162300000004", "4815162300000005"]);
    expect(group.map((c) => [c.profile.isParent, c.profile.currency])).toEqual([[true, "USD"], [false, "GBP"], [false, "EUR"], [false, "USD"], [false, "GBP"], [false, "EUR"]]);
    expect(group.map((c) => c.profile.name)).toEqual(["Meridian Holdings Inc.", "Meridian 01 Ltd", "Meridian 02 GmbH", "Meridian 03 Inc.", "Meridian 04 Ltd", "Meridian 05 GmbH"]);
    expect(generatedGroup({ ...options, realmPrefix: "7700042" })[2]!.profile.realmId).toBe("7700042000000002");
    expect(JSON.stringify(generatedGroup({ ...options, seed: 2 }))).not.toBe(JSON.stringify(group));
  });

  it("book balanced entries from the first month's first day to `until`, about fifteen a month", () => {
    for (const company of generatedGroup(options)) {
      const dates = company.entries.map((e) => e.txnDate).sort();
      expect(dates[0]).toBe("2024-11-01");
      expect(dates.at(-1)! <= "2025-12-20").toBe(true);
      expect(dates.at(-1)! >= "2025-12-01").toBe(true);
      expect(company.entries.length).toBeGreaterThan(13 * 13);
      expect(company.entries.length).toBeLessThan(14 * 18);
      for (const entry of company.entries) expect(entry.lines.reduce((s, l) => s + signedHome(l), 0)).toBe(0);
      // Receivable and payable lines name the trade customer and supplier, as QuickBooks requires.
      const named = (type: string) => company.entries.flatMap((e) => e.lines).filter((l) => company.accounts.find((a) => a.id === l.accountId)!.type === type);
      expect(new Set(named("Accounts Receivable").map((l) => l.entity?.type))).toEqual(new Set(["Customer"]));
      expect(new Set(named("Accounts Payable").map((l) => l.entity?.type))).toEqual(new Set(["Vendor"]));
    }
  });

  it("are served by a Sandbox that asks for them, and reset() builds them again; the default is still the demo group", () => {
    const sandbox = new Sandbox({ companies: () => generatedGroup(options) });
    expect(sandbox.companies().map((c) => c.companyName)).toEqual(generatedGroup(options).map((c) => c.profile.name));
    const realm = sandbox.companies()[1]!.realmId;
    const ledger = sandbox.ledger(realm)!;
    ledger.addEntry({ ...ledger.entries[0]!, id: "99999" });
    sandbox.reset();
    expect(sandbox.ledger(realm)!.entry("99999")).toBeUndefined();
    expect(new Sandbox().companies().map((c) => c.companyName)).toEqual(["Northwind Holdings Inc.", "Northwind UK Ltd", "Northwind Canada Inc.", "Northwind Deutschland GmbH", "Northwind Retail LLC"]);
  });
});
