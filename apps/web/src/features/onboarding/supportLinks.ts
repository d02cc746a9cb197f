import { ONBOARDING_STEP_LABELS, type OnboardingMainStep } from "@groupledger/domain";

/** The support article behind each onboarding step (SPEC §1), in one place. */
export const SUPPORT_BASE_URL = "https://support.groupledger.example";

export const ONBOARDING_SUPPORT_LINKS: Record<OnboardingMainStep, string> = {
  1: `${SUPPORT_BASE_URL}/articles/connect-companies`,
  2: `${SUPPORT_BASE_URL}/articles/chart-of-accounts-mapping`,
  3: `${SUPPORT_BASE_URL}/articles/opening-balances`,
};

export const ONBOARDING_MAIN_STEPS: { step: OnboardingMainStep; label: string; href: string }[] = ([1, 2, 3] as const).map(
  (step) => ({ step, label: ONBOARDING_STEP_LABELS[step], href: ONBOARDING_SUPPORT_LINKS[step] }),
);

export const QUICKBOOKS_URL = "https://qbo.intuit.com/app/homepage";
