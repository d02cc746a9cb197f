import { RATE_MESSAGE } from "@groupledger/domain";
import { describe, expect, it } from "vitest";
import { rateChanges } from "./history.ts";
import {
  applyEdit,
  cellKey,
  cellProblem,
  defaultRange,
  editProblems,
  fetchedResultText,
  importedResultText,
  missingRates,
  missingText,
  monthLabel,
  nearestRate,
  parsePastedBlock,
  pendingEdits,
  rangeProblem,
  rateWarning,
  ratesToSave,
  savedRatesOf,
  serverCellErrors,
  type CellRef,
} from "./model.ts";

const grid = {
  parentCurrency: "USD",
  currencies: ["EUR", "GBP"],
  months: ["2026-09", "2026-10"],
  rates: [
    { currency: "EUR", month: "2026-09", avgfx: "1.08", endfx: "1.09" },
    { currency: "EUR", month: "2026-10", avgfx: "", endfx: "" },
    { currency: "GBP", month: "2026-09", avgfx: "1.27", endfx: "" },
    { currency: "GBP", month: "2026-10", avgfx: "1.2745", endfx: "1.281" },
  ],
};
const saved = savedRatesOf(grid);
const gbpOctAvg: CellRef = { currency: "GBP", month: "2026-10", field: "avgfx" };

describe("validating a typed rate like the server does", () => {
  it.each([
    ["", null],
    ["  ", null],
    ["1.2745", null],
    ["0.0000000001", null],
    [" 01.50 ", null],
    ["-1.2", RATE_MESSAGE],
    ["abc", RATE_MESSAGE],
    ["0", RATE_MESSAGE],
    ["1.00000000001", RATE_MESSAGE],
    ["1,2745", RATE_MESSAGE],
    ["1e3", RATE_MESSAGE],
  ])("%j → %j", (text, expected) => {
    expect(cellProblem(text)).toBe(expected);
  });
});

describe("edits", () => {
  it("records a change, and forgets it when the cell is back to its saved rate in any spelling", () => {
    let edits = applyEdit({}, saved, gbpOctAvg, "1.3");
    expect(edits).toEqual({ "GBP:2026-10:avgfx": "1.3" });
    edits = applyEdit(edits, saved, gbpOctAvg, "1.27450");
    expect(edits).toEqual({});
    expect(applyEdit({}, saved, { currency: "EUR", month: "2026-10", field: "avgfx" }, " ")).toEqual({});
    // Clearing a saved rate is a change too.
    expect(applyEdit({}, saved, gbpOctAvg, "")).toEqual({ "GBP:2026-10:avgfx": "" });
  });

  it("drops edits that a refetch made equal to the saved rates, and keeps those of cells not loaded", () => {
    const after = savedRatesOf({ ...grid, rates: grid.rates.map((r) => (r.currency === "EUR" && r.month === "2026-10" ? { ...r, avgfx: "1.1" } : r)) });
    expect(pendingEdits({ "EUR:2026-10:avgfx": "1.10", "EUR:2026-10:endfx": "1.2", "CAD:2026-10:avgfx": "0.73" }, after)).toEqual({
      "EUR:2026-10:endfx": "1.2",
      "CAD:2026-10:avgfx": "0.73",
    });
  });

  it("lists the invalid edits by cell", () => {
    expect(editProblems({ a: "1.2", b: "-3", c: "" })).toEqual({ b: RATE_MESSAGE });
  });

  it("sends one row per currency and month, with the saved value of the rate not edited and the typed one trimmed", () => {
    const rows = ratesToSave({ "GBP:2026-09:endfx": " 1.2755 ", "EUR:2026-10:avgfx": "1.0801", "EUR:2026-10:endfx": "1.09", "GBP:2026-10:avgfx": "" }, saved);
    expect(rows).toEqual([
      { currency: "EUR", month: "2026-10", avgfx: "1.0801", endfx: "1.09" },
      { currency: "GBP", month: "2026-09", avgfx: "1.27", endfx: "1.2755" },
      { currency: "GBP", month: "2026-10", avgfx: "", endfx: "1.281" },
    ]);
  });
});

describe("the server's refusal, mapped back onto the cells", () => {
  const sent = [
    { currency: "EUR", month: "2026-10", avgfx: "1", endfx: "x" },
    { currency: "GBP", month: "2026-09", avgfx: "1", endfx: "1" },
  ];
  it("puts a rate's message on its cell, a row's or currency's on both cells of the row, and keeps the rest as text", () => {
    const out = serverCellErrors(
      { "rates.0.endfx": RATE_MESSAGE, "rates.1.currency": "GBP is not the currency of any active subsidiary (EUR).", "rates.7.avgfx": "lost", body: "odd" },
      sent,
    );
    expect(out.cells).toEqual({
      "EUR:2026-10:endfx": RATE_MESSAGE,
      "GBP:2026-09:avgfx": "GBP is not the currency of any active subsidiary (EUR).",
      "GBP:2026-09:endfx": "GBP is not the currency of any active subsidiary (EUR).",
    });
    expect(out.other).toEqual(["GBP 2026-09: GBP is not the currency of any active subsidiary (EUR).", "lost", "odd"]);
  });
});

describe("missing rates", () => {
  const valueOf = (ref: CellRef) => saved.get(cellKey(ref)) ?? "";
  it("counts months with any empty rate and the empty cells, never reading empty as zero", () => {
    const summary = missingRates(grid.currencies, grid.months, valueOf);
    expect(summary).toEqual({ months: ["2026-09", "2026-10"], cells: 3 });
    expect(missingText(summary)).toBe("2 months miss a rate (3 empty cells).");
    expect(missingText({ months: ["2026-10"], cells: 1 })).toBe("1 month misses a rate (1 empty cell).");
    expect(missingText({ months: [], cells: 0 })).toBe("Every month shown has all its rates.");
  });
});

describe("month ranges", () => {
  it("defaults to the last 24 months up to the current one", () => {
    expect(defaultRange(new Date(2026, 10, 21))).toEqual({ from: "2024-12", to: "2026-11" });
    expect(defaultRange(new Date(2026, 0, 1))).toEqual({ from: "2024-02", to: "2026-01" });
  });

  it("says what is wrong with a range before the server is asked", () => {
    expect(rangeProblem({ from: "2026-01", to: "2026-01" })).toBeNull();
    expect(rangeProblem({ from: "2026-02", to: "2026-01" })).toBe("The range must run forward: Feb 2026 is after Jan 2026.");
    expect(rangeProblem({ from: "2016-01", to: "2025-12" })).toBeNull();
    expect(rangeProblem({ from: "2016-01", to: "2026-01" })).toBe("Choose at most 120 months at once.");
  });

  it("names months without a time-zone shift", () => {
    expect(monthLabel("2026-01", "en-US")).toBe("Jan 2026");
    expect(monthLabel("2026-12", "en-US")).toBe("Dec 2026");
  });
});

describe("pasting from a spreadsheet", () => {
  it("splits rows on new lines and cells on tabs, ignoring the last line break", () => {
    expect(parsePastedBlock("1.27\t1.28\r\n1.26\t 1.27 \r\n")).toEqual([
      ["1.27", "1.28"],
      ["1.26", "1.27"],
    ]);
  });
});

describe("warnings about a rate that looks wrong", () => {
  it("says when a rate looks inverted or far off, and nothing for a normal move", () => {
    expect(rateWarning("0.7806", "1.281", "GBP", "USD")).toBe("Looks inverted: nearby months are about 1.281 USD per GBP. Enter USD for 1 GBP.");
    expect(rateWarning("12.81", "1.281", "GBP", "USD")).toBe("Far from nearby months (about 1.281); check it.");
    expect(rateWarning("1.30", "1.281", "GBP", "USD")).toBeNull();
    expect(rateWarning("abc", "1.281", "GBP", "USD")).toBeNull();
    expect(rateWarning("1.3", null, "GBP", "USD")).toBeNull();
  });

  it("takes the nearest month with a saved rate of the same currency and kind as the reference", () => {
    expect(nearestRate(saved, { currency: "GBP", month: "2026-09", field: "endfx" }, grid.months)).toBe("1.281");
    expect(nearestRate(saved, { currency: "EUR", month: "2026-10", field: "avgfx" }, grid.months)).toBe("1.08");
    expect(nearestRate(saved, { currency: "CAD", month: "2026-10", field: "avgfx" }, grid.months)).toBeNull();
  });
});

describe("result messages", () => {
  it("says what an import and a fetch did", () => {
    expect(importedResultText({ updated: 3, unchanged: 1 })).toBe("Imported 4 rows: 3 changed, 1 already had these rates.");
    expect(importedResultText({ updated: 0, unchanged: 2 })).toBe("Imported 2 rows: nothing changed, every rate was already there.");
    expect(fetchedResultText({ updated: 46, unchanged: 0, months: 23, currencies: ["EUR", "GBP"] }, 24)).toBe(
      "Fetched EUR, GBP for 23 of 24 months: 46 rows filled or updated, 0 unchanged.",
    );
    expect(fetchedResultText({ updated: 0, unchanged: 0, months: 0, currencies: ["EUR"] }, 1)).toBe(
      "The rates service has no rates for these months yet, so nothing was filled.",
    );
  });
});

describe("the change history", () => {
  it("lists each changed rate with who, when, old and new, skipping other events and odd entries", () => {
    const entries = [
      {
        id: 9,
        action: "fx.rates_changed",
        userEmail: "controller@northwind.example",
        createdAt: "2026-11-20T10:00:00.000Z",
        details: { changes: [{ currency: "GBP", month: "2026-10", avgfx: { old: "1.2745", new: "" }, endfx: { old: "1.281", new: "1.281" } }] },
      },
      { id: 8, action: "session.login", userEmail: "x@y", createdAt: "2026-11-20T09:00:00.000Z", details: {} },
      { id: 7, action: "fx.rates_changed", userEmail: null, createdAt: "2026-11-19T09:00:00.000Z", details: { changes: "truncated" } },
    ];
    expect(rateChanges(entries)).toEqual([
      {
        id: "9:0",
        at: "2026-11-20T10:00:00.000Z",
        who: "controller@northwind.example",
        currency: "GBP",
        month: "2026-10",
        avgfx: { old: "1.2745", new: "" },
        endfx: null,
      },
    ]);
  });
});
