import { describe, expect, it } from "vitest";
import { budgetAmountMinor, budgetTemplateRows, isFormulaLike, readBudgetRows, type BudgetChartAccount } from "./budget-csv.ts";

const chart: BudgetChartAccount[] = [
  { id: "10", name: "Sales - Products", acctNum: "4000", classification: "Revenue" },
  { id: "11", name: "Rent", acctNum: "7100", classification: "Expense" },
  { id: "12", name: "Bank", acctNum: "1200", classification: "Asset" },
  { id: "13", name: "Sundry", acctNum: null, classification: "Expense" },
  { id: "14", name: "Sundry", acctNum: "7990", classification: "Expense" },
  { id: "15", name: "Postage", acctNum: null, classification: "Expense" },
];
const header = ["account", "month", "amount"];
const read = (...rows: string[][]) => readBudgetRows([header, ...rows], chart, 2, "Northwind UK");

describe("budget CSV rows", () => {
  it("matches accounts by number, else by the one account of that name (any case), amounts exact in minor units", () => {
    expect(read(["4000", "2026-01", "1250.5"], ["postage", "2026-02", "-3"], ["7990", "2026-01", "0"])).toEqual({
      rows: [
        { line: 2, account: "10", month: "2026-01", amount: 125_050 },
        { line: 3, account: "15", month: "2026-02", amount: -300 },
        { line: 4, account: "14", month: "2026-01", amount: 0 },
      ],
      errors: [],
    });
  });

  it("names every bad line and keeps none of the good ones", () => {
    const { rows, errors } = read(
      ["4000", "2026-01", "100"],
      ["9999", "2026-01", "100"],
      ["Bank", "2026-01", "100"],
      ["Sundry", "2026-01", "100"],
      ["7100", "2026-13", "100"],
      ["7100", "2026-01", "1,000"],
      ["7100", "2026-01", "1.005"],
      ["4000", "2026-01", "5"],
      ["7100", "2026-01"],
      ["", "2026-01", "1"],
    );
    expect(rows).toEqual([]);
    expect(errors).toEqual([
      { line: 3, message: 'Line 3: "9999" is not an account of Northwind UK (by number or name).' },
      { line: 4, message: "Line 4: Bank is a asset account; a budget is for income and expense accounts." },
      { line: 5, message: 'Line 5: Northwind UK has 2 accounts named "Sundry"; write the account\'s number.' },
      { line: 6, message: 'Line 6: the month "2026-13" is not a month written YYYY-MM, e.g. 2026-03.' },
      { line: 7, message: 'Line 7: the amount "1,000" is not a plain number with at most 2 decimal place(s), e.g. 1250.00 (no currency signs or thousands separators).' },
      { line: 8, message: 'Line 8: the amount "1.005" is not a plain number with at most 2 decimal place(s), e.g. 1250.00 (no currency signs or thousands separators).' },
      { line: 9, message: "Line 9: Sales - Products for 2026-01 is already on line 2." },
      { line: 10, message: "Line 10: 2 values; expected 3 (account, month, amount)." },
      { line: 11, message: "Line 11: the account is empty; write the account's number or name." },
    ]);
  });

  it("refuses formula-like cells instead of reading them", () => {
    const { errors } = read(["=HYPERLINK(\"http://x\")", "2026-01", "1"], ["4000", "2026-01", "+100"], ["@SUM(A1)", "2026-01", "1"], ["4000", "2026-02", "-2+3"], ["-Rent", "2026-01", "1"], ["\tRent", "2026-03", "1"]);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(errors[0]!.message).toBe('Line 2: the account cell starts like a spreadsheet formula ("=HYPERLINK(\\"http://x"); write the plain value.');
    expect(errors[1]!.message).toMatch(/the amount cell starts like a spreadsheet formula/);
    expect(isFormulaLike("-12.5")).toBe(false);
    expect(isFormulaLike("-")).toBe(true);
  });

  it("needs the header and at least one line", () => {
    expect(readBudgetRows([["acct", "month", "amount"]], chart, 2, "X").errors[0]!.message).toBe("The first line must be the header account,month,amount.");
    expect(readBudgetRows([], chart, 2, "X").errors[0]!.line).toBe(1);
    expect(readBudgetRows([[" Account ", "MONTH", "amount"]], chart, 2, "X").errors[0]!.message).toBe("The file has a header but no budget lines.");
    expect(readBudgetRows([header, ...Array.from({ length: 20_001 }, () => ["4000", "2026-01", "1"])], chart, 2, "X").errors[0]!.message).toMatch(/At most 20,000 budget lines/);
  });

  it("amounts: plain decimals in the currency's places, exactly, or null", () => {
    expect(budgetAmountMinor("12", 0)).toBe(12);
    expect(budgetAmountMinor("12.0", 0)).toBe(12);
    expect(budgetAmountMinor("12.5", 0)).toBeNull();
    expect(budgetAmountMinor("0.1", 2)).toBe(10);
    expect(budgetAmountMinor("-0.01", 2)).toBe(-1);
    expect(budgetAmountMinor("1e3", 2)).toBeNull();
    expect(budgetAmountMinor(" 1", 2)).toBeNull();
    expect(budgetAmountMinor("9999999999999", 2)).toBe(999_999_999_999_900);
    expect(budgetAmountMinor("999999999999999", 2)).toBeNull(); // beyond exact integers: refused, never rounded
    expect(budgetAmountMinor("1234567890123456", 0)).toBeNull();
  });
});

describe("budget CSV template", () => {
  it("a line per active income and expense account (by number, else name) and month, amounts blank; reading it back with some filled keeps only those", () => {
    const rows = budgetTemplateRows([...chart.map((a) => ({ ...a, active: true })), { id: "16", name: "Old", acctNum: "7999", classification: "Expense", active: false }], ["2026-01", "2026-02"]);
    expect(rows[0]).toEqual(["account", "month", "amount"]);
    expect(rows.slice(1).map((r) => r.join(","))).toEqual([
      "4000,2026-01,", "4000,2026-02,",
      "Postage,2026-01,", "Postage,2026-02,",
      "Sundry,2026-01,", "Sundry,2026-02,",
      "7100,2026-01,", "7100,2026-02,",
      "7990,2026-01,", "7990,2026-02,",
    ]);
    // Two accounts named Sundry: the one without a number cannot be told apart by name, so filling its line is refused.
    const filled = rows.map((r, i) => (i === 1 ? [r[0]!, r[1]!, "900"] : i === 8 ? [r[0]!, r[1]!, "12.5"] : r));
    expect(readBudgetRows(filled, chart, 2, "X")).toEqual({ rows: [{ line: 2, account: "10", month: "2026-01", amount: 90_000 }, { line: 9, account: "11", month: "2026-02", amount: 1_250 }], errors: [] });
    expect(readBudgetRows(rows, chart, 2, "X").errors).toEqual([{ line: 2, message: "Every amount in the file is empty: there is no budget to import." }]);
  });
});
