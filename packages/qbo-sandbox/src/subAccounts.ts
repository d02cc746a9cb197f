/**
 * Sub-accounts: an Account created or updated with `SubAccount: true` and `ParentRef` sits under
 * another account, as Intuit's Account reference documents it. The sub-account has the parent's
 * AccountType; FullyQualifiedName is the path "Parent:Child" and is "limited to 5 levels"; accounts
 * of some detail types can neither have sub-accounts nor be one (OpeningBalanceEquity,
 * UndepositedFunds, RetainedEarnings, CashReceiptIncome, CashExpenditureExpense,
 * ExchangeGainOrLoss). Refusals: an unknown parent is QuickBooks' 2500 "Invalid Reference Id", an
 * inactive one its 610; the detail-type rule is the 6000 whose Detail integrations report from
 * QuickBooks ("Accounts with detail type Opening Balance Equity cannot have sub-accounts"); a type
 * that differs from the parent's, a sixth level and a loop are 6000 in our words.
 */
import type { AccountType } from "./accountTypes.ts";
import type { Json } from "./entities.ts";
import type { Account, CompanyLedger } from "./ledger.ts";
import { businessValidation, invalidReference, objectNotFound, unsupportedProperty, validationFault } from "./qboFault.ts";

/** FullyQualifiedName holds at most this many names: a top-level account and four levels below it. */
export const MAX_ACCOUNT_LEVELS = 5;

/** Detail types whose accounts can neither have sub-accounts nor be one (Intuit's Account reference, SubAccount). */
const NO_SUB_ACCOUNTS: Readonly<Record<string, string>> = {
  OpeningBalanceEquity: "Opening Balance Equity",
  UndepositedFunds: "Undeposited Funds",
  RetainedEarnings: "Retained Earnings",
  CashReceiptIncome: "Cash Receipt Income",
  CashExpenditureExpense: "Cash Expenditure Expense",
  ExchangeGainOrLoss: "Exchange Gain or Loss",
};

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** What a body says about the account's place: a parent id, top level, or nothing at all. */
export type Placement = { readonly kind: "under"; readonly parentId: string } | { readonly kind: "top" } | { readonly kind: "unsaid" };

/** Reads `SubAccount` and `ParentRef`; a ParentRef alone makes a sub-account, `SubAccount: false` alone a top-level account. */
export function placementOf(body: Json): Placement {
  const flag = body["SubAccount"];
  if (flag !== undefined && flag !== null && typeof flag !== "boolean") throw unsupportedProperty("SubAccount", `value ${JSON.stringify(flag)} must be true or false`);
  const ref = body["ParentRef"];
  if (ref === undefined || ref === null) {
    if (flag === true) {
      throw validationFault("2020", "Required param missing, need to supply the required value for the API", "Required parameter ParentRef is missing in the request", "ParentRef");
    }
    return flag === false ? { kind: "top" } : { kind: "unsaid" };
  }
  const value = isObject(ref) ? ref["value"] : undefined;
  const id = typeof value === "number" && Number.isInteger(value) ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d+$/.test(id)) throw unsupportedProperty("ParentRef", "must be a reference to an account: {\"value\": \"<account Id>\"}");
  if (flag === false) throw unsupportedProperty("SubAccount", "is false, but ParentRef names a parent account; send SubAccount true to make a sub-account");
  return { kind: "under", parentId: id };
}

function levelOf(ledger: CompanyLedger, account: Account): number {
  return ledger.lineage(account).length;
}

/** Levels below and including `account` (1 for an account without sub-accounts). */
function heightOf(ledger: CompanyLedger, account: Account): number {
  const below = ledger.subAccountsOf(account.id).map((s) => heightOf(ledger, s));
  return 1 + (below.length === 0 ? 0 : Math.max(...below));
}

/**
 * The parent id an account of `type`/`subType` may have under `parentId`, or a QboFault. `self` is
 * the account being updated (its sub-accounts move with it: they count towards the levels, and it
 * cannot go under one of them).
 */
export function checkParent(ledger: CompanyLedger, parentId: string, type: AccountType, subType: string, self?: Account): string {
  const parent = ledger.account(parentId);
  if (parent === undefined) throw invalidReference("Accounts", parentId);
  if (!parent.active) throw objectNotFound("Account", parentId);
  const ownKind = NO_SUB_ACCOUNTS[subType];
  if (ownKind !== undefined) throw businessValidation(`Accounts with detail type ${ownKind} cannot be sub-accounts.`);
  const parentKind = NO_SUB_ACCOUNTS[parent.subType];
  if (parentKind !== undefined) throw businessValidation(`Accounts with detail type ${parentKind} cannot have sub-accounts.`);
  if (parent.type !== type) {
    throw businessValidation(`A sub-account must have its parent account's type: "${ledger.fullyQualifiedName(parent)}" is ${parent.type}, not ${type}.`);
  }
  if (self !== undefined && ledger.lineage(parent).some((a) => a.id === self.id)) {
    throw businessValidation(`"${ledger.fullyQualifiedName(self)}" cannot be a sub-account of itself or of one of its sub-accounts.`);
  }
  const levels = levelOf(ledger, parent) + (self === undefined ? 1 : heightOf(ledger, self));
  if (levels > MAX_ACCOUNT_LEVELS) {
    throw businessValidation(`Sub-accounts go at most ${MAX_ACCOUNT_LEVELS} levels deep; under "${ledger.fullyQualifiedName(parent)}" this account would make ${levels}.`);
  }
  return parent.id;
}

/** An account with sub-accounts keeps its type (they must share it) and a detail type that may have them. */
export function checkKeepsSubAccounts(ledger: CompanyLedger, account: Account, type: AccountType, subType: string): void {
  if (ledger.subAccountsOf(account.id).length === 0) return;
  if (type !== account.type) {
    throw businessValidation(`"${ledger.fullyQualifiedName(account)}" has sub-accounts of type ${account.type}; its type cannot change while they are under it.`);
  }
  const kind = NO_SUB_ACCOUNTS[subType];
  if (kind !== undefined) throw businessValidation(`Accounts with detail type ${kind} cannot have sub-accounts.`);
}
