import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";
import { consolidate, parseConsolidationInput } from "./consolidate.ts";
import type { ConsolidationInputJson } from "./input-schema.ts";
import { problems } from "../../test/engine.ts";

const base = (): ConsolidationInputJson => loadExample("nci-80-intercompany");

describe("input problems are reported with their JSON path", () => {
  it("reports schema errors at their path", () => {
    const input = base() as { entities: { currency: string }[] };
    input.entities[1]!.currency = "pounds";
    expect(problems(input)).toContain("$.entities[1].currency: must be a three-letter ISO 4217 code, e.g. EUR");
  });

  it("rejects a mapping between incompatible classifications", () => {
    const input = base();
    input.maps![0]!.lines["1000"] = "opex";
    expect(problems(input)).toContain('$.maps[0].lines["1000"]: Asset account "1000" cannot map to Expense account "opex"');
  });

  it("keeps unmapped balances visible instead of dropping them", () => {
    const input = base();
    delete input.maps![0]!.lines["5000"];
    const out = consolidate(parseConsolidationInput(input));
    expect(out.unmapped).toEqual([{ entity: "uk", account: "5000", name: "Operating expenses", local: 200_000_00, translated: 256_000_00 }]);
    expect(out.worksheet.rows.find((r) => r.account === "unmapped:uk:5000")!.amounts.at(-1)).toBe(256_000_00);
    expect(out.balanceSheet.balanced).toBe(true);
    expect(out.journalEntries[0]!.postable).toBe(false);
  });

  it("rejects an unbalanced manual entry", () => {
    const input = base();
    input.eliminations!.manual = [{ id: "m", lines: [{ account: "cash", amount: 100 }, { account: "sales", amount: -99 }] }];
    expect(problems(input)).toContain("$.eliminations.manual[0].lines: the entry does not balance: debits exceed credits by 1 minor units");
  });

  it("names missing rates", () => {
    const input = base();
    delete input.rates!.GBP!["2024-06"];
    expect(problems(input)).toContain('$.rates.GBP["2024-06"]: missing GBP rates for 2024-06 (needed to translate UK Sub Ltd)');
  });

  it("refuses local books that do not roll forward, rather than hiding the error in CTA", () => {
    const input = base();
    input.entities[1]!.balances[0]!.amounts[12] = 560_001_00;
    expect(problems(input).join("\n")).toMatch(/UK Sub Ltd's balance sheet at 2024-12 does not balance/);
  });

  it("refuses an opening CTA that does not balance the opening translated balances", () => {
    const input = base();
    input.entities[1]!.opening.cta = -100;
    expect(problems(input).join("\n")).toMatch(/\$\.entities\[1\]\.opening\.cta: .* must be 0, not -100/);
  });
});
