import { describe, expect, it } from "vitest";
import { continueTarget, GET_STARTED, onboardingView, stepperActive } from "./flow.ts";
import { ONBOARDING_MAIN_STEPS, ONBOARDING_SUPPORT_LINKS } from "./supportLinks.ts";

describe("onboarding flow (SPEC §4)", () => {
  it("shows the welcome overlay only at step 0 while onboarding", () => {
    expect(onboardingView({ onboarding: true, onboardingStep: 0 }).showWelcome).toBe(true);
    expect(onboardingView({ onboarding: true, onboardingStep: 1 }).showWelcome).toBe(false);
    expect(onboardingView({ onboarding: false, onboardingStep: 0 })).toMatchObject({ showWelcome: false, active: false });
    expect(onboardingView(undefined)).toMatchObject({ showWelcome: false, active: false });
  });

  it("reads sub-steps as their main step", () => {
    expect(onboardingView({ onboarding: true, onboardingStep: 2.2 })).toMatchObject({ step: 2.2, mainStep: 2 });
    expect(onboardingView({ onboarding: true, onboardingStep: 3.7 })).toMatchObject({ step: 3, mainStep: 3 });
    expect(stepperActive(onboardingView({ onboarding: true, onboardingStep: 1.1 }))).toBe(0);
    expect(stepperActive(onboardingView({ onboarding: true, onboardingStep: 3 }))).toBe(2);
  });

  it("'Get Started' goes to step 1 on /setup/companies; 'Continue' at 1.2 and 2.3 moves on", () => {
    expect(GET_STARTED).toEqual({ step: 1, path: "/setup/companies" });
    expect(continueTarget(1.2)).toEqual({ step: 2, path: "/setup/coa" });
    expect(continueTarget(2.3)).toEqual({ step: 3, path: "/setup/obal" });
    for (const step of [0, 1, 1.1, 2, 2.1, 2.2, 3, 3.1, 3.2] as const) expect(continueTarget(step)).toBeNull();
  });

  it("has the three steps with their labels and support links", () => {
    expect(ONBOARDING_MAIN_STEPS.map((s) => s.label)).toEqual([
      "Connect Companies",
      "Chart of Accounts Mapping",
      "Load Opening Balances (optional)",
    ]);
    expect(ONBOARDING_SUPPORT_LINKS).toEqual({
      1: "https://support.groupledger.example/articles/connect-companies",
      2: "https://support.groupledger.example/articles/chart-of-accounts-mapping",
      3: "https://support.groupledger.example/articles/opening-balances",
    });
  });
});
