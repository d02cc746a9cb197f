/**
 * The top-level properties of the entities the emulator accepts in create/update bodies, as in
 * Intuit's Accounting API reference (the v3 schema classes com.intuit.schema.finance.v3.*). A
 * property outside these is refused as QuickBooks refuses it: 400 ValidationFault 2010
 * "Unrecognized field" (errors/400_ValidationFault_2010_unknown_property__minimul-qbo_api.json).
 * Properties listed here that the emulator does not keep are accepted and ignored, as before.
 * Names are matched exactly (QuickBooks' binder is case-sensitive).
 */
import { unrecognizedField } from "./qboFault.ts";

const COMMON = ["Id", "SyncToken", "MetaData", "CustomField", "AttachableRef", "domain", "status", "sparse"] as const;

const NAMES = [
  "Title", "GivenName", "MiddleName", "FamilyName", "Suffix", "FullyQualifiedName", "CompanyName", "DisplayName",
  "PrintOnCheckName", "Active", "V4IDPseudonym", "PrimaryPhone", "AlternatePhone", "Mobile", "Fax", "PrimaryEmailAddr",
  "WebAddr", "OtherContactInfo", "DefaultTaxCodeRef", "Organization", "TaxIdentifier", "BillAddr", "ShipAddr", "OtherAddr",
  "ContactName", "AltContactName", "Notes", "ParentRef", "Balance", "OpenBalanceDate", "CreditLimit", "AcctNum",
  "CurrencyRef", "TaxRegimeId", "GSTIN", "GSTRegistrationType", "BusinessNumber", "Source",
] as const;

/** What every transaction entity takes (the v3 schema's Transaction). */
const TRANSACTION = [
  ...COMMON, "DocNumber", "TxnDate", "DepartmentRef", "CurrencyRef", "ExchangeRate", "PrivateNote", "TxnStatus",
  "LinkedTxn", "Line", "TxnTaxDetail", "TxnSource", "TaxFormType", "TaxFormNum", "TransactionLocationType", "Tag",
  "TxnApprovalInfo", "RecurDataRef", "RecurringInfo",
] as const;

export const KNOWN_PROPERTIES: Record<string, readonly string[]> = {
  Account: [
    ...COMMON, "Name", "SubAccount", "ParentRef", "Description", "FullyQualifiedName", "AccountAlias", "TxnLocationType",
    "Active", "Classification", "AccountType", "AccountSubType", "AccountPurposes", "AcctNum", "AcctNumExtn", "BankNum",
    "OpeningBalance", "OpeningBalanceDate", "CurrentBalance", "CurrentBalanceWithSubAccounts", "CurrencyRef", "TaxAccount",
    "TaxCodeRef", "OnlineBankingEnabled", "FIName", "JournalCode", "AccountEx",
  ],
  Class: [...COMMON, "Name", "SubClass", "ParentRef", "FullyQualifiedName", "Active", "ClassEx"],
  Customer: [
    ...COMMON, ...NAMES, "Taxable", "ResaleNum", "Job", "BillWithParent", "RootCustomerRef", "Level", "CustomerTypeRef",
    "SalesTermRef", "SalesRepRef", "PaymentMethodRef", "CCDetail", "PriceLevelRef", "BalanceWithJobs", "OverDueBalance",
    "TotalRevenue", "TotalExpense", "PreferredDeliveryMethod", "JobInfo", "TDSEnabled", "CustomerEx", "ARAccountRef",
    "PrimaryTaxIdentifier", "SecondaryTaxIdentifier", "TaxExemptionReasonId", "IsProject", "ClientCompanyId", "ClientEntityId",
    "IsCISContractor",
  ],
  Vendor: [
    ...COMMON, ...NAMES, "TaxCountry", "TaxReportingBasis", "VendorTypeRef", "TermRef", "PrefillAccountRef", "Vendor1099",
    "T4AEligible", "T5018Eligible", "APAccountRef", "VendorEx", "CostRate", "BillRate", "HasTPAR", "IsSubContractor",
    "VendorPaymentBankDetail", "OtherContactInfo",
  ],
  JournalEntry: [
    ...TRANSACTION, "Adjustment", "HomeCurrencyAdjustment", "EnteredInHomeCurrency", "GlobalTaxCalculation", "TotalAmt",
    "HomeTotalAmt", "JournalEntryEx",
  ],
  // Intuit's API reference, Bill and BillPayment attributes (after those every transaction has).
  Bill: [
    ...TRANSACTION, "VendorRef", "APAccountRef", "SalesTermRef", "DueDate", "TotalAmt", "Balance", "HomeBalance",
    "GlobalTaxCalculation", "IncludeInAnnualTPAR", "VendorAddr", "RemitToAddr", "ShipAddr", "PayerRef", "BillEx",
  ],
  BillPayment: [
    ...TRANSACTION, "VendorRef", "PayType", "CheckPayment", "CreditCardPayment", "APAccountRef", "TotalAmt",
    "ProcessBillPayment", "BillPaymentEx",
  ],
  CompanyCurrency: [...COMMON, "Code", "Name", "Active"],
  // No Id: an exchange rate is named by its source currency and date.
  ExchangeRate: ["SyncToken", "MetaData", "CustomField", "domain", "sparse", "SourceCurrencyCode", "TargetCurrencyCode", "Rate", "AsOfDate"],
};

/** Throws the recorded 2010 for the first property of `body` that `entity`'s schema does not have. */
export function checkKnownProperties(entity: keyof typeof KNOWN_PROPERTIES & string, body: unknown): void {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return;
  const known = [...new Set(KNOWN_PROPERTIES[entity] ?? [])];
  for (const key of Object.keys(body)) {
    if (!known.includes(key)) throw unrecognizedField(key, entity, known);
  }
}
