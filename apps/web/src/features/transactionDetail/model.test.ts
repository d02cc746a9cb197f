import type { CompanyAccount } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { companySums, grandTotal, parentAccountOptions, queryOf, readUrl, urlOf, type CompanyDetail } from "./model.ts";

const url = (q: string) => readUrl(new URLSearchParams(q), "2026-10");

describe("what the URL asks for", () => {
  it("reads the reports screen's link: account, range and company", () => {
    const s = url("account=41&from=2026-01&to=2026-03&realmId=9341453172384023");
    expect(s).toEqual({ account: "41", from: "2026-01", to: "2026-03", realmId: "9341453172384023", problem: null });
    expect(queryOf(s)).toEqual({ account: "41", from: "2026-01", to: "2026-03", realmId: "9341453172384023" });
  });

  it("without a range, shows the month being closed; with one month, that month", () => {
    expect(url("account=41")).toMatchObject({ from: "2026-10", to: "2026-10", problem: null });
    expect(url("account=41&to=2026-02")).toMatchObject({ from: "2026-02", to: "2026-02" });
  });

  it("asks nothing until an account is chosen", () => {
    expect(queryOf(url("from=2026-01&to=2026-03"))).toBeNull();
  });

  it("says when the link's range cannot be used, and does not ask for a backwards one", () => {
    expect(url("account=41&from=2026-13&to=2026-03")).toMatchObject({ from: "2026-03", to: "2026-03", problem: "The link's from is not a month like 2026-03; showing 2026-03 to 2026-03 instead." });
    const backwards = url("account=41&from=2026-05&to=2026-03");
    expect(backwards.problem).toBe("The range ends (2026-03) before it starts (2026-05).");
    expect(queryOf(backwards)).toBeNull();
  });

  it("writes the state back in the reports screen's order, leaving out what is not set", () => {
    expect(urlOf({ account: "41", from: "2026-01", to: "2026-03", realmId: null }).toString()).toBe("account=41&from=2026-01&to=2026-03");
  });
});

describe("the parent account picker", () => {
  const a = (Id: string, acctNum: string | null, name: string, classification: string, active = true) => ({ Id, acctNum, name, classification, active }) as CompanyAccount;
  it("groups the chart by classification in statement order, by number within, marking inactive accounts", () => {
    expect(parentAccountOptions([a("9", "4000", "Sales", "Revenue"), a("2", "2400", "Current Portion", "Liability"), a("1", "1000", "Checking", "Asset"), a("3", "1010", "Old", "Asset", false)])).toEqual([
      { group: "Asset", items: [{ value: "1", label: "1000 · Checking" }, { value: "3", label: "1010 · Old (inactive)" }] },
      { group: "Liability", items: [{ value: "2", label: "2400 · Current Portion" }] },
      { group: "Revenue", items: [{ value: "9", label: "4000 · Sales" }] },
    ]);
  });
});

const txn = (local: number, translated: number | null) => ({
  date: "2026-01-18",
  type: "Journal Entry",
  txnId: "1",
  docNumber: null,
  name: null,
  memo: null,
  accountId: "22",
  accountName: "2110 Amounts Owed",
  local,
  rate: translated === null ? null : "1.27",
  translated,
  url: null,
});
const company = (transactions: ReturnType<typeof txn>[], totalTranslated: number | null): CompanyDetail => ({
  realmId: "u",
  companyName: "Northwind UK Ltd",
  currency: "GBP",
  accounts: [{ id: "22", name: "Amounts Owed" }],
  transactions,
  totalLocal: transactions.reduce((s, t) => s + t.local, 0),
  totalTranslated,
});

describe("a company's totals", () => {
  it("shows the cent the consolidation's account-month translation differs from the transactions' own amounts", () => {
    // 6,388,191 over the transactions, 6,388,190 as the consolidation translates it.
    expect(companySums(company([txn(100, 6_000_000), txn(200, 388_191)], 6_388_190))).toEqual({ transactions: 6_388_191, rounding: -1 });
    expect(companySums(company([txn(100, 127)], 127))).toEqual({ transactions: 127, rounding: 0 });
  });

  it("has no translated sum or rounding when a month has no rate", () => {
    expect(companySums(company([txn(100, null), txn(100, 127)], null))).toEqual({ transactions: null, rounding: 0 });
  });

  it("adds the companies in the parent's currency, or says it cannot", () => {
    expect(grandTotal([company([], 10), company([], -3)])).toBe(7);
    expect(grandTotal([company([], 10), company([], null)])).toBeNull();
    expect(grandTotal([])).toBe(0);
  });
});
