import { describe, expect, it } from "vitest";
import { CATCH_ALL_DETAIL_TYPES, detailAgreement, isCatchAll, natureFromName, natureOf, plainName } from "./detail-types.ts";

const acct = (name: string, accountSubType: string | null) => ({ name, accountSubType });

describe("catch-all detail types", () => {
  it("are the 'Other …' types and a missing detail type; specific types are not", () => {
    for (const t of CATCH_ALL_DETAIL_TYPES) expect(isCatchAll(t), t).toBe(true);
    expect(isCatchAll(null)).toBe(true);
    for (const t of ["Checking", "PayrollTaxPayable", "SalesTaxPayable", "OtherCostsOfServiceCos", "Inventory", "CommonStock"]) expect(isCatchAll(t), t).toBe(false);
  });

  it("an account of a catch-all type is known by its name only; a specific type is known by the type whatever the name", () => {
    expect(natureOf(acct("Corporation Tax", "OtherCurrentLiabilities"))).toBe("incomeTax");
    expect(natureOf(acct("Amounts Owed to Someone", "OtherCurrentLiabilities"))).toBeNull();
    // The detail type wins over a misleading name.
    expect(natureOf(acct("Income tax withheld", "PayrollTaxPayable"))).toBe("payroll");
    expect(natureOf(acct("Anything", "Vehicles"))).toBe("Vehicles");
    expect(natureOf(acct("Corporation Tax", null))).toBe("incomeTax");
  });
});

describe("plainName", () => {
  it("drops case, accents and punctuation", () => {
    expect(plainName("Steuerrückstellungen")).toBe("steuerruckstellungen");
    expect(plainName("401(k) Payable")).toBe("401 k payable");
    expect(plainName("  GST/HST  Payable ")).toBe("gst hst payable");
  });
});

/** Detail types QuickBooks keeps apart that are one kind, and the kind each group is. */
const KINDS: readonly (readonly [string, readonly string[]])[] = [
  ["savings", ["Savings", "MoneyMarket"]],
  ["salesTax", ["SalesTaxPayable", "GlobalTaxPayable"]],
  ["incomeTax", ["FederalIncomeTaxPayable", "StateLocalIncomeTaxPayable", "IncomeTaxPayable"]],
  ["payroll", ["PayrollTaxPayable", "PayrollClearing"]],
  ["debt", ["NotesPayable", "LoanPayable"]],
  ["relatedParty", ["ShareholderNotesPayable"]],
  ["shareCapital", ["CommonStock", "PartnerContributions"]],
  ["distributions", ["DividendDisbursed", "PartnerDistributions"]],
  ["meals", ["TravelMeals", "EntertainmentMeals"]],
];

describe("kinds of detail types", () => {
  it.each(KINDS)("%s: its detail types share the kind", (kind, types) => {
    for (const t of types) expect(natureOf(acct("x", t)), t).toBe(kind);
  });

  it("any other specific detail type is its own kind", () => {
    for (const t of ["Checking", "CashOnHand", "Entertainment", "LineOfCredit", "PaidInCapitalOrSurplus", "RetainedEarnings", "Utilities"]) expect(natureOf(acct("x", t))).toBe(t);
  });
});

/** Names a catch-all account may have, by the nature they reveal (null: none). English, German, French and Canadian terms. */
const NAMES: readonly (readonly [string | null, readonly string[]])[] = [
  ["relatedParty", ["Directors Loan Account", "Shareholder loan", "Loan from officer", "Gesellschafterdarlehen"]],
  ["retirement", ["401(k) Payable", "401k payable", "Pension Contributions Payable", "Superannuation payable", "RRSP withheld"]],
  ["payroll", ["PAYE and NI Payable", "Wages payable", "Source Deductions Payable", "WSIB Payable", "Vacation Pay Payable", "Verbindlichkeiten im Rahmen der sozialen Sicherheit", "Lohnverrechnung"]],
  ["incomeTax", ["Corporation Tax", "Corporate Income Tax Payable", "State Income Tax Payable", "Income Tax Expense", "Current Income Taxes", "State Franchise and Income Tax", "Körperschaftsteuer", "Gewerbesteuer", "Steuerrückstellungen", "Impôts sur le revenu"]],
  ["salesTax", ["VAT Control", "GST/HST Payable", "PST Payable", "Sales Tax Payable", "Umsatzsteuer 19 %", "Abziehbare Vorsteuer", "TVA collectée"]],
  ["accrued", ["Accruals", "Accrued Liabilities", "Accrued Expenses", "Sonstige Rückstellungen", "Provision for warranties"]],
  ["debt", ["Current Portion of Long-term Debt", "Bank loan", "Hire Purchase Creditor", "Darlehen Sparkasse", "Equipment financing", "Notes payable"]],
  ["freight", ["Freight Income", "Freight Recovered", "Shipping charged"]],
  ["fx", ["Erträge aus Kursdifferenzen", "Foreign currency gains", "Exchange gain"]],
  ["gainOnDisposal", ["Gain on Sale of Assets", "Gain on Disposal of Assets", "Loss on disposal", "Anlagenabgang"]],
  [null, ["Amounts Owed to Northwind Deutschland", "Sundry Income", "Other Income", "Gift Card Clearing", "Gift Cards Outstanding", "Staff Welfare", "Sonstige betriebliche Erträge", "Intercompany Receivable - Northwind UK"]],
];

describe("natures a catch-all account's name reveals", () => {
  it.each(NAMES)("%s", (nature, names) => {
    for (const n of names) expect(natureFromName(n), n).toBe(nature);
  });

  it("a tax is never a payroll liability or a provision, and payroll withholding is payroll, not income tax", () => {
    expect(natureFromName("Steuerrückstellungen")).toBe("incomeTax");
    expect(natureFromName("PAYE income tax payable")).toBe("payroll");
    expect(natureFromName("Corporate Income Tax Payable")).not.toBe("retirement");
    expect(natureFromName("GST/HST Payable")).not.toBe("payroll");
  });
});

describe("detailAgreement", () => {
  // One account per nature, twice: by a specific detail type where QuickBooks has one, and as a
  // catch-all account named for it. Every pair is checked against the natures they were built with.
  const specimens: { name: string; accountSubType: string | null; nature: string | null }[] = [
    { name: "Savings", accountSubType: "Savings", nature: "savings" },
    { name: "Money Market", accountSubType: "MoneyMarket", nature: "savings" },
    { name: "Checking", accountSubType: "Checking", nature: "Checking" },
    { name: "Sales Tax Payable", accountSubType: "SalesTaxPayable", nature: "salesTax" },
    { name: "VAT Control", accountSubType: "OtherCurrentLiabilities", nature: "salesTax" },
    { name: "GST/HST Payable", accountSubType: "GlobalTaxPayable", nature: "salesTax" },
    { name: "Income Tax Payable", accountSubType: "FederalIncomeTaxPayable", nature: "incomeTax" },
    { name: "Corporate Income Tax Payable", accountSubType: "OtherCurrentLiabilities", nature: "incomeTax" },
    { name: "Payroll Liabilities", accountSubType: "PayrollTaxPayable", nature: "payroll" },
    { name: "WSIB Payable", accountSubType: "OtherCurrentLiabilities", nature: "payroll" },
    { name: "401(k) Payable", accountSubType: "OtherCurrentLiabilities", nature: "retirement" },
    { name: "Pension Contributions Payable", accountSubType: "OtherCurrentLiabilities", nature: "retirement" },
    { name: "Accrued Liabilities", accountSubType: "OtherCurrentLiabilities", nature: "accrued" },
    { name: "Term Loan", accountSubType: "NotesPayable", nature: "debt" },
    { name: "Current Portion of Long-term Debt", accountSubType: "OtherCurrentLiabilities", nature: "debt" },
    { name: "Directors Loan Account", accountSubType: "OtherCurrentLiabilities", nature: "relatedParty" },
    { name: "Notes Payable - Shareholder", accountSubType: "ShareholderNotesPayable", nature: "relatedParty" },
    { name: "Gift Cards Outstanding", accountSubType: "OtherCurrentLiabilities", nature: null },
    { name: "Amounts Owed to Someone", accountSubType: "OtherCurrentLiabilities", nature: null },
  ];

  it("is 'same' for the same specific detail type, 'kind' for the same nature, 'none' otherwise — for every pair", () => {
    for (const s of specimens) {
      for (const p of specimens) {
        const sameSpecific = s.accountSubType === p.accountSubType && !isCatchAll(s.accountSubType);
        const expected = sameSpecific ? "same" : s.nature !== null && s.nature === p.nature ? "kind" : "none";
        // Similarity 0: names alone never make two accounts alike here.
        expect(detailAgreement(s, p, 0), `${s.name} → ${p.name}`).toBe(expected);
      }
    }
  });

  it("tax payables never agree with payroll or retirement liabilities (issue #18)", () => {
    const taxes = specimens.filter((s) => s.nature === "salesTax" || s.nature === "incomeTax");
    const payroll = specimens.filter((s) => s.nature === "payroll" || s.nature === "retirement");
    for (const t of taxes) for (const p of payroll) expect(detailAgreement(t, p, 1), `${t.name} → ${p.name}`).toBe("none");
  });

  it("two catch-all accounts whose names reveal nothing agree only by a near-identical name and the same detail type", () => {
    const giftCards = acct("Gift Cards Outstanding", "OtherCurrentLiabilities");
    expect(detailAgreement(giftCards, acct("Gift Card Liability", "OtherCurrentLiabilities"), 0.6)).toBe("name");
    expect(detailAgreement(giftCards, acct("Gift Card Liability", "OtherCurrentLiabilities"), 0.59)).toBe("none");
    expect(detailAgreement(giftCards, acct("Gift Card Liability", "OtherLongTermLiabilities"), 0.9)).toBe("none");
    // A name that reveals a nature is not "the same" as one that does not, however similar.
    expect(detailAgreement(giftCards, acct("Gift Cards Outstanding (accrued)", "OtherCurrentLiabilities"), 0.9)).toBe("none");
  });

  it("a same catch-all detail type alone is no agreement", () => {
    expect(detailAgreement(acct("Amounts Owed to Someone", "OtherCurrentLiabilities"), acct("401(k) Payable", "OtherCurrentLiabilities"), 0.2)).toBe("none");
    expect(detailAgreement(acct("Sundry Income", "OtherMiscellaneousIncome"), acct("Gain on Sale of Assets", "OtherMiscellaneousIncome"), 0.3)).toBe("none");
  });
});
