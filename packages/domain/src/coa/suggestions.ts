import { DETAIL_RANK, detailAgreement, natureOf, type DetailAgreement } from "./detail-types.ts";
import { intercompanyMatch, intercompanyOf, type GroupNames } from "./intercompany.ts";
import { chartMappingProblem, parentNamesOf, type ChartAccount } from "./mapping-rules.ts";

/**
 * Suggested parent accounts for subsidiary accounts, and which suggestions are confident enough to
 * be accepted all at once. A confident suggestion agrees on the detail type (or its kind), stays
 * on its side of intercompany, and is the only parent account that fits that well; every other
 * best suggestion carries the reason a person must look at it.
 */

/** Why a best suggestion is not confident: the words the mapping screen shows beside it. */
export const SUGGESTION_CAUTIONS = {
  detailType: "Low confidence: detail type differs",
  several: "Low confidence: several parent accounts fit",
  parentIntercompany: "Low confidence: the parent account is intercompany",
  intercompanyNone: "Intercompany: no matching account in the parent",
} as const;

export interface Suggestion {
  parentId: string;
  /** 0..1, higher is better. */
  score: number;
  reasons: string[];
  /** Only an account's first suggestion can be confident; "Accept all" takes only confident ones. */
  confident: boolean;
  /** Why the first suggestion is not confident (SUGGESTION_CAUTIONS); null when it is, and on the others. */
  caution: string | null;
}

export interface SuggestOptions {
  /** Suggestions per account, best first. */
  limit?: number;
  /** The group's company names (groupNames); without them no account is recognised as intercompany. */
  group?: GroupNames;
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

/** Among parent accounts that fit equally well, the name must pick one: this similar, and this far ahead of the next. */
const NAME_DECIDES = { at: 0.5, ahead: 0.2 };

const KIND_WORDS: Readonly<Record<string, string>> = {
  savings: "savings",
  salesTax: "sales tax",
  incomeTax: "income tax",
  payroll: "payroll",
  retirement: "retirement plan",
  debt: "borrowing",
  relatedParty: "related party",
  shareCapital: "share capital",
  distributions: "distributions",
  meals: "meals",
  accrued: "accruals",
  freight: "freight",
  fx: "exchange differences",
  gainOnDisposal: "gains on disposal",
};

interface Candidate {
  parent: ChartAccount;
  /** 0: on the sub's side of intercompany (an intercompany match for an intercompany account, a third-party account otherwise); 1: not. */
  tier: 0 | 1;
  detail: DetailAgreement;
  /** For an intercompany account: how the parent's account matches its counterparty. */
  interco: "specific" | "generic" | null;
  sameType: boolean;
  similarity: number;
  score: number;
  reasons: string[];
}

/** How well a candidate fits, apart from its name: ranks first, and two candidates with the same fit compete on names. */
const fit = (c: Candidate) =>
  c.interco !== null ? (c.interco === "specific" ? 2 : 1) * 2 + Number(c.sameType) : DETAIL_RANK[c.detail] * 2 + Number(c.sameType);

/**
 * A sub-account's parents say what it is part of ("Computer Equipment:Laptops and Workstations").
 * When its own name resembles no compatible parent account enough to decide (NAME_DECIDES.at), its
 * name similarity to a parent account is its nearest parent's that is more similar, weighed down a
 * little; when its own name does ("Utilities:Telephone" onto "Telephone and Internet"), only its
 * own name counts.
 */
const PARENT_NAME_WEIGHT = 0.9;

function similarityOf(sub: ChartAccount, parent: ChartAccount, byPath: boolean): number {
  const own = nameSimilarity(sub.name, parent.name);
  if (!byPath) return own;
  return parentNamesOf(sub).reduce((best, n) => Math.max(best, PARENT_NAME_WEIGHT * nameSimilarity(n, parent.name)), own);
}

function candidate(sub: ChartAccount, parent: ChartAccount, subInterco: { counterparty: string | null } | null, group: GroupNames | undefined, byPath: boolean): Candidate {
  const similarity = similarityOf(sub, parent, byPath);
  const detail = detailAgreement(sub, parent, similarity);
  const parentInterco = group ? intercompanyOf(parent, group) : null;
  const interco = subInterco && parentInterco && group ? intercompanyMatch(subInterco, parentInterco, group) : null;
  const tier = subInterco ? (interco ? 0 : 1) : parentInterco ? 1 : 0;
  const sameType = sub.accountType === parent.accountType;
  const reasons: string[] = [];
  let score = 0;
  if (interco !== null) {
    score += interco === "specific" ? 0.4 : 0.35;
    reasons.push(interco === "specific" ? "intercompany, same company" : "intercompany account");
  } else if (detail === "same") {
    score += 0.4;
    reasons.push(`same detail type (${parent.accountSubType})`);
  } else if (detail === "kind") {
    score += 0.35;
    const kind = natureOf(parent) ?? "";
    reasons.push(`same kind (${KIND_WORDS[kind] ?? kind})`);
  } else if (detail === "name") {
    score += 0.25;
    reasons.push(`same general detail type (${parent.accountSubType})`);
  }
  if (sameType) {
    score += 0.15;
    reasons.push(`same type (${parent.accountType})`);
  }
  if (similarity > 0.2) {
    score += 0.4 * similarity;
    reasons.push(`similar name (${Math.round(similarity * 100)}%)`);
  }
  if (sub.acctNum && sub.acctNum === parent.acctNum) {
    score += 0.05;
    reasons.push(`same number (${parent.acctNum})`);
  }
  return { parent, tier, detail, interco, sameType, similarity, score: Math.round(score * 1000) / 1000, reasons };
}

/** Why the best candidate may not be accepted without a look, or null when it may. */
function cautionFor(best: Candidate, ranked: readonly Candidate[], isInterco: boolean): string | null {
  if (isInterco) {
    if (best.tier !== 0) return SUGGESTION_CAUTIONS.intercompanyNone;
    if (!best.sameType) return SUGGESTION_CAUTIONS.detailType;
  } else {
    if (best.tier !== 0) return SUGGESTION_CAUTIONS.parentIntercompany;
    if (best.detail === "none") return SUGGESTION_CAUTIONS.detailType;
  }
  const peers = ranked.filter((c) => c !== best && c.tier === 0 && fit(c) === fit(best));
  if (peers.length === 0) return null;
  const runnerUp = Math.max(...peers.map((c) => c.similarity));
  return best.similarity >= NAME_DECIDES.at && best.similarity - runnerUp >= NAME_DECIDES.ahead ? null : SUGGESTION_CAUTIONS.several;
}

/**
 * Ranked parent accounts for each subsidiary account (best first, at most `limit`), only ever
 * compatible, active ones. Ranking: the sub's side of intercompany first, then how well the
 * detail type agrees (same, same kind, same general type and name) and whether the account type
 * is the same, then the score: detail 0.4 (kind 0.35, general type and name 0.25; an intercompany
 * match for the same company 0.4, a generic intercompany account 0.35), same type 0.15, name
 * similarity up to 0.4 (a sub-account's parents' names count too, similarityOf), same number 0.05
 * (numbering schemes rarely agree across companies). Each account, sub-accounts included, gets
 * its own suggestions: a sub-account is mapped on its own, like any account.
 *
 * The first suggestion is confident when it is on the right side of intercompany, its detail type
 * agrees, and no other parent account fits as well unless the name clearly tells them apart;
 * otherwise its `caution` says why a person should look.
 */
export function suggestMappings(subAccounts: readonly ChartAccount[], parentAccounts: readonly ChartAccount[], options: SuggestOptions = {}): Map<string, Suggestion[]> {
  const { limit = 3, group } = options;
  const active = parentAccounts.filter((p) => p.active);
  const result = new Map<string, Suggestion[]>();
  for (const sub of subAccounts) {
    // A sub-account under "Intercompany Loans" is intercompany even when its own name only names the company, or nothing.
    const subInterco = group ? intercompanyOf({ ...sub, name: sub.fullyQualifiedName ?? sub.name }, group) : null;
    const compatible = active.filter((p) => chartMappingProblem(sub, p) === null);
    const byPath = parentNamesOf(sub).length > 0 && compatible.every((p) => nameSimilarity(sub.name, p.name) < NAME_DECIDES.at);
    const ranked = compatible
      .map((p) => candidate(sub, p, subInterco, group, byPath))
      .filter((c) => c.score > 0)
      .sort((a, b) => a.tier - b.tier || fit(b) - fit(a) || b.score - a.score || a.parent.id.localeCompare(b.parent.id, "en", { numeric: true }));
    const best = ranked[0];
    if (!best) {
      result.set(sub.id, []);
      continue;
    }
    const caution = cautionFor(best, ranked, subInterco !== null);
    result.set(
      sub.id,
      ranked.slice(0, limit).map((c, i) => ({
        parentId: c.parent.id,
        score: c.score,
        reasons: c.reasons,
        confident: i === 0 && caution === null,
        caution: i === 0 ? caution : null,
      })),
    );
  }
  return result;
}
