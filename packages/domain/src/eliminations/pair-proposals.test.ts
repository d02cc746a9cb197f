import { describe, expect, it } from "vitest";
import type { ChartAccount } from "../coa/mapping-rules.ts";
import { proposePairs, subjectOf, type PairProposals, type ProposalMember } from "./pair-proposals.ts";
import type { PairSideRef } from "./pair-overlap.ts";

type Type = "OCA" | "OA" | "OCL" | "LTL" | "EQ" | "INC" | "COGS" | "EXP" | "OINC";
const TYPES: Record<Type, [string, string]> = {
  OCA: ["Asset", "Other Current Asset"],
  OA: ["Asset", "Other Asset"],
  OCL: ["Liability", "Other Current Liability"],
  LTL: ["Liability", "Long Term Liability"],
  EQ: ["Equity", "Equity"],
  INC: ["Revenue", "Income"],
  COGS: ["Expense", "Cost of Goods Sold"],
  EXP: ["Expense", "Expense"],
  OINC: ["Revenue", "Other Income"],
};
const a = (acctNum: string, name: string, type: Type, accountSubType: string | null = null, over: Partial<ChartAccount> & { everHadBalance?: boolean } = {}) => ({
  id: acctNum,
  name,
  acctNum,
  classification: TYPES[type][0],
  accountType: TYPES[type][1],
  accountSubType,
  active: true,
  ...over,
});
type Name = ProposalMember["names"][number];
const customer = (id: string, displayName: string): Name => ({ kind: "Customer", id, displayName });
const vendor = (id: string, displayName: string): Name => ({ kind: "Vendor", id, displayName });
const member = (realmId: string, companyName: string, chart: ProposalMember["chart"], names: Name[] = []): ProposalMember => ({ realmId, companyName, chart, names });

// The demo group's intercompany accounts (packages/qbo-sandbox demo/charts.ts), with a few others around them.
const parent = member(
  "p",
  "Northwind Holdings Inc.",
  [
    a("1000", "Operating Checking - Chase", "OCA"),
    a("1400", "Intercompany Receivable - Northwind UK", "OCA", "OtherCurrentAssets"),
    a("1401", "Intercompany Receivable - Northwind Canada", "OCA", "OtherCurrentAssets"),
    a("1600", "Intercompany Loan - Northwind UK", "OA", "OtherLongTermAssets"),
    a("1610", "Intercompany Loan - Northwind Canada", "OA", "OtherLongTermAssets"),
    a("1710", "Investment in Northwind UK Ltd", "OA", "OtherLongTermAssets"),
    a("1711", "Investment in Northwind Canada Inc.", "OA", "OtherLongTermAssets"),
    a("2700", "Term Loan - Chase", "LTL", "NotesPayable"),
    a("4000", "Product Sales - Wholesale", "INC", "SalesOfProductIncome"),
    a("4500", "Management Fee Income - Intercompany", "INC", "ServiceFeeIncome"),
    a("8010", "Intercompany Interest Income", "OINC", "InterestEarned"),
    a("8020", "Dividend Income - Subsidiaries", "OINC", "DividendIncome"),
  ],
  [customer("1", "Northwind UK Ltd"), customer("2", "Northwind Canada Inc."), customer("3", "Trade customers")],
);
const uk = member(
  "uk",
  "Northwind UK Ltd",
  [
    a("2100", "Trade Creditors", "OCL", "AccountsPayable"),
    a("2120", "Amounts Owed to Northwind Holdings", "OCL", "OtherCurrentLiabilities"),
    a("2410", "Loan from Northwind Holdings", "LTL", "OtherLongTermLiabilities"),
    a("3000", "Share Capital - Northwind Holdings", "EQ", "CommonStock"),
    a("5010", "Purchases - Group Companies", "COGS", "SuppliesMaterialsCogs"),
    a("7603", "Management Charges - Group", "EXP", "LegalProfessionalFees"),
    a("7903", "Loan Interest - Group", "EXP", "InterestPaid"),
  ],
  [vendor("1", "Northwind Holdings Inc.")],
);
const ca = member("ca", "Northwind Canada Inc.", [
  a("23500", "Due to Northwind Holdings", "OCL", "OtherCurrentLiabilities"),
  a("25000", "Loan Payable - Northwind Holdings", "LTL", "OtherLongTermLiabilities"),
  a("60200", "Group Benefits", "EXP", "PayrollExpenses"),
  a("64100", "Management Fees - Northwind Holdings", "EXP", "LegalProfessionalFees"),
  a("66500", "Interest on Intercompany Loan", "EXP", "InterestPaid"),
]);

const propose = (members: ProposalMember[], pairs: { name: string; sides: [PairSideRef, PairSideRef] }[] = [], handled: string[] = []) => proposePairs({ members, pairs, handled: new Set(handled) });
const brief = (out: PairProposals) =>
  out.proposals.map((p) => `${p.kind === "receivablePayable" ? "BS" : "PL"} ${p.left.realmId}:${p.left.accountId}${p.left.name ? `[${p.left.name.kind} ${p.left.name.id}]` : ""} ↔ ${p.right.realmId}:${p.right.accountId}${p.right.name ? `[${p.right.name.kind} ${p.right.name.id}]` : ""}`);
const unmatchedOf = (out: PairProposals) => out.unmatched.map((u) => `${u.side.realmId}:${u.side.accountId}`);

describe("intercompany pairs proposed from the group's charts", () => {
  const out = propose([parent, uk, ca]);

  it("pairs each account naming a company with that company's account naming it back, by nature and subject", () => {
    expect(brief(out)).toEqual([
      "BS p:1400 ↔ uk:2120",
      "BS p:1600 ↔ uk:2410",
      "PL p:4500[Customer 1] ↔ uk:7603[Vendor 1]",
      "PL p:8010[Customer 1] ↔ uk:7903[Vendor 1]",
      "BS p:1401 ↔ ca:23500",
      "BS p:1610 ↔ ca:25000",
      "PL p:4500[Customer 2] ↔ ca:64100",
      "PL p:8010[Customer 2] ↔ ca:66500",
    ]);
  });

  it("names each pair after the subsidiary and its subject, and says why in an accountant's words", () => {
    const loan = out.proposals.find((p) => p.left.accountId === "1600")!;
    expect(loan).toEqual({
      key: "p:1600::|uk:2410::",
      name: "Northwind UK Ltd loan",
      kind: "receivablePayable",
      left: { realmId: "p", companyName: "Northwind Holdings Inc.", accountId: "1600", account: '1600 "Intercompany Loan - Northwind UK"', name: null },
      right: { realmId: "uk", companyName: "Northwind UK Ltd", accountId: "2410", account: '2410 "Loan from Northwind Holdings"', name: null },
      reason:
        'Northwind Holdings Inc.\'s 1600 "Intercompany Loan - Northwind UK" names Northwind UK Ltd; Northwind UK Ltd\'s 2410 "Loan from Northwind Holdings" names Northwind Holdings Inc.: loan receivable ↔ loan payable.',
    });
    expect(out.proposals.map((p) => p.name)).toEqual([
      "Northwind UK Ltd current account",
      "Northwind UK Ltd loan",
      "Northwind UK Ltd fees",
      "Northwind UK Ltd interest",
      "Northwind Canada Inc. current account",
      "Northwind Canada Inc. loan",
      "Northwind Canada Inc. fees",
      "Northwind Canada Inc. interest",
    ]);
  });

  it("an account only saying 'group' takes each company's part by the customer or vendor standing for it, and says so", () => {
    const fees = out.proposals.find((p) => p.right.accountId === "7603")!;
    expect(fees.key).toBe("p:4500:Customer:1|uk:7603:Vendor:1");
    expect(fees.reason).toBe(
      'Northwind Holdings Inc.\'s 4500 "Management Fee Income - Intercompany" says it is with the group (its part with customer "Northwind UK Ltd"); Northwind UK Ltd\'s 7603 "Management Charges - Group" says it is with the group (its part with vendor "Northwind Holdings Inc."): fee income ↔ fee expense; each is the only account that can face the other.',
    );
  });

  it("never proposes equity, investments, or dividend income (the dividend settings eliminate it), and says why nothing is proposed for the rest", () => {
    const sides = out.proposals.flatMap((p) => [p.left.accountId, p.right.accountId]);
    for (const id of ["3000", "1710", "1711", "8020", "60200", "2700", "4000", "2100", "1000"]) expect(sides).not.toContain(id);
    expect(out.unmatched).toEqual([
      {
        side: { realmId: "p", companyName: "Northwind Holdings Inc.", accountId: "8020", account: '8020 "Dividend Income - Subsidiaries"', name: null },
        reason:
          "Dividends within the group are eliminated against the dividends each subsidiary declared, not by a pair (a pair would eliminate them twice): set this account as where Northwind Holdings Inc. books each subsidiary's dividends, under intra-group dividends.",
      },
      {
        side: { realmId: "uk", companyName: "Northwind UK Ltd", accountId: "5010", account: '5010 "Purchases - Group Companies"', name: null },
        reason: "No sales account of another group company names Northwind UK Ltd or says it is with the group: pair it by hand with the account that mirrors it.",
      },
    ]);
    expect(out.choices).toEqual([]);
  });

  it("a dividend income account a dividend setting takes is not mentioned at all", () => {
    expect(unmatchedOf(propose([parent, uk, ca], [], ["p|8020"]))).toEqual(["uk:5010"]);
  });

  it("a group of one company proposes nothing", () => {
    expect(propose([parent])).toEqual({ proposals: [], choices: [], unmatched: [] });
    expect(propose([])).toEqual({ proposals: [], choices: [], unmatched: [] });
  });

  it("leaves out companies outside the consolidation and accounts that never held a balance", () => {
    // Canada is not in this consolidation: the parent's balances with it are not this group's to eliminate.
    // The parent's fee and interest income may hold Canada's too: only the UK's part is paired.
    expect(brief(propose([parent, uk]))).toEqual(["BS p:1400 ↔ uk:2120", "BS p:1600 ↔ uk:2410", "PL p:4500[Customer 1] ↔ uk:7603[Vendor 1]", "PL p:8010[Customer 1] ↔ uk:7903[Vendor 1]"]);
    // Without a name standing for the other company, an account facing no other company is taken whole.
    const anonymous = (m: ProposalMember) => ({ ...m, names: [] });
    expect(brief(propose([anonymous(parent), anonymous(uk)]))).toEqual(["BS p:1400 ↔ uk:2120", "BS p:1600 ↔ uk:2410", "PL p:4500 ↔ uk:7603", "PL p:8010 ↔ uk:7903"]);
    const unused = member("uk", "Northwind UK Ltd", [a("2120", "Amounts Owed to Northwind Holdings", "OCL", null, { everHadBalance: false }), a("2410", "Loan from Northwind Holdings", "LTL")]);
    expect(brief(propose([parent, unused]))).toEqual(["BS p:1600 ↔ uk:2410"]);
  });
});

describe("matching by nature and subject", () => {
  const holdings = (chart: ReturnType<typeof a>[], names: Name[] = []) => member("p", "Northwind Holdings Inc.", chart, names);
  const sub = (chart: ReturnType<typeof a>[], names: Name[] = []) => member("uk", "Northwind UK Ltd", chart, names);

  it("a long-term account is a loan whatever its name; loan words (note, Darlehen) make a loan of a current one", () => {
    expect(subjectOf(a("1", "Northwind UK", "OA"))).toBe("loan");
    expect(subjectOf(a("1", "Note Payable - Northwind Holdings", "OCL"))).toBe("loan");
    expect(subjectOf(a("1", "Darlehen Northwind Holdings", "OCL"))).toBe("loan");
    expect(subjectOf(a("1", "Forderungen gegen Northwind UK Ltd", "OCA"))).toBe("current");
    expect(subjectOf(a("1", "Due to parent", "OCL", "OtherCurrentLiabilities"))).toBe("current");
  });

  it("a flow's subject comes from its name (English or German), else its detail type; interest before loan", () => {
    expect(subjectOf(a("1", "Interest on Intercompany Loan", "EXP"))).toBe("interest");
    expect(subjectOf(a("1", "Zinsaufwendungen verbundene Unternehmen", "EXP"))).toBe("interest");
    expect(subjectOf(a("1", "Konzernumlagen Northwind Holdings", "EXP"))).toBe("fees");
    expect(subjectOf(a("1", "Recharges - Group", "EXP"))).toBe("fees");
    expect(subjectOf(a("1", "Umsatzerlöse verbundene Unternehmen", "INC"))).toBe("trade");
    expect(subjectOf(a("1", "Purchases - Group Companies", "COGS"))).toBe("trade");
    expect(subjectOf(a("1", "Intercompany", "COGS"))).toBe("trade");
    expect(subjectOf(a("1", "Intercompany", "OINC", "InterestEarned"))).toBe("interest");
    expect(subjectOf(a("1", "Beteiligungserträge", "OINC"))).toBe("dividends");
    expect(subjectOf(a("1", "Intercompany income", "OINC"))).toBeNull();
  });

  it("pairs a loan with a loan and a current account with a current account, though their names share no word", () => {
    const out = propose([
      holdings([a("1400", "Intercompany Receivable - Northwind UK", "OCA"), a("1600", "Lending - Northwind UK", "OA")]),
      sub([a("2120", "Amounts Owed to Northwind Holdings", "OCL"), a("2410", "Northwind Holdings", "LTL")]),
    ]);
    expect(brief(out)).toEqual(["BS p:1400 ↔ uk:2120", "BS p:1600 ↔ uk:2410"]);
  });

  it("never crosses subjects: interest income does not face fee expense, nor a loan a current account", () => {
    const out = propose([holdings([a("8010", "Intercompany Interest Income", "OINC"), a("1600", "Intercompany Loan - Northwind UK", "OA")]), sub([a("7603", "Management Charges - Group", "EXP"), a("2120", "Due to Northwind Holdings", "OCL")])]);
    expect(out.proposals).toEqual([]);
    expect(out.unmatched.map((u) => u.reason)).toEqual([
      "No loan payable account of Northwind UK Ltd names Northwind Holdings Inc. or says it is with the group: pair it by hand with the account that mirrors it.",
      "No interest expense account of another group company names Northwind Holdings Inc. or says it is with the group: pair it by hand with the account that mirrors it.",
      "No intercompany receivable account of Northwind Holdings Inc. names Northwind UK Ltd or says it is with the group: pair it by hand with the account that mirrors it.",
      "No fee income account of another group company names Northwind UK Ltd or says it is with the group: pair it by hand with the account that mirrors it.",
    ]);
  });

  it("prefers the account of the same subject to one whose subject is unknown, and an account naming the company to one saying 'group'", () => {
    const out = propose([
      holdings([a("4900", "Intercompany Income", "OINC"), a("4500", "Management Fee Income - Intercompany", "INC"), a("1400", "Intercompany Receivable - Northwind UK", "OCA"), a("1490", "Intercompany Receivable", "OCA")]),
      sub([a("7603", "Management Charges - Group", "EXP"), a("2120", "Due to Northwind Holdings", "OCL")]),
    ]);
    expect(brief(out)).toEqual(["BS p:1400 ↔ uk:2120", "PL p:4500 ↔ uk:7603"]);
    expect(unmatchedOf(out)).toEqual(["p:1490", "p:4900"]);
    expect(out.proposals[1]!.reason).toMatch(/: fee income ↔ fee expense; the closest of the 2 Northwind Holdings Inc\. accounts that can face 7603\.$/);
  });

  it("pairs what is left once the best matches are taken: a second generic account with the other", () => {
    const out = propose([
      holdings([a("1400", "Intercompany Receivable - Northwind UK", "OCA"), a("1490", "Intercompany Receivable", "OCA")]),
      sub([a("2120", "Due to Northwind Holdings", "OCL"), a("2190", "Intercompany Payable", "OCL")]),
    ]);
    expect(brief(out)).toEqual(["BS p:1400 ↔ uk:2120", "BS p:1490 ↔ uk:2190"]);
  });

  it("pairs sales with purchases and cost of sales between sister companies, both ways", () => {
    const de = member("de", "Northwind Deutschland GmbH", [a("4125", "Umsatzerlöse Northwind UK", "INC"), a("1260", "Forderungen gegen Northwind UK Ltd", "OCA")]);
    const out = propose([holdings([]), sub([a("5010", "Purchases - Northwind Deutschland", "COGS"), a("2110", "Amounts Owed to Northwind Deutschland", "OCL")]), de]);
    expect(brief(out)).toEqual(["BS de:1260 ↔ uk:2110", "PL de:4125 ↔ uk:5010"]);
    expect(out.proposals.map((p) => p.name)).toEqual(["Northwind Deutschland GmbH – Northwind UK Ltd current account", "Northwind Deutschland GmbH – Northwind UK Ltd sales and purchases"]);
  });

  it("reads a sub-account by its full name: one under an intercompany parent account is intercompany", () => {
    const out = propose([
      holdings([a("1600", "Intercompany Loans", "OA"), a("1601", "Northwind UK", "OA", null, { fullyQualifiedName: "Intercompany Loans:Northwind UK" })]),
      sub([a("2410", "Loan from Northwind Holdings", "LTL")]),
    ]);
    expect(brief(out)).toEqual(["BS p:1601 ↔ uk:2410"]);
    expect(out.proposals[0]!.left.account).toBe('1601 "Intercompany Loans:Northwind UK"');
  });
});

describe("accounts that face several companies, choices and existing pairs", () => {
  const p = member("p", "Northwind Holdings Inc.", [a("4500", "Management Fee Income - Intercompany", "INC")], [vendor("7", "Northwind UK Ltd"), customer("8", "Northwind Canada Inc."), vendor("9", "Northwind Canada Inc.")]);
  const ukFees = member("uk", "Northwind UK Ltd", [a("7603", "Management Charges - Group", "EXP")]);
  const caFees = member("ca", "Northwind Canada Inc.", [a("64100", "Management Fees - Northwind Holdings", "EXP")]);

  it("limits a side to a customer on the income side, else to the vendor standing for the company", () => {
    expect(brief(propose([p, ukFees, caFees]))).toEqual(["PL p:4500[Vendor 7] ↔ uk:7603", "PL p:4500[Customer 8] ↔ ca:64100"]);
  });

  it("without a name standing for a company, its part cannot be told apart: neither side is proposed, and both say why", () => {
    const noNames = member("p", "Northwind Holdings Inc.", p.chart, [customer("8", "Northwind Canada Inc.")]);
    const out = propose([noNames, ukFees, caFees]);
    expect(brief(out)).toEqual(["PL p:4500[Customer 8] ↔ ca:64100"]);
    expect(out.unmatched.map((u) => [u.side.accountId, u.reason])).toEqual([
      [
        "4500",
        'Northwind Holdings Inc.\'s 4500 "Management Fee Income - Intercompany" says it is with the group and faces accounts of several group companies, but no customer of Northwind Holdings Inc. stands for Northwind UK Ltd, so what it holds with it cannot be told apart: add one in QuickBooks and sync, or pair it by hand.',
      ],
      [
        "7603",
        'Its counterpart Northwind Holdings Inc.\'s 4500 "Management Fee Income - Intercompany" holds amounts with several group companies, and no customer of Northwind Holdings Inc. stands for Northwind UK Ltd, so its part cannot be told apart: add one in QuickBooks and sync, or pair it by hand.',
      ],
    ]);
  });

  it("two equally good counterparts are a choice, not a guess: each candidate a whole proposal", () => {
    const two = member("uk", "Northwind UK Ltd", [a("7603", "Management Charges - Group", "EXP"), a("7604", "Recharges - Group", "EXP")]);
    const out = propose([p, two]);
    expect(out.proposals).toEqual([]);
    expect(out.choices).toHaveLength(1);
    expect(out.choices[0]!.side.accountId).toBe("4500");
    expect(out.choices[0]!.reason).toBe(
      'Northwind Holdings Inc.\'s 4500 "Management Fee Income - Intercompany" says it is with the group, and 2 accounts of Northwind UK Ltd fit it equally well (7603 "Management Charges - Group", 7604 "Recharges - Group"): choose the one it mirrors.',
    );
    expect(brief({ proposals: out.choices[0]!.candidates, choices: [], unmatched: [] })).toEqual(["PL p:4500[Vendor 7] ↔ uk:7603", "PL p:4500[Vendor 7] ↔ uk:7604"]);
    expect(out.unmatched).toEqual([]);
  });

  it("proposes nothing already in a pair, and the rest of an account a pair takes for one name only", () => {
    const existing = { name: "UK fees", sides: [{ realmId: "p", accountId: "4500", name: { kind: "Vendor", id: "7" } }, { realmId: "uk", accountId: "7603", name: null }] as [PairSideRef, PairSideRef] };
    const out = propose([p, ukFees, caFees], [existing]);
    expect(brief(out)).toEqual(["PL p:4500[Customer 8] ↔ ca:64100"]);
    expect(out.unmatched).toEqual([]);
    // Canada's part is paired too: nothing is left to propose.
    expect(propose([p, ukFees, caFees], [existing, { name: "CA fees", sides: [{ realmId: "p", accountId: "4500", name: { kind: "Customer", id: "8" } }, { realmId: "ca", accountId: "64100" }] }])).toEqual({ proposals: [], choices: [], unmatched: [] });
  });

  it("a counterpart a pair takes as a whole account is named, with how to free it", () => {
    const whole = { name: "UK fees", sides: [{ realmId: "p", accountId: "4500", name: null }, { realmId: "uk", accountId: "7603", name: null }] as [PairSideRef, PairSideRef] };
    const out = propose([p, ukFees, caFees], [whole]);
    expect(out.proposals).toEqual([]);
    expect(out.unmatched.map((u) => [u.side.accountId, u.reason])).toEqual([
      [
        "64100",
        'Its counterpart Northwind Holdings Inc.\'s 4500 "Management Fee Income - Intercompany" is already in the pair "UK fees" as a whole account, though it faces several group companies: limit that pair to the customer standing for the other company in it, and this one can be paired too.',
      ],
    ]);
  });
});
