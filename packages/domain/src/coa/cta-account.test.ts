import { describe, expect, it } from "vitest";
import { ctaAccountProblem, ctaSuggestionReason, suggestCtaAccounts } from "./cta-account.ts";
import type { ChartAccount } from "./mapping-rules.ts";

const eq = (id: string, name: string, sub: string | null, active = true): ChartAccount => ({ id, name, acctNum: null, classification: "Equity", accountType: "Equity", accountSubType: sub, active });
const chart: ChartAccount[] = [
  eq("1", "Common Stock", "CommonStock"),
  eq("2", "Retained Earnings", "RetainedEarnings"),
  eq("3", "Accumulated Other Comprehensive Income", "AccumulatedAdjustment"),
  eq("4", "Translation reserve", null),
  eq("5", "Owner draws", "OwnersEquity"),
  eq("6", "Old CTA", "AccumulatedAdjustment", false),
  { id: "7", name: "Foreign currency translation", acctNum: null, classification: "Expense", accountType: "Expense", accountSubType: null, active: true },
  eq("8", "Revaluation surplus", "AccumulatedAdjustment"),
];

describe("suggestCtaAccounts", () => {
  it("proposes OCI and translation reserves, never capital, retained earnings, inactive or non-equity accounts", () => {
    const ids = suggestCtaAccounts(chart).map((s) => s.accountId);
    expect(ids.slice(0, 2).sort()).toEqual(["3", "4"]);
    expect(ids).not.toContain("1");
    expect(ids).not.toContain("2");
    expect(ids).not.toContain("6");
    expect(ids).not.toContain("7");
    expect(suggestCtaAccounts([])).toEqual([]);
  });

  it("never proposes the non-controlling interests' account, whatever its detail type", () => {
    const withNci = [...chart, eq("9", "Non-controlling Interests", "AccumulatedAdjustment"), eq("10", "Minority interest", null)];
    expect(suggestCtaAccounts(withNci, 10).map((s) => s.accountId)).not.toContain("9");
    expect(suggestCtaAccounts(withNci, 10).map((s) => s.accountId)).not.toContain("10");
  });
});

describe("ctaSuggestionReason", () => {
  it("says which name and detail type made an account a candidate", () => {
    expect(ctaSuggestionReason(chart[2]!)).toBe("Named as accumulated other comprehensive income, where translation differences are reported; QuickBooks detail type Accumulated adjustment.");
    expect(ctaSuggestionReason(chart[3]!)).toBe("Named as a translation reserve.");
    expect(ctaSuggestionReason({ name: "CTA", accountSubType: null })).toBe("Named as a translation reserve.");
    expect(ctaSuggestionReason({ name: "FX reserve", accountSubType: "AccumulatedAdjustment" })).toBe("Named as a currency reserve; QuickBooks detail type Accumulated adjustment.");
    expect(ctaSuggestionReason(chart[7]!)).toBe("QuickBooks detail type Accumulated adjustment.");
  });

  it("an equity reserve named otherwise is offered as neither capital nor retained earnings", () => {
    expect(ctaSuggestionReason({ name: "Other reserves", accountSubType: null })).toBe("An equity reserve that is neither contributed capital nor retained earnings.");
  });
});

describe("ctaAccountProblem", () => {
  it("explains why an account cannot hold CTA", () => {
    expect(ctaAccountProblem(chart[2])).toBeNull();
    expect(ctaAccountProblem(undefined)).toBe("That account is not in the parent's chart of accounts.");
    expect(ctaAccountProblem(chart[6])).toBe('"Foreign currency translation" is not an equity account; CTA belongs in equity (for example Accumulated OCI).');
    expect(ctaAccountProblem(chart[5])).toBe('"Old CTA" is inactive in QuickBooks.');
    expect(ctaAccountProblem(chart[0])).toBe('"Common Stock" holds contributed capital; keep CTA in a separate equity account.');
    expect(ctaAccountProblem(chart[1])).toBe('"Retained Earnings" holds retained earnings; keep CTA in a separate equity account.');
  });
});
