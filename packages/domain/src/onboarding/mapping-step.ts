import type { OnboardingStep } from "./steps.ts";

/** What step 2 of the guide needs to know about one subsidiary's account map. */
export interface SubsidiaryForMappingStep {
  /** Accounts with a balance that are mapped (never-a-balance accounts excluded, SPEC §4). */
  mapped: number;
  /** SPEC §4: mapped count equals the account count, or one more, after excluding never-a-balance accounts. */
  complete: boolean;
}

/** The milestone modal to open, if any. */
export type MappingStepModal = "firstMapping" | "firstCompanyMapped" | null;

export interface MappingStepResult {
  step: OnboardingStep;
  modal: MappingStepModal;
}

export const FIRST_MAPPING_MODAL_TITLE = "You've started mapping your chart of accounts";
export const FIRST_COMPANY_MAPPED_MODAL_TITLE = "You've completed the chart-of-accounts mapping for your first company!";

const MAPPING_STEPS = [2, 2.1, 2.2, 2.3] as const;

/**
 * Onboarding step 2 (SPEC §4 "Onboarding") as a function of the subsidiaries' maps:
 * - mapping started for the first time (some subsidiary has a mapped account) sets 2.1 and opens
 *   the first-mapping modal;
 * - one company fully mapped sets 2.2 and opens 'You've completed the chart-of-accounts mapping
 *   for your first company!';
 * - all subsidiaries mapped sets 2.3 (its 'Continue' leads to /setup/obal and step 3, see
 *   continueTarget in the web app).
 *
 * Decisions the spec leaves open:
 * - Only steps 2, 2.1 and 2.2 move; 2.3 and everything after belong to later milestones, and
 *   steps before 2 belong to the companies (step 1 ends with 'Continue', not with a mapping).
 * - The steps are milestones reached, so they only move forward: unmapping an account, or
 *   connecting another subsidiary, never sends the guide back (the screen still shows the real
 *   progress per company). Otherwise a user correcting one wrong map at 2.2 would see the
 *   "first company" modal again.
 * - One change can pass several milestones (accepting every suggestion of the only subsidiary goes
 *   from 2 to 2.3). Only one modal opens: the company-completed one, the bigger news; the
 *   first-mapping modal opens only when 2.1 is where the step lands.
 * - No subsidiary at all is never "all subsidiaries mapped": there is nothing to map.
 */
export function mappingOnboardingStep(current: OnboardingStep, subsidiaries: readonly SubsidiaryForMappingStep[]): MappingStepResult {
  if (!(MAPPING_STEPS as readonly number[]).includes(current) || current === 2.3) return { step: current, modal: null };
  const complete = subsidiaries.filter((s) => s.complete).length;
  const started = subsidiaries.some((s) => s.mapped > 0 || s.complete);
  const reached: OnboardingStep =
    subsidiaries.length > 0 && complete === subsidiaries.length ? 2.3 : complete > 0 ? 2.2 : started ? 2.1 : 2;
  if (reached <= current) return { step: current, modal: null };
  const modal: MappingStepModal = current < 2.2 && reached >= 2.2 ? "firstCompanyMapped" : reached === 2.1 ? "firstMapping" : null;
  return { step: reached, modal };
}
