import type { OnboardingStep } from "./steps.ts";

/** What step 3 of the guide needs to know about one subsidiary at the locked opening month. */
export interface SubsidiaryForObalStep {
  /** SPEC §4: earliest transaction date not after the locked year and month. */
  eligible: boolean;
  /** Its translated trial balance is posted into the parent's QuickBooks. */
  posted: boolean;
}

export interface ObalStepResult {
  step: OnboardingStep;
  /** Open the 'You've posted translated trial balances for your first company!' milestone modal. */
  firstPostedModal: boolean;
  /** Step 3 is done: the screen offers 'Finish Onboarding', which switches onboarding off. */
  offerFinish: boolean;
}

export const FIRST_OBAL_POSTED_MODAL_TITLE = "You've posted translated trial balances for your first company!";

/** SPEC §4: 'Finish Onboarding' (like 'Skip This Step') ends the guide by disabling onboarding, not by a step value. */
export const FINISH_ONBOARDING_PATCH = { onboarding: false } as const;

/**
 * Onboarding step 3 (SPEC §4 "Onboarding") as a function of the subsidiaries' opening balances:
 * - the first posted trial balance sets 3.1 and opens the milestone modal;
 * - every eligible subsidiary posted sets 3.2, where 'Finish Onboarding' is offered.
 *
 * Decisions the spec leaves open:
 * - Only steps 3 and 3.1 move. Below 3 the user has not reached this screen through the guide
 *   (its Continue from 2.3 sets 3), so posting an opening entry early does not skip steps 1-2.
 * - The steps are milestones and only go forward: marking a posted entry as deleted in QuickBooks,
 *   or resetting the period, does not take the guide back (the user has learnt the step; the
 *   screen itself shows what still needs posting).
 * - A group with one eligible subsidiary reaches 3.2 with its first post; the modal still opens,
 *   because it is the first company posted and the user has not seen it yet.
 * - A posted subsidiary that is not eligible (the period was re-locked) still counts as the first
 *   post, but "all eligible posted" needs at least one eligible subsidiary: none eligible is not done.
 */
export function obalOnboardingStep(current: OnboardingStep, subsidiaries: readonly SubsidiaryForObalStep[]): ObalStepResult {
  if (current !== 3 && current !== 3.1) return { step: current, firstPostedModal: false, offerFinish: current === 3.2 };
  const anyPosted = subsidiaries.some((s) => s.posted);
  const eligible = subsidiaries.filter((s) => s.eligible);
  const allPosted = eligible.length > 0 && eligible.every((s) => s.posted);
  const firstPostedModal = current === 3 && anyPosted;
  if (allPosted) return { step: 3.2, firstPostedModal, offerFinish: true };
  if (anyPosted) return { step: 3.1, firstPostedModal, offerFinish: false };
  return { step: current, firstPostedModal: false, offerFinish: false };
}
