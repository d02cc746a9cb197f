import { describe, expect, it } from "vitest";
import { ctaSuggestionReason } from "./cta-account.ts";

const reason = (name: string, accountSubType: string | null = null) => ctaSuggestionReason({ name, accountSubType });

describe("ctaSuggestionReason", () => {
  it("names what made the account a candidate, as one sentence", () => {
    expect(reason("Accumulated Other Comprehensive Income")).toBe("Named as accumulated other comprehensive income, where translation differences are reported.");
    expect(reason("AOCI")).toBe("Named as accumulated other comprehensive income, where translation differences are reported.");
    expect(reason("Cumulative Translation Adjustment")).toBe("Named as a translation reserve.");
    expect(reason("CTA")).toBe("Named as a translation reserve.");
    expect(reason("Foreign currency reserve")).toBe("Named as a currency reserve.");
    expect(reason("FX reserve")).toBe("Named as a currency reserve.");
  });

  it("gives the strongest name only: OCI before translation before currency", () => {
    expect(reason("OCI - currency translation")).toBe("Named as accumulated other comprehensive income, where translation differences are reported.");
    expect(reason("Currency translation reserve")).toBe("Named as a translation reserve.");
  });

  it("adds QuickBooks' detail type when it is Accumulated adjustment", () => {
    expect(reason("Translation reserve", "AccumulatedAdjustment")).toBe("Named as a translation reserve; QuickBooks detail type Accumulated adjustment.");
    expect(reason("Other reserve", "AccumulatedAdjustment")).toBe("QuickBooks detail type Accumulated adjustment.");
  });

  it("matches whole words only, in any case", () => {
    // "Doctapes" holds the letters "cta" but not the word.
    expect(reason("Doctapes reserve")).toBe("An equity reserve that is neither contributed capital nor retained earnings.");
    expect(reason("CURRENCY RESERVE")).toBe("Named as a currency reserve.");
  });

  it("otherwise says what any remaining candidate is", () => {
    expect(reason("Revaluation surplus", "OtherEquity")).toBe("An equity reserve that is neither contributed capital nor retained earnings.");
  });
});
