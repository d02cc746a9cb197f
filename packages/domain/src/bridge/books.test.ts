import { describe, expect, it } from "vitest";
import { chartAccount } from "../../test/chart.ts";
import { monthList } from "../periods/month.ts";
import { accountsWithAmounts, engineBooks, equityKindOf, isNonMonetary, retainedEarningsAccountOf } from "./books.ts";
import { accountLabel } from "./problems.ts";

const acct = chartAccount;

// A company whose fiscal year starts in April, as QBO reports it: balance-sheet closings, P&L
// activity, and Retained Earnings without the current fiscal year's profit.
const chart = [
  acct("bank", "Bank", "Asset", "Bank", "Checking"),
  acct("cap", "Share capital", "Equity", "Equity", "CommonStock"),
  acct("re", "Retained earnings", "Equity", "Equity", "RetainedEarnings"),
  acct("div", "Dividends", "Equity", "Equity", "DividendDisbursed"),
  acct("sales", "Sales", "Revenue", "Income", "SalesOfProductIncome"),
  acct("costs", "Costs", "Expense", "Expense", "OtherMiscellaneousServiceCost"),
];
const company = { realmId: "r1", companyName: "Sub Ltd", homeCurrency: "GBP", fiscalYearStartMonth: 4 };

/** amounts[account][month] as QBO gives them (debit positive). */
function booksOf(amounts: Record<string, Record<string, number>>, opening: string, to: string, firstSyncedMonth?: string) {
  return engineBooks({ company, chart, opening, to, amount: (a, m) => amounts[a]?.[m] ?? 0, checkThrough: to, firstSyncedMonth });
}

describe("engineBooks: QBO's books as the engine takes them", () => {
  // Capital 1,000 paid in; profit 100 a month from February; a 150 dividend declared in May.
  const qbo = {
    bank: { "2025-02": 1_100_00, "2025-03": 1_200_00, "2025-04": 1_300_00, "2025-05": 1_250_00 },
    cap: { "2025-02": -1_000_00, "2025-03": -1_000_00, "2025-04": -1_000_00, "2025-05": -1_000_00 },
    // Retained earnings hold last fiscal year's profit only once the year is over (from April).
    re: { "2025-04": -200_00, "2025-05": -200_00 },
    div: { "2025-05": 150_00 },
    sales: { "2025-02": -100_00, "2025-03": -100_00, "2025-04": -100_00, "2025-05": -100_00 },
  };

  it("adds the fiscal year's profit to date to retained earnings, so every month balances", () => {
    const books = booksOf(qbo, "2025-02", "2025-05");
    expect(books.months).toEqual(["2025-02", "2025-03", "2025-04", "2025-05"]);
    // February: January had no activity, so fiscal-year-to-date (April 2024 on) is February's 100.
    expect(books.series.get("re")).toEqual([-100_00, -200_00, -300_00, -400_00]);
    expect(books.retainedEarningsAccount).toBe("re");
    expect(books.problems).toEqual([]);
    books.months.forEach((_, t) => {
      const balance = ["bank", "cap", "re", "div"].reduce((s, a) => s + books.series.get(a)![t]!, 0);
      expect(balance, books.months[t]).toBe(0);
    });
  });

  it("reads a dividend from a debit movement of the dividends account", () => {
    expect(booksOf(qbo, "2025-02", "2025-05").dividends).toEqual([{ month: "2025-05", amount: 150_00 }]);
  });

  it("a year-end transfer of dividends into retained earnings is not a dividend", () => {
    const transferred = { ...qbo, div: { "2025-05": 150_00 }, re: { ...qbo.re } };
    // June: the 150 of dividends closed into retained earnings; nothing else moves.
    const withJune = {
      ...transferred,
      bank: { ...qbo.bank, "2025-06": 1_250_00 },
      cap: { ...qbo.cap, "2025-06": -1_000_00 },
      re: { ...qbo.re, "2025-06": -50_00 },
      div: { "2025-05": 150_00, "2025-06": 0 },
      sales: { ...qbo.sales, "2025-06": 0 },
    };
    const books = booksOf(withJune, "2025-02", "2025-06");
    expect(books.dividends).toEqual([{ month: "2025-05", amount: 150_00 }]);
    expect(books.problems).toEqual([]);
  });

  it("names a month whose books do not balance, and one where retained earnings move beyond profit and dividends", () => {
    const unbalanced = booksOf({ ...qbo, bank: { ...qbo.bank, "2025-03": 1_199_00 } }, "2025-02", "2025-05");
    expect(unbalanced.problems.map((p) => [p.code, p.month])).toEqual([["books_do_not_balance", "2025-03"]]);
    expect(unbalanced.problems[0]!.message).toContain("debits exceed credits by -1.00 GBP");

    const posted = booksOf({ ...qbo, re: { ...qbo.re, "2025-05": -250_00 }, bank: { ...qbo.bank, "2025-05": 1_300_00 } }, "2025-02", "2025-05");
    expect(posted.problems.map((p) => [p.code, p.month])).toEqual([["retained_earnings_unexplained", "2025-05"]]);
    expect(posted.problems[0]!.message).toMatch(/an entry posted straight to Retained Earnings/);
  });

  it("says where the books start when the opening balances move retained earnings in the first synced month", () => {
    const opened = booksOf({ ...qbo, re: { "2025-03": -500_00 }, bank: { ...qbo.bank, "2025-03": 1_700_00 } }, "2025-02", "2025-03", "2025-03");
    expect(opened.problems[0]).toMatchObject({ code: "retained_earnings_unexplained", month: "2025-03" });
    expect(opened.problems[0]!.message).toMatch(/that is where its books start in QuickBooks \(opening balances\)\. Open the consolidation in 2025-03 or later/);
  });

  it("names three months of one kind and counts the rest", () => {
    const bad: Record<string, number> = {};
    for (const m of monthList("2025-02", "2025-07")) bad[m] = 999_00;
    const books = booksOf({ ...qbo, bank: bad }, "2025-02", "2025-07");
    expect(books.problems.filter((p) => p.month).map((p) => p.month)).toEqual(["2025-02", "2025-03", "2025-04"]);
    expect(books.problems.at(-1)!.message).toBe("Sub Ltd: the same problem in 3 more month(s).");
  });

  it("a company without a Retained Earnings account is a problem, not a guess", () => {
    const books = engineBooks({ company, chart: chart.filter((a) => a.id !== "re"), opening: "2025-02", to: "2025-02", amount: () => 0, checkThrough: "2025-02", firstSyncedMonth: undefined });
    expect(books.problems.map((p) => p.code)).toEqual(["no_retained_earnings_account"]);
  });

  it("lists the accounts with amounts in the months consolidated", () => {
    const books = booksOf(qbo, "2025-02", "2025-05");
    expect(accountsWithAmounts(chart, books, "2025-05").map((a) => a.id)).toEqual(["bank", "cap", "re", "div", "sales"]);
  });
});

describe("the bridge's small rules", () => {
  it("equity kinds, the retained earnings account and monetary items", () => {
    expect(equityKindOf(chart[1]!)).toBe("contributedCapital");
    expect(equityKindOf(chart[3]!)).toBe("dividends");
    expect(equityKindOf(chart[0]!)).toBeUndefined();
    expect(retainedEarningsAccountOf(chart)?.id).toBe("re");
    expect(isNonMonetary(acct("i", "Stock", "Asset", "Other Current Asset", "Inventory"))).toBe(true);
    expect(isNonMonetary(acct("f", "Plant", "Asset", "Fixed Asset", "MachineryAndEquipment"))).toBe(true);
    expect(isNonMonetary(chart[0]!)).toBe(false);
    expect(isNonMonetary(acct("l", "Loan", "Liability", "Long Term Liability", "NotesPayable"))).toBe(false);
    expect(isNonMonetary(chart[1]!)).toBe(false);
  });

  it("account labels", () => {
    expect(accountLabel({ acctNum: "1710", name: "Investment" })).toBe('1710 "Investment"');
    expect(accountLabel({ acctNum: null, name: "Investment" })).toBe('"Investment"');
  });
});
