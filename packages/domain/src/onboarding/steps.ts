import { z } from "zod";

/**
 * Onboarding guide steps, in order: 0 (guide not started); 1 connect companies (1.1 parent or a
 * subsidiary missing, 1.2 parent and at least one subsidiary connected); 2 chart-of-accounts
 * mapping (2.1 started, 2.2 one company mapped, 2.3 all subsidiaries mapped); 3 opening balances
 * (3.1 first trial balance posted, 3.2 all eligible subsidiaries posted). Onboarding finishes by
 * switching it off, not by another step value. Steps compare as plain numbers.
 */
export const ONBOARDING_STEPS = [0, 1, 1.1, 1.2, 2, 2.1, 2.2, 2.3, 3, 3.1, 3.2] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export const ONBOARDING_STEP_MESSAGE = `Onboarding step must be one of ${ONBOARDING_STEPS.join(", ")}.`;

export function isOnboardingStep(n: unknown): n is OnboardingStep {
  return typeof n === "number" && (ONBOARDING_STEPS as readonly number[]).includes(n);
}

export const onboardingStepSchema = z.literal(ONBOARDING_STEPS, { error: ONBOARDING_STEP_MESSAGE });

/** Labels of the three main steps shown by the step indicator. */
export const ONBOARDING_STEP_LABELS = {
  1: "Connect Companies",
  2: "Chart of Accounts Mapping",
  3: "Load Opening Balances (optional)",
} as const;

export type OnboardingMainStep = keyof typeof ONBOARDING_STEP_LABELS;

/** The main step (1, 2 or 3) a step belongs to; 0 for the not-started step. */
export function onboardingMainStep(step: OnboardingStep): 0 | OnboardingMainStep {
  return Math.floor(step) as 0 | OnboardingMainStep;
}
