import { describe, it, expect } from "vitest";
import fc from "fast-check";
import {
  ONBOARDING_STEPS,
  ONBOARDING_STEP_LABELS,
  ONBOARDING_STEP_MESSAGE,
  isOnboardingStep,
  onboardingMainStep,
  onboardingStepSchema,
} from "./steps.ts";

describe("onboarding steps", () => {
  it("are exactly the eleven values in order", () => {
    expect(ONBOARDING_STEPS).toEqual([0, 1, 1.1, 1.2, 2, 2.1, 2.2, 2.3, 3, 3.1, 3.2]);
    expect([...ONBOARDING_STEPS].sort((a, b) => a - b)).toEqual([...ONBOARDING_STEPS]);
  });

  it("has the exact message and labels", () => {
    expect(ONBOARDING_STEP_MESSAGE).toBe("Onboarding step must be one of 0, 1, 1.1, 1.2, 2, 2.1, 2.2, 2.3, 3, 3.1, 3.2.");
    expect(ONBOARDING_STEP_LABELS).toEqual({
      1: "Connect Companies",
      2: "Chart of Accounts Mapping",
      3: "Load Opening Balances (optional)",
    });
  });

  it("isOnboardingStep accepts every step", () => {
    for (const step of ONBOARDING_STEPS) expect(isOnboardingStep(step)).toBe(true);
    expect(isOnboardingStep(Number("2.3"))).toBe(true);
  });

  it.each([-1, 0.5, 1.3, 1.15, 1.10000001, 2.4, 3.3, 4, 10, 11, Number.NaN, Infinity, "1", "1.1", null, undefined, true, [1], {}])(
    "isOnboardingStep rejects %j",
    (value) => {
      expect(isOnboardingStep(value)).toBe(false);
      expect(onboardingStepSchema.safeParse(value).error?.issues.map((i) => i.message)).toEqual([ONBOARDING_STEP_MESSAGE]);
    },
  );

  it("onboardingStepSchema accepts every step unchanged", () => {
    for (const step of ONBOARDING_STEPS) expect(onboardingStepSchema.parse(step)).toBe(step);
  });

  it("schema and guard agree on arbitrary numbers (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.constantFrom(...ONBOARDING_STEPS)), (n) => {
        return onboardingStepSchema.safeParse(n).success === isOnboardingStep(n);
      }),
    );
  });

  it("onboardingMainStep maps sub-steps to their main step", () => {
    expect(ONBOARDING_STEPS.map(onboardingMainStep)).toEqual([0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3]);
  });
});
