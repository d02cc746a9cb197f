import { describe, expect, it } from "vitest";
import { smallGroup } from "../../test/small-group.ts";
import type { ConsolidationInputJson } from "./input-schema.ts";
import { consolidatedAmount as value, problems, run } from "../../test/engine.ts";

type Manual = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["manual"]>[number];

function withManual(entries: Manual[], ownership = "0.8"): ConsolidationInputJson {
  const input = smallGroup({ subCurrency: "USD", ownership });
  input.eliminations!.manual = entries;
  return input;
}
const expense: Manual = { id: "m", lines: [{ account: "other-exp", amount: 500_00 }, { account: "provision", amount: -500_00 }], attributeTo: { subsidiary: "s" } };

describe("manual entries attributed to a subsidiary", () => {
  const base = run(smallGroup({ subCurrency: "USD" }));

  it("share their profit-or-loss effect with the subsidiary's NCI", () => {
    const out = run(withManual([expense]));
    // 20% × (2,000 − 500) = 300 instead of 400.
    expect(out.nci[0]).toMatchObject({ adjustedProfit: 1_500_00, attributedManualProfit: -500_00, netIncome: 300_00, closing: 2_300_00 });
    expect(out.incomeStatement).toMatchObject({ netIncome: base.incomeStatement.netIncome - 500_00, attributableToNci: 300_00, attributableToParent: base.incomeStatement.attributableToParent - 400_00 });
    expect(out.balanceSheet.nonControllingInterests).toBe(2_300_00);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("without attributeTo the same entry is all the parent's", () => {
    const { attributeTo: _none, ...plain } = expense;
    const out = run(withManual([plain]));
    expect(out.nci[0]).toEqual(base.nci[0]);
    expect(out.incomeStatement.attributableToParent).toBe(base.incomeStatement.attributableToParent - 500_00);
  });

  it("share their equity lines: the NCI takes its share of a retained-earnings adjustment", () => {
    const out = run(withManual([{ id: "prior", lines: [{ account: "re", amount: 1_000_00 }, { account: "provision", amount: -1_000_00 }], attributeTo: { subsidiary: "s" } }]));
    expect(out.nci[0]).toMatchObject({ attributedManualEquity: -200_00, netIncome: 400_00, closing: 2_200_00 });
    expect(value(out, "re")).toBe(value(base, "re") + 800_00);
    expect(out.balanceSheet.nonControllingInterests).toBe(out.nci[0]!.closing);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("a wholly owned subsidiary has no NCI to share with", () => {
    const out = run(withManual([expense], "1"));
    expect(out.nci).toEqual([]);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("names bad input by its JSON path", () => {
    expect(problems(withManual([{ ...expense, attributeTo: { subsidiary: "p" } }]))).toContain('$.eliminations.manual[0].attributeTo.subsidiary: "p" is not a subsidiary');
    expect(problems(withManual([{ ...expense, attributeTo: { subsidiary: "zz" } }]))).toContain('$.eliminations.manual[0].attributeTo.subsidiary: "zz" is not a subsidiary');
    expect(problems(withManual([{ id: "m", lines: [{ account: "nci", amount: 1 }, { account: "cash", amount: -1 }], attributeTo: { subsidiary: "s" } }]))).toContain(
      "$.eliminations.manual[0].lines[0].account: an entry attributed to Sub is shared with its NCI by the engine: do not post it to the NCI account",
    );
  });
});
