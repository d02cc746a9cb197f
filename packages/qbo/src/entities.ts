/**
 * The entities we read, validated at the boundary. Lenient on fields we do not use (zod strips
 * them), strict on the ones we do: a missing or mistyped one is an "unexpected response" QboError
 * naming the field, rather than an `undefined` found three modules later.
 * Objects are our own camelCase shapes, named after QBO's fields; amounts are minor units.
 */
import { z } from "zod";
import { unexpectedResponse } from "./failures.ts";
import { amountFromJsonNumber, wireExponent } from "./money.ts";

const ref = z.object({ value: z.string(), name: z.string().optional() });
const metaData = z.object({ CreateTime: z.string().optional(), LastUpdatedTime: z.string().optional() }).optional();

export interface Account {
  readonly id: string;
  readonly syncToken: string;
  readonly name: string;
  readonly fullyQualifiedName: string;
  /** `AcctNum`, the account number; absent when the company does not use numbers. */
  readonly acctNum: string | undefined;
  /** 'Bank', 'Accounts Receivable', 'Income', ... */
  readonly accountType: string;
  readonly accountSubType: string | undefined;
  /** 'Asset' | 'Liability' | 'Equity' | 'Revenue' | 'Expense'. */
  readonly classification: string | undefined;
  readonly currency: string | undefined;
  readonly active: boolean;
  readonly subAccount: boolean;
  readonly parentId: string | undefined;
  /** Minor units of `currency`. */
  readonly currentBalance: number | undefined;
  readonly currentBalanceWithSubAccounts: number | undefined;
  readonly description: string | undefined;
  readonly lastUpdatedTime: string | undefined;
}

/**
 * QuickBooks answers an inactive account or name with " (deleted)" after its Name/DisplayName and
 * FullyQualifiedName (recordings minimul-qbo_api/deactivate__account__0, get__inactive_vendors__0).
 */
export const DELETED_SUFFIX = " (deleted)";

/** The name the user gave an inactive record, without the suffix QuickBooks shows after it; `Active` says it is inactive. */
export const withoutDeletedSuffix = (name: string, active: boolean): string =>
  !active && name.endsWith(DELETED_SUFFIX) ? name.slice(0, -DELETED_SUFFIX.length) : name;

export const accountSchema = z
  .object({
    Id: z.string(),
    SyncToken: z.string().default("0"),
    Name: z.string(),
    FullyQualifiedName: z.string().optional(),
    AcctNum: z.string().optional(),
    AccountType: z.string(),
    AccountSubType: z.string().optional(),
    Classification: z.string().optional(),
    CurrencyRef: ref.optional(),
    Active: z.boolean().default(true),
    SubAccount: z.boolean().default(false),
    ParentRef: ref.optional(),
    CurrentBalance: z.number().optional(),
    CurrentBalanceWithSubAccounts: z.number().optional(),
    Description: z.string().optional(),
    MetaData: metaData,
  })
  .transform((a): Account => {
    const exponent = wireExponent(a.CurrencyRef?.value);
    return {
      id: a.Id,
      syncToken: a.SyncToken,
      // The chart keeps the account's own name; `active` already says it is inactive, and messages
      // such as '"Fees Billed" is inactive in QuickBooks' must not read "Fees Billed (deleted)".
      name: withoutDeletedSuffix(a.Name, a.Active),
      fullyQualifiedName: withoutDeletedSuffix(a.FullyQualifiedName ?? a.Name, a.Active),
      acctNum: a.AcctNum === "" ? undefined : a.AcctNum,
      accountType: a.AccountType,
      accountSubType: a.AccountSubType,
      classification: a.Classification,
      currency: a.CurrencyRef?.value,
      active: a.Active,
      subAccount: a.SubAccount,
      parentId: a.ParentRef?.value,
      currentBalance: a.CurrentBalance === undefined ? undefined : amountFromJsonNumber(a.CurrentBalance, exponent),
      currentBalanceWithSubAccounts:
        a.CurrentBalanceWithSubAccounts === undefined ? undefined : amountFromJsonNumber(a.CurrentBalanceWithSubAccounts, exponent),
      description: a.Description,
      lastUpdatedTime: a.MetaData?.LastUpdatedTime,
    };
  });

/** A Class (the spec's "division") or a Department (QBO's "Location"): the same shape. */
export interface NamedListItem {
  readonly id: string;
  readonly syncToken: string;
  readonly name: string;
  readonly fullyQualifiedName: string;
  readonly active: boolean;
  readonly parentId: string | undefined;
}

export const namedListItemSchema = z
  .object({
    Id: z.string(),
    SyncToken: z.string().default("0"),
    Name: z.string(),
    FullyQualifiedName: z.string().optional(),
    Active: z.boolean().default(true),
    ParentRef: ref.optional(),
  })
  .transform(
    (c): NamedListItem => ({
      id: c.Id,
      syncToken: c.SyncToken,
      name: c.Name,
      fullyQualifiedName: c.FullyQualifiedName ?? c.Name,
      active: c.Active,
      parentId: c.ParentRef?.value,
    }),
  );

/**
 * A Customer or a Vendor: QBO's "names", what a journal line's Entity refers to. Customers and
 * vendors share one id sequence and one namespace of DisplayNames (a name a customer uses cannot
 * be given to a vendor: 6240). Only what GroupLedger uses is read; addresses, balances and the
 * rest QBO sends are ignored.
 */
export interface CustomerOrVendor {
  readonly id: string;
  readonly syncToken: string;
  readonly displayName: string;
  readonly active: boolean;
}

export type Customer = CustomerOrVendor;
export type Vendor = CustomerOrVendor;

export const customerOrVendorSchema = z
  .object({
    Id: z.string(),
    SyncToken: z.string().default("0"),
    DisplayName: z.string(),
    Active: z.boolean().default(true),
  })
  .transform((c): CustomerOrVendor => ({ id: c.Id, syncToken: c.SyncToken, displayName: c.DisplayName, active: c.Active }));

export const customerSchema = customerOrVendorSchema;
export const vendorSchema = customerOrVendorSchema;

export interface CompanyInfo {
  readonly id: string;
  readonly companyName: string;
  readonly legalName: string | undefined;
  /** ISO country code as QBO keeps it ('US', 'GB', 'CA', ...). */
  readonly country: string | undefined;
  /** 'January' ... 'December'. */
  readonly fiscalYearStartMonth: string | undefined;
  readonly companyStartDate: string | undefined;
}

export const companyInfoSchema = z
  .object({
    Id: z.string(),
    CompanyName: z.string(),
    LegalName: z.string().optional(),
    Country: z.string().optional(),
    FiscalYearStartMonth: z.string().optional(),
    CompanyStartDate: z.string().optional(),
  })
  .transform(
    (c): CompanyInfo => ({
      id: c.Id,
      companyName: c.CompanyName,
      legalName: c.LegalName,
      country: c.Country,
      fiscalYearStartMonth: c.FiscalYearStartMonth,
      companyStartDate: c.CompanyStartDate,
    }),
  );

export type ClassTracking = "none" | "per_transaction" | "per_line";

export interface CompanyPreferences {
  readonly homeCurrency: string;
  readonly multiCurrencyEnabled: boolean;
  readonly classTracking: ClassTracking;
  readonly departmentTracking: boolean;
  /** What the company calls departments ('Department', 'Location', ...). */
  readonly departmentTerminology: string | undefined;
  readonly firstMonthOfFiscalYear: string | undefined;
  readonly bookCloseDate: string | undefined;
}

// QBO leaves false booleans out of some Preferences payloads, hence the defaults.
export const preferencesSchema = z
  .object({
    AccountingInfoPrefs: z
      .object({
        TrackDepartments: z.boolean().default(false),
        DepartmentTerminology: z.string().optional(),
        ClassTrackingPerTxn: z.boolean().default(false),
        ClassTrackingPerTxnLine: z.boolean().default(false),
        FirstMonthOfFiscalYear: z.string().optional(),
        BookCloseDate: z.string().optional(),
      })
      .default({ TrackDepartments: false, ClassTrackingPerTxn: false, ClassTrackingPerTxnLine: false }),
    CurrencyPrefs: z.object({
      MultiCurrencyEnabled: z.boolean().default(false),
      HomeCurrency: ref,
    }),
  })
  .transform((p): CompanyPreferences => {
    const a = p.AccountingInfoPrefs;
    return {
      homeCurrency: p.CurrencyPrefs.HomeCurrency.value,
      multiCurrencyEnabled: p.CurrencyPrefs.MultiCurrencyEnabled,
      classTracking: a.ClassTrackingPerTxnLine ? "per_line" : a.ClassTrackingPerTxn ? "per_transaction" : "none",
      departmentTracking: a.TrackDepartments,
      departmentTerminology: a.DepartmentTerminology,
      firstMonthOfFiscalYear: a.FirstMonthOfFiscalYear,
      bookCloseDate: a.BookCloseDate,
    };
  });

export type PostingType = "Debit" | "Credit";

/** QBO's EntityTypeEnum: what a journal line's Name can be. GroupLedger posts Customer or Vendor. */
export type JournalLineEntityType = "Customer" | "Vendor" | "Employee" | "Job" | "Other";

/** A journal line's Name: `JournalEntryLineDetail.Entity` `{ Type, EntityRef: { value, name } }`. */
export interface JournalLineEntity {
  readonly type: JournalLineEntityType;
  readonly id: string;
  /** The name's DisplayName, as QBO echoes it. */
  readonly name: string | undefined;
}

export interface JournalEntryLine {
  readonly id: string | undefined;
  readonly postingType: PostingType;
  /** Minor units of the entry's currency, always positive. */
  readonly amount: number;
  readonly accountId: string;
  readonly description: string | undefined;
  readonly classId: string | undefined;
  readonly departmentId: string | undefined;
  /** The line's Name (customer or vendor), when it has one. */
  readonly entity?: JournalLineEntity | undefined;
}

export interface JournalEntry {
  readonly id: string;
  readonly syncToken: string;
  readonly txnDate: string;
  readonly docNumber: string | undefined;
  readonly privateNote: string | undefined;
  readonly currency: string | undefined;
  /** As QBO sent it (home-currency units per one unit of `currency`), exact decimal text. */
  readonly exchangeRate: string | undefined;
  /** Description-only lines (no account) are left out. */
  readonly lines: readonly JournalEntryLine[];
}

const journalEntryLineWire = z.object({
  Id: z.string().optional(),
  Description: z.string().optional(),
  Amount: z.number().optional(),
  DetailType: z.string(),
  JournalEntryLineDetail: z
    .object({
      PostingType: z.enum(["Debit", "Credit"]),
      Entity: z.object({ Type: z.enum(["Customer", "Vendor", "Employee", "Job", "Other"]), EntityRef: ref }).optional(),
      AccountRef: ref,
      ClassRef: ref.optional(),
      DepartmentRef: ref.optional(),
    })
    .optional(),
});

export const journalEntrySchema = z
  .object({
    Id: z.string(),
    SyncToken: z.string(),
    TxnDate: z.string(),
    DocNumber: z.string().optional(),
    PrivateNote: z.string().optional(),
    CurrencyRef: ref.optional(),
    ExchangeRate: z.number().optional(),
    Line: z.array(journalEntryLineWire).default([]),
  })
  .transform((je, ctx): JournalEntry => {
    const exponent = wireExponent(je.CurrencyRef?.value);
    const lines: JournalEntryLine[] = [];
    for (const [i, line] of je.Line.entries()) {
      const detail = line.JournalEntryLineDetail;
      if (line.DetailType !== "JournalEntryLineDetail" || detail === undefined) continue;
      if (line.Amount === undefined) {
        ctx.addIssue({ code: "custom", path: ["Line", i, "Amount"], message: "a journal line has no Amount" });
        continue;
      }
      lines.push({
        id: line.Id,
        postingType: detail.PostingType,
        amount: amountFromJsonNumber(line.Amount, exponent),
        accountId: detail.AccountRef.value,
        description: line.Description,
        classId: detail.ClassRef?.value,
        departmentId: detail.DepartmentRef?.value,
        ...(detail.Entity === undefined ? {} : { entity: { type: detail.Entity.Type, id: detail.Entity.EntityRef.value, name: detail.Entity.EntityRef.name } }),
      });
    }
    return {
      id: je.Id,
      syncToken: je.SyncToken,
      txnDate: je.TxnDate,
      docNumber: je.DocNumber,
      privateNote: je.PrivateNote,
      currency: je.CurrencyRef?.value,
      exchangeRate: je.ExchangeRate === undefined ? undefined : String(je.ExchangeRate),
      lines,
    };
  });

export interface ExchangeRate {
  readonly sourceCurrency: string;
  readonly targetCurrency: string;
  /** Target-currency units per one source unit, as exact decimal text. */
  readonly rate: string;
  readonly asOfDate: string;
}

export const exchangeRateSchema = z
  .object({ SourceCurrencyCode: z.string(), TargetCurrencyCode: z.string(), Rate: z.number().positive(), AsOfDate: z.string() })
  .transform(
    (r): ExchangeRate => ({ sourceCurrency: r.SourceCurrencyCode, targetCurrency: r.TargetCurrencyCode, rate: String(r.Rate), asOfDate: r.AsOfDate }),
  );

/**
 * A Budget (read-only in QuickBooks; `select * from Budget`). Its BudgetDetail amounts stay the JSON
 * numbers QuickBooks sent: a budget names no currency, so the caller turns them into minor units of
 * the company's own (`amountFromJsonNumber`).
 */
export interface Budget {
  readonly id: string;
  readonly name: string;
  readonly startDate: string;
  readonly endDate: string;
  /** "ProfitAndLoss" | "BalanceSheet". */
  readonly budgetType: string;
  /** "Monthly" | "Quarterly" | "Annually". */
  readonly entryType: string;
  readonly active: boolean;
  readonly details: readonly { readonly budgetDate: string; readonly amount: number; readonly accountId: string; readonly accountName: string | undefined }[];
}

export const budgetSchema = z
  .object({
    Id: z.string(),
    Name: z.string().default(""),
    StartDate: z.string(),
    EndDate: z.string(),
    BudgetType: z.string().default("ProfitAndLoss"),
    BudgetEntryType: z.string().default("Monthly"),
    Active: z.boolean().default(true),
    BudgetDetail: z.array(z.object({ BudgetDate: z.string(), Amount: z.number().default(0), AccountRef: ref })).default([]),
  })
  .transform(
    (b): Budget => ({
      id: b.Id,
      name: b.Name,
      startDate: b.StartDate.slice(0, 10),
      endDate: b.EndDate.slice(0, 10),
      budgetType: b.BudgetType,
      entryType: b.BudgetEntryType,
      active: b.Active,
      details: b.BudgetDetail.map((d) => ({ budgetDate: d.BudgetDate.slice(0, 10), amount: d.Amount, accountId: d.AccountRef.value, accountName: d.AccountRef.name })),
    }),
  );

/** Parses `value` or throws an "unexpected response" QboError saying which field was wrong. */
export function parseEntity<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  try {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw unexpectedResponse(`${what} did not have the expected shape`, issues.join("; "));
  } catch (e) {
    // An AmountError from a transform (e.g. 3 decimals on a USD amount) is an unexpected response too.
    if (e instanceof Error && e.name === "AmountError") throw unexpectedResponse(`${what} has an invalid amount`, e.message);
    throw e;
  }
}
