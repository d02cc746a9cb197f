import { foreignCurrencyInUse, obalConfigured, type Company, type ObalState } from "@groupledger/contract";

/** SPEC §2 navigation-item requirement flags. */
export interface NavRequirements {
  requireParent?: boolean;
  requireSubsidiary?: boolean;
  requireCompanies?: boolean;
  requireOnboardingComplete?: boolean;
  /** The lowest onboarding step (e.g. 3) at which the item opens. */
  requireOnboardingStep?: number;
  requireForeignCurrency?: boolean;
  requireOBALConfigured?: boolean;
}

/** What the requirements are judged against, derived from the account, the companies and the OBAL state. */
export interface NavFacts {
  hasParent: boolean;
  hasSubsidiary: boolean;
  onboarding: boolean;
  onboardingStep: number;
  foreignCurrency: boolean;
  obalConfigured: boolean;
}

export type NavAvailability = { enabled: true } | { enabled: false; reasons: string[] };

/** Said on hover/focus of a disabled item, in the order the user has to act on them. */
export const NAV_REASONS = {
  companies: "Connect a company first",
  parent: "Connect a parent company first",
  subsidiary: "Connect a subsidiary company first",
  onboardingStep: (step: number) => `Complete onboarding up to step ${step} first`,
  onboardingComplete: "Finish onboarding first",
  foreignCurrency: "Only needed when a subsidiary keeps its books in another currency than the parent",
  obal: "Set the opening balance period first",
} as const;

/**
 * SPEC §4 "Navigation enabling": an item is disabled while any of its conditions is unmet.
 * Once onboarding is switched off (finished or skipped) the guide no longer holds anything back,
 * so requireOnboardingStep is met whatever step was saved last.
 */
export function navAvailability(req: NavRequirements, facts: NavFacts): NavAvailability {
  const reasons: string[] = [];
  if (req.requireCompanies && !facts.hasParent && !facts.hasSubsidiary) reasons.push(NAV_REASONS.companies);
  if (req.requireParent && !facts.hasParent) reasons.push(NAV_REASONS.parent);
  if (req.requireSubsidiary && !facts.hasSubsidiary) reasons.push(NAV_REASONS.subsidiary);
  if (req.requireOnboardingStep !== undefined && facts.onboarding && facts.onboardingStep < req.requireOnboardingStep) {
    reasons.push(NAV_REASONS.onboardingStep(req.requireOnboardingStep));
  }
  if (req.requireOnboardingComplete && facts.onboarding) reasons.push(NAV_REASONS.onboardingComplete);
  if (req.requireForeignCurrency && !facts.foreignCurrency) reasons.push(NAV_REASONS.foreignCurrency);
  if (req.requireOBALConfigured && !facts.obalConfigured) reasons.push(NAV_REASONS.obal);
  return reasons.length === 0 ? { enabled: true } : { enabled: false, reasons };
}

/** Facts from server state; archived companies do not count, and missing data counts as "not yet". */
export function navFacts(input: {
  account: { onboarding: boolean; onboardingStep: number } | undefined;
  companies: readonly Company[] | undefined;
  obal: Pick<ObalState, "year" | "month"> | undefined;
}): NavFacts {
  const active = (input.companies ?? []).filter((c) => c.archivedAt === null);
  return {
    hasParent: active.some((c) => c.parent),
    hasSubsidiary: active.some((c) => !c.parent),
    // Until the account has loaded, treat onboarding as active so nothing opens too early.
    onboarding: input.account?.onboarding ?? true,
    onboardingStep: input.account?.onboardingStep ?? 0,
    foreignCurrency: foreignCurrencyInUse(active),
    obalConfigured: input.obal ? obalConfigured(input.obal) : false,
  };
}
