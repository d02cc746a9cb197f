import { NAV_REASONS, navAvailability, type NavFacts, type NavRequirements } from "./enabling.ts";

export interface NavItem extends NavRequirements {
  path: string;
  label: string;
  /** Shown but never clickable (SPEC §2: the /home entry). */
  disabled?: boolean;
  /** Said after "Finish onboarding first" on the locked entry: where its work can be done meanwhile. */
  duringOnboarding?: string;
  bold?: boolean;
  items?: NavItem[];
}

const parentAndSub = { requireParent: true, requireSubsidiary: true } as const;
const consolidationReady = { ...parentAndSub, requireOnboardingComplete: true } as const;

/** SPEC §2, the side navigation: labels and requirement flags exactly as the table gives them. */
export const NAV_ITEMS: readonly NavItem[] = [
  { path: "/home", label: "Home", disabled: true },
  {
    path: "/setup",
    label: "SETUP & CONFIGURE",
    bold: true,
    items: [
      { path: "/setup/companies", label: "Connected Companies" },
      { path: "/setup/coa", label: "COA Mapping", ...parentAndSub },
      { path: "/setup/cta", label: "CTA & Historical", ...parentAndSub, requireForeignCurrency: true },
      // Every subsidiary was acquired, whatever its currency: no foreign-currency requirement.
      { path: "/setup/acquisitions", label: "Acquisitions", ...parentAndSub },
      { path: "/setup/obal", label: "Opening Balance Sheet", ...parentAndSub, requireOnboardingStep: 3 },
    ],
  },
  {
    path: "/consolidation",
    label: "CONSOLIDATION",
    bold: true,
    items: [
      {
        path: "/consolidation/fx_rates",
        label: "FOREX Management",
        requireCompanies: true,
        requireOnboardingComplete: true,
        requireForeignCurrency: true,
        duringOnboarding: "Until then, Opening Balance Sheet fetches the rates the opening balances need",
      },
      { path: "/multipleconsolidation/run", label: "Multi Period / Company", ...consolidationReady },
      { path: "/consolidation/run", label: "Single Period / Company", ...consolidationReady },
      { path: "/consolidation/elimination", label: "Interco Eliminations", ...consolidationReady },
      { path: "/consolidation/transaction-detail", label: "Transaction Detail", ...consolidationReady },
      // Issue 18: the reports and the month-end check have their own entries (also a tab and a button of Single Period).
      { path: "/consolidation/reports", label: "Consolidated Reports", ...consolidationReady },
      { path: "/consolidation/verify", label: "Verify Consolidation", ...consolidationReady },
    ],
  },
];

/** A screen the onboarding guide holds back, and what it still needs once the guide has ended ([] = it opens then). */
export interface HeldScreen {
  path: string;
  label: string;
  stillNeeds: string[];
}

/**
 * The entries that are locked now because onboarding is active (finish it, or reach a step), in
 * navigation order: what ending the guide unlocks. Each says what it would still need afterwards.
 */
export function screensHeldByOnboarding(facts: NavFacts): HeldScreen[] {
  const held: HeldScreen[] = [];
  for (const item of NAV_ITEMS.flatMap((i) => i.items ?? [])) {
    const guide = [NAV_REASONS.onboardingComplete, ...(item.requireOnboardingStep === undefined ? [] : [NAV_REASONS.onboardingStep(item.requireOnboardingStep)])];
    const now = navAvailability(item, facts);
    if (now.enabled || !now.reasons.some((r) => guide.includes(r))) continue;
    const after = navAvailability(item, { ...facts, onboarding: false });
    held.push({ path: item.path, label: item.label, stillNeeds: after.enabled ? [] : after.reasons });
  }
  return held;
}

/** True when `pathname` is the item's path or one of its children's (the group is then highlighted). */
export function isInGroup(item: NavItem, pathname: string): boolean {
  const matches = (path: string) => pathname === path || pathname.startsWith(`${path}/`);
  return matches(item.path) || (item.items ?? []).some((child) => isInGroup(child, pathname));
}
