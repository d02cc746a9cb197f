import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chartMappingProblem, isCompanyMapped, nameSimilarity, qboEquityKind, suggestMappings, type ChartAccount } from "./mapping-rules.ts";

const account = (id: string, name: string, classification: string, accountType: string, accountSubType: string | null = null, extra: Partial<ChartAccount> = {}): ChartAccount => ({
  id,
  name,
  acctNum: null,
  classification,
  accountType,
  accountSubType,
  active: true,
  ...extra,
});

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

describe("nameSimilarity", () => {
  it("scores spelling variants high and unrelated names low", () => {
    expect(nameSimilarity("Accounts Receivable", "Accounts receivable (A/R)")).toBeGreaterThan(0.8);
    expect(nameSimilarity("Rent expense", "Rent")).toBeGreaterThan(0.4);
    expect(nameSimilarity("Rent expense", "Sales")).toBeLessThan(0.2);
    expect(nameSimilarity("Büromaterial", "Buromaterial")).toBe(1);
    expect(nameSimilarity("", "Sales")).toBe(0);
  });

  it("is symmetric and within 0..1", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const s = nameSimilarity(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(nameSimilarity(b, a)).toBeCloseTo(s, 12);
      }),
    );
  });
});

describe("suggestMappings", () => {
  it("ranks the obvious parent account first and explains why", () => {
    const sub = [
      account("s1", "Barclays Current Account", "Asset", "Bank", "Checking"),
      account("s2", "Trade debtors", "Asset", "Accounts Receivable", "AccountsReceivable"),
      account("s3", "Office rent", "Expense", "Expense", "RentOrLeaseOfBuildings"),
      account("s4", "Sales - UK", "Revenue", "Income", "SalesOfProductIncome", { acctNum: "4000" }),
    ];
    const suggestions = suggestMappings(sub, parentChart);
    expect(suggestions.get("s1")![0]).toMatchObject({ parentId: "1", reasons: expect.arrayContaining(["same type (Bank)", "same subtype (Checking)"]) });
    expect(suggestions.get("s2")![0]!.parentId).toBe("2");
    expect(suggestions.get("s3")![0]!.parentId).toBe("3");
    expect(suggestions.get("s4")![0]).toMatchObject({ parentId: "4", reasons: expect.arrayContaining(["same number (4000)"]) });
  });

  it("never proposes an incompatible or inactive account, for any chart", () => {
    const classification = fc.constantFrom("Asset", "Liability", "Equity", "Revenue", "Expense");
    const chart = fc.array(
      fc.record({
        id: fc.uuid(),
        name: fc.string({ maxLength: 20 }),
        acctNum: fc.option(fc.constantFrom("1000", "2000", "4000"), { nil: null }),
        classification,
        accountType: fc.constantFrom("Bank", "Expense", "Income", "Equity", "Other Current Asset"),
        accountSubType: fc.option(fc.constantFrom("Checking", "CommonStock", "RetainedEarnings", "PartnerDistributions"), { nil: null }),
        active: fc.boolean(),
      }),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(chart, chart, (subs, parents) => {
        const byId = new Map(parents.map((p) => [p.id, p]));
        for (const [subId, list] of suggestMappings(subs, parents)) {
          const sub = subs.find((s) => s.id === subId)!;
          expect(list.length).toBeLessThanOrEqual(3);
          for (const s of list) expect(chartMappingProblem(sub, byId.get(s.parentId)!)).toBeNull();
          for (let i = 1; i < list.length; i++) expect(list[i - 1]!.score).toBeGreaterThanOrEqual(list[i]!.score);
        }
      }),
    );
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
