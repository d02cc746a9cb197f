import { describe, expect, it } from "vitest";
import { chartAccountLabel, inChartOrder } from "./hierarchy.ts";

const a = (name: string, acctNum: string | null = null, fullyQualifiedName?: string) => ({ name, acctNum, ...(fullyQualifiedName ? { fullyQualifiedName } : {}) });

describe("inChartOrder", () => {
  it("puts each sub-account right after its parent, deeper by one, keeping the given order among siblings", () => {
    const chart = [
      a("Computer Equipment", "15000", "Computer Equipment"),
      a("Furniture", "15100", "Furniture"),
      a("Van 1", "15300", "Vehicles:Original Cost:Van 1"),
      a("Laptops", "15010", "Computer Equipment:Laptops"),
      a("Vehicles", "15200", "Vehicles"),
      a("Original Cost", "15210", "Vehicles:Original Cost"),
      a("Servers", "15020", "Computer Equipment:Servers"),
    ];
    expect(inChartOrder(chart).map((r) => `${"  ".repeat(r.depth)}${r.account.name}`)).toEqual([
      "Computer Equipment",
      "  Laptops",
      "  Servers",
      "Furniture",
      "Vehicles",
      "  Original Cost",
      "    Van 1",
    ]);
  });

  it("tells apart sub-accounts of the same name under two parents, and leaves one whose parent is not listed at the top", () => {
    const chart = [a("Acting Staff"), a("Salaries", null, "Film Crew:Salaries"), a("Salaries", null, "Acting Staff:Salaries"), a("Film Crew")];
    expect(inChartOrder(chart).map((r) => [r.account.fullyQualifiedName ?? r.account.name, r.depth])).toEqual([
      ["Acting Staff", 0],
      ["Acting Staff:Salaries", 1],
      ["Film Crew", 0],
      ["Film Crew:Salaries", 1],
    ]);
    expect(inChartOrder([a("Laptops", null, "Computer Equipment:Laptops")])).toEqual([{ account: a("Laptops", null, "Computer Equipment:Laptops"), depth: 0 }]);
  });
});

describe("chartAccountLabel", () => {
  it("names an account by number and full name, by full name alone without a number", () => {
    expect(chartAccountLabel(a("Laptops", "15010", "Computer Equipment:Laptops"))).toBe("15010 · Computer Equipment:Laptops");
    expect(chartAccountLabel(a("Store Sales"))).toBe("Store Sales");
    expect(chartAccountLabel(a("Wages - Toronto", null, "Wages and Salaries:Wages - Toronto"))).toBe("Wages and Salaries:Wages - Toronto");
  });
});
