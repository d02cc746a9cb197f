/** QBO's account types as they appear on the wire, and where each one lands in reports. */

export type Classification = "Asset" | "Liability" | "Equity" | "Revenue" | "Expense";

export type AccountType =
  | "Bank"
  | "Accounts Receivable"
  | "Other Current Asset"
  | "Fixed Asset"
  | "Other Asset"
  | "Accounts Payable"
  | "Credit Card"
  | "Other Current Liability"
  | "Long Term Liability"
  | "Equity"
  | "Income"
  | "Cost of Goods Sold"
  | "Expense"
  | "Other Income"
  | "Other Expense";

export const ACCOUNT_TYPES: Record<AccountType, { classification: Classification; balanceSheet: boolean }> = {
  Bank: { classification: "Asset", balanceSheet: true },
  "Accounts Receivable": { classification: "Asset", balanceSheet: true },
  "Other Current Asset": { classification: "Asset", balanceSheet: true },
  "Fixed Asset": { classification: "Asset", balanceSheet: true },
  "Other Asset": { classification: "Asset", balanceSheet: true },
  "Accounts Payable": { classification: "Liability", balanceSheet: true },
  "Credit Card": { classification: "Liability", balanceSheet: true },
  "Other Current Liability": { classification: "Liability", balanceSheet: true },
  "Long Term Liability": { classification: "Liability", balanceSheet: true },
  Equity: { classification: "Equity", balanceSheet: true },
  Income: { classification: "Revenue", balanceSheet: false },
  "Other Income": { classification: "Revenue", balanceSheet: false },
  "Cost of Goods Sold": { classification: "Expense", balanceSheet: false },
  Expense: { classification: "Expense", balanceSheet: false },
  "Other Expense": { classification: "Expense", balanceSheet: false },
};

export function classificationOf(type: AccountType): Classification {
  return ACCOUNT_TYPES[type].classification;
}

export function isBalanceSheet(type: AccountType): boolean {
  return ACCOUNT_TYPES[type].balanceSheet;
}

/** Debit-positive ledger sums are shown credit-positive for these (liabilities, equity, income). */
export function isCreditNatured(type: AccountType): boolean {
  const c = classificationOf(type);
  return c === "Liability" || c === "Equity" || c === "Revenue";
}

/**
 * Account types a multicurrency company can give a foreign currency. QuickBooks' help ("About
 * multicurrency"): "You can assign a currency to most types of accounts: customers, vendors, bank,
 * credit card, accounts receivable, and accounts payable. Income and expense accounts always use
 * your home currency"; the other asset and liability types take one too ("add new asset and
 * liability accounts ... for each currency", QuickBooks Online For Dummies). Equity is not named
 * by either and stays in the home currency here (an assumption, not verified against QuickBooks).
 */
export function holdsForeignCurrency(type: AccountType): boolean {
  const c = classificationOf(type);
  return c === "Asset" || c === "Liability";
}
