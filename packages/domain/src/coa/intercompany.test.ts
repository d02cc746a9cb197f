import { describe, expect, it } from "vitest";
import { groupNames, intercompanyMatch, intercompanyOf } from "./intercompany.ts";
import type { ChartAccount } from "./mapping-rules.ts";

const acct = (name: string, classification = "Liability", over: Partial<ChartAccount> = {}): ChartAccount => ({
  id: name,
  name,
  acctNum: null,
  classification,
  accountType: classification === "Asset" ? "Other Current Asset" : "Other Current Liability",
  accountSubType: classification === "Asset" ? "OtherCurrentAssets" : "OtherCurrentLiabilities",
  active: true,
  ...over,
});

const parentChart = [
  acct("Intercompany Receivable - Northwind UK", "Asset"),
  acct("Intercompany Loan – Northwind Deutschland", "Asset"),
  acct("Investment in Northwind Retail LLC", "Asset", { accountType: "Other Asset", accountSubType: "OtherLongTermAssets" }),
  acct("Management Fee Income - Intercompany", "Revenue"),
  acct("Accrued Liabilities"),
];

describe("groupNames", () => {
  const group = groupNames({ parent: "Northwind Holdings Inc.", self: "Northwind Canada Inc." }, parentChart);

  it("are the companies given plus the counterparties the parent's intercompany and investment accounts name", () => {
    expect(group.parent).toBe("northwind holdings");
    expect(group.self).toBe("northwind canada");
    expect([...group.all].sort()).toEqual(["northwind canada", "northwind deutschland", "northwind holdings", "northwind retail", "northwind uk"]);
  });

  it("leave out a qualifier that is itself 'intercompany', and names too short to be a company", () => {
    expect(group.all).not.toContain("intercompany");
    expect(groupNames({ parent: "AB Ltd", self: "Northwind UK" }, []).all).toEqual(["northwind uk"]);
  });
});

describe("intercompanyOf", () => {
  const group = groupNames({ parent: "Northwind Holdings Inc.", self: "Northwind UK Ltd", others: ["Northwind UK Retail Ltd"] }, parentChart);

  it("names the group company an account names, legal forms and case aside, the longest name winning", () => {
    expect(intercompanyOf(acct("Loan Payable - Northwind Holdings"), group)).toEqual({ counterparty: "northwind holdings" });
    expect(intercompanyOf(acct("Forderungen gegen Northwind UK Ltd", "Asset"), group)).toEqual({ counterparty: "northwind uk" });
    expect(intercompanyOf(acct("Due from NORTHWIND UK RETAIL LIMITED", "Asset"), group)).toEqual({ counterparty: "northwind uk retail" });
    // A sister company known only from the parent's chart.
    expect(intercompanyOf(acct("Amounts Owed to Northwind Deutschland"), group)).toEqual({ counterparty: "northwind deutschland" });
  });

  it("recognises accounts that only say they are with the group", () => {
    for (const name of [
      "Management Charges - Group",
      "Loan Interest – Group",
      "Fees (group)",
      "Purchases - Group Companies",
      "Interest on Intercompany Loan",
      "Inter-company payable",
      "Intragroup sales",
      "Konzernumlagen",
      "Zinsaufwendungen verbundene Unternehmen",
      "Due to affiliated companies",
      "Dividend Income - Subsidiaries",
      "Loan from parent company",
    ]) {
      expect(intercompanyOf(acct(name), group), name).toEqual({ counterparty: null });
    }
  });

  it("is null for third-party accounts, equity naming a group company, and the parent's investments", () => {
    for (const name of ["Group Benefits", "Accrued Liabilities", "Term Loan - Chase", "Northwind Traders (a customer named alike)", "Grouping clearing"]) {
      expect(intercompanyOf(acct(name), group), name).toBeNull();
    }
    expect(intercompanyOf(acct("Member's Capital - Northwind Holdings", "Equity", { accountType: "Equity", accountSubType: "PartnerContributions" }), group)).toBeNull();
    expect(intercompanyOf(parentChart[2]!, group)).toBeNull();
  });
});

describe("intercompanyMatch", () => {
  const group = groupNames({ parent: "Northwind Holdings", self: "Northwind Canada", others: ["Northwind UK"] }, []);
  const cp = (counterparty: string | null) => ({ counterparty });

  it.each([
    ["owed to the parent → the parent's account naming this subsidiary", "northwind holdings", "northwind canada", "specific"],
    ["owed to the parent → the parent's account naming another subsidiary", "northwind holdings", "northwind uk", null],
    ["owed to the parent → a generic intercompany account", "northwind holdings", null, "generic"],
    ["with a sister company → the parent's account naming that sister", "northwind uk", "northwind uk", "specific"],
    ["with a sister company → the parent's account naming this subsidiary", "northwind uk", "northwind canada", null],
    ["with a sister company → a generic intercompany account", "northwind uk", null, "generic"],
    ["'group' only → a generic intercompany account", null, null, "generic"],
    ["'group' only → an account naming a company", null, "northwind canada", null],
    ["naming itself → an account naming a company", "northwind canada", "northwind canada", null],
    ["anything → a parent account naming the parent itself counts as generic", "northwind uk", "northwind holdings", "generic"],
  ] as const)("%s", (_, sub, parent, expected) => {
    expect(intercompanyMatch(cp(sub), cp(parent), group)).toBe(expected);
  });
});
