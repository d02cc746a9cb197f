import { describe, expect, it } from "vitest";
import { checkPairSides, INTERCOMPANY_PAIR_KINDS, PAIR_KIND_CLASSIFICATIONS, pairKindTakes, pairSidesFit } from "./pair-kinds.ts";

describe("the classifications a pair joins", () => {
  it("a receivable/payable pair joins an asset and a liability, a revenue/expense pair revenue and an expense", () => {
    expect(INTERCOMPANY_PAIR_KINDS).toEqual(["receivablePayable", "revenueExpense"]);
    expect(PAIR_KIND_CLASSIFICATIONS.receivablePayable).toEqual(["Asset", "Liability"]);
    expect(PAIR_KIND_CLASSIFICATIONS.revenueExpense).toEqual(["Revenue", "Expense"]);
  });

  it("a side takes either of its kind's two classifications, nothing else", () => {
    expect(["Asset", "Liability", "Equity", "Revenue", "Expense"].filter((c) => pairKindTakes("receivablePayable", c))).toEqual(["Asset", "Liability"]);
    expect(["Asset", "Liability", "Equity", "Revenue", "Expense"].filter((c) => pairKindTakes("revenueExpense", c))).toEqual(["Revenue", "Expense"]);
  });

  it("fits one of each, in either order", () => {
    expect(pairSidesFit("receivablePayable", "Asset", "Liability")).toBe(true);
    expect(pairSidesFit("receivablePayable", "Liability", "Asset")).toBe(true);
    expect(pairSidesFit("revenueExpense", "Revenue", "Expense")).toBe(true);
    expect(pairSidesFit("revenueExpense", "Expense", "Revenue")).toBe(true);
  });

  it("refuses a side of another classification, and both sides of the same one", () => {
    expect(checkPairSides("receivablePayable", { left: "Revenue", right: "Liability" })).toEqual({ left: true, right: false, same: false });
    expect(checkPairSides("revenueExpense", { left: "Asset", right: "Liability" })).toEqual({ left: true, right: true, same: false });
    expect(checkPairSides("receivablePayable", { left: "Liability", right: "Liability" })).toEqual({ left: false, right: false, same: true });
    expect(checkPairSides("receivablePayable", { left: "Equity", right: "Equity" })).toEqual({ left: true, right: true, same: false });
    expect(pairSidesFit("receivablePayable", "Asset", "Asset")).toBe(false);
    expect(pairSidesFit("revenueExpense", "Revenue", "Liability")).toBe(false);
  });

  it("a side not chosen yet is not wrong, and is not the same as the other", () => {
    expect(checkPairSides("receivablePayable", {})).toEqual({ left: false, right: false, same: false });
    expect(checkPairSides("receivablePayable", { left: "Asset" })).toEqual({ left: false, right: false, same: false });
    expect(checkPairSides("revenueExpense", { right: "Asset" })).toEqual({ left: false, right: true, same: false });
  });
});
