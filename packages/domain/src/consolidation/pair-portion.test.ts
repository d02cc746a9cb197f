import { describe, expect, it } from "vitest";
import { loadExample } from "../../test/load-example.ts";
import { consolidate, parseConsolidationInput } from "./consolidate.ts";
import { ConsolidationInputError } from "./errors.ts";
import type { ConsolidationInputJson } from "./input-schema.ts";

/**
 * A pair side that takes only the part of an account booked against one counterparty (a QBO
 * customer or vendor that stands for a group member). Built on the derived 80% example: UK Sub's
 * receivable 1200 (GBP 40,000 at December's closing 1.30) and intercompany sales 4100 (GBP 50,000,
 * all in December at the average 1.28) against the parent's due-to and intercompany purchases.
 */
const base = (): ConsolidationInputJson => loadExample("nci-80-intercompany");
const series = (input: ConsolidationInputJson, entity: string, account: string) => input.entities.find((e) => e.id === entity)!.balances.find((b) => b.account === account)!;
const withPairs = (input: ConsolidationInputJson, intercompany: NonNullable<ConsolidationInputJson["eliminations"]>["intercompany"]): ConsolidationInputJson => ({
  ...input,
  eliminations: { ...input.eliminations!, intercompany },
});
const run = (input: ConsolidationInputJson) => consolidate(parseConsolidationInput(input));
const pair = (out: ReturnType<typeof run>, id: string) => out.eliminations.find((e) => e.id === id)!;

describe("intercompany pair sides limited to one counterparty's part of an account", () => {
  it("a part that is the whole account gives exactly the account-level elimination", () => {
    const input = base();
    const whole = run(input);
    const [balance, trading] = input.eliminations!.intercompany!;
    const parts = run(
      withPairs(input, [
        { ...balance!, left: { ...balance!.left, portion: { name: "UK Parent Inc", ...pick(series(input, "uk", "1200")) } } },
        { ...trading!, left: { ...trading!.left, portion: { name: "UK Parent Inc", ...pick(series(input, "uk", "4100")) } }, right: { ...trading!.right, portion: { name: "UK Sub", ...pick(series(input, "p", "ic-purchases")) } } },
      ]),
    );
    for (const id of ["ic-balance", "ic-trading"]) {
      expect(pair(parts, id).lines).toEqual(pair(whole, id).lines);
      expect(pair(parts, id).details).toEqual(pair(whole, id).details);
    }
    expect(pair(parts, "ic-trading").description).toBe("Eliminate UK Sub Ltd Sales to US Parent (UK Parent Inc) against US Parent Inc. Intercompany purchases (UK Sub)");
  });

  it("translates a balance part at the period-end closing rate and a flow part at each month's average, and eliminates only that part", () => {
    const input = base();
    const receivable = series(input, "uk", "1200");
    const sales = series(input, "uk", "4100");
    const [balance, trading] = input.eliminations!.intercompany!;
    // GBP 10,000.01 of the 40,000 receivable; GBP 12,345.67 of December's sales.
    const out = run(
      withPairs(input, [
        { ...balance!, left: { ...balance!.left, portion: { name: "US Parent", from: receivable.from, amounts: receivable.amounts.map((x) => (x === 0 ? 0 : 10_000_01)) } } },
        { ...trading!, left: { ...trading!.left, portion: { name: "US Parent", from: sales.from, amounts: sales.amounts.map((x) => (x === 0 ? 0 : -12_345_67)) } } },
      ]),
    );
    // 10,000.01 × 1.30 = 13,000.013 → 13,000.01; −12,345.67 × 1.28 = −15,802.4576 → −15,802.46.
    expect(pair(out, "ic-balance").details).toMatchObject({ leftLocal: 10_000_01, leftTranslated: 13_000_01, rightTranslated: -52_000_00, difference: 13_000_01 - 52_000_00 });
    expect(pair(out, "ic-trading").details).toMatchObject({ leftLocal: -12_345_67, leftTranslated: -15_802_46, rightTranslated: 63_500_00, difference: -15_802_46 + 63_500_00 });
    const receivableRow = out.worksheet.rows.find((r) => r.account === "due-from")!;
    // What stays on the worksheet is the rest of the receivable: 52,000 − 13,000.01.
    expect(receivableRow.amounts.at(-1)).toBe(52_000_00 - 13_000_01);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("an empty part (nothing booked against the name) eliminates nothing and shows the other side as the difference", () => {
    const input = base();
    const receivable = series(input, "uk", "1200");
    const [balance] = input.eliminations!.intercompany!;
    const out = run(withPairs(input, [{ ...balance!, left: { ...balance!.left, portion: { name: "Nobody", from: receivable.from, amounts: receivable.amounts.map(() => 0) } } }]));
    expect(pair(out, "ic-balance").details).toMatchObject({ leftLocal: 0, leftTranslated: 0, difference: -52_000_00 });
  });

  it("refuses a part that does not cover the period, naming the months", () => {
    const input = base();
    const [balance] = input.eliminations!.intercompany!;
    const bad = withPairs(input, [{ ...balance!, left: { ...balance!.left, portion: { name: "US Parent", from: "2024-01", amounts: [1, 2, 3] } } }]);
    expect(() => run(bad)).toThrow(ConsolidationInputError);
    try {
      run(bad);
    } catch (e) {
      expect((e as ConsolidationInputError).issues).toContainEqual(
        expect.objectContaining({ path: ["eliminations", "intercompany", 0, "left", "portion", "amounts"], message: "the part of UK Sub Ltd Due from US Parent must cover 2024-01 to 2024-12" }),
      );
    }
  });

  it("refuses a part of a historically translated account under the temporal method", () => {
    const input = base();
    const uk = input.entities.find((e) => e.id === "uk")!;
    uk.method = "temporal";
    uk.accounts = uk.accounts.map((a) => (a.classification === "Asset" || a.classification === "Liability" ? { ...a, monetary: a.id !== "1200" } : a));
    const receivable = series(input, "uk", "1200");
    const [balance] = input.eliminations!.intercompany!;
    const bad = withPairs(input, [{ ...balance!, left: { ...balance!.left, portion: { name: "US Parent", ...pick(receivable) } } }]);
    expect(() => run(bad)).toThrow(/historical rates \(temporal method\), so a part of it cannot be translated on its own/);
  });

  it("refuses a malformed part at the schema (negative-zero names, fractional minor units)", () => {
    const input = base();
    const [balance] = input.eliminations!.intercompany!;
    expect(() => parseConsolidationInput(withPairs(input, [{ ...balance!, left: { ...balance!.left, portion: { name: "", from: "2023-12", amounts: [1.5] } } }]))).toThrow(ConsolidationInputError);
  });
});

function pick(s: { from: string; amounts: number[] }) {
  return { from: s.from, amounts: [...s.amounts] };
}
