import type { OnboardingStep } from "./steps.ts";

/** What step 1 of the guide needs to know about one company. */
export interface CompanyForOnboarding {
  parent: boolean;
  /** An archived company is out of the group from its archive date, so it no longer counts. */
  archived: boolean;
  /** A company whose authorization was revoked (disconnected) is not "connected" in SPEC §4's sense. */
  connection: "connected" | "needs_reauthorization" | "disconnected";
}

export interface CompaniesStepResult {
  step: OnboardingStep;
  /** Open the 'Your first company is connected!' milestone modal. */
  firstCompanyModal: boolean;
}

export const FIRST_COMPANY_MODAL_TITLE = "Your first company is connected!";

/** Whether a company counts as connected for step 1: archived and disconnected companies do not. */
export function countsForOnboarding(company: CompanyForOnboarding): boolean {
  return !company.archived && company.connection !== "disconnected";
}

/**
 * Onboarding step 1 (SPEC §4 "Onboarding") as a function of the companies:
 * - step 1 while nothing is connected, and while several companies exist but none is the parent;
 * - step 1.1 when the parent or a subsidiary is missing;
 * - step 1.2 when a parent and at least one subsidiary are connected;
 * - the first company connected (one company in total, no subsidiary) opens the milestone modal
 *   and makes the step 1.1. Connecting never makes a company the parent (the user chooses it), so
 *   the first company is usually not the parent yet: the modal opens as soon as it is connected,
 *   not once a parent is chosen. The modal opens only on the way from step 1, so a reload at 1.1,
 *   choosing the parent at 1.1, or removing the last subsidiary at 1.2 does not repeat it.
 *
 * Decisions the spec leaves open:
 * - Only steps 1, 1.1 and 1.2 are driven by the companies. Step 0 belongs to the welcome overlay
 *   ('Get Started' moves it), and once the guide is at step 2 or later the user has moved on
 *   ('Continue' from 1.2): connecting, removing or disconnecting a company then never sends the
 *   guide back to step 1 — the later steps keep their own rules and progress.
 * - Within step 1 the step follows the companies both ways (removing the only subsidiary at 1.2
 *   returns to 1.1), because 1.1/1.2 describe the group as it is, not a milestone reached.
 * - Once past the first company (1.1 or 1.2), a group with companies but no parent stays at 1.1
 *   ("a parent is missing"): the spec's "step 1 when some companies exist but no parent" would
 *   otherwise send it back to step 1, where one company alone (the first company, again) would
 *   reopen the milestone. Only a group with no company left returns to step 1.
 * - "Connected" excludes archived and disconnected companies; a company that needs
 *   re-authorization is still connected (its link exists and Reconnect repairs it in place).
 */
export function companiesOnboardingStep(current: OnboardingStep, companies: readonly CompanyForOnboarding[]): CompaniesStepResult {
  if (current < 1 || current >= 2) return { step: current, firstCompanyModal: false };
  const counted = companies.filter(countsForOnboarding);
  const hasParent = counted.some((c) => c.parent);
  const subsidiaries = counted.filter((c) => !c.parent).length;
  if (counted.length === 0) return { step: 1, firstCompanyModal: false };
  if (hasParent && subsidiaries > 0) return { step: 1.2, firstCompanyModal: false };
  if (current === 1) {
    if (counted.length === 1) return { step: 1.1, firstCompanyModal: true };
    // Several companies and none of them the parent: not a first company, still step 1.
    return { step: 1, firstCompanyModal: false };
  }
  return { step: 1.1, firstCompanyModal: false };
}
