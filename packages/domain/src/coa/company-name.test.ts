import { describe, expect, it } from "vitest";
import { comparableCompanyName, investmentAccountFor } from "./company-name.ts";
import type { ChartAccount } from "./mapping-rules.ts";

const acct = (id: string, acctNum: string, name: string, over: Partial<ChartAccount> = {}): ChartAccount => ({
  id,
  acctNum,
  name,
  classification: "Asset",
  accountType: "Other Asset",
  accountSubType: "OtherLongTermAssets",
  active: true,
  ...over,
});

describe("company names", () => {
  it("compare equal without case, accents, punctuation or legal forms", () => {
    expect(comparableCompanyName("Northwind UK Ltd.")).toBe(comparableCompanyName("northwind uk limited"));
    expect(comparableCompanyName("Société Générale SA")).toBe("societe generale");
    expect(comparableCompanyName("Northwind Deutschland GmbH")).toBe("northwind deutschland");
  });
});

describe("the parent's investment account in a subsidiary", () => {
  const chart = [
    acct("1", "1400", "Intercompany Receivable - Northwind UK"),
    acct("2", "1600", "Intercompany Loan - Northwind UK"),
    acct("3", "1710", "Investment in Northwind UK Ltd"),
    acct("4", "1711", "Investment in Northwind Canada Inc."),
    acct("5", "1712", "Investment in Northwind UK Retail Ltd"),
    acct("6", "2710", "Investment in Northwind UK (loan notes)", { classification: "Liability" }),
  ];

  it("is the asset named like an investment after the subsidiary, not a receivable or loan named after it", () => {
    expect(investmentAccountFor(chart, "Northwind UK Limited")?.id).toBe("3");
    expect(investmentAccountFor(chart, "Northwind Canada Inc.")?.id).toBe("4");
  });

  it("matches whole words only, and the lowest account number wins among several", () => {
    expect(investmentAccountFor(chart, "Northwind U")).toBeUndefined();
    expect(investmentAccountFor([chart[4]!, chart[2]!], "Northwind UK")?.id).toBe("3");
  });

  it("ignores inactive accounts and non-assets, and finds a German Beteiligung", () => {
    expect(investmentAccountFor([acct("3", "1710", "Investment in Northwind UK Ltd", { active: false })], "Northwind UK Ltd")).toBeUndefined();
    expect(investmentAccountFor([acct("9", "0820", "Beteiligung Northwind Deutschland GmbH")], "Northwind Deutschland GmbH")?.id).toBe("9");
    expect(investmentAccountFor([acct("8", "1700", "Northwind Retail", { accountSubType: "Investment_Other" })], "Northwind Retail LLC")?.id).toBe("8");
  });

  it("finds nothing when no account is named after the subsidiary", () => {
    expect(investmentAccountFor(chart, "Contoso Pty Ltd")).toBeUndefined();
  });
});
