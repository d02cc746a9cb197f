import { describe, expect, it } from "vitest";
import { marginFromPercent, percentOfMargin, stockRequestOf, type StockForm } from "./model.ts";

const form = (over: Partial<StockForm> = {}): StockForm => ({
  sellerRealmId: "de",
  buyerRealmId: "uk",
  month: "2025-12",
  amount: "12,345.67",
  marginPercent: "25",
  inventoryAccountId: "12",
  cogsAccountId: "70",
  ...over,
});

describe("margins", () => {
  it("turn a percentage into an exact fraction and back", () => {
    expect(marginFromPercent("25")).toBe("0.25");
    expect(marginFromPercent("5.5")).toBe("0.055");
    expect(marginFromPercent("12.5")).toBe("0.125");
    expect(marginFromPercent("0")).toBe("0");
    expect(marginFromPercent("99.999999")).toBe("0.99999999");
    for (const bad of ["100", "-5", "", "abc", "1e1", "12.1234567"]) expect(marginFromPercent(bad)).toBeNull();
    for (const p of ["25", "5.5", "12.5", "0", "99.999999", "40"]) expect(percentOfMargin(marginFromPercent(p)!)).toBe(p);
  });
});

describe("the stock form", () => {
  it("sends minor units of the buyer's currency and the margin as a fraction", () => {
    expect(stockRequestOf(form(), "GBP")).toEqual({
      request: { sellerRealmId: "de", buyerRealmId: "uk", month: "2025-12", inventory: 1_234_567, margin: "0.25", inventoryAccountId: "12", cogsAccountId: "70" },
    });
    expect(stockRequestOf(form({ amount: "1000" }), "JPY")).toMatchObject({ request: { inventory: 1000 } });
  });

  it("names each field it cannot send", () => {
    const out = stockRequestOf(form({ amount: "12.345", marginPercent: "120", buyerRealmId: "de", month: "2025-13", cogsAccountId: null }), "GBP");
    expect("errors" in out && Object.keys(out.errors).sort()).toEqual(["buyerRealmId", "cogsAccountId", "inventory", "margin", "month"]);
  });
});
