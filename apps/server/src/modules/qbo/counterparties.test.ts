import { describe, expect, it } from "vitest";
import { counterpartyNames } from "./counterparties.ts";

describe("counterpartyNames", () => {
  it("gives a subsidiary one customer for its receivables and one vendor for its payables", () => {
    expect(counterpartyNames("Northwind UK Ltd")).toEqual({
      Customer: "Northwind UK Ltd (consolidated receivables)",
      Vendor: "Northwind UK Ltd (consolidated payables)",
    });
    expect(counterpartyNames("Intercompany eliminations")).toEqual({
      Customer: "Intercompany eliminations (consolidated receivables)",
      Vendor: "Intercompany eliminations (consolidated payables)",
    });
  });

  it("the two differ (QuickBooks keeps one namespace for customers, vendors and employees) and neither is the company's own name, which the parent may use itself", () => {
    for (const owner of ["Northwind UK Ltd", "A", ""]) {
      const names = counterpartyNames(owner);
      expect(names.Customer).not.toBe(names.Vendor);
      expect([names.Customer, names.Vendor]).not.toContain(owner);
    }
  });
});
