import { describe, expect, it } from "vitest";
import { counterpartName } from "./foreign-accounts.ts";

describe("the home-currency counterpart of a foreign-currency account", () => {
  it("is named after it, with the home currency", () => {
    expect(counterpartName("Intercompany Loan - Northwind UK", "USD")).toBe("Intercompany Loan - Northwind UK - group entries (USD)");
  });

  it("fits QuickBooks' 100 characters, cutting the account's name and never the suffix", () => {
    const name = counterpartName(`${"Long name ".repeat(15)}`, "CAD");
    expect(name).toHaveLength(100);
    expect(name.endsWith(" - group entries (CAD)")).toBe(true);
    expect(name.startsWith("Long name Long name")).toBe(true);
  });
});
