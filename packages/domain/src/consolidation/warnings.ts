import { minorToDecimal } from "../money/format.ts";
import { formatMonth } from "../periods/month.ts";
import type { EntityTranslation } from "../translation/translate.ts";
import type { CompiledGroup } from "./model.ts";

/**
 * An omitted opening CTA is derived as the opening balancing figure (translate.ts). When that figure
 * is not zero it is a number the user never gave — it could as well be an error in the opening
 * balances or retained earnings — so it is stated, never left silently in the CTA.
 */
export function derivedOpeningCtaWarnings(group: CompiledGroup, translations: ReadonlyMap<string, EntityTranslation>): string[] {
  const warnings: string[] = [];
  for (const e of group.entities) {
    if (e.identity || e.openingCta !== undefined) continue;
    const derived = translations.get(e.id)!.cta[0]!; // debit positive
    if (derived === 0) continue;
    const amount = `${minorToDecimal(Math.abs(derived), group.reportingExponent)} ${group.reportingCurrency}`;
    warnings.push(
      `${e.name}: opening.cta was not given, so the CTA at ${formatMonth(e.start)} is derived as the balancing figure of its translated opening balances: a ${derived < 0 ? "credit" : "debit"} of ${amount}. ` +
        "Give opening.cta to confirm it (a wrong opening retained earnings would otherwise sit in the CTA)",
    );
  }
  return warnings;
}
