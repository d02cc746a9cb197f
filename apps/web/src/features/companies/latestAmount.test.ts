import { describe, expect, it } from "vitest";
import { latestAmountBasis, latestAmountLabel } from "./latestAmount.ts";

const bank = { classification: "Asset", latestMonth: "2026-11" };
const sales = { classification: "Revenue", latestMonth: "2026-10" };
const rent = { classification: "Expense", latestMonth: "2026-09" };

describe("what an account's latest amount is", () => {
  it("a balance-sheet account: its balance at a month-end; an income or expense account: a month's activity", () => {
    expect(latestAmountLabel(bank, "en-US")).toBe("Balance at the end of Nov 2026");
    expect(latestAmountLabel(sales, "en-US")).toBe("Activity in Oct 2026");
    expect(latestAmountLabel({ classification: "Expense", latestMonth: null }, "en-US")).toBeNull();
  });

  it("one sentence says which months the column shows, each kind at its latest", () => {
    expect(latestAmountBasis([bank, sales, rent], "en-US")).toBe("Balance: balance-sheet accounts at the end of Nov 2026; income and expense accounts, their activity in Oct 2026.");
    expect(latestAmountBasis([sales], "en-US")).toBe("Balance: income and expense accounts, their activity in Oct 2026.");
    expect(latestAmountBasis([{ classification: "Asset", latestMonth: null }], "en-US")).toBeNull();
  });
});
