/**
 * Renders ledger objects as QBO entity JSON, keys in the order Intuit's serializer uses in the
 * recorded samples (entities/*, minimul-qbo_api/deactivate__account__0 etc.).
 */
import { classificationOf } from "./accountTypes.ts";
import { monthName } from "./calendar.ts";
import { shownName } from "./deleted.ts";
import { intuitTime } from "./faults.ts";
import type { Account, BudgetRow, CompanyCurrencyRow, CompanyLedger, ExchangeRateRow, JournalEntry, JournalLine, Party, Tag } from "./ledger.ts";
import { kindOf, totalOf } from "./ledger.ts";
import { centsToNumber } from "./money.ts";

export type Json = { [key: string]: unknown };

/**
 * QuickBooks' names of currencies where they differ from the English ISO names or are documented:
 * "British Pound Sterling" (Intuit's CompanyCurrency create example), "Japanese Yen", "Dutch
 * Guilder", "Australian Dollar", "Canadian Dollar", "Euro" (its query example). Others: the
 * English name from the runtime's ISO 4217 data.
 */
const CURRENCY_NAMES: Record<string, string> = {
  USD: "United States Dollar",
  GBP: "British Pound Sterling",
  CAD: "Canadian Dollar",
  EUR: "Euro",
  JPY: "Japanese Yen",
  ANG: "Dutch Guilder",
  AUD: "Australian Dollar",
};

const ISO_NAMES = new Intl.DisplayNames(["en"], { type: "currency", fallback: "none" });
const ISO_CODES = new Set(Intl.supportedValuesOf("currency"));

/** Whether `code` is an ISO 4217 currency code (upper case). */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && ISO_CODES.has(code);
}

export function currencyName(code: string): string {
  return CURRENCY_NAMES[code] ?? ISO_NAMES.of(code) ?? code;
}

export function currencyRef(code: string): { value: string; name: string } {
  return { value: code, name: currencyName(code) };
}

/** MetaData times carry no milliseconds: "2015-06-23T09:38:18-07:00". */
export function metaTime(ms: number): string {
  return intuitTime(new Date(Math.floor(ms / 1000) * 1000)).replace(/\.\d{3}(?=[+-])/, "");
}

function metaData(createTime: number, updateTime: number): Json {
  return { CreateTime: metaTime(createTime), LastUpdatedTime: metaTime(updateTime) };
}

/** What the account and every account below it hold (QBO's CurrentBalanceWithSubAccounts), cents. */
function balanceWithSubAccounts(ledger: CompanyLedger, a: Account, seen: Set<string> = new Set()): number {
  if (seen.has(a.id)) return 0;
  seen.add(a.id);
  return ledger.subAccountsOf(a.id).reduce((sum, s) => sum + balanceWithSubAccounts(ledger, s, seen), ledger.currentBalance(a));
}

/** An account as a reference names it: by its FullyQualifiedName ("Parent:Child"), " (deleted)" after an inactive one. */
export function accountRefName(ledger: CompanyLedger, a: Account): string {
  return shownName(ledger.fullyQualifiedName(a), a.active);
}

/**
 * Keys in the recorded order (minimul-qbo_api/deactivate__account__0); a sub-account's
 * `ParentRef` ({"value"} only, as the recorded customers' jobs carry it) follows `SubAccount`.
 */
export function renderAccount(ledger: CompanyLedger, a: Account): Json {
  return {
    Name: shownName(a.name, a.active),
    SubAccount: a.parentId !== undefined,
    ...(a.parentId === undefined ? {} : { ParentRef: { value: a.parentId } }),
    FullyQualifiedName: accountRefName(ledger, a),
    Active: a.active,
    Classification: classificationOf(a.type),
    AccountType: a.type,
    AccountSubType: a.subType,
    // QBO leaves AcctNum out of an account that has none (the recorded samples have none).
    ...(a.number === "" ? {} : { AcctNum: a.number }),
    ...(a.description === undefined ? {} : { Description: a.description }),
    CurrentBalance: centsToNumber(ledger.currentBalance(a)),
    CurrentBalanceWithSubAccounts: centsToNumber(balanceWithSubAccounts(ledger, a)),
    CurrencyRef: currencyRef(a.currency ?? ledger.profile.currency),
    domain: "QBO",
    sparse: false,
    Id: a.id,
    SyncToken: String(a.syncToken),
    MetaData: metaData(a.createTime, a.updateTime),
  };
}

export function renderClass(c: Tag): Json {
  return {
    Name: c.name,
    SubClass: false,
    FullyQualifiedName: c.name,
    Active: c.active,
    domain: "QBO",
    sparse: false,
    Id: c.id,
    SyncToken: String(c.syncToken),
    MetaData: metaData(c.createTime, c.updateTime),
  };
}

export function renderDepartment(d: Tag): Json {
  return {
    Name: d.name,
    SubDepartment: false,
    FullyQualifiedName: d.name,
    Active: d.active,
    domain: "QBO",
    sparse: false,
    Id: d.id,
    SyncToken: String(d.syncToken),
    MetaData: metaData(d.createTime, d.updateTime),
  };
}

/**
 * A Customer, keys in the order of minimul-qbo_api/create__customer__0 and get__id__0. The
 * emulator keeps no addresses, contacts or sales tax settings, so those keys never appear.
 */
export function renderCustomer(ledger: CompanyLedger, c: Party): Json {
  const balance = centsToNumber(ledger.partyBalance(c));
  return {
    Taxable: false,
    Job: false,
    BillWithParent: false,
    Balance: balance,
    BalanceWithJobs: balance,
    CurrencyRef: currencyRef(ledger.profile.currency),
    PreferredDeliveryMethod: "Print",
    domain: "QBO",
    sparse: false,
    Id: c.id,
    SyncToken: String(c.syncToken),
    MetaData: metaData(c.createTime, c.updateTime),
    FullyQualifiedName: shownName(c.displayName, c.active),
    ...(c.companyName === undefined ? {} : { CompanyName: c.companyName }),
    DisplayName: shownName(c.displayName, c.active),
    PrintOnCheckName: c.displayName,
    Active: c.active,
  };
}

/** A Vendor, keys in the order of minimul-qbo_api/all__vendors_by_5__* (vendors have no FullyQualifiedName). */
export function renderVendor(ledger: CompanyLedger, v: Party): Json {
  return {
    Balance: centsToNumber(ledger.partyBalance(v)),
    Vendor1099: false,
    CurrencyRef: currencyRef(ledger.profile.currency),
    domain: "QBO",
    sparse: false,
    Id: v.id,
    SyncToken: String(v.syncToken),
    MetaData: metaData(v.createTime, v.updateTime),
    ...(v.companyName === undefined ? {} : { CompanyName: v.companyName }),
    DisplayName: shownName(v.displayName, v.active),
    PrintOnCheckName: v.displayName,
    Active: v.active,
  };
}

export function renderParty(ledger: CompanyLedger, p: Party): Json {
  return p.kind === "Customer" ? renderCustomer(ledger, p) : renderVendor(ledger, p);
}

export function renderJournalEntry(ledger: CompanyLedger, e: JournalEntry): Json {
  const total = totalOf(e);
  const homeTotal = e.lines.filter((l) => l.posting === "Debit").reduce((s, l) => s + l.homeAmount, 0);
  const foreign = e.currency !== ledger.profile.currency;
  return {
    Adjustment: false,
    domain: "QBO",
    sparse: false,
    Id: e.id,
    SyncToken: String(e.syncToken),
    MetaData: metaData(e.createTime, e.updateTime),
    ...(e.docNumber === undefined ? {} : { DocNumber: e.docNumber }),
    TxnDate: e.txnDate,
    CurrencyRef: currencyRef(e.currency),
    ...(foreign && e.exchangeRate !== undefined ? { ExchangeRate: Number(e.exchangeRate) } : {}),
    ...(e.privateNote === undefined ? {} : { PrivateNote: e.privateNote }),
    Line: e.lines.map((l) => {
      const account = ledger.account(l.accountId);
      const cls = l.classId === undefined ? undefined : ledger.classes.find((c) => c.id === l.classId);
      const dept = l.departmentId === undefined ? undefined : ledger.departments.find((d) => d.id === l.departmentId);
      const name = l.entity === undefined ? undefined : ledger.party(l.entity.id);
      return {
        Id: l.id,
        ...(l.description === undefined ? {} : { Description: l.description }),
        Amount: centsToNumber(l.amount),
        DetailType: "JournalEntryLineDetail",
        JournalEntryLineDetail: {
          PostingType: l.posting,
          // Intuit's JournalEntryLineDetail order: PostingType, Entity, AccountRef, ClassRef, DepartmentRef.
          ...(l.entity === undefined ? {} : { Entity: { Type: l.entity.type, EntityRef: { value: l.entity.id, name: name === undefined ? "" : shownName(name.displayName, name.active) } } }),
          AccountRef: { value: l.accountId, name: account === undefined ? "" : accountRefName(ledger, account) },
          ...(cls === undefined ? {} : { ClassRef: { value: cls.id, name: cls.name } }),
          ...(dept === undefined ? {} : { DepartmentRef: { value: dept.id, name: dept.name } }),
        },
      };
    }),
    TxnTaxDetail: {},
    TotalAmt: centsToNumber(total),
    ...(foreign ? { HomeTotalAmt: centsToNumber(homeTotal) } : {}),
  };
}

/**
 * A reference as Intuit's Bill and BillPayment examples write it, `{"name", "value"}` (journal
 * lines, as recorded, put `value` first).
 */
function namedRef(value: string, name: string): Json {
  return { name, value };
}

function accountRef(ledger: CompanyLedger, id: string): Json {
  const account = ledger.account(id);
  return namedRef(id, account === undefined ? "" : accountRefName(ledger, account));
}

function vendorRef(ledger: CompanyLedger, id: string): Json {
  const vendor = ledger.party(id);
  return namedRef(id, vendor === undefined ? "" : shownName(vendor.displayName, vendor.active));
}

function departmentRef(ledger: CompanyLedger, line: JournalLine | undefined): Json {
  const dept = line?.departmentId === undefined ? undefined : ledger.departments.find((d) => d.id === line.departmentId);
  return dept === undefined ? {} : { DepartmentRef: namedRef(dept.id, dept.name) };
}

/** The fields every transaction entity opens with: DocNumber when it has one, then SyncToken and domain. */
function txnOpening(e: JournalEntry): Json {
  return { ...(e.docNumber === undefined ? {} : { DocNumber: e.docNumber }), SyncToken: String(e.syncToken), domain: "QBO" };
}

/**
 * A Bill, keys in the order of Intuit's Bill read example (API reference, "Read a bill":
 * SyncToken, domain, APAccountRef, VendorRef, TxnDate, TotalAmt, CurrencyRef, LinkedTxn, ...,
 * DueDate, sparse, Line, Balance, Id, MetaData; DocNumber first and PrivateNote and DepartmentRef
 * after CurrencyRef as in its full-update example). `LinkedTxn` lists the live payments on it
 * (TxnType "BillPaymentCheck" as documented; "BillPaymentCreditCard" for a card payment is an
 * assumption). Lines as in the create example, BillableStatus "NotBillable"; no TaxCodeRef (the
 * sandbox keeps no tax codes).
 */
export function renderBill(ledger: CompanyLedger, e: JournalEntry): Json {
  if (e.document?.type !== "Bill") throw new Error(`transaction ${e.id} is not a bill`);
  const payable = e.lines[0] as JournalLine;
  const paid = ledger.paymentsOf(e.id);
  return {
    ...txnOpening(e),
    APAccountRef: accountRef(ledger, payable.accountId),
    VendorRef: vendorRef(ledger, e.document.vendorId),
    TxnDate: e.txnDate,
    TotalAmt: centsToNumber(totalOf(e)),
    CurrencyRef: namedRef(e.currency, currencyName(e.currency)),
    ...(paid.length === 0
      ? {}
      : { LinkedTxn: paid.map((p) => ({ TxnId: p.payment.id, TxnType: p.payment.document?.type === "BillPayment" && p.payment.document.payType === "CreditCard" ? "BillPaymentCreditCard" : "BillPaymentCheck" })) }),
    ...(e.privateNote === undefined ? {} : { PrivateNote: e.privateNote }),
    ...departmentRef(ledger, payable),
    DueDate: e.document.dueDate,
    sparse: false,
    Line: e.lines.slice(1).map((l) => {
      const cls = l.classId === undefined ? undefined : ledger.classes.find((c) => c.id === l.classId);
      return {
        ...(l.description === undefined ? {} : { Description: l.description }),
        DetailType: "AccountBasedExpenseLineDetail",
        Amount: centsToNumber(l.amount),
        Id: l.id,
        AccountBasedExpenseLineDetail: {
          AccountRef: accountRef(ledger, l.accountId),
          BillableStatus: "NotBillable",
          ...(cls === undefined ? {} : { ClassRef: namedRef(cls.id, cls.name) }),
        },
      };
    }),
    Balance: centsToNumber(ledger.openBalance(e)),
    Id: e.id,
    MetaData: metaData(e.createTime, e.updateTime),
  };
}

/**
 * A BillPayment, keys in the order of Intuit's BillPayment read and query examples (API reference):
 * SyncToken, domain, VendorRef, TxnDate, TotalAmt, CurrencyRef, PayType, PrivateNote, sparse,
 * CreditCardPayment (card), Line, Id, CheckPayment (check: PrintStatus, BankAccountRef), MetaData;
 * DocNumber first. DepartmentRef (not in the examples) follows PrivateNote.
 */
export function renderBillPayment(ledger: CompanyLedger, e: JournalEntry): Json {
  const doc = e.document;
  if (doc?.type !== "BillPayment") throw new Error(`transaction ${e.id} is not a bill payment`);
  const paying = e.lines[0] as JournalLine;
  return {
    ...txnOpening(e),
    VendorRef: vendorRef(ledger, doc.vendorId),
    TxnDate: e.txnDate,
    TotalAmt: centsToNumber(totalOf(e)),
    CurrencyRef: namedRef(e.currency, currencyName(e.currency)),
    PayType: doc.payType,
    ...(e.privateNote === undefined ? {} : { PrivateNote: e.privateNote }),
    ...departmentRef(ledger, paying),
    sparse: false,
    ...(doc.payType === "CreditCard" ? { CreditCardPayment: { CCAccountRef: accountRef(ledger, paying.accountId) } } : {}),
    Line: doc.links.map((l) => ({ Amount: centsToNumber(l.amount), LinkedTxn: [{ TxnId: l.billId, TxnType: "Bill" }] })),
    Id: e.id,
    ...(doc.payType === "Check" ? { CheckPayment: { PrintStatus: doc.printStatus ?? "NeedToPrint", BankAccountRef: accountRef(ledger, paying.accountId) } } : {}),
    MetaData: metaData(e.createTime, e.updateTime),
  };
}

/** Any transaction as its entity renders it. */
export function renderTransaction(ledger: CompanyLedger, e: JournalEntry): Json {
  switch (kindOf(e)) {
    case "JournalEntry":
      return renderJournalEntry(ledger, e);
    case "Bill":
      return renderBill(ledger, e);
    case "BillPayment":
      return renderBillPayment(ledger, e);
  }
}

/** What Intuit returns for a deleted object (delete__invoice__1) and lists in CDC. */
export function renderDeleted(e: JournalEntry): Json {
  return { domain: "QBO", status: "Deleted", Id: e.id, MetaData: { LastUpdatedTime: metaTime(e.deletedTime ?? e.updateTime) } };
}

function address(ledger: CompanyLedger): Json {
  const a = ledger.profile.address;
  return {
    City: a.city,
    Country: a.country,
    Line1: a.line1,
    PostalCode: a.postalCode,
    ...(a.region === "" ? {} : { CountrySubDivisionCode: a.region }),
    Id: "1",
  };
}

/** Keys in the order of entities/CompanyInfo__fylein-fyle-qbo-api.json. */
export function renderCompanyInfo(ledger: CompanyLedger): Json {
  const p = ledger.profile;
  return {
    SyncToken: "0",
    domain: "QBO",
    LegalAddr: address(ledger),
    SupportedLanguages: "en",
    CompanyName: p.name,
    Country: p.country,
    CompanyAddr: address(ledger),
    sparse: false,
    Id: "1",
    WebAddr: {},
    FiscalYearStartMonth: monthName(p.fiscalYearStartMonth),
    CustomerCommunicationAddr: address(ledger),
    PrimaryPhone: { FreeFormNumber: p.phone },
    LegalName: p.legalName,
    CompanyStartDate: p.startDate,
    Email: { Address: p.email },
    NameValue: [
      { Name: "NeoEnabled", Value: "True" },
      { Name: "IndustryType", Value: "Wholesale Trade" },
      { Name: "SubscriptionStatus", Value: "PAID" },
      { Name: "OfferingSku", Value: "QuickBooks Online Advanced" },
    ],
    MetaData: metaData(p.createTime, p.createTime),
  };
}

/** Preferences as in entities/Preferences_read_response, AccountingInfoPrefs as in the fylein fragment. */
export function renderPreferences(ledger: CompanyLedger): Json {
  const p = ledger.profile;
  const fyMonth = monthName(p.fiscalYearStartMonth);
  return {
    AccountingInfoPrefs: {
      FirstMonthOfFiscalYear: fyMonth,
      UseAccountNumbers: p.useAccountNumbers ?? true,
      TaxYearMonth: fyMonth,
      ClassTrackingPerTxn: false,
      TrackDepartments: true,
      CustomerTerminology: "Customers",
      ...(p.bookCloseDate !== undefined ? { BookCloseDate: p.bookCloseDate } : {}),
      DepartmentTerminology: "Location",
      ClassTrackingPerTxnLine: true,
    },
    ProductAndServicesPrefs: { ForSales: true, ForPurchase: true, QuantityWithPriceAndRate: true, QuantityOnHand: true },
    SalesFormsPrefs: {
      CustomField: [],
      CustomTxnNumbers: true,
      AllowDeposit: false,
      AllowDiscount: true,
      AllowEstimates: true,
      ETransactionEnabledStatus: "NotApplicable",
      IPNSupportEnabled: false,
      AllowServiceDate: false,
      AllowShipping: false,
      DefaultTerms: { value: "3" },
    },
    EmailMessagesPrefs: {
      InvoiceMessage: { Subject: "Invoice from {CompanyName}", Message: "Your invoice is attached. Please remit payment at your earliest convenience." },
      EstimateMessage: { Subject: "Estimate from {CompanyName}", Message: "Please review the estimate below. Feel free to contact us if you have any questions." },
      SalesReceiptMessage: { Subject: "Sales Receipt from {CompanyName}", Message: "Your sales receipt is attached." },
    },
    VendorAndPurchasesPrefs: { TrackingByCustomer: false, BillableExpenseTracking: false, DefaultTerms: { value: "3" } },
    TimeTrackingPrefs: { UseServices: false, BillCustomers: false, ShowBillRateToAll: false, MarkTimeEntriesBillable: false },
    TaxPrefs: { UsingSalesTax: p.country !== "US" || !p.isParent, TaxGroupCodeRef: { value: "2" } },
    CurrencyPrefs: { MultiCurrencyEnabled: p.multiCurrency, HomeCurrency: { value: p.currency } },
    OtherPrefs: { NameValue: [{ Name: "SalesFormsPrefs.DefaultCustomerMessage", Value: "" }] },
    MetaData: metaData(p.createTime, p.createTime),
    Id: "1",
    SyncToken: "0",
  };
}

/**
 * An ExchangeRate, keys in the order of Intuit's API reference examples (ExchangeRate read and
 * update responses). Its query example lists the rows without `domain` and `sparse`
 * (`inQuery`), as rendered here too.
 */
export function renderExchangeRate(r: ExchangeRateRow, inQuery = false): Json {
  const syncToken = String(r.syncToken ?? 0);
  const metaData = { LastUpdatedTime: metaTime(r.updateTime) };
  if (inQuery) {
    return { SyncToken: syncToken, AsOfDate: r.asOfDate, SourceCurrencyCode: r.source, Rate: Number(r.rate), TargetCurrencyCode: r.target, MetaData: metaData };
  }
  return {
    SyncToken: syncToken,
    domain: "QBO",
    AsOfDate: r.asOfDate,
    SourceCurrencyCode: r.source,
    Rate: Number(r.rate),
    sparse: false,
    TargetCurrencyCode: r.target,
    MetaData: metaData,
  };
}

/** A CompanyCurrency, keys in the order of Intuit's API reference examples (read, create, query, update). */
export function renderCompanyCurrency(c: CompanyCurrencyRow): Json {
  return {
    SyncToken: String(c.syncToken),
    domain: "QBO",
    Code: c.code,
    Name: currencyName(c.code),
    sparse: false,
    Active: c.active,
    Id: c.id,
    MetaData: metaData(c.createTime, c.updateTime),
  };
}

/**
 * QuickBooks Online's Budget entity (issue 23), read-only through the API as the emulator keeps it:
 * `select * from Budget` answers each budget with its BudgetDetail lines. The shape follows Intuit's
 * API reference and its query example ("Sandbox Budget": StartDate, BudgetEntryType, EndDate, Name,
 * SyncToken, BudgetType, domain, sparse, Active, BudgetDetail[{Amount, AccountRef, BudgetDate}],
 * then Id and MetaData); a detail line subdivided by class, location or customer carries its
 * ClassRef, DepartmentRef or CustomerRef after the AccountRef. Writes answer QuickBooks'
 * unsupported-operation fault (apiRoutes' catch-all): a budget is made in QuickBooks itself.
 */
export function renderBudget(ledger: CompanyLedger, b: BudgetRow): Json {
  const ref = (value: string, name: string | undefined) => ({ value, name: name ?? "" });
  return {
    StartDate: b.startDate,
    BudgetEntryType: b.entryType,
    EndDate: b.endDate,
    Name: b.name,
    SyncToken: String(b.syncToken),
    BudgetType: b.budgetType,
    domain: "QBO",
    sparse: false,
    Active: b.active,
    BudgetDetail: b.details.map((d) => ({
      Amount: centsToNumber(d.amount),
      AccountRef: ref(d.accountId, ledger.account(d.accountId)?.name),
      ...(d.classId === undefined ? {} : { ClassRef: ref(d.classId, ledger.classes.find((c) => c.id === d.classId)?.name) }),
      ...(d.departmentId === undefined ? {} : { DepartmentRef: ref(d.departmentId, ledger.departments.find((c) => c.id === d.departmentId)?.name) }),
      ...(d.customerId === undefined ? {} : { CustomerRef: ref(d.customerId, ledger.party(d.customerId)?.displayName) }),
      BudgetDate: d.budgetDate,
    })),
    Id: b.id,
    MetaData: { CreateTime: metaTime(b.createTime), LastUpdatedTime: metaTime(b.updateTime) },
  };
}
