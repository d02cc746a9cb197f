import { describe, expect, it } from "vitest";
import { smallGroup, type SmallGroupOptions } from "../../test/small-group.ts";
import { impliedRateText } from "./dividends.ts";
import type { ConsolidationInputJson } from "./input-schema.ts";
import { type ConsolidationOutput } from "./output-schema.ts";
import { consolidatedAmount as value, problems, run } from "../../test/engine.ts";

type Rule = NonNullable<NonNullable<ConsolidationInputJson["eliminations"]>["dividends"]>[number];

function withRule(options: SmallGroupOptions, rules: Rule[] = [{ id: "div", subsidiary: "s", incomeAccount: "div-income" }]): ConsolidationInputJson {
  const input = smallGroup(options);
  input.eliminations!.dividends = rules;
  return input;
}
const elimination = (out: ConsolidationOutput) => out.eliminations.find((e) => e.kind === "dividend")!;

describe("impliedRateText", () => {
  it("gives the rate between two amounts in minor units, trimmed", () => {
    expect(impliedRateText(100_500_00, 150_000_00, 2, 2)).toBe("0.67");
    expect(impliedRateText(1_000, 3, 2, 2)).toBe("333.3333333333");
    expect(impliedRateText(150, 100, 0, 2)).toBe("0.015"); // 100 yen → $1.50
    expect(impliedRateText(-150, 100, 2, 2)).toBe("-1.5");
    expect(impliedRateText(1, 0, 2, 2)).toBe("");
  });
});

describe("intra-group dividends", () => {
  it("eliminates the parent's share against its dividend income; the NCI's share stays a reduction of the NCI", () => {
    // Sub (USD, 80%) declares 1,000; the parent books 800.
    const options: SmallGroupOptions = { subCurrency: "USD", subDividend: 1_000_00, parentBooked: 800_00 };
    const out = run(withRule(options));
    expect(elimination(out).lines).toEqual([
      { account: "div-income", name: "Dividend income", amount: 800_00 },
      { account: "div", name: "Dividends", amount: -800_00 },
    ]);
    expect(elimination(out).details).toMatchObject({ subsidiary: "s", dividendsLocal: 1_000_00, dividendsTranslated: 1_000_00, parentShare: 800_00, nciShare: 200_00, parentBooked: 800_00, fxDifferenceCreditPositive: 0 });
    expect(value(out, "div-income")).toBe(0);
    // The subsidiary's dividends leave the consolidated dividends entirely (80% eliminated, 20% to the NCI).
    expect(value(out, "div")).toBe(0);
    expect(out.nci[0]).toMatchObject({ dividends: 200_00, closing: 2_000_00 + 400_00 - 200_00 });
    expect(out.balanceSheet.nonControllingInterests).toBe(2_200_00);
    expect(out.incomeStatement.netIncome).toBe(run(smallGroup(options)).incomeStatement.netIncome - 800_00);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("defaults to what the income account holds, and sends a difference to FX with the rates explained", () => {
    // Sub in EUR declares €1,000 at January's average 1.2 ($1,200); 80% = $960. The parent
    // booked $1,000 (it received the cash later at 1.25): a $40 exchange gain.
    const out = run(withRule({ subDividend: 1_000_00, parentBooked: 1_000_00 }));
    expect(elimination(out).lines).toEqual([
      { account: "div-income", name: "Dividend income", amount: 1_000_00 },
      { account: "div", name: "Dividends", amount: -960_00 },
      { account: "fx", name: "FX differences", amount: -40_00 },
    ]);
    expect(elimination(out).details).toMatchObject({
      dividendsLocal: 1_000_00,
      dividendsTranslated: 1_200_00,
      ownership: "0.8",
      parentShareLocal: 800_00,
      parentShare: 960_00,
      nciShare: 240_00,
      parentBooked: 1_000_00,
      translationRate: "1.2",
      parentBookedRate: "1.25",
      fxDifferenceCreditPositive: 40_00,
    });
    expect(value(out, "div")).toBe(0);
    expect(out.balanceSheet.balanced).toBe(true);
  });

  it("follows the subsidiary's dividend rate policy (a declaration-date rate)", () => {
    const out = run(withRule({ subDividend: 1_000_00, dividendRate: "1.22", parentBooked: 976_00 }));
    expect(elimination(out).details).toMatchObject({ dividendsTranslated: 1_220_00, parentShare: 976_00, translationRate: "1.22", parentBookedRate: "1.22", fxDifferenceCreditPositive: 0 });
  });

  it("takes the parent's amount when given (an income account shared with other dividends)", () => {
    const out = run(withRule({ subCurrency: "USD", ownership: "1", subDividend: 1_000_00, parentBooked: 1_500_00 }, [{ id: "div", subsidiary: "s", incomeAccount: "div-income", parentAmount: 1_000_00 }]));
    expect(elimination(out).details).toMatchObject({ parentShare: 1_000_00, parentBooked: 1_000_00, fxDifferenceCreditPositive: 0 });
    expect(value(out, "div-income")).toBe(-500_00);
  });

  it("splits the dividends line exactly: parent's share + NCI's rounded share = translated dividends", () => {
    const out = run(withRule({ subCurrency: "USD", ownership: "0.6667", subDividend: 1_01, parentBooked: 67 }));
    const d = elimination(out).details;
    expect(d.nciShare).toBe(34); // round(0.3333 × 101) = 33.66 → 34
    expect(d.parentShare).toBe(67);
    expect(value(out, "div")).toBe(0);
  });

  it("warns, not fails, when the subsidiary declared no dividends in the period", () => {
    const out = run(withRule({ subCurrency: "USD" }));
    expect(out.eliminations.some((e) => e.kind === "dividend")).toBe(false);
    expect(out.warnings).toContain('Sub declared no dividends in the period: the dividend elimination "div" books nothing');
  });

  it("names bad input by its JSON path", () => {
    expect(problems(withRule({ subDividend: 1_00 }, [{ id: "d", subsidiary: "p", incomeAccount: "div-income" }]))).toContain('$.eliminations.dividends[0].subsidiary: "p" is not a subsidiary');
    expect(problems(withRule({ subDividend: 1_00 }, [{ id: "d", subsidiary: "s", incomeAccount: "cash" }]))).toContain('$.eliminations.dividends[0].incomeAccount: "cash" cannot hold dividend income (it must be Revenue): it is Asset');
    expect(problems(withRule({ subDividend: 1_00 }))).toContain('$.eliminations.dividends[0].parentAmount: the parent booked no dividend income on "div-income" in the period: say what it booked for Sub\'s dividends');
    expect(problems(withRule({ subDividend: 1_00, parentBooked: 80 }, [{ id: "a", subsidiary: "s", incomeAccount: "div-income" }, { id: "b", subsidiary: "s", incomeAccount: "div-income", parentAmount: 1 }]))).toEqual([
      '$.eliminations.dividends[0].parentAmount: several dividend eliminations use "div-income": say what the parent booked for Sub\'s dividends',
      "$.eliminations.dividends[1].subsidiary: Sub has more than one dividend elimination",
    ]);
    expect(problems(withRule({ subDividend: 1_00 }, [{ id: "d", subsidiary: "s", incomeAccount: "div-income", parentAmount: 0 }]))).toContain("$.eliminations.dividends[0].parentAmount: must be positive");
  });
});
