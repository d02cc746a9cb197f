/**
 * Creating an Account through the API, validated the way QBO validates it: a unique name (any
 * case) without the characters QBO reserves for sub-account paths, a known AccountType, an
 * AccountSubType (detail type) that belongs to it, and an AcctNum nobody else uses. A duplicate
 * name is the recorded 6240; the wording for a duplicate number is ours (businessValidation).
 */
import { ACCOUNT_TYPES, type AccountType } from "./accountTypes.ts";
import type { Json } from "./entities.ts";
import type { Account, CompanyLedger } from "./ledger.ts";
import { businessValidation, duplicateName, unsupportedProperty } from "./qboFault.ts";

/** QBO's limits on Account.Name and Account.Description. */
export const MAX_ACCOUNT_NAME = 100;
export const MAX_ACCOUNT_DESCRIPTION = 100;

/**
 * Detail types the emulator knows per type. Equity is complete (Intuit's AccountSubTypeEnum for
 * Equity, OpeningBalanceEquity first: QBO's default); the other types list what a default chart
 * uses, the first of each being the default when AccountSubType is left out.
 */
export const ACCOUNT_SUBTYPES: Record<AccountType, readonly string[]> = {
  Bank: ["CashOnHand", "Checking", "MoneyMarket", "RentsHeldInTrust", "Savings", "TrustAccounts"],
  "Accounts Receivable": ["AccountsReceivable"],
  "Other Current Asset": ["OtherCurrentAssets", "Inventory", "PrepaidExpenses", "UndepositedFunds", "LoansToOfficers", "LoansToOthers", "EmployeeCashAdvances", "AllowanceForBadDebts"],
  "Fixed Asset": ["MachineryAndEquipment", "Buildings", "FurnitureAndFixtures", "Vehicles", "AccumulatedDepreciation", "Land", "LeaseholdImprovements", "OtherFixedAssets"],
  "Other Asset": ["OtherLongTermAssets", "Goodwill", "SecurityDeposits", "Licenses", "AccumulatedAmortizationOfOtherAssets", "OrganizationalCosts"],
  "Accounts Payable": ["AccountsPayable"],
  "Credit Card": ["CreditCard"],
  "Other Current Liability": ["OtherCurrentLiabilities", "LineOfCredit", "LoanPayable", "PayrollTaxPayable", "SalesTaxPayable", "DirectDepositPayable", "GlobalTaxPayable", "InsurancePayable", "PrepaidExpensesPayable", "TrustAccountsLiabilities"],
  "Long Term Liability": ["OtherLongTermLiabilities", "NotesPayable", "ShareholderNotesPayable"],
  Equity: [
    "OpeningBalanceEquity", "PartnersEquity", "RetainedEarnings", "AccumulatedAdjustment", "OwnersEquity", "PaidInCapitalOrSurplus",
    "PartnerContributions", "PartnerDistributions", "PreferredStock", "CommonStock", "TreasuryStock", "EstimatedTaxes", "Healthcare",
    "PersonalIncome", "PersonalExpense", "AccumulatedOtherComprehensiveIncome", "DividendDisbursed",
  ],
  Income: ["SalesOfProductIncome", "ServiceFeeIncome", "DiscountsRefundsGiven", "NonProfitIncome", "OtherPrimaryIncome", "UnappliedCashPaymentIncome"],
  "Cost of Goods Sold": ["SuppliesMaterialsCogs", "CostOfLaborCos", "EquipmentRentalCos", "OtherCostsOfServiceCos", "ShippingFreightDeliveryCos"],
  Expense: [
    "OfficeGeneralAdministrativeExpenses", "AdvertisingPromotional", "BadDebts", "BankCharges", "Insurance", "InterestPaid", "LegalProfessionalFees",
    "PayrollExpenses", "RentOrLeaseOfBuildings", "RepairMaintenance", "Travel", "TravelMeals", "Utilities", "Auto", "EntertainmentMeals", "OtherMiscellaneousServiceCost",
  ],
  "Other Income": ["OtherMiscellaneousIncome", "InterestEarned", "DividendIncome", "GainLossOnSaleOfInvestments", "OtherInvestmentIncome"],
  "Other Expense": ["OtherMiscellaneousExpense", "Depreciation", "Amortization", "ExchangeGainOrLoss", "PenaltiesSettlements", "Vehicle"],
};

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

const optionalText = (body: Json, key: string): string | undefined => {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw unsupportedProperty(key, "must be a string");
  return v.trim() === "" ? undefined : v.trim();
};

/** Validates a create body and adds the account; the caller persists and renders it. */
export function createAccount(ledger: CompanyLedger, body: unknown, now: Date): Account {
  if (!isObject(body)) throw unsupportedProperty("Account", "the body must be an Account object");
  if (body["Id"] !== undefined) throw unsupportedProperty("Id", "updating accounts is not supported by the sandbox; create a new one instead");
  const name = optionalText(body, "Name") ?? "";
  if (name === "" || name.length > MAX_ACCOUNT_NAME) throw unsupportedProperty("Name", `is required (1 to ${MAX_ACCOUNT_NAME} characters)`);
  // A colon separates a sub-account's path in FullyQualifiedName; QBO refuses both characters in names.
  if (/[:"]/.test(name)) throw unsupportedProperty("Name", "must not contain a colon (:) or a double quote (\")");
  const type = optionalText(body, "AccountType");
  if (type === undefined || !(type in ACCOUNT_TYPES)) {
    throw unsupportedProperty("AccountType", `value ${JSON.stringify(body["AccountType"] ?? null)} is not an account type (e.g. Equity, Bank, Expense)`);
  }
  const accountType = type as AccountType;
  const subTypes = ACCOUNT_SUBTYPES[accountType];
  const subType = optionalText(body, "AccountSubType") ?? (subTypes[0] as string);
  if (!subTypes.includes(subType)) throw unsupportedProperty("AccountSubType", `value ${subType} is not a detail type of ${accountType} accounts`);
  const number = optionalText(body, "AcctNum") ?? "";
  const description = optionalText(body, "Description");
  if (description !== undefined && description.length > MAX_ACCOUNT_DESCRIPTION) {
    throw unsupportedProperty("Description", `must be at most ${MAX_ACCOUNT_DESCRIPTION} characters`);
  }
  if (ledger.accounts.some((a) => a.name.toLowerCase() === name.toLowerCase())) throw duplicateName();
  if (number !== "" && ledger.accounts.some((a) => a.number === number)) throw businessValidation(`Another account already uses the number ${number}.`);

  const ms = now.getTime();
  const account: Account = {
    id: ledger.nextId(ledger.accounts),
    number,
    name,
    type: accountType,
    subType,
    active: true,
    ...(description === undefined ? {} : { description }),
    createTime: ms,
    updateTime: ms,
    syncToken: 0,
  };
  ledger.addAccount(account);
  return account;
}
