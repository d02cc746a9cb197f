import { qboEquityKind, type ChartAccount } from "./mapping-rules.ts";
import { nameSimilarity } from "./suggestions.ts";

/** The non-controlling interests' own equity account is never the home of the group's CTA. */
export const NCI_NAME = /\b(non[- ]?controlling|minority)\b/i;

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
      const subtype = a.accountSubType === "AccumulatedAdjustment" ? 0.2 : 0;
      const similar = 0.2 * nameSimilarity(a.name, "Cumulative translation adjustment");
      return { accountId: a.id, score: Math.round((keyword + subtype + similar) * 1000) / 1000 };
    })
    .filter((s) => s.score > 0)
    .sort((x, y) => y.score - x.score || x.accountId.localeCompare(y.accountId, "en", { numeric: true }))
    .slice(0, limit);
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
