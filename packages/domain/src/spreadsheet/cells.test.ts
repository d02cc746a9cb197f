import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { worksheetCsv } from "../consolidation/csv.ts";
import { csvNumber, neutraliseFormula, toCsv } from "./cells.ts";

const ATTACK = "-2+3+cmd|' /C calc'!A0";

describe("spreadsheet cells (OWASP CSV injection)", () => {
  it("puts an apostrophe before text a spreadsheet would read as a formula, and leaves other text alone", () => {
    expect(neutraliseFormula(ATTACK)).toBe(`'${ATTACK}`);
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(neutraliseFormula(`${start}SUM(A1)`)).toBe(`'${start}SUM(A1)`);
    for (const text of ["Cash", "1000", "", " =not at the start", "'quoted already", "Accounts receivable (A/R)"]) expect(neutraliseFormula(text)).toBe(text);
  });

  it("never lets a text cell start a formula, whatever the text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const safe = neutraliseFormula(text);
        expect(safe).not.toMatch(/^[=+\-@\t\r]/);
        expect(safe === text || safe === `'${text}`).toBe(true);
      }),
    );
  });

  it("writes numbers as numbers (negative ones stay negative) and refuses text posing as a number", () => {
    expect(toCsv([["Cash", csvNumber("-1234.56"), csvNumber("0.00"), csvNumber("42")]])).toBe("Cash,-1234.56,0.00,42\r\n");
    expect(() => csvNumber("-1+1")).toThrow(/not a decimal number/);
    expect(() => csvNumber("=1")).toThrow(/not a decimal number/);
  });

  it("quotes what CSV needs quoted after neutralising", () => {
    expect(toCsv([[ATTACK, 'say "hi", then', "=A1,B1", "line\nbreak"]])).toBe(`'${ATTACK},"say ""hi"", then","'=A1,B1","line\nbreak"\r\n`);
  });

  it("the worksheet CSV: account numbers when given, hostile names neutralised, amounts as signed decimals", () => {
    const worksheet = {
      columns: [
        { id: "p", label: "=Parent (USD)" },
        { id: "consolidated", label: "Consolidated" },
      ],
      rows: [
        { account: "1", name: ATTACK, classification: "Asset", role: "account" as const, amounts: [-150, -150] },
        { account: "2", name: "Loan", classification: "Liability", role: "account" as const, amounts: [150, 150] },
      ],
    };
    const numbers = new Map([["1", "1000"]]);
    expect(worksheetCsv({ worksheet, exponent: 2 }, { accountNumber: (id) => numbers.get(id) ?? "" })).toBe(
      ["Account,Name,Classification,'=Parent (USD),Consolidated", `1000,'${ATTACK},Asset,-1.50,-1.50`, ",Loan,Liability,1.50,1.50", "Total,,,0.00,0.00", ""].join("\r\n"),
    );
    // The engine's own callers (the CLI) see the ids of their input.
    expect(worksheetCsv({ worksheet, exponent: 2 }).split("\r\n")[2]).toBe("2,Loan,Liability,1.50,1.50");
  });
});
