import { describe, expect, it } from "vitest";
import { chartAccount } from "../../test/chart.ts";
import { chartMappingProblem, isCompanyMapped, qboEquityKind } from "./mapping-rules.ts";

const account = chartAccount;

const parentChart = [
  account("1", "Checking", "Asset", "Bank", "Checking", { acctNum: "1000" }),
  account("2", "Accounts Receivable (A/R)", "Asset", "Accounts Receivable", "AccountsReceivable", { acctNum: "1100" }),
  account("3", "Rent Expense", "Expense", "Expense", "RentOrLeaseOfBuildings", { acctNum: "6100" }),
  account("4", "Sales", "Revenue", "Income", "SalesOfProductIncome", { acctNum: "4000" }),
  account("5", "Common Stock", "Equity", "Equity", "CommonStock"),
  account("6", "Retained Earnings", "Equity", "Equity", "RetainedEarnings"),
  account("7", "Old Bank", "Asset", "Bank", "Checking", { active: false }),
  account("8", "Accounts Payable (A/P)", "Liability", "Accounts Payable", "AccountsPayable"),
];

describe("chartMappingProblem", () => {
  it("allows same classification and refuses a different one with words an accountant can act on", () => {
    const cash = account("s1", "Barclays Current Account", "Asset", "Bank", "Checking", { acctNum: "1200" });
    expect(chartMappingProblem(cash, parentChart[0]!)).toBeNull();
    expect(chartMappingProblem(cash, parentChart[2]!)).toBe(
      'A subsidiary asset account 1200 "Barclays Current Account" cannot map to the parent\'s expense account 6100 "Rent Expense": an Asset must map to an Asset.',
    );
    const payable = account("s2", "Trade creditors", "Liability", "Accounts Payable", "AccountsPayable");
    expect(chartMappingProblem(payable, parentChart[1]!)).toMatch(/: a Liability must map to a Liability\.$/);
  });

  it("refuses inactive parent accounts", () => {
    const cash = account("s1", "Cash", "Asset", "Bank", "Checking");
    expect(chartMappingProblem(cash, parentChart[6]!)).toBe('The parent\'s asset account "Old Bank" is inactive in QuickBooks; choose an active account.');
  });

  it("keeps equity's nature: contributed to contributed, retained earnings and dividends together", () => {
    const shareCapital = account("s5", "Share capital", "Equity", "Equity", "CommonStock");
    const premium = account("s6", "Share premium", "Equity", "Equity", "PaidInCapitalOrSurplus");
    const dividends = account("s7", "Dividends paid", "Equity", "Equity", "PartnerDistributions");
    const reserve = account("s8", "Translation reserve", "Equity", "Equity", "AccumulatedAdjustment");
    expect(chartMappingProblem(shareCapital, parentChart[4]!)).toBeNull();
    expect(chartMappingProblem(premium, parentChart[4]!)).toBeNull();
    expect(chartMappingProblem(dividends, parentChart[5]!)).toBeNull();
    expect(chartMappingProblem(shareCapital, parentChart[5]!)).toBe(
      'Equity keeps its nature: contributed capital ("Share capital") cannot map to retained earnings ("Retained Earnings").',
    );
    expect(chartMappingProblem(reserve, parentChart[5]!)).toMatch(/other equity \("Translation reserve"\)/);
  });

  it("maps QBO equity subtypes to the engine's kinds", () => {
    expect(qboEquityKind("CommonStock")).toBe("contributedCapital");
    expect(qboEquityKind("RetainedEarnings")).toBe("retainedEarnings");
    expect(qboEquityKind("PartnerDistributions")).toBe("dividends");
    expect(qboEquityKind("DividendDisbursed")).toBe("dividends");
    expect(qboEquityKind("AccumulatedAdjustment")).toBe("other");
    expect(qboEquityKind(null)).toBe("other");
  });
});

describe("isCompanyMapped (SPEC §4)", () => {
  const accounts = ["1", "2", "3", "4"];
  it("counts a company mapped when every account with a balance is mapped, tolerating one extra map", () => {
    expect(isCompanyMapped(accounts, ["1", "2", "3", "4"], [])).toBe(true);
    expect(isCompanyMapped(accounts, ["1", "2", "3"], [])).toBe(false);
    expect(isCompanyMapped(accounts, ["1", "2", "3"], ["4"])).toBe(true);
    expect(isCompanyMapped(accounts, ["1", "2", "3", "4", "gone"], [])).toBe(true);
    expect(isCompanyMapped(accounts, ["1", "2", "3", "4", "gone", "gone2"], [])).toBe(false);
    expect(isCompanyMapped([], [], [])).toBe(true);
  });
});
