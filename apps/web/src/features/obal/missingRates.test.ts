import { describe, expect, it } from "vitest";
import { collapseMissingRates, fetchRange, groupMissingRates, missingRatesLine, missingRatesNeededBy, monthChunks, monthSpan } from "./missingRates.ts";

/** What the server sends for one missing rate (apps/server consolidation/input.ts). */
const rate = (currency: string, month: string, kind: "Average" | "Month-end", who: string) => ({
  code: "missing_rate",
  message: `${kind} rate for ${currency} in ${month} is missing. ${who} needs it; enter, import or fetch it on the FX rates page.`,
  currency,
  month,
});
const both = (currency: string, month: string, who: string) => [rate(currency, month, "Average", who), rate(currency, month, "Month-end", who)];
const year = ["2024-12", "2025-01", "2025-02", "2025-03", "2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12"];

describe("missing rates, one line per currency", () => {
  it("26 problems of a subsidiary are one line: count, both kinds, the span of months", () => {
    const problems = year.flatMap((m) => both("GBP", m, "Northwind UK Ltd"));
    expect(problems).toHaveLength(26);
    const [g] = groupMissingRates([{ companyName: "Northwind UK Ltd", problems }]);
    expect(missingRatesLine(g!)).toBe("GBP: 26 rates missing (average and month-end), December 2024 to December 2025.");
    expect(missingRatesNeededBy(g!)).toBe("GBP: 26 rates missing (average and month-end), December 2024 to December 2025. Needed by Northwind UK Ltd.");
  });

  it("two subsidiaries in one currency need the same rates: counted once, both named, one full stop after Inc.", () => {
    const groups = groupMissingRates([
      { companyName: "Northwind Canada Inc.", problems: both("CAD", "2025-12", "Northwind Canada Inc.") },
      { companyName: "Maple Retail Inc.", problems: [rate("CAD", "2025-12", "Average", "Maple Retail Inc."), rate("CAD", "2025-11", "Average", "Maple Retail Inc.")] },
      { companyName: "Northwind UK Ltd", problems: [{ code: "unmapped_account", message: "Map it." }] },
    ]);
    expect(groups).toEqual([{ currency: "CAD", count: 3, months: ["2025-11", "2025-12"], companies: ["Maple Retail Inc.", "Northwind Canada Inc."] }]);
    expect(missingRatesNeededBy(groups[0]!)).toBe("CAD: 3 rates missing, November 2025 to December 2025. Needed by Maple Retail Inc., Northwind Canada Inc.");
  });

  it("says a single month, and months with gaps between them, as they are", () => {
    expect(monthSpan(["2025-12"])).toBe("December 2025");
    expect(monthSpan(["2025-01", "2025-03", "2025-04"])).toBe("3 months between January 2025 and April 2025");
    expect(missingRatesLine({ currency: "EUR", count: 1, months: ["2025-12"] })).toBe("EUR: 1 rate missing, December 2025.");
  });

  it("a problem list keeps its other problems in place and says each currency's missing rates once, where they began", () => {
    const other = { code: "missing_cta_account", message: "Choose the CTA account." };
    const list = collapseMissingRates([other, ...both("GBP", "2025-11", "UK"), ...both("GBP", "2025-12", "UK"), { code: "missing_rate", message: "An old server's line." }]);
    expect(list).toEqual([
      other,
      { code: "missing_rate", message: "GBP: 4 rates missing (average and month-end), November 2025 to December 2025.", currency: "GBP" },
      { code: "missing_rate", message: "An old server's line." },
    ]);
  });

  it("fetches from the earliest missing month to the latest, in pieces the rates service accepts", () => {
    const groups = groupMissingRates([
      { companyName: "UK", problems: both("GBP", "2025-12", "UK") },
      { companyName: "DE", problems: both("EUR", "2024-12", "DE") },
    ]);
    expect(fetchRange(groups)).toEqual({ from: "2024-12", to: "2025-12" });
    expect(fetchRange([])).toBeNull();
    expect(monthChunks({ from: "2024-12", to: "2025-12" }, 120)).toEqual([{ from: "2024-12", to: "2025-12" }]);
    expect(monthChunks({ from: "2025-01", to: "2025-05" }, 2)).toEqual([
      { from: "2025-01", to: "2025-02" },
      { from: "2025-03", to: "2025-04" },
      { from: "2025-05", to: "2025-05" },
    ]);
  });
});
