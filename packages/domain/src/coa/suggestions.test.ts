import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chartAccount } from "../../test/chart.ts";
import { detailAgreement } from "./detail-types.ts";
import { groupNames, intercompanyOf } from "./intercompany.ts";
import { chartMappingProblem, type ChartAccount } from "./mapping-rules.ts";
import { nameSimilarity, SUGGESTION_CAUTIONS, suggestMappings } from "./suggestions.ts";

const account = chartAccount;

/** A parent chart shaped like the demo parent's liabilities and a few others. */
const parent = [
  account("bank1", "Operating Checking - Chase", "Asset", "Bank", "Checking"),
  account("bank2", "Payroll Checking - Chase", "Asset", "Bank", "Checking"),
  account("mm", "Money Market - Fidelity", "Asset", "Bank", "MoneyMarket"),
  account("icUK", "Intercompany Receivable - Northwind UK", "Asset", "Other Current Asset", "OtherCurrentAssets"),
  account("icLoanUK", "Intercompany Loan - Northwind UK", "Asset", "Other Asset", "OtherLongTermAssets"),
  account("invUK", "Investment in Northwind UK Ltd", "Asset", "Other Asset", "OtherLongTermAssets"),
  account("accrued", "Accrued Liabilities", "Liability", "Other Current Liability", "OtherCurrentLiabilities"),
  account("payroll", "Payroll Liabilities", "Liability", "Other Current Liability", "PayrollTaxPayable"),
  account("401k", "401(k) Payable", "Liability", "Other Current Liability", "OtherCurrentLiabilities"),
  account("salesTax", "Sales Tax Payable", "Liability", "Other Current Liability", "SalesTaxPayable"),
  account("incomeTax", "Income Tax Payable", "Liability", "Other Current Liability", "FederalIncomeTaxPayable"),
  account("cpltd", "Current Portion of Long-term Debt", "Liability", "Other Current Liability", "OtherCurrentLiabilities"),
  account("termLoan", "Term Loan - Chase", "Liability", "Long Term Liability", "NotesPayable"),
  account("rent", "Rent Expense", "Expense", "Expense", "RentOrLeaseOfBuildings"),
  account("legal", "Legal Fees", "Expense", "Expense", "LegalProfessionalFees"),
  account("audit", "Accounting and Audit Fees", "Expense", "Expense", "LegalProfessionalFees"),
  account("consulting", "Consulting Fees", "Expense", "Expense", "LegalProfessionalFees"),
  account("service", "Service Revenue", "Revenue", "Income", "ServiceFeeIncome"),
  account("mgmtIc", "Management Fee Income - Intercompany", "Revenue", "Income", "ServiceFeeIncome"),
  account("oldBank", "Old Bank", "Asset", "Bank", "Checking", { active: false }),
];

const canada = groupNames({ parent: "Northwind Holdings Inc.", self: "Northwind Canada Inc." }, parent);
const deutschland = groupNames({ parent: "Northwind Holdings Inc.", self: "Northwind Deutschland GmbH" }, parent);
const byId = new Map(parent.map((p) => [p.id, p]));

function best(sub: ChartAccount, group = canada, chart = parent) {
  const first = suggestMappings([sub], chart, { group }).get(sub.id)?.[0];
  if (!first) throw new Error(`no suggestion for ${sub.name}`);
  return { ...first, parentName: byId.get(first.parentId)?.name ?? first.parentId };
}

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

describe("suggestMappings: the cases of issue #18", () => {
  it("GST/HST Payable and Corporate Income Tax Payable go to Sales Tax Payable and Income Tax Payable, confidently, never to 401(k) Payable", () => {
    const gst = best(account("s1", "GST/HST Payable", "Liability", "Other Current Liability", "GlobalTaxPayable"));
    expect(gst).toMatchObject({ parentName: "Sales Tax Payable", confident: true, caution: null });
    expect(gst.reasons).toContain("same kind (sales tax)");
    const cit = best(account("s2", "Corporate Income Tax Payable", "Liability", "Other Current Liability", "OtherCurrentLiabilities"));
    expect(cit).toMatchObject({ parentName: "Income Tax Payable", confident: true });
    expect(cit.reasons).toContain("same kind (income tax)");
  });

  it("a payroll liability goes to the payroll liabilities, a pension payable to the retirement-plan payable", () => {
    expect(best(account("s1", "Source Deductions Payable", "Liability", "Other Current Liability", "PayrollTaxPayable"))).toMatchObject({ parentName: "Payroll Liabilities", confident: true });
    expect(best(account("s2", "Pension Contributions Payable", "Liability", "Other Current Liability", "OtherCurrentLiabilities"))).toMatchObject({ parentName: "401(k) Payable", confident: true });
  });

  it("Loan Payable – Northwind Holdings is intercompany: never a confident Term Loan – Chase when the parent has no intercompany liability", () => {
    const loan = best(account("s1", "Loan Payable - Northwind Holdings", "Liability", "Long Term Liability", "OtherLongTermLiabilities"));
    expect(loan).toMatchObject({ confident: false, caution: "Intercompany: no matching account in the parent" });
  });

  it("an account owed to a sister company known only from the parent's chart is intercompany too", () => {
    const uk = groupNames({ parent: "Northwind Holdings Inc.", self: "Northwind UK Ltd" }, [...parent, account("icDE", "Intercompany Receivable - Northwind Deutschland", "Asset", "Other Current Asset", "OtherCurrentAssets")]);
    expect(best(account("s1", "Amounts Owed to Northwind Deutschland", "Liability", "Other Current Liability", "OtherCurrentLiabilities"), uk)).toMatchObject({
      confident: false,
      caution: SUGGESTION_CAUTIONS.intercompanyNone,
    });
  });

  it("maps an intercompany account to the parent's intercompany account for the same counterparty, of the same account type", () => {
    const withPayables = [
      ...parent,
      account("dueCA", "Intercompany Payable - Northwind Canada", "Liability", "Other Current Liability", "OtherCurrentLiabilities"),
      account("loanCA", "Intercompany Loan Payable - Northwind Canada", "Liability", "Long Term Liability", "OtherLongTermLiabilities"),
      account("dueDE", "Intercompany Payable - Northwind Deutschland", "Liability", "Other Current Liability", "OtherCurrentLiabilities"),
    ];
    const group = groupNames({ parent: "Northwind Holdings Inc.", self: "Northwind Canada Inc." }, withPayables);
    expect(best(account("s1", "Loan Payable - Northwind Holdings", "Liability", "Long Term Liability", "OtherLongTermLiabilities"), group, withPayables)).toMatchObject({
      parentId: "loanCA",
      confident: true,
      reasons: expect.arrayContaining(["intercompany, same company"]),
    });
    expect(best(account("s2", "Due to Northwind Holdings", "Liability", "Other Current Liability", "OtherCurrentLiabilities"), group, withPayables)).toMatchObject({ parentId: "dueCA", confident: true });
    // Owed to a sister company: the parent's account for that sister.
    expect(best(account("s3", "Due to Northwind Deutschland", "Liability", "Other Current Liability", "OtherCurrentLiabilities"), group, withPayables)).toMatchObject({ parentId: "dueDE", confident: true });
    // The only intercompany account for the counterparty is of another account type: shown, not confident.
    const onlyLong = withPayables.filter((p) => p.id !== "dueCA");
    expect(best(account("s4", "Due to Northwind Holdings", "Liability", "Other Current Liability", "OtherCurrentLiabilities"), group, onlyLong)).toMatchObject({
      parentId: "loanCA",
      confident: false,
      caution: SUGGESTION_CAUTIONS.detailType,
    });
  });

  it("a receivable from a sister company goes to the parent's receivable from that sister, not its loan or investment", () => {
    expect(best(account("s1", "Forderungen gegen Northwind UK Ltd", "Asset", "Other Current Asset", "OtherCurrentAssets"), deutschland)).toMatchObject({ parentId: "icUK", confident: true });
  });

  it("a generic intercompany account matches only a generic one in the parent", () => {
    const generic = [...parent, account("icFees", "Intercompany Management Fees", "Expense", "Expense", "LegalProfessionalFees")];
    const group = groupNames({ parent: "Northwind Holdings Inc.", self: "Northwind UK Ltd" }, generic);
    expect(best(account("s1", "Management Charges - Group", "Expense", "Expense", "LegalProfessionalFees"), group, generic)).toMatchObject({ parentId: "icFees", confident: true });
    expect(best(account("s2", "Management Charges - Group", "Expense", "Expense", "LegalProfessionalFees"), group)).toMatchObject({ confident: false, caution: SUGGESTION_CAUTIONS.intercompanyNone });
  });

  it("a third-party account never lands on an intercompany one confidently", () => {
    expect(best(account("s1", "Installation Services", "Revenue", "Income", "ServiceFeeIncome"))).toMatchObject({ parentId: "service", confident: true });
    const onlyIc = parent.filter((p) => p.id !== "service");
    expect(best(account("s2", "Installation Services", "Revenue", "Income", "ServiceFeeIncome"), canada, onlyIc)).toMatchObject({
      parentId: "mgmtIc",
      confident: false,
      caution: SUGGESTION_CAUTIONS.parentIntercompany,
    });
  });
});

describe("suggestMappings: confidence", () => {
  it("a different detail type is shown but not confident", () => {
    expect(best(account("s1", "Equipment Hire", "Expense", "Expense", "EquipmentRental"))).toMatchObject({ parentId: "rent", confident: false, caution: "Low confidence: detail type differs" });
    // A catch-all account whose name says nothing: not even the same catch-all detail type is enough.
    expect(best(account("s2", "Gift Cards Outstanding", "Liability", "Other Current Liability", "OtherCurrentLiabilities"))).toMatchObject({
      confident: false,
      caution: SUGGESTION_CAUTIONS.detailType,
    });
  });

  it("several parent accounts of the same detail type: confident only when the name clearly picks one", () => {
    expect(best(account("s1", "Barclays Current Account", "Asset", "Bank", "Checking"))).toMatchObject({ confident: false, caution: "Low confidence: several parent accounts fit" });
    expect(best(account("s2", "Professional Fees", "Expense", "Expense", "LegalProfessionalFees"))).toMatchObject({ confident: false, caution: SUGGESTION_CAUTIONS.several });
    expect(best(account("s3", "Audit and Accountancy Fees", "Expense", "Expense", "LegalProfessionalFees"))).toMatchObject({ parentId: "audit", confident: true });
    expect(best(account("s4", "Legal Fees", "Expense", "Expense", "LegalProfessionalFees"))).toMatchObject({ parentId: "legal", confident: true });
  });

  it("the same detail type beats the same kind: a savings account onto the money market account, a term loan onto the term loan", () => {
    expect(best(account("s1", "Barclays Deposit Account", "Asset", "Bank", "Savings"))).toMatchObject({ parentId: "mm", confident: true, reasons: expect.arrayContaining(["same kind (savings)"]) });
    // "Current Portion of Long-term Debt" is a borrowing too, but of another detail type and account type.
    expect(best(account("s2", "BDC Term Loan", "Liability", "Long Term Liability", "NotesPayable"))).toMatchObject({ parentId: "termLoan", confident: true });
  });

  it("only the first suggestion can be confident or carry a caution", () => {
    const list = suggestMappings([account("s1", "GST/HST Payable", "Liability", "Other Current Liability", "GlobalTaxPayable")], parent, { group: canada }).get("s1")!;
    expect(list.length).toBeGreaterThan(1);
    for (const s of list.slice(1)) expect(s).toMatchObject({ confident: false, caution: null });
  });

  it("without the group's names nothing is taken for intercompany", () => {
    const loan = account("s1", "Loan Payable - Northwind Holdings", "Liability", "Long Term Liability", "OtherLongTermLiabilities");
    expect(suggestMappings([loan], parent).get("s1")?.[0]?.caution).not.toBe(SUGGESTION_CAUTIONS.intercompanyNone);
  });

  it("no compatible parent account: no suggestion", () => {
    expect(suggestMappings([account("s1", "Share capital", "Equity", "Equity", "CommonStock")], parent, { group: canada }).get("s1")).toEqual([]);
  });
});

describe("suggestMappings: sub-accounts, each mapped on its own", () => {
  const payroll = [
    account("wages", "Salaries and Wages", "Expense", "Expense", "PayrollExpenses"),
    account("payrollTax", "Payroll Taxes", "Expense", "Expense", "PayrollExpenses"),
    account("benefits", "Employee Benefits", "Expense", "Expense", "PayrollExpenses"),
    account("bonus", "Bonuses", "Expense", "Expense", "PayrollExpenses"),
    account("computers", "Computer Equipment", "Asset", "Fixed Asset", "MachineryAndEquipment"),
    account("warehouse", "Warehouse Equipment", "Asset", "Fixed Asset", "MachineryAndEquipment"),
    account("phone", "Telephone and Internet", "Expense", "Expense", "Utilities"),
    account("power", "Utilities", "Expense", "Expense", "Utilities"),
    ...parent,
  ];
  const first = (sub: ChartAccount) => suggestMappings([sub], payroll, { group: canada }).get(sub.id)?.[0];

  it("a sub-account's parent names what it is part of: Wages and Salaries:Wages - Toronto onto Salaries and Wages, confidently", () => {
    const toronto = account("s1", "Wages - Toronto", "Expense", "Expense", "PayrollExpenses", { fullyQualifiedName: "Wages and Salaries:Wages - Toronto" });
    expect(first(toronto)).toMatchObject({ parentId: "wages", confident: true });
    const laptops = account("s2", "Laptops and Workstations", "Asset", "Fixed Asset", "MachineryAndEquipment", { fullyQualifiedName: "Computer Equipment:Laptops and Workstations" });
    expect(first(laptops)).toMatchObject({ parentId: "computers", confident: true });
    // Without the path the name alone cannot tell the parent's payroll or equipment accounts apart.
    expect(first({ ...laptops, fullyQualifiedName: undefined })).toMatchObject({ confident: false, caution: SUGGESTION_CAUTIONS.several });
  });

  it("its own name still decides when it says more than its parent's", () => {
    const phone = account("s3", "Telephone", "Expense", "Expense", "Utilities", { fullyQualifiedName: "Utilities:Telephone" });
    expect(first(phone)).toMatchObject({ parentId: "phone" });
  });

  it("a sub-account under an intercompany parent is intercompany", () => {
    const owed = account("s4", "Holdings", "Liability", "Other Current Liability", "OtherCurrentLiabilities", { fullyQualifiedName: "Due to Group Companies:Holdings" });
    expect(first(owed)).toMatchObject({ confident: false, caution: SUGGESTION_CAUTIONS.intercompanyNone });
    expect(first({ ...owed, fullyQualifiedName: undefined })?.caution).not.toBe(SUGGESTION_CAUTIONS.intercompanyNone);
  });
});

describe("suggestMappings, for any chart", () => {
  const classification = fc.constantFrom("Asset", "Liability", "Equity", "Revenue", "Expense");
  const chart = fc.array(
    fc.record({
      id: fc.uuid(),
      name: fc.constantFrom(
        "Sales Tax Payable",
        "401(k) Payable",
        "Due to Northwind Holdings",
        "Intercompany Receivable - Northwind UK",
        "Accrued Liabilities",
        "Corporation Tax",
        "Checking",
        "Management Charges - Group",
        "Rent",
        "Gift Cards",
      ),
      acctNum: fc.option(fc.constantFrom("1000", "2000", "4000"), { nil: null }),
      classification,
      accountType: fc.constantFrom("Bank", "Expense", "Income", "Equity", "Other Current Asset", "Other Current Liability"),
      accountSubType: fc.option(fc.constantFrom("Checking", "CommonStock", "RetainedEarnings", "PartnerDistributions", "OtherCurrentLiabilities", "SalesTaxPayable", "PayrollTaxPayable"), { nil: null }),
      active: fc.boolean(),
    }),
    { maxLength: 12 },
  );

  it("never proposes an incompatible or inactive account; only the first is confident, and a confident one agrees on detail type or is the intercompany match", () => {
    fc.assert(
      fc.property(chart, chart, (subs, parents) => {
        const group = groupNames({ parent: "Northwind Holdings Inc.", self: "Northwind Canada Inc." }, parents);
        const parentsById = new Map(parents.map((p) => [p.id, p]));
        for (const [subId, list] of suggestMappings(subs, parents, { group })) {
          const sub = subs.find((s) => s.id === subId)!;
          expect(list.length).toBeLessThanOrEqual(3);
          list.forEach((s, i) => {
            const p = parentsById.get(s.parentId)!;
            expect(chartMappingProblem(sub, p)).toBeNull();
            if (i > 0) expect(s).toMatchObject({ confident: false, caution: null });
            else expect(s.confident).toBe(s.caution === null);
            if (!s.confident) return;
            const subIc = intercompanyOf(sub, group);
            const parentIc = intercompanyOf(p, group);
            expect(parentIc !== null, `${sub.name} → ${p.name}: intercompany on both sides or neither`).toBe(subIc !== null);
            if (subIc === null) expect(detailAgreement(sub, p, nameSimilarity(sub.name, p.name))).not.toBe("none");
            else expect(p.accountType).toBe(sub.accountType);
          });
        }
      }),
    );
  });
});
