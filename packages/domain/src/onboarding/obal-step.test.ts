import { describe, expect, it } from "vitest";
import { FINISH_ONBOARDING_PATCH, FIRST_OBAL_POSTED_MODAL_TITLE, obalOnboardingStep, type SubsidiaryForObalStep } from "./obal-step.ts";
import { ONBOARDING_STEPS, type OnboardingStep } from "./steps.ts";

const open: SubsidiaryForObalStep = { eligible: true, posted: false };
const posted: SubsidiaryForObalStep = { eligible: true, posted: true };
const ineligible: SubsidiaryForObalStep = { eligible: false, posted: false };
const none = { firstPostedModal: false, offerFinish: false };

describe("obalOnboardingStep (SPEC §4 onboarding step 3)", () => {
  it("keeps the exact milestone text of the spec", () => {
    expect(FIRST_OBAL_POSTED_MODAL_TITLE).toBe("You've posted translated trial balances for your first company!");
  });

  it("'Finish Onboarding' disables onboarding rather than setting a step", () => {
    expect(FINISH_ONBOARDING_PATCH).toEqual({ onboarding: false });
  });

  it("nothing posted stays where it is", () => {
    expect(obalOnboardingStep(3, [open, open, ineligible])).toEqual({ step: 3, ...none });
    expect(obalOnboardingStep(3, [])).toEqual({ step: 3, ...none });
    expect(obalOnboardingStep(3.1, [open])).toEqual({ step: 3.1, ...none });
  });

  it("the first posted trial balance at step 3 sets 3.1 and opens the modal", () => {
    expect(obalOnboardingStep(3, [posted, open])).toEqual({ step: 3.1, firstPostedModal: true, offerFinish: false });
  });

  it("the modal does not repeat at 3.1 (a reload, a second post that is not the last)", () => {
    expect(obalOnboardingStep(3.1, [posted, open])).toEqual({ step: 3.1, ...none });
    expect(obalOnboardingStep(3.1, [posted, posted, open])).toEqual({ step: 3.1, ...none });
  });

  it("all eligible subsidiaries posted sets 3.2 and offers Finish; ineligible ones are not waited for", () => {
    expect(obalOnboardingStep(3.1, [posted, posted, ineligible])).toEqual({ step: 3.2, firstPostedModal: false, offerFinish: true });
  });

  it("a single eligible subsidiary posted from step 3 goes straight to 3.2 and still shows the first-post modal", () => {
    expect(obalOnboardingStep(3, [posted, ineligible])).toEqual({ step: 3.2, firstPostedModal: true, offerFinish: true });
  });

  it("no eligible subsidiary is never 'all posted', even when a now-ineligible one was posted", () => {
    const postedThenIneligible: SubsidiaryForObalStep = { eligible: false, posted: true };
    expect(obalOnboardingStep(3, [ineligible])).toEqual({ step: 3, ...none });
    expect(obalOnboardingStep(3, [postedThenIneligible, ineligible])).toEqual({ step: 3.1, firstPostedModal: true, offerFinish: false });
  });

  it("3.2 stays 3.2 and keeps offering Finish, even when an entry is marked deleted (milestones only go forward)", () => {
    expect(obalOnboardingStep(3.2, [posted, open])).toEqual({ step: 3.2, firstPostedModal: false, offerFinish: true });
    expect(obalOnboardingStep(3.2, [open])).toEqual({ step: 3.2, firstPostedModal: false, offerFinish: true });
  });

  const earlier = ONBOARDING_STEPS.filter((s) => s < 3);
  it.each(earlier)("step %s is not moved by posting (the guide has not reached step 3)", (current: OnboardingStep) => {
    expect(obalOnboardingStep(current, [posted])).toEqual({ step: current, ...none });
    expect(obalOnboardingStep(current, [posted, open])).toEqual({ step: current, ...none });
  });

  it("covers every step value: only 3 and 3.1 ever change", () => {
    for (const current of ONBOARDING_STEPS) {
      const next = obalOnboardingStep(current, [posted]).step;
      if (current === 3 || current === 3.1) expect(next).toBe(3.2);
      else expect(next).toBe(current);
    }
  });
});
