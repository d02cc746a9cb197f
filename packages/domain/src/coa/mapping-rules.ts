import type { EquityKind } from "../consolidation/input-schema.ts";
import { fullNameOf } from "./hierarchy.ts";

/**
 * Chart-of-accounts mapping rules over QBO accounts: which subsidiary account may feed which
 * parent account (suggestions for the ones still unmapped are in suggestions.ts).
 */

export interface ChartAccount {
  /** QBO Id. */
  id: string;
  name: string;
  acctNum: string | null;
  /** QBO Classification: Asset, Liability, Equity, Revenue, Expense. */
  classification: string;
  /** QBO AccountType, e.g. "Bank", "Other Current Asset". */
  accountType: string;
  /** QBO AccountSubType, e.g. "Checking", "RetainedEarnings". */
  accountSubType: string | null;
  active: boolean;
  /**
   * QBO FullyQualifiedName: for a sub-account its parents' names and its own joined by colons
   * ("Wages and Salaries:Wages - Toronto"); a top-level account's is its name. Absent: the name.
   */
  fullyQualifiedName?: string | undefined;
}

/**
 * The names of a sub-account's parent accounts, top-level first, from its FullyQualifiedName
 * (QuickBooks allows no colon in a name, so the colons are the path's); none for a top-level account.
 */
export function parentNamesOf(a: Pick<ChartAccount, "fullyQualifiedName">): string[] {
  const path = a.fullyQualifiedName?.split(":") ?? [];
  return path.slice(0, -1);
}

/**
 * QBO equity subtypes in the engine's terms: contributed capital is translated at historical rates
 * and eliminated against the investment, retained earnings are rolled forward, dividends reduce them.
 */
const EQUITY_KIND: Record<string, EquityKind> = {
  CommonStock: "contributedCapital",
  PreferredStock: "contributedCapital",
  PaidInCapitalOrSurplus: "contributedCapital",
  PartnerContributions: "contributedCapital",
  TreasuryStock: "contributedCapital",
  RetainedEarnings: "retainedEarnings",
  OpeningBalanceEquity: "retainedEarnings",
  OwnersEquity: "retainedEarnings",
  PartnersEquity: "retainedEarnings",
  PartnerDistributions: "dividends",
  DividendDisbursed: "dividends",
};

export function qboEquityKind(accountSubType: string | null): EquityKind {
  return (accountSubType && EQUITY_KIND[accountSubType]) || "other";
}

/** The engine's grouping: retained earnings and dividends may feed each other, the rest only their own kind. */
const equityGroup = (k: EquityKind) => (k === "dividends" ? "retainedEarnings" : k);

const describe = (a: ChartAccount) => `${a.classification.toLowerCase()} account ${a.acctNum ? `${a.acctNum} ` : ""}"${fullNameOf(a)}"`;
const EQUITY_WORDS: Record<EquityKind, string> = {
  contributedCapital: "contributed capital",
  retainedEarnings: "retained earnings",
  dividends: "dividends",
  other: "other equity",
};

/**
 * Why `sub` may not map to `parent`, in words an accountant can act on, or null when it may.
 * Classifications must match (an asset never lands on an expense); equity keeps its nature; a
 * parent account that is inactive cannot receive postings.
 */
export function chartMappingProblem(sub: ChartAccount, parent: ChartAccount): string | null {
  if (!parent.active) return `The parent's ${describe(parent)} is inactive in QuickBooks; choose an active account.`;
  if (sub.classification !== parent.classification) {
    return `A subsidiary ${describe(sub)} cannot map to the parent's ${describe(parent)}: an ${sub.classification} must map to an ${sub.classification}.`
      .replace(/\ban (?=[BCDFGHJKLMNPQRSTVWXYZ])/g, "a ");
  }
  if (sub.classification === "Equity") {
    const from = qboEquityKind(sub.accountSubType);
    const to = qboEquityKind(parent.accountSubType);
    if (equityGroup(from) !== equityGroup(to)) return `Equity keeps its nature: ${EQUITY_WORDS[from]} ("${sub.name}") cannot map to ${EQUITY_WORDS[to]} ("${parent.name}").`;
  }
  return null;
}

/**
 * SPEC §4: a company counts as mapped when its mapped-account count equals its account count (or
 * one more), after excluding never-a-balance accounts. The "one more" tolerates a map kept for an
 * account deleted in QBO since.
 */
export function isCompanyMapped(accountIds: readonly string[], mappedIds: readonly string[], neverABalance: readonly string[]): boolean {
  const excluded = new Set(neverABalance);
  const accounts = accountIds.filter((id) => !excluded.has(id)).length;
  const mapped = mappedIds.filter((id) => !excluded.has(id)).length;
  return mapped === accounts || mapped === accounts + 1;
}
