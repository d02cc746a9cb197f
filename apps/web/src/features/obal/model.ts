import { problemSchema, type Company, type ObalState, type ObalTrialBalance } from "@groupledger/contract";
import { calendarMonthOfFiscal } from "@groupledger/domain";
import { z } from "zod";

/** Months in words live in the domain (periods/month-label.ts), shared with the server's messages. */
export { calendarLabel, MONTH_NAMES, monthName, monthTextLabel } from "@groupledger/domain";

/**
 * The calendar month a fiscal year and month mean for the parent: the domain's rule, the one the
 * server checks POST /api/obal against, so the form can never send a period it will refuse. A
 * fiscal year is named by the calendar year it ends in: with an April start, fiscal month 12 of
 * 2026 is March 2026 and month 1 is April 2025; with a January start both are the same.
 */
export const naturalMonthOf = calendarMonthOfFiscal;

/** The worksheet row the engine gives an account without a map (packages/domain consolidate). */
export const isUnmappedRow = (parentAccount: string): boolean => parentAccount.startsWith("unmapped:");

/** A trial-balance line that carries nothing: no local balance, nothing translated, not the CTA. */
export const isEmptyLine = (l: { local: number; translated: number; special: string | null }): boolean =>
  l.special === null && l.local === 0 && l.translated === 0;

/** A subsidiary's place in the opening-balance flow (SPEC §4: unreviewed → reviewed → confirmed → posted). */
export type ObalStatus = "notEligible" | "unreviewed" | "reviewed" | "confirmed" | "posted";

export function obalStatus(state: ObalState, realmId: string, eligible: boolean | undefined): ObalStatus {
  // A posted entry exists in QuickBooks whatever eligibility says now, so it is shown as posted.
  if (state.posted[realmId]) return "posted";
  if (eligible === false) return "notEligible";
  if (state.confirmed[realmId]) return "confirmed";
  if (state.reviewed[realmId]) return "reviewed";
  return "unreviewed";
}

export type ObalAction = "review" | "unreview" | "confirm" | "unconfirm" | "post" | "markDeleted";

/**
 * The actions a status allows, mirroring the server's transitions (posting.ts): review only an
 * unreviewed balance with no problems; unreview only before confirm; unconfirm only before post;
 * post only a confirmed one with no problems; a posted one can only be marked deleted in QuickBooks.
 */
export function allowedActions(status: ObalStatus, ok: boolean): ObalAction[] {
  switch (status) {
    case "notEligible":
      return [];
    case "unreviewed":
      return ok ? ["review"] : [];
    case "reviewed":
      return ok ? ["unreview", "confirm"] : ["unreview"];
    case "confirmed":
      return ok ? ["unconfirm", "post"] : ["unconfirm"];
    case "posted":
      return ["markDeleted"];
  }
}

/** The active subsidiaries, in name order: archived ones are out of the group (SPEC §3 Company). */
export function subsidiariesOf(companies: readonly Company[]): Company[] {
  return companies.filter((c) => !c.parent && c.archivedAt === null).sort((a, b) => a.companyName.localeCompare(b.companyName));
}

/** Where each kind of problem is fixed; codes come from the translation (apps/server/src/modules/consolidation). */
const FIX_LINKS: Record<string, { href: string; label: string }> = {
  missing_rate: { href: "/consolidation/fx_rates", label: "Enter the rates in FOREX Management" },
  unmapped_account: { href: "/setup/coa", label: "Map the accounts in COA Mapping" },
  invalid_map: { href: "/setup/coa", label: "Fix the mapping in COA Mapping" },
  invalid_designated_account: { href: "/setup/coa", label: "Check the accounts in COA Mapping" },
  no_retained_earnings_account: { href: "/setup/coa", label: "Check the accounts in COA Mapping" },
  missing_historical_equity: { href: "/setup/cta", label: "Enter it in CTA & Historical" },
  missing_cta_account: { href: "/setup/cta", label: "Choose the CTA account in CTA & Historical" },
  invalid_cta_account: { href: "/setup/cta", label: "Choose the CTA account in CTA & Historical" },
  missing_fx_difference_account: { href: "/setup/cta", label: "Choose the account in CTA & Historical" },
  missing_nci_account: { href: "/setup/cta", label: "Choose the account in CTA & Historical" },
  not_synced: { href: "/setup/companies", label: "Sync it on Connected Companies" },
  months_not_synced: { href: "/setup/companies", label: "Sync it on Connected Companies" },
  sync_failed: { href: "/setup/companies", label: "Sync it again on Connected Companies" },
  sync_in_progress: { href: "/setup/companies", label: "Follow the sync on Connected Companies" },
  // Consolidation runs continue from a subsidiary's posted opening balance.
  opening_not_posted: { href: "/setup/obal", label: "Post it on Opening Balance Sheet" },
};

export function fixLink(code: string): { href: string; label: string } | null {
  return FIX_LINKS[code] ?? null;
}

/** The problems a 409 posting_blocked / review_blocked carried in details.problems. */
export function problemsOf(details: Record<string, unknown>): z.infer<typeof problemSchema>[] {
  const parsed = z.array(problemSchema).safeParse(details["problems"]);
  return parsed.success ? parsed.data : [];
}

const amount = z.number().int();
const ctaPartsSchema = z.object({
  openingNetAssets: amount,
  netIncome: amount,
  dividends: amount,
  equityMovements: amount,
  rounding: amount,
  change: amount,
});
const ctaMonthSchema = ctaPartsSchema.extend({
  month: z.string(),
  openingNetAssetsLocal: amount,
  previousClosingRate: z.string(),
  closingRate: z.string(),
  averageRate: z.string(),
});
/** The engine's CTA explanation (packages/domain consolidation output), credit positive. */
export const ctaExplanationSchema = z.object({ months: z.array(ctaMonthSchema), total: ctaPartsSchema });
export type CtaExplanation = z.infer<typeof ctaExplanationSchema>;

export type CtaView = NonNullable<ObalTrialBalance["view"]>["cta"];

export interface CtaBreakdown {
  parts: { key: keyof Omit<CtaExplanation["total"], "change">; label: string; amount: number }[];
  sum: number;
  change: number;
  /** The parts add up to the change, and the change is the one the CTA line carries. */
  addsUp: boolean;
  months: CtaExplanation["months"];
}

/** The CTA explanation as parts that must add up; null when the server sent a shape this screen does not know. */
export function ctaBreakdown(cta: CtaView): CtaBreakdown | null {
  const parsed = ctaExplanationSchema.safeParse(cta.explanation);
  if (!parsed.success) return null;
  const t = parsed.data.total;
  const parts: CtaBreakdown["parts"] = [
    { key: "openingNetAssets", label: "Opening net assets × change in closing rate", amount: t.openingNetAssets },
    { key: "netIncome", label: "Net income × (closing rate − average rate)", amount: t.netIncome },
    { key: "dividends", label: "Dividends × (closing rate − rate on the day declared)", amount: t.dividends },
    { key: "equityMovements", label: "Other equity movements at historical rates", amount: t.equityMovements },
    { key: "rounding", label: "Rounding", amount: t.rounding },
  ];
  const sum = parts.reduce((s, p) => s + p.amount, 0);
  return { parts, sum, change: t.change, addsUp: sum === t.change && t.change === cta.change, months: parsed.data.months };
}

