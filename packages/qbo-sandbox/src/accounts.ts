/**
 * Creating and updating an Account through the API, validated the way QBO validates it: a name
 * without the characters QBO reserves for sub-account paths, unique (any case) among the accounts
 * under the same parent (QuickBooks allows "Film Crew:Salaries" beside "Acting Staff:Salaries"), a
 * known AccountType, an AccountSubType (detail type) that belongs to it, an AcctNum nobody else
 * uses, and for a sub-account the rules of subAccounts.ts. A duplicate name is the recorded 6240;
 * the wording for a duplicate number is ours (businessValidation).
 * An update names the account by Id with its current SyncToken (else the recorded 5010) and is
 * either full (`sparse` false or absent: writable fields left out go back to their defaults) or
 * sparse (only the fields sent change). Name is required in both, as QBO requires it.
 */
import { withoutDeletedSuffix } from "./deleted.ts";
import { ACCOUNT_TYPES, holdsForeignCurrency, type AccountType } from "./accountTypes.ts";
import type { Json } from "./entities.ts";
import type { Account, CompanyLedger } from "./ledger.ts";
import { businessValidation, duplicateName, objectNotFound, staleObject, unsupportedProperty, validationFault } from "./qboFault.ts";
import { checkKeepsSubAccounts, checkParent, placementOf } from "./subAccounts.ts";

/** QBO's limits on Account.Name and Account.Description. */
export const MAX_ACCOUNT_NAME = 100;
export const MAX_ACCOUNT_DESCRIPTION = 100;

/**
 * Detail types the emulator knows per type. Equity is complete (Intuit's AccountSubTypeEnum for
 * Equity, OpeningBalanceEquity first: QBO's default); the other types list what a default chart
 * and the demo charts use, the first of each being the default when AccountSubType is left out.
 */
export const ACCOUNT_SUBTYPES: Record<AccountType, readonly string[]> = {
  Bank: ["CashOnHand", "Checking", "MoneyMarket", "RentsHeldInTrust", "Savings", "TrustAccounts"],
  "Accounts Receivable": ["AccountsReceivable"],
  "Other Current Asset": ["OtherCurrentAssets", "Inventory", "PrepaidExpenses", "UndepositedFunds", "LoansToOfficers", "LoansToOthers", "EmployeeCashAdvances", "AllowanceForBadDebts"],
  "Fixed Asset": ["MachineryAndEquipment", "Buildings", "FurnitureAndFixtures", "Vehicles", "AccumulatedDepreciation", "Land", "LeaseholdImprovements", "OtherFixedAssets"],
  "Other Asset": ["OtherLongTermAssets", "Goodwill", "SecurityDeposits", "Licenses", "AccumulatedAmortizationOfOtherAssets", "OrganizationalCosts", "IntangibleAssets"],
  "Accounts Payable": ["AccountsPayable"],
  "Credit Card": ["CreditCard"],
  "Other Current Liability": ["OtherCurrentLiabilities", "LineOfCredit", "LoanPayable", "PayrollTaxPayable", "SalesTaxPayable", "DirectDepositPayable", "GlobalTaxPayable", "InsurancePayable", "PrepaidExpensesPayable", "TrustAccountsLiabilities", "FederalIncomeTaxPayable"],
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
    "DuesSubscriptions", "ShippingFreightDelivery", "CharitableContributions", "Entertainment", "TaxesPaid", "EquipmentRental", "SuppliesMaterials",
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

/** The writable fields of an Account, after the checks that need no other account. */
interface Fields {
  readonly name: string;
  readonly type: AccountType;
  readonly subType: string;
  readonly number: string;
  readonly description: string | undefined;
  readonly active: boolean;
  readonly parentId: string | undefined;
}

function checkName(name: string | undefined): string {
  if (name === undefined || name.length > MAX_ACCOUNT_NAME) throw unsupportedProperty("Name", `is required (1 to ${MAX_ACCOUNT_NAME} characters)`);
  // A colon separates a sub-account's path in FullyQualifiedName; QBO refuses both characters in names.
  if (/[:"]/.test(name)) throw unsupportedProperty("Name", "must not contain a colon (:) or a double quote (\")");
  return name;
}

function checkType(body: Json): AccountType {
  const type = optionalText(body, "AccountType");
  if (type === undefined || !(type in ACCOUNT_TYPES)) {
    throw unsupportedProperty("AccountType", `value ${JSON.stringify(body["AccountType"] ?? null)} is not an account type (e.g. Equity, Bank, Expense)`);
  }
  return type as AccountType;
}

function checkSubType(given: string | undefined, type: AccountType, fallback?: string): string {
  const subTypes = ACCOUNT_SUBTYPES[type];
  const subType = given ?? (fallback !== undefined && subTypes.includes(fallback) ? fallback : (subTypes[0] as string));
  if (!subTypes.includes(subType)) throw unsupportedProperty("AccountSubType", `value ${subType} is not a detail type of ${type} accounts`);
  return subType;
}

function checkDescription(description: string | undefined): string | undefined {
  if (description !== undefined && description.length > MAX_ACCOUNT_DESCRIPTION) {
    throw unsupportedProperty("Description", `must be at most ${MAX_ACCOUNT_DESCRIPTION} characters`);
  }
  return description;
}

function checkActive(v: unknown): boolean {
  if (typeof v !== "boolean") throw unsupportedProperty("Active", `value ${JSON.stringify(v)} must be true or false`);
  return v;
}

/**
 * A name is unique among its siblings (so FullyQualifiedName is unique), a number in the whole
 * chart; `self` is the account being updated, which may keep its own.
 */
function checkUnique(ledger: CompanyLedger, fields: Pick<Fields, "name" | "number" | "parentId">, self?: string): void {
  const others = ledger.accounts.filter((a) => a.id !== self);
  if (others.some((a) => a.parentId === fields.parentId && a.name.toLowerCase() === fields.name.toLowerCase())) throw duplicateName();
  if (fields.number !== "" && others.some((a) => a.number === fields.number)) throw businessValidation(`Another account already uses the number ${fields.number}.`);
}

/**
 * The account's currency from `CurrencyRef`: absent or the home currency → undefined (home). A
 * foreign one needs multicurrency on, a type that holds foreign currency (holdsForeignCurrency)
 * and a currency the company has turned on (an active CompanyCurrency). QuickBooks' wording for
 * these refusals is not recorded: the Detail is ours, in the recorded 6000 envelope.
 */
function checkCurrency(ledger: CompanyLedger, body: Json, type: AccountType): string | undefined {
  const ref = body["CurrencyRef"];
  if (ref === undefined || ref === null) return undefined;
  const raw = isObject(ref) ? ref["value"] : undefined;
  if (typeof raw !== "string" || raw.trim() === "") throw unsupportedProperty("CurrencyRef", "must be an object with value, an ISO 4217 code such as EUR");
  const code = raw.trim().toUpperCase();
  const home = ledger.profile.currency;
  if (code === home) return undefined;
  if (!ledger.profile.multiCurrency) throw businessValidation(`Multicurrency is not enabled for this company; accounts are in the home currency (${home}).`);
  if (!holdsForeignCurrency(type)) throw businessValidation(`${type} accounts always use the home currency (${home}); only asset and liability accounts can hold ${code}.`);
  const currency = ledger.currencyByCode(code);
  if (currency === undefined || !currency.active) throw businessValidation(`${code} is not an active currency of this company; add it (CompanyCurrency) first.`);
  return currency.code;
}

/** Validates a create body and adds the account; the caller persists and renders it. */
export function createAccount(ledger: CompanyLedger, body: unknown, now: Date): Account {
  if (!isObject(body)) throw unsupportedProperty("Account", "the body must be an Account object");
  if (body["Id"] !== undefined) throw unsupportedProperty("Id", "must not be sent when creating an account; to update one, send its Id with its SyncToken without operation=create");
  const name = checkName(optionalText(body, "Name"));
  const type = checkType(body);
  const subType = checkSubType(optionalText(body, "AccountSubType"), type);
  const number = optionalText(body, "AcctNum") ?? "";
  const description = checkDescription(optionalText(body, "Description"));
  const currency = checkCurrency(ledger, body, type);
  const placement = placementOf(body);
  const parentId = placement.kind === "under" ? checkParent(ledger, placement.parentId, type, subType) : undefined;
  checkUnique(ledger, { name, number, parentId });

  const ms = now.getTime();
  const account: Account = {
    id: ledger.nextId(ledger.accounts),
    number,
    name,
    type,
    subType,
    active: true,
    ...(currency === undefined ? {} : { currency }),
    ...(description === undefined ? {} : { description }),
    ...(parentId === undefined ? {} : { parentId }),
    createTime: ms,
    updateTime: ms,
    syncToken: 0,
  };
  ledger.addAccount(account);
  return account;
}

/** Intuit sends Id and SyncToken as strings; a number is read the same way. */
export function idText(v: unknown): string | undefined {
  if (typeof v === "string" && v.trim() !== "") return v.trim();
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return String(v);
  return undefined;
}

/**
 * Validates a full or sparse update and replaces the account; the caller persists and renders it.
 * Like QBO (minimul-qbo_api/deactivate__account__1), an update that changes nothing keeps the
 * SyncToken and LastUpdatedTime; any change bumps both, so the account shows in CDC.
 */
export function updateAccount(ledger: CompanyLedger, body: unknown, now: Date): Account {
  if (!isObject(body)) throw unsupportedProperty("Account", "the body must be an Account object");
  const id = idText(body["Id"]);
  const syncToken = idText(body["SyncToken"]);
  if (id === undefined || syncToken === undefined) {
    throw validationFault("2020", "Required param missing, need to supply the required value for the API", "Required parameter Id and SyncToken are missing in the request");
  }
  if (!/^\d+$/.test(id)) throw validationFault("2030", "Invalid ID", `Id should be a valid number. Supplied value:${id}`, "Id");
  const current = ledger.account(id);
  if (current === undefined) throw objectNotFound("Account", id);
  if (syncToken !== String(current.syncToken)) throw staleObject();
  const sparse = body["sparse"] ?? false;
  if (typeof sparse !== "boolean") throw unsupportedProperty("sparse", `value ${JSON.stringify(sparse)} must be true or false`);
  // QuickBooks' help: once an account has had a transaction posted to it its currency cannot
  // change; the emulator keeps every account's currency as created.
  const held = current.currency ?? ledger.profile.currency;
  const placement = placementOf(body);
  const currency = isObject(body["CurrencyRef"]) ? body["CurrencyRef"]["value"] : undefined;
  if (currency !== undefined && currency !== held) {
    throw unsupportedProperty("CurrencyRef", `an account's currency cannot be changed (this one is in ${held})`);
  }

  // Name is required in both kinds (QBO answers a sparse update without it as a missing name).
  // An inactive account's name comes back with " (deleted)"; sent back, it is the plain name.
  const name = withoutDeletedSuffix(checkName(optionalText(body, "Name")));
  const given = (key: string): boolean => body[key] !== undefined;
  let fields: Fields;
  if (sparse) {
    const type = given("AccountType") ? checkType(body) : current.type;
    fields = {
      name,
      type,
      // A new type without a detail type keeps the old one only when it belongs to the new type.
      subType: checkSubType(optionalText(body, "AccountSubType"), type, current.subType),
      number: given("AcctNum") ? (optionalText(body, "AcctNum") ?? "") : current.number,
      description: given("Description") ? checkDescription(optionalText(body, "Description")) : current.description,
      active: given("Active") ? checkActive(body["Active"]) : current.active,
      // A sparse update that says nothing of the parent keeps it (a type change is then checked against it).
      parentId: placement.kind === "under" ? placement.parentId : placement.kind === "top" ? undefined : current.parentId,
    };
  } else {
    // A full update: every writable field left out goes back to what a create would give it.
    const type = checkType(body);
    fields = {
      name,
      type,
      subType: checkSubType(optionalText(body, "AccountSubType"), type),
      number: optionalText(body, "AcctNum") ?? "",
      description: checkDescription(optionalText(body, "Description")),
      active: given("Active") && body["Active"] !== null ? checkActive(body["Active"]) : true,
      // Left out, the account goes back to the top level, as a create without ParentRef makes it.
      parentId: placement.kind === "under" ? placement.parentId : undefined,
    };
  }
  if (ledger.isForeign(current) && !holdsForeignCurrency(fields.type)) {
    throw businessValidation(`${fields.type} accounts always use the home currency (${ledger.profile.currency}); this account holds ${held}.`);
  }
  const placed = fields.parentId !== current.parentId || fields.type !== current.type || fields.subType !== current.subType;
  if (fields.parentId !== undefined && placed) checkParent(ledger, fields.parentId, fields.type, fields.subType, current);
  checkKeepsSubAccounts(ledger, current, fields.type, fields.subType);
  checkUnique(ledger, fields, id);

  const unchanged =
    fields.name === current.name &&
    fields.type === current.type &&
    fields.subType === current.subType &&
    fields.number === current.number &&
    fields.description === current.description &&
    fields.active === current.active &&
    fields.parentId === current.parentId;
  if (unchanged) return current;
  const { description, parentId, ...rest } = fields;
  const updated: Account = {
    id,
    ...rest,
    ...(current.currency === undefined ? {} : { currency: current.currency }),
    ...(description === undefined ? {} : { description }),
    ...(parentId === undefined ? {} : { parentId }),
    createTime: current.createTime,
    updateTime: now.getTime(),
    syncToken: current.syncToken + 1,
  };
  ledger.replaceAccount(updated);
  return updated;
}
