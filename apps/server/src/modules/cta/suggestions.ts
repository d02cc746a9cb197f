import type { ChartAccount } from "@groupledger/domain";

/**
 * Why a parent account is offered for the CTA, in words an accountant can check against the
 * account itself: the domain scores names and detail types (suggestCtaAccounts); this says which
 * of those made it a candidate.
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
  if (account.accountSubType === "AccumulatedAdjustment") reasons.push("QuickBooks detail type Accumulated adjustment");
  if (reasons.length === 0) reasons.push("an equity reserve that is neither contributed capital nor retained earnings");
  const text = reasons.join("; ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
