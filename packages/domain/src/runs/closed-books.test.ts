import { describe, expect, it } from "vitest";
import { closedBooksReason, closedBooksRefusal, inClosedBooks } from "./closed-books.ts";

describe("closed books", () => {
  const parent = { companyName: "Northwind Holdings Inc.", bookCloseDate: "2023-12-31" };

  it("closes the closing date itself and everything before it; the day after and open books are open", () => {
    expect(inClosedBooks(parent, "2023-12-31")).toBe(true);
    expect(inClosedBooks(parent, "2022-06-30")).toBe(true);
    expect(inClosedBooks(parent, "2024-01-01")).toBe(false);
    expect(inClosedBooks({ bookCloseDate: null }, "1999-12-31")).toBe(false);
  });

  it("names the company, the closing date, the entry's date, the way round it and where QuickBooks keeps the setting", () => {
    expect(closedBooksReason(parent, "2024-01-31", "the entry", "post a later period")).toBeNull();
    expect(closedBooksReason(parent, "2023-12-31", "the opening entry of Northwind UK Ltd", "choose a later opening month")).toBe(
      "Northwind Holdings Inc.'s books are closed through 2023-12-31 in QuickBooks, so the opening entry of Northwind UK Ltd, dated 2023-12-31, cannot be posted there. " +
        "Either choose a later opening month, or move the closing date before 2023-12-31 in QuickBooks (Settings → Account and settings → Advanced → Accounting → Close the books), sync Northwind Holdings Inc. and post again.",
    );
    expect(closedBooksRefusal("Northwind Holdings Inc.", "2024-03-31", "the eliminations entry")).toMatch(
      /^QuickBooks refused the eliminations entry, dated 2024-03-31: Northwind Holdings Inc.'s books are closed on that date .*Nothing was posted\.$/,
    );
  });
});
