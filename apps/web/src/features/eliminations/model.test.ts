import type { CompanyAccount, EliminationView } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import {
  acceptedText,
  offeredProposals,
  proposedSideText,
  differenceAccountText,
  differenceTone,
  EMPTY_PAIR_FORM,
  entryTotals,
  formErrorsOf,
  pairFormErrors,
  pairRequestOf,
  parseTolerance,
  periodSummary,
  postBlockReason,
  rateText,
  sideAccountOptions,
  sideNameOptions,
  toleranceInput,
  type PairFormValues,
} from "./model.ts";

const account = (Id: string, name: string, classification: string, over: Partial<CompanyAccount> = {}): CompanyAccount => ({
  latestAmount: null,
  latestMonth: null,
  Id,
  name,
  fullyQualifiedName: name,
  acctNum: null,
  accountType: "Other",
  accountSubType: null,
  classification,
  currency: "USD",
  active: true,
  everHadBalance: true,
  ...over,
});

const CHART = [
  account("22", "Intercompany Loan - Northwind UK", "Asset", { acctNum: "1600" }),
  account("12", "Intercompany Receivable - Northwind UK", "Asset", { acctNum: "1400" }),
  account("30", "Loan from Northwind Holdings", "Liability", { acctNum: "2410" }),
  account("56", "Management Fee Income - Intercompany", "Revenue", { acctNum: "4500" }),
  account("63", "Management Charges - Group", "Expense", { acctNum: "7603" }),
  account("70", "Retained Earnings", "Equity"),
  account("99", "Old loan", "Asset", { active: false }),
];

describe("the accounts a side may take", () => {
  it("offers a receivable/payable pair active assets and liabilities, by number, grouped by classification", () => {
    expect(sideAccountOptions("receivablePayable", CHART, null)).toEqual([
      {
        group: "Asset",
        items: [
          { value: "12", label: "1400 · Intercompany Receivable - Northwind UK" },
          { value: "22", label: "1600 · Intercompany Loan - Northwind UK" },
        ],
      },
      { group: "Liability", items: [{ value: "30", label: "2410 · Loan from Northwind Holdings" }] },
    ]);
  });

  it("offers only the other classification once the opposite side has chosen", () => {
    expect(sideAccountOptions("receivablePayable", CHART, "Asset").map((g) => g.group)).toEqual(["Liability"]);
    expect(sideAccountOptions("revenueExpense", CHART, "Revenue")).toEqual([{ group: "Expense", items: [{ value: "63", label: "7603 · Management Charges - Group" }] }]);
  });
});

describe("the pair form's rules", () => {
  const classes = new Map([
    ["p:22", "Asset"],
    ["p:56", "Revenue"],
    ["u:30", "Liability"],
    ["u:63", "Expense"],
    ["u:31", "Liability"],
  ]);
  const classificationOf = (realmId: string, accountId: string) => classes.get(`${realmId}:${accountId}`);
  const filled: PairFormValues = { ...EMPTY_PAIR_FORM, name: "UK loan", leftRealmId: "p", leftAccountId: "22", rightRealmId: "u", rightAccountId: "30" };

  it("accepts two companies with an asset against a liability", () => {
    expect(pairFormErrors(filled, classificationOf)).toEqual({});
  });

  it("says what is missing with the contract's messages, on the form's fields", () => {
    expect(pairFormErrors({ ...EMPTY_PAIR_FORM, leftRealmId: "p" }, classificationOf)).toEqual({
      name: "Name the pair, e.g. “UK loan from parent”.",
      leftAccountId: "Choose the account of this side.",
      rightRealmId: "Choose the company of this side.",
      rightAccountId: "Choose the account of this side.",
    });
  });

  it("refuses one company on both sides, and two accounts of the same classification", () => {
    expect(pairFormErrors({ ...filled, rightRealmId: "p", rightAccountId: "22" }, classificationOf)).toMatchObject({
      rightRealmId: "Choose another company: an intercompany pair is between two group companies.",
    });
    expect(pairFormErrors({ ...filled, rightAccountId: "31", leftRealmId: "u", leftAccountId: "30", rightRealmId: "p" }, (r, a) => (r === "p" ? "Liability" : classificationOf(r, a)))).toEqual({
      rightAccountId: "Both sides are liability accounts; one side must be asset and the other liability.",
    });
  });

  it("refuses an account the kind does not take (kept after the kind changed)", () => {
    expect(pairFormErrors({ ...filled, kind: "revenueExpense" }, classificationOf)).toEqual({
      leftAccountId: "This is an asset account: a revenue / expense pair takes revenue and expense accounts.",
      rightAccountId: "This is a liability account: a revenue / expense pair takes revenue and expense accounts.",
    });
  });

  it("puts the server's field paths on the form's fields", () => {
    expect(formErrorsOf({ "left.accountId": "a", "right.realmId": "b", name: "c" })).toEqual({ leftAccountId: "a", rightRealmId: "b", name: "c" });
    expect(formErrorsOf({ "left.name.id": "d", "right.name": "e" })).toEqual({ leftName: "d", rightName: "e" });
  });
});

type PairView = EliminationView["pairs"][number];
const side = (local: number, currency: string, translated: number, rate: string | null) => ({ local, currency, translated, rate });

describe("a pair's difference", () => {
  it("takes the server's match; an unmatched one is translation only when the books agree at the same rates, else the books differ", () => {
    expect(differenceTone({ match: "matched", bookPart: 0 })).toBe("matched");
    // Within the tolerance whatever the cause: the server (the domain's rule) said so.
    expect(differenceTone({ match: "withinTolerance", bookPart: 22 })).toBe("withinTolerance");
    expect(differenceTone({ match: "unmatched", bookPart: 0 })).toBe("translation");
    expect(differenceTone({ match: "unmatched", bookPart: 4_00 })).toBe("book");
  });

  it("names the account the difference is posted to, else the kind of account chosen", () => {
    const pair = { differenceTo: "cta" } as PairView["pair"];
    expect(differenceAccountText({ pair, differenceAccount: { id: "94", name: "9100 Foreign Exchange Gain/Loss" } })).toBe("9100 Foreign Exchange Gain/Loss");
    expect(differenceAccountText({ pair, differenceAccount: null })).toBe("CTA (equity)");
  });

  it("sums up the period, counting pairs within the tolerance as matched and saying how many", () => {
    const p = (match: PairView["match"]) => ({ match, matched: match !== "unmatched" }) as PairView;
    expect(periodSummary({ pairs: [p("matched"), p("unmatched")], tolerance: 100, parentCurrency: "USD" })).toBe("2 pairs: 1 matched, 1 with an unmatched difference.");
    expect(periodSummary({ pairs: [p("withinTolerance"), p("matched"), p("unmatched")], tolerance: 100, parentCurrency: "USD" })).toBe(
      "3 pairs: 2 matched (1 within the $1.00 tolerance), 1 with an unmatched difference.",
    );
    expect(periodSummary({ pairs: [p("withinTolerance")], tolerance: 500, parentCurrency: "GBP" })).toBe("1 pair: 1 matched (1 within the £5.00 tolerance), 0 with an unmatched difference.");
  });

  it("names the rate: the parent's own currency, each month's average for a flow, else the closing rate", () => {
    expect(rateText("receivablePayable", side(100, "USD", 100, "1"), "USD")).toBe("1 (parent currency)");
    expect(rateText("revenueExpense", side(100, "GBP", 127, null), "USD")).toBe("Each month's average");
    expect(rateText("receivablePayable", side(100, "GBP", 123, "1.22973"), "USD")).toBe("1.22973");
    expect(rateText("receivablePayable", side(100, "GBP", 0, null), "USD")).toBe("No closing rate");
  });
});

describe("the tolerance field", () => {
  it("reads money of the parent's currency as exact minor units", () => {
    expect(parseTolerance("1.00", "USD")).toEqual({ tolerance: 100 });
    expect(parseTolerance("0.05", "USD")).toEqual({ tolerance: 5 });
    expect(parseTolerance(" 1,000 ", "USD")).toEqual({ tolerance: 100_000 });
    expect(parseTolerance("0", "USD")).toEqual({ tolerance: 0 });
    expect(parseTolerance("100", "JPY")).toEqual({ tolerance: 100 });
    expect(parseTolerance("0.25", "KWD")).toEqual({ tolerance: 250 });
    expect(toleranceInput(100, "USD")).toBe("1.00");
    expect(toleranceInput(0, "USD")).toBe("0.00");
    expect(toleranceInput(100, "JPY")).toBe("100");
  });

  it("refuses what the server would, in the currency typed", () => {
    expect(parseTolerance("", "USD")).toEqual({ error: "Enter an amount in USD with at most 2 decimal places, such as 1.00; 0 for exact matching." });
    expect(parseTolerance("0.005", "USD")).toEqual({ error: "Enter an amount in USD with at most 2 decimal places, such as 1.00; 0 for exact matching." });
    expect(parseTolerance("1.5", "JPY")).toEqual({ error: "Enter an amount in JPY, such as 100; 0 for exact matching." });
    expect(parseTolerance("-1", "USD")).toEqual({ error: "The tolerance cannot be negative: 0 is exact matching." });
    expect(parseTolerance("1000.01", "USD")).toEqual({ error: "The tolerance is at most $1,000.00: a larger difference is a mismatch to investigate, not rounding." });
    expect(parseTolerance("1000.00", "USD")).toEqual({ tolerance: 100_000 });
  });
});

describe("posting", () => {
  const pair = { pair: { id: "p1" }, matched: false } as unknown as PairView;
  const view = (over: Partial<EliminationView> = {}): EliminationView => ({
    period: { kind: "quarter", from: "2026-01", to: "2026-03", label: "FY2026 Q1" },
    parentCurrency: "USD",
    ok: true,
    problems: [],
    pairs: [pair],
    tolerance: 100,
    entry: {
      docNumber: "EL2026Q1",
      txnDate: "2026-03-31",
      lines: [
        { account: "22", name: "Intercompany Loan - Northwind UK", debit: 0, credit: 1_229_734_00 },
        { account: "42", name: "Term Loan - Chase", debit: 1_229_730_00, credit: 0 },
        { account: "94", name: "Foreign Exchange Gain/Loss", debit: 4_00, credit: 0 },
      ],
    },
    posted: null,
    ...over,
  });

  it("adds up the entry", () => {
    expect(entryTotals(view().entry!.lines)).toEqual({ debit: 1_229_734_00, credit: 1_229_734_00, balanced: true });
  });

  it("is offered for a balanced entry of a period with no problems", () => {
    expect(postBlockReason(view())).toBeNull();
  });

  it("says why not: posted already, problems, no pair, nothing moved, not balanced", () => {
    const posted = {
      id: "x",
      realmId: "interco",
      companyName: "Intercompany eliminations",
      period: view().period,
      status: "posted" as const,
      journalEntryId: "9",
      journalEntryUrl: "https://qbo/9",
      docNumber: "EL2026Q1",
      postedAt: "2026-04-02T10:00:00.000Z",
      postedBy: "controller@northwind.example",
      runId: null,
      stale: null,
    };
    expect(postBlockReason(view({ posted }))).toBe("Already posted: EL2026Q1 on 2026-04-02 by controller@northwind.example.");
    expect(postBlockReason(view({ ok: false, problems: [{ code: "missing_rate", message: "No GBP rate for 2026-03." }] }))).toBe(
      "Fix the problems listed above first; nothing can be posted while they stand.",
    );
    expect(postBlockReason(view({ pairs: [], entry: null }))).toBe("Define an intercompany pair first: there is nothing to eliminate.");
    expect(postBlockReason(view({ entry: null }))).toBe("Nothing changes in FY2026 Q1: there is no elimination entry to post.");
    const lopsided = view().entry!;
    expect(postBlockReason(view({ entry: { ...lopsided, lines: lopsided.lines.slice(1) } }))).toBe("The entry does not balance; it cannot be posted.");
  });
});

describe("customer and vendor sides", () => {
  const names = [
    { kind: "Vendor" as const, id: "7", displayName: "Northwind Holdings Inc.", active: true, represents: { realmId: "p", companyName: "Northwind Holdings Inc." } },
    { kind: "Customer" as const, id: "3", displayName: "Northwind Canada Inc.", active: true, represents: { realmId: "ca", companyName: "Northwind Canada Inc." } },
    { kind: "Customer" as const, id: "1", displayName: "Trade customers", active: true, represents: null },
    { kind: "Vendor" as const, id: "2", displayName: "Trade suppliers", active: true, represents: null },
    { kind: "Vendor" as const, id: "9", displayName: "Gone Ltd", active: false, represents: null },
  ];

  it("offers the name standing for the other side's company first, then other group companies, customers and vendors; inactive ones only when chosen", () => {
    expect(sideNameOptions(names, "p", null)).toEqual([
      { group: "Stands for the other company", items: [{ value: "Vendor:7", label: "Northwind Holdings Inc. (vendor)" }] },
      { group: "Other group companies", items: [{ value: "Customer:3", label: "Northwind Canada Inc. (customer)" }] },
      { group: "Customers", items: [{ value: "Customer:1", label: "Trade customers (customer)" }] },
      { group: "Vendors", items: [{ value: "Vendor:2", label: "Trade suppliers (vendor)" }] },
    ]);
    expect(sideNameOptions(names, null, "Vendor:9").at(-1)).toEqual({ group: "Vendors", items: [{ value: "Vendor:2", label: "Trade suppliers (vendor)" }, { value: "Vendor:9", label: "Gone Ltd (vendor)" }] });
    expect(sideNameOptions([], "p", null)).toEqual([]);
  });

  it("sends a chosen name as kind and id, and no name as null", () => {
    const v: PairFormValues = { ...EMPTY_PAIR_FORM, name: "Fees", leftRealmId: "p", leftAccountId: "56", leftName: "Customer:12:x", rightRealmId: "uk", rightAccountId: "63" };
    expect(pairRequestOf(v).left.name).toEqual({ kind: "Customer", id: "12:x" });
    expect(pairRequestOf(v).right.name).toBeNull();
  });
});

describe("proposed pairs", () => {
  const pair = { id: "x" } as never;
  it("says how many pairs accepting defined and how many were defined already", () => {
    expect(acceptedText({ created: [pair, pair], alreadyDefined: [] })).toBe("2 pairs defined. The report no longer names their accounts as unpaired.");
    expect(acceptedText({ created: [pair], alreadyDefined: [pair, pair] })).toBe("1 pair defined; 2 were already defined. The report no longer names its accounts as unpaired.");
    expect(acceptedText({ created: [pair], alreadyDefined: [pair] })).toBe("1 pair defined; 1 was already defined. The report no longer names its accounts as unpaired.");
    expect(acceptedText({ created: [], alreadyDefined: [pair] })).toBe("That pair was already defined.");
    expect(acceptedText({ created: [], alreadyDefined: [pair, pair, pair] })).toBe("Those 3 pairs were already defined.");
  });
  it("offers the proposals not dismissed, in order", () => {
    expect(offeredProposals([{ key: "a" }, { key: "b" }, { key: "c" }], new Set(["b"]))).toEqual([{ key: "a" }, { key: "c" }]);
  });
  it("reads a side: company, account and the name it is limited to", () => {
    expect(proposedSideText({ realmId: "p", companyName: "Northwind Holdings Inc.", accountId: "56", account: '4500 "Fees"', name: { kind: "Customer", id: "2", displayName: "Northwind UK Ltd" } })).toEqual({
      company: "Northwind Holdings Inc.",
      account: '4500 "Fees"',
      only: "Northwind UK Ltd (customer)",
    });
  });
});
