import { qboEquityKind, type ChartAccount } from "./mapping-rules.ts";
import { nameSimilarity } from "./suggestions.ts";

/** The non-controlling interests' own equity account is never the home of the group's CTA. */
export const NCI_NAME = /\b(non[- ]?controlling|minority)\b/i;

/**
 * "Accumulated adjustment" is QuickBooks' equity detail type for reserves that are neither
 * contributed capital nor retained earnings: other equity, the only kind that may hold the CTA.
 * The suggestions rank it first and the account GroupLedger creates for the CTA takes it.
 */
export const CTA_ACCOUNT_SUBTYPE = "AccumulatedAdjustment";

const CTA_WORDS = ["accumulated other comprehensive", "aoci", "oci", "translation", "cta", "currency", "foreign exchange reserve", "fx reserve", "cumulative translation adjustment"];

/**
 * Parent equity accounts that look like the home of translation differences (Accumulated OCI,
 * translation reserve, CTA), best first. Only active, non-contributed, non-retained equity
 * accounts qualify: CTA must never be mixed into share capital or retained earnings.
 */
export function suggestCtaAccounts(parentChart: readonly ChartAccount[], limit = 3): { accountId: string; score: number }[] {
  return parentChart
    .filter((a) => a.active && a.classification === "Equity" && qboEquityKind(a.accountSubType) === "other" && !NCI_NAME.test(a.name))
    .map((a) => {
      const name = a.name.toLowerCase();
      const keyword = CTA_WORDS.some((w) => new RegExp(`\\b${w}\\b`).test(name)) ? 0.6 : 0;
      const subtype = a.accountSubType === CTA_ACCOUNT_SUBTYPE ? 0.2 : 0;
      const similar = 0.2 * nameSimilarity(a.name, "Cumulative translation adjustment");
      return { accountId: a.id, score: Math.round((keyword + subtype + similar) * 1000) / 1000 };
    })
    .filter((s) => s.score > 0)
    .sort((x, y) => y.score - x.score || x.accountId.localeCompare(y.accountId, "en", { numeric: true }))
    .slice(0, limit);
}

/**
 * Why a parent account is offered for the CTA, in words an accountant can check against the
 * account itself: suggestCtaAccounts scores names and detail types; this says which of those
 * made it a candidate.
 */
export function ctaSuggestionReason(account: Pick<ChartAccount, "name" | "accountSubType">): string {
  const name = account.name.toLowerCase();
  const reasons: string[] = [];
  if (/\b(accumulated other comprehensive|aoci|oci)\b/.test(name)) {
    reasons.push("named as accumulated other comprehensive income, where translation differences are reported");
  } else if (/\b(translation|cta)\b/.test(name)) {
    reasons.push("named as a translation reserve");
  } else if (/\b(currency|foreign exchange reserve|fx reserve)\b/.test(name)) {
    reasons.push("named as a currency reserve");
  }
  if (account.accountSubType === CTA_ACCOUNT_SUBTYPE) reasons.push("QuickBooks detail type Accumulated adjustment");
  if (reasons.length === 0) reasons.push("an equity reserve that is neither contributed capital nor retained earnings");
  const text = reasons.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Why `account` cannot hold the group's CTA, or null. */
export function ctaAccountProblem(account: ChartAccount | undefined): string | null {
  if (!account) return "That account is not in the parent's chart of accounts.";
  if (account.classification !== "Equity") return `"${account.name}" is not an equity account; CTA belongs in equity (for example Accumulated OCI).`;
  if (!account.active) return `"${account.name}" is inactive in QuickBooks.`;
  const kind = qboEquityKind(account.accountSubType);
  if (kind !== "other") return `"${account.name}" holds ${kind === "contributedCapital" ? "contributed capital" : "retained earnings"}; keep CTA in a separate equity account.`;
  return null;
}
