import type { CompanyAccount, CompanyNames, EliminationPair, EliminationView, ObalState, PostingSummary } from "@groupledger/contract";
import { OBAL, PARENT_CO, UK_CO } from "../../../test/fixtures.ts";

/** Opening balances locked at December 2025; the parent's fiscal year is the calendar year. */
export const LOCKED_DEC: ObalState = { ...OBAL, year: 2025, month: 12, naturalYear: 2025, naturalMonth: 12, posted: { [UK_CO.realmId]: true } };
export const COMPANIES = [PARENT_CO, UK_CO];
export const PARENT = PARENT_CO.realmId;
export const UK = UK_CO.realmId;

const account = (Id: string, acctNum: string, name: string, classification: string, currency: string): CompanyAccount =>
  ({ Id, name, fullyQualifiedName: name, acctNum, accountType: "Other", accountSubType: null, classification, currency, active: true, everHadBalance: true, latestAmount: null, latestMonth: null });

export const PARENT_CHART = [
  account("22", "1600", "Intercompany Loan - Northwind UK", "Asset", "USD"),
  account("42", "2700", "Term Loan - Chase", "Liability", "USD"),
  account("56", "4500", "Management Fee Income - Intercompany", "Revenue", "USD"),
  account("77", "6510", "Accounting and Audit Fees", "Expense", "USD"),
  account("94", "9100", "Foreign Exchange Gain/Loss", "Expense", "USD"),
  account("70", "3900", "Retained Earnings", "Equity", "USD"),
];
export const UK_CHART = [
  account("1", "1000", "Barclays Current Account", "Asset", "GBP"),
  account("30", "2410", "Loan from Northwind Holdings", "Liability", "GBP"),
  account("63", "7603", "Management Charges - Group", "Expense", "GBP"),
  account("54", "4000", "Sales", "Revenue", "GBP"),
];

/** What the consolidation screens load for this group: its companies, the opening balances locked at December 2025, the parent's chart. */
export const GROUP_API = {
  "GET /companies": COMPANIES,
  "GET /obal": LOCKED_DEC,
  [`GET /companies/${PARENT}/accounts`]: PARENT_CHART,
};

/** What Interco Eliminations loads besides a section's own answers: no pairs and nothing posted yet, and both charts. */
export const ELIMINATION_PAGE_API = {
  ...GROUP_API,
  "GET /eliminations/pairs": { pairs: [] },
  "GET /eliminations/pairs/proposals": { proposals: [], choices: [], unmatched: [] },
  "GET /consolidation/postings": { postings: [] },
  [`GET /companies/${UK}/accounts`]: UK_CHART,
};

const side = (realmId: string, companyName: string, accountId: string, accountName: string, currency: string, name: EliminationPair["left"]["name"] = null) => ({
  realmId,
  companyName,
  accountId,
  accountName,
  currency,
  name,
});

export const LOAN_PAIR: EliminationPair = {
  id: "7d1f3c2e-0000-4000-8000-000000000001",
  name: "UK loan",
  kind: "receivablePayable",
  left: side(PARENT, PARENT_CO.companyName, "22", "1600 Intercompany Loan - Northwind UK", "USD"),
  right: side(UK, UK_CO.companyName, "30", "2410 Loan from Northwind Holdings", "GBP"),
  differenceTo: "fx",
  createdAt: "2026-04-01T09:00:00.000Z",
};
export const FEES_PAIR: EliminationPair = {
  id: "7d1f3c2e-0000-4000-8000-000000000002",
  name: "UK management fees",
  kind: "revenueExpense",
  // The parent's fee income holds every subsidiary's fees: this side takes only the UK's.
  left: side(PARENT, PARENT_CO.companyName, "56", "4500 Management Fee Income - Intercompany", "USD", { kind: "Customer", id: "2", displayName: "Northwind UK Ltd" }),
  right: side(UK, UK_CO.companyName, "63", "7603 Management Charges - Group", "GBP"),
  differenceTo: "fx",
  createdAt: "2026-04-01T09:01:00.000Z",
};

/** The parent's account pair differences go to (differenceTo "fx"), as the server names it. */
export const FX_ACCOUNT = { id: "94", name: "9100 Foreign Exchange Gain/Loss" };

/**
 * FY2026 Q1: the loan cancels exactly at March's closing rate; the fees differ by 23.70 USD (credit):
 * a cent of rounding, the rest the books differing at each month's average rate.
 */
export const Q1_VIEW: EliminationView = {
  period: { kind: "quarter", from: "2026-01", to: "2026-03", label: "FY2026 Q1" },
  parentCurrency: "USD",
  ok: true,
  problems: [],
  pairs: [
    {
      pair: LOAN_PAIR,
      left: { local: 1_229_730_00, currency: "USD", translated: 1_229_730_00, rate: "1" },
      right: { local: -1_000_000_00, currency: "GBP", translated: -1_229_730_00, rate: "1.22973" },
      difference: 0,
      translationPart: 0,
      bookPart: 0,
      inCurrency: null,
      match: "matched",
      matched: true,
      differenceAccount: FX_ACCOUNT,
    },
    {
      pair: FEES_PAIR,
      left: { local: -99_200_00, currency: "USD", translated: -99_200_00, rate: null },
      right: { local: 78_676_35, currency: "GBP", translated: 99_176_30, rate: null },
      difference: -23_70,
      translationPart: -1,
      bookPart: -23_69,
      inCurrency: null,
      match: "unmatched",
      matched: false,
      differenceAccount: FX_ACCOUNT,
    },
  ],
  tolerance: 100,
  entry: {
    docNumber: "EL2026Q1",
    txnDate: "2026-03-31",
    lines: [
      { account: "22", name: "Intercompany Loan - Northwind UK", debit: 0, credit: 1_229_730_00 },
      { account: "42", name: "Term Loan - Chase", debit: 1_229_730_00, credit: 0 },
      { account: "56", name: "Management Fee Income - Intercompany", debit: 99_200_00, credit: 0 },
      { account: "77", name: "Accounting and Audit Fees", debit: 0, credit: 99_176_30 },
      { account: "94", name: "Foreign Exchange Gain/Loss", debit: 0, credit: 23_70 },
    ],
  },
  posted: null,
};

export function elimPosting(over: Partial<PostingSummary> = {}): PostingSummary {
  return {
    id: "9a000000-0000-4000-8000-000000000001",
    realmId: "interco",
    companyName: "Intercompany eliminations",
    period: Q1_VIEW.period,
    status: "posted",
    journalEntryId: "812",
    journalEntryUrl: "https://app.qbo.intuit.com/app/journal?txnId=812",
    docNumber: "EL2026Q1",
    postedAt: "2026-04-02T10:00:00.000Z",
    postedBy: "controller@northwind.example",
    runId: null,
    stale: null,
    ...over,
  };
}

/**
 * The issue-18 case: the fees pair, limited to the names that stand for each other, differs by
 * $0.23 (a cent of rounding, 22 cents of the parent booking at its bank's rates): within the
 * group's $1.00 tolerance, so matched, and still posted to FX. The loan differs by $4.00: flagged.
 */
export const WITHIN_VIEW: EliminationView = {
  ...Q1_VIEW,
  pairs: [
    {
      ...Q1_VIEW.pairs[0]!,
      right: { local: -1_000_000_00, currency: "GBP", translated: -1_229_726_00, rate: "1.229726" },
      difference: 4_00,
      translationPart: 0,
      bookPart: 4_00,
      inCurrency: null,
      match: "unmatched",
      matched: false,
    },
    {
      ...Q1_VIEW.pairs[1]!,
      right: { local: 78_694_96, currency: "GBP", translated: 99_199_77, rate: null },
      difference: -23,
      translationPart: -1,
      bookPart: -22,
      inCurrency: null,
      match: "withinTolerance",
      matched: true,
    },
  ],
  entry: {
    docNumber: "EL2026Q1",
    txnDate: "2026-03-31",
    lines: [
      { account: "22", name: "Intercompany Loan - Northwind UK", debit: 0, credit: 1_229_730_00 },
      { account: "42", name: "Term Loan - Chase", debit: 1_229_726_00, credit: 0 },
      { account: "56", name: "Management Fee Income - Intercompany", debit: 99_200_00, credit: 0 },
      { account: "77", name: "Accounting and Audit Fees", debit: 0, credit: 99_199_77 },
      { account: "94", name: "Foreign Exchange Gain/Loss", debit: 3_77, credit: 0 },
    ],
  },
};

/** A month with nothing posted yet: the view the screen opens on by default (January 2026). */
export const JAN_VIEW: EliminationView = {
  ...Q1_VIEW,
  period: { kind: "month", from: "2026-01", to: "2026-01", label: "2026-01" },
  entry: { ...Q1_VIEW.entry!, docNumber: "EL202601", txnDate: "2026-01-31" },
};

/** The parent's customers and vendors as GET /api/eliminations/names lists them. */
export const PARENT_NAMES: CompanyNames = {
  realmId: PARENT,
  syncedAt: "2026-04-01T08:00:00.000Z",
  names: [
    { kind: "Customer", id: "2", displayName: "Northwind UK Ltd", active: true, represents: { realmId: UK, companyName: UK_CO.companyName } },
    { kind: "Customer", id: "3", displayName: "Northwind Canada Inc.", active: true, represents: null },
    { kind: "Customer", id: "1", displayName: "Trade customers", active: true, represents: null },
    { kind: "Vendor", id: "1", displayName: "Trade suppliers", active: true, represents: null },
    { kind: "Vendor", id: "9", displayName: "Old supplier", active: false, represents: null },
  ],
};
