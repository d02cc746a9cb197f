import type { EquityKind } from "../consolidation/input-schema.ts";

/**
 * Chart-of-accounts mapping rules over QBO accounts: which subsidiary account may feed which
 * parent account, and suggestions for the ones still unmapped.
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

const describe = (a: ChartAccount) => `${a.classification.toLowerCase()} account ${a.acctNum ? `${a.acctNum} ` : ""}"${a.name}"`;
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

export interface Suggestion {
  parentId: string;
  /** 0..1, higher is better. */
  score: number;
  reasons: string[];
}

const words = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);

function bigrams(s: string): Set<string> {
  const text = words(s).join(" ");
  const grams = new Set<string>();
  for (let i = 0; i < text.length - 1; i++) grams.add(text.slice(i, i + 2));
  return grams;
}

/** Dice coefficient over character bigrams: robust to word order, plurals and small spelling differences. */
export function nameSimilarity(a: string, b: string): number {
  const x = bigrams(a);
  const y = bigrams(b);
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const g of x) if (y.has(g)) shared++;
  return (2 * shared) / (x.size + y.size);
}

/**
 * Ranked parent accounts for each subsidiary account (best first, at most `limit`). Only
 * compatible, active parent accounts are ever proposed. Weights: same account type 0.3, same
 * subtype 0.2, name similarity up to 0.4, same account number 0.1 (numbering schemes rarely agree
 * across companies, so a number match alone never wins).
 */
export function suggestMappings(
  subAccounts: readonly ChartAccount[],
  parentAccounts: readonly ChartAccount[],
  limit = 3,
): Map<string, Suggestion[]> {
  const candidates = parentAccounts.filter((p) => p.active);
  const result = new Map<string, Suggestion[]>();
  for (const sub of subAccounts) {
    const ranked: Suggestion[] = [];
    for (const parent of candidates) {
      if (chartMappingProblem(sub, parent) !== null) continue;
      const reasons: string[] = [];
      let score = 0;
      if (sub.accountType === parent.accountType) {
        score += 0.3;
        reasons.push(`same type (${parent.accountType})`);
      }
      if (sub.accountSubType && sub.accountSubType === parent.accountSubType) {
        score += 0.2;
        reasons.push(`same subtype (${parent.accountSubType})`);
      }
      const similarity = nameSimilarity(sub.name, parent.name);
      if (similarity > 0.2) {
        score += 0.4 * similarity;
        reasons.push(`similar name (${Math.round(similarity * 100)}%)`);
      }
      if (sub.acctNum && sub.acctNum === parent.acctNum) {
        score += 0.1;
        reasons.push(`same number (${parent.acctNum})`);
      }
      if (score > 0) ranked.push({ parentId: parent.id, score: Math.round(score * 1000) / 1000, reasons });
    }
    ranked.sort((a, b) => b.score - a.score || a.parentId.localeCompare(b.parentId, "en", { numeric: true }));
    result.set(sub.id, ranked.slice(0, limit));
  }
  return result;
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
