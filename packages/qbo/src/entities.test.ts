import { describe, expect, it } from "vitest";
import { accountSchema, budgetSchema, companyInfoSchema, customerSchema, journalEntrySchema, namedListItemSchema, parseEntity, preferencesSchema, vendorSchema } from "./entities.ts";
import { QboError } from "./errors.ts";
import { readExchange, readSample } from "./testing/samples.ts";

type Json = Record<string, unknown>;

describe("entities from the samples", () => {
  it("an inactive Account keeps its own name; QuickBooks' ' (deleted)' after it is dropped, Active says it", () => {
    const read = readExchange("minimul-qbo_api/deactivate__account__0.json").response.body_json as { Account: Json };
    expect(read.Account["Name"]).toBe("Fees Billed (deleted)");
    expect(parseEntity(accountSchema, read.Account, "Account")).toMatchObject({ name: "Fees Billed", fullyQualifiedName: "Fees Billed", active: false });
    // An active account whose name happens to end so is left as it is.
    expect(parseEntity(accountSchema, { ...read.Account, Active: true }, "Account")).toMatchObject({ name: "Fees Billed (deleted)", active: true });
  });

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

  it("Customer: every customer of the recorded page, the recorded read and create (extra fields ignored)", () => {
    const page = readExchange("minimul-qbo_api/all__customers__1.json").response.body_json as { QueryResponse: { Customer: unknown[] } };
    const customers = page.QueryResponse.Customer.map((c) => parseEntity(customerSchema, c, "Customer"));
    expect(customers).toHaveLength(41);
    expect(customers[0]).toEqual({ id: "1", syncToken: "0", displayName: "Amy's Bird Sanctuary", active: true });
    expect(customers.find((c) => c.id === "64")).toEqual({ id: "64", syncToken: "0", displayName: "Jack Doe", active: true }); // a job: FullyQualifiedName "Doe, Jack:Jack Doe"
    const read = readExchange("minimul-qbo_api/get__id__0.json").response.body_json as { Customer: unknown };
    expect(parseEntity(customerSchema, read.Customer, "Customer")).toEqual({ id: "5", syncToken: "1", displayName: "Dukes Basketball Camp", active: true });
    const created = readExchange("minimul-qbo_api/create__customer__0.json").response.body_json as { Customer: unknown };
    expect(parseEntity(customerSchema, created.Customer, "Customer")).toEqual({ id: "70", syncToken: "0", displayName: "Doe5, Jane", active: true });
  });

  it("Vendor: the recorded pages, the Active IN (true, false) query and a batch-created vendor", () => {
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const page = readExchange(`minimul-qbo_api/all__vendors_by_5__${i}.json`).response.body_json as { QueryResponse: { Vendor: unknown[] } };
      for (const v of page.QueryResponse.Vendor) ids.push(parseEntity(vendorSchema, v, "Vendor").id);
    }
    expect(new Set(ids).size).toBe(26);
    const all = readExchange("minimul-qbo_api/get__inactive_vendors__0.json").response.body_json as { QueryResponse: { Vendor: unknown[] } };
    const vendors = all.QueryResponse.Vendor.map((v) => parseEntity(vendorSchema, v, "Vendor"));
    expect(vendors[0]).toEqual({ id: "56", syncToken: "0", displayName: "Bob's Burger Joint", active: true });
    const batch = readExchange("minimul-qbo_api/batch__basic__0.json").response.body_json as { BatchItemResponse: { Vendor?: unknown }[] };
    expect(parseEntity(vendorSchema, batch.BatchItemResponse[0]?.Vendor, "Vendor")).toEqual({ id: "71", syncToken: "0", displayName: "Boraski Family Store", active: true });
    expect(parseEntity(vendorSchema, { Id: "9", DisplayName: "Old supplier", Active: false }, "Vendor").active).toBe(false);
    expect(() => parseEntity(vendorSchema, { Id: "9" }, "Vendor")).toThrow(/Vendor did not have the expected shape/);
  });

  it("JournalEntry: a line's Entity (its Name) is read as type, id and DisplayName", () => {
    // The recorded payload names an employee on both lines (EntityRef before Type, as sent).
    const payload = readSample("entities/JournalEntry_create_payload__fylein-fyle-qbo-api.json") as { Line: { JournalEntryLineDetail: Record<string, unknown> }[] };
    const je = parseEntity(journalEntrySchema, { ...payload, Id: "1", SyncToken: "0" }, "JournalEntry");
    expect(je.lines.map((l) => l.entity)).toEqual([
      { type: "Employee", id: "55", name: undefined },
      { type: "Employee", id: "55", name: undefined },
    ]);
    const line = payload.Line[0] as { JournalEntryLineDetail: Record<string, unknown> };
    const vendor = { Type: "Vendor", EntityRef: { value: "31", name: "Brosnahan Insurance Agency" } };
    const { Entity: _entity, ...unnamed } = line.JournalEntryLineDetail;
    const mixed = { ...payload, Id: "1", SyncToken: "0", Line: [{ ...line, JournalEntryLineDetail: { ...line.JournalEntryLineDetail, Entity: vendor } }, { ...line, JournalEntryLineDetail: unnamed }] };
    const parsed = parseEntity(journalEntrySchema, mixed, "JournalEntry");
    expect(parsed.lines[0]?.entity).toEqual({ type: "Vendor", id: "31", name: "Brosnahan Insurance Agency" });
    expect(parsed.lines[1]?.entity).toBeUndefined();
    const odd = { ...mixed, Line: [{ ...line, JournalEntryLineDetail: { ...line.JournalEntryLineDetail, Entity: { Type: "Supplier", EntityRef: { value: "31" } } } }] };
    expect(() => parseEntity(journalEntrySchema, odd, "JournalEntry")).toThrow(QboError);
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

describe("Budget", () => {
  // Intuit's documented read example ("MyBudget", quarterly; Read a Budget in the API reference), trimmed to three lines.
  const documented = {
    StartDate: "2014-01-01",
    BudgetEntryType: "Quarterly",
    EndDate: "2014-12-31",
    Name: "MyBudget",
    SyncToken: "9",
    BudgetType: "ProfitAndLoss",
    domain: "QBO",
    sparse: false,
    Active: true,
    BudgetDetail: [
      { Amount: 12.0, AccountRef: { name: "Fees Billed", value: "5" }, BudgetDate: "2014-01-01" },
      { Amount: 12.5, AccountRef: { name: "Fees Billed", value: "5" }, BudgetDate: "2014-04-01" },
      { AccountRef: { value: "7" }, BudgetDate: "2014-07-01" },
    ],
    Id: "1",
    MetaData: { CreateTime: "2014-09-12T10:00:00-07:00", LastUpdatedTime: "2014-09-12T10:00:00-07:00" },
  };

  it("reads the documented shape, amounts as the JSON numbers sent (a budget names no currency) and a missing Amount as 0", () => {
    expect(parseEntity(budgetSchema, documented, "Budget")).toEqual({
      id: "1",
      name: "MyBudget",
      startDate: "2014-01-01",
      endDate: "2014-12-31",
      budgetType: "ProfitAndLoss",
      entryType: "Quarterly",
      active: true,
      details: [
        { budgetDate: "2014-01-01", amount: 12, accountId: "5", accountName: "Fees Billed" },
        { budgetDate: "2014-04-01", amount: 12.5, accountId: "5", accountName: "Fees Billed" },
        { budgetDate: "2014-07-01", amount: 0, accountId: "7", accountName: undefined },
      ],
    });
  });

  it("a detail without its account is an unexpected response naming the field", () => {
    const broken = { ...documented, BudgetDetail: [{ Amount: 1, BudgetDate: "2014-01-01" }] };
    expect(() => parseEntity(budgetSchema, broken, "Budget")).toThrow(QboError);
    expect(() => parseEntity(budgetSchema, broken, "Budget")).toThrow(/Budget did not have the expected shape/);
  });
});
