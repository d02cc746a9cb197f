import { describe, expect, it } from "vitest";
import { accountSchema, companyInfoSchema, journalEntrySchema, namedListItemSchema, parseEntity, preferencesSchema } from "./entities.ts";
import { QboError } from "./errors.ts";
import { readSample } from "./testing/samples.ts";

type Json = Record<string, unknown>;

describe("entities from the samples", () => {
  it("Account (a single read)", () => {
    const body = readSample("entities/Account__intuit-docs-example__abossenbroek-qbo-mcp.json") as Json;
    expect(parseEntity(accountSchema, body["Account"], "Account")).toEqual({
      id: "94",
      syncToken: "0",
      name: "MyJobs",
      fullyQualifiedName: "MyJobs",
      acctNum: undefined,
      accountType: "Accounts Receivable",
      accountSubType: "AccountsReceivable",
      classification: "Asset",
      currency: "USD",
      active: true,
      subAccount: false,
      parentId: undefined,
      currentBalance: 0,
      currentBalanceWithSubAccounts: 0,
      description: undefined,
      lastUpdatedTime: "2014-12-31T09:29:05-08:00",
    });
  });

  it("Account (a query page)", () => {
    const body = readSample("entities/Account_QueryResponse__intuit-docs-example__abossenbroek-qbo-mcp.json") as { QueryResponse: { Account: unknown[] } };
    const [account] = body.QueryResponse.Account.map((a) => parseEntity(accountSchema, a, "Account"));
    expect(account).toMatchObject({ id: "92", name: "Canadian Accounts Receivable", classification: "Asset", currency: "USD", active: true });
  });

  it("Account amounts become minor units of the account's currency, sub-accounts keep their parent", () => {
    const base = { Id: "7", Name: "Loan to UK", AccountType: "Other Current Asset", Active: false };
    expect(parseEntity(accountSchema, { ...base, CurrentBalance: 1234.56, CurrencyRef: { value: "GBP" } }, "Account").currentBalance).toBe(123456);
    expect(parseEntity(accountSchema, { ...base, CurrentBalance: 15000, CurrencyRef: { value: "JPY" } }, "Account").currentBalance).toBe(15000);
    const sub = parseEntity(accountSchema, { ...base, AcctNum: "1510", SubAccount: true, ParentRef: { value: "6" }, FullyQualifiedName: "Loans:Loan to UK" }, "Account");
    expect(sub).toMatchObject({ acctNum: "1510", subAccount: true, parentId: "6", fullyQualifiedName: "Loans:Loan to UK", active: false });
  });

  it("CompanyInfo", () => {
    expect(parseEntity(companyInfoSchema, readSample("entities/CompanyInfo__fylein-fyle-qbo-api.json"), "CompanyInfo")).toEqual({
      id: "1",
      companyName: "Sandbox Company_US_4",
      legalName: "Larry's Bakery",
      country: "US",
      fiscalYearStartMonth: "January",
      companyStartDate: "2015-06-05",
    });
  });

  it("Preferences: home currency, multicurrency, class and department tracking", () => {
    const body = readSample("entities/Preferences_read_response__intuit-docs-example__abossenbroek-qbo-mcp.json") as Json;
    expect(parseEntity(preferencesSchema, body["Preferences"], "Preferences")).toEqual({
      homeCurrency: "USD",
      multiCurrencyEnabled: false,
      classTracking: "per_line",
      departmentTracking: true,
      departmentTerminology: "Department",
      firstMonthOfFiscalYear: undefined,
      bookCloseDate: undefined,
    });
    const fragment = readSample("entities/Preferences_AccountingInfoPrefs_fragment__fylein-fyle-qbo-api.json") as Json;
    const withFragment = parseEntity(preferencesSchema, { ...fragment, CurrencyPrefs: { MultiCurrencyEnabled: true, HomeCurrency: { value: "GBP" } } }, "Preferences");
    expect(withFragment).toMatchObject({ homeCurrency: "GBP", multiCurrencyEnabled: true, firstMonthOfFiscalYear: "January", bookCloseDate: "2018-12-31", departmentTerminology: "Location" });
  });

  it("JournalEntry: the create payload's lines as minor units", () => {
    const payload = readSample("entities/JournalEntry_create_payload__fylein-fyle-qbo-api.json") as Json;
    const je = parseEntity(journalEntrySchema, { ...payload, Id: "1", SyncToken: "0" }, "JournalEntry");
    expect(je).toMatchObject({ id: "1", txnDate: "2022-01-23", docNumber: "1", currency: "USD" });
    expect(je.lines.map((l) => [l.postingType, l.amount, l.accountId, l.classId, l.departmentId])).toEqual([
      ["Credit", 9000, "42", "None", "None"],
      ["Debit", 9000, "56", "None", "None"],
    ]);
  });

  it("Class/Department", () => {
    expect(parseEntity(namedListItemSchema, { Id: "5", Name: "UK Ltd", SyncToken: "2", Active: true, FullyQualifiedName: "Subs:UK Ltd", ParentRef: { value: "4" } }, "Class")).toEqual({
      id: "5",
      syncToken: "2",
      name: "UK Ltd",
      fullyQualifiedName: "Subs:UK Ltd",
      active: true,
      parentId: "4",
    });
  });
});

describe("strict on the fields we use", () => {
  function failure(fn: () => unknown): QboError {
    try {
      fn();
    } catch (e) {
      if (e instanceof QboError) return e;
      throw e;
    }
    throw new Error("did not throw");
  }

  it("names the field that is missing or mistyped", () => {
    const e = failure(() => parseEntity(accountSchema, { Id: 94, Name: "x" }, "Account"));
    expect(e.code).toBe("unexpected_response");
    expect(e.kind).toBe("other");
    expect(e.message).toBe("Unexpected response from QuickBooks Online: Account did not have the expected shape");
    expect(e.detail).toContain("Id:");
    expect(e.detail).toContain("AccountType:");
    expect(failure(() => parseEntity(preferencesSchema, { CurrencyPrefs: {} }, "Preferences")).detail).toContain("CurrencyPrefs.HomeCurrency");
    expect(failure(() => parseEntity(companyInfoSchema, undefined, "CompanyInfo")).code).toBe("unexpected_response");
  });

  it("refuses an amount with more decimals than the currency has", () => {
    const e = failure(() => parseEntity(accountSchema, { Id: "1", Name: "x", AccountType: "Bank", CurrentBalance: 1.5, CurrencyRef: { value: "JPY" } }, "Account"));
    expect(e.message).toContain("invalid amount");
  });
});
