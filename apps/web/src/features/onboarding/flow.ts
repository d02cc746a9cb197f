import { isOnboardingStep, onboardingMainStep, type OnboardingStep } from "@groupledger/domain";

/** Where the guide stands for an account: SPEC §4 Onboarding. */
export interface OnboardingView {
  active: boolean;
  step: OnboardingStep;
  /** 0 before 'Get Started', then 1..3. */
  mainStep: 0 | 1 | 2 | 3;
  /** SPEC §9: the welcome overlay shows at step 0. */
  showWelcome: boolean;
}

export function onboardingView(account: { onboarding: boolean; onboardingStep: number } | undefined): OnboardingView {
  // An unknown stored step (say, from a newer release) is read as the main step it belongs to.
  const raw = account?.onboardingStep ?? 0;
  const step: OnboardingStep = isOnboardingStep(raw) ? raw : isOnboardingStep(Math.floor(raw)) ? (Math.floor(raw) as OnboardingStep) : 0;
  const active = account?.onboarding ?? false;
  return { active, step, mainStep: onboardingMainStep(step), showWelcome: active && step === 0 };
}

/** 'Get Started' (step 0 → 1) lands on the companies screen. */
export const GET_STARTED = { step: 1, path: "/setup/companies" } as const;

/** A step whose milestone is reached offers 'Continue' to the next main step (SPEC §4). */
export function continueTarget(step: OnboardingStep): { step: OnboardingStep; path: string } | null {
  if (step === 1.2) return { step: 2, path: "/setup/coa" };
  if (step === 2.3) return { step: 3, path: "/setup/obal" };
  return null;
}

/** Step indicator position: steps before the current main step are complete. */
export function stepperActive(view: OnboardingView): number {
  return Math.max(0, view.mainStep - 1);
}
