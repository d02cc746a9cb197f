import { describe, expect, it } from "vitest";
import { companiesOnboardingStep, type CompanyForOnboarding } from "./companies-step.ts";
import { ONBOARDING_STEPS, type OnboardingStep } from "./steps.ts";

const parent: CompanyForOnboarding = { parent: true, archived: false, connection: "connected" };
const sub: CompanyForOnboarding = { parent: false, archived: false, connection: "connected" };
const step1Steps = [1, 1.1, 1.2] as const;

describe("companiesOnboardingStep (SPEC §4 onboarding step 1)", () => {
  it.each(step1Steps)("from %s: no company at all is step 1, no modal", (current) => {
    expect(companiesOnboardingStep(current, [])).toEqual({ step: 1, firstCompanyModal: false });
  });

  it("at step 1, several companies and none of them the parent stay step 1: not a first company", () => {
    expect(companiesOnboardingStep(1, [sub, sub])).toEqual({ step: 1, firstCompanyModal: false });
    expect(companiesOnboardingStep(1, [sub, sub, sub])).toEqual({ step: 1, firstCompanyModal: false });
  });

  it("the first company connected, before any parent is chosen, opens the modal at step 1 and makes 1.1 (issue 18)", () => {
    // Connecting never marks a company as the parent: the first one arrives without a role.
    expect(companiesOnboardingStep(1, [sub])).toEqual({ step: 1.1, firstCompanyModal: true });
  });

  it("the first company connected already marked the parent opens the modal and makes 1.1 too", () => {
    expect(companiesOnboardingStep(1, [parent])).toEqual({ step: 1.1, firstCompanyModal: true });
  });

  it("the modal does not repeat: a reload at 1.1, choosing the parent at 1.1, or the last subsidiary removed at 1.2 is 1.1 without it", () => {
    expect(companiesOnboardingStep(1.1, [sub])).toEqual({ step: 1.1, firstCompanyModal: false });
    expect(companiesOnboardingStep(1.1, [parent])).toEqual({ step: 1.1, firstCompanyModal: false });
    expect(companiesOnboardingStep(1.2, [parent])).toEqual({ step: 1.1, firstCompanyModal: false });
  });

  it.each([1.1, 1.2] as const)("from %s: companies but no parent stay 1.1 (a parent is missing), so the first-company modal is not re-armed", (current) => {
    expect(companiesOnboardingStep(current, [sub, sub])).toEqual({ step: 1.1, firstCompanyModal: false });
    expect(companiesOnboardingStep(current, [sub])).toEqual({ step: 1.1, firstCompanyModal: false });
  });

  it("a parent with an archived or disconnected subsidiary still misses a subsidiary: 1.1, and it is not a first company", () => {
    for (const gone of [{ ...sub, archived: true }, { ...sub, connection: "disconnected" as const }]) {
      expect(companiesOnboardingStep(1, [parent, gone])).toEqual({ step: 1.1, firstCompanyModal: true });
      expect(companiesOnboardingStep(1.2, [parent, gone])).toEqual({ step: 1.1, firstCompanyModal: false });
    }
  });

  it.each(step1Steps)("from %s: a parent and a connected subsidiary is 1.2, never with the modal", (current) => {
    expect(companiesOnboardingStep(current, [parent, sub])).toEqual({ step: 1.2, firstCompanyModal: false });
    expect(companiesOnboardingStep(current, [sub, parent, sub, sub])).toEqual({ step: 1.2, firstCompanyModal: false });
  });

  it("a company that needs re-authorization still counts as connected", () => {
    expect(companiesOnboardingStep(1.1, [parent, { ...sub, connection: "needs_reauthorization" }]).step).toBe(1.2);
    expect(companiesOnboardingStep(1, [{ ...parent, connection: "needs_reauthorization" }]).step).toBe(1.1);
  });

  it("an archived or disconnected parent is no parent: back from 1.2 to 1.1 (a parent is missing)", () => {
    expect(companiesOnboardingStep(1.2, [{ ...parent, archived: true }, sub]).step).toBe(1.1);
    expect(companiesOnboardingStep(1.2, [{ ...parent, connection: "disconnected" }, sub]).step).toBe(1.1);
    expect(companiesOnboardingStep(1, [{ ...parent, archived: true }, sub, sub]).step).toBe(1);
  });

  it("follows the group both ways within step 1 (1 → 1.1 → 1.1 → 1.2 → 1.1 → 1), with the modal once", () => {
    let step: OnboardingStep = 1;
    const seen: [OnboardingStep, boolean][] = [];
    for (const companies of [[sub], [parent], [parent, sub], [parent], []]) {
      const next = companiesOnboardingStep(step, companies);
      step = next.step;
      seen.push([step, next.firstCompanyModal]);
    }
    expect(seen).toEqual([
      [1.1, true],
      [1.1, false],
      [1.2, false],
      [1.1, false],
      [1, false],
    ]);
  });

  const untouched = ONBOARDING_STEPS.filter((s) => s < 1 || s >= 2);
  const groups: CompanyForOnboarding[][] = [[], [sub], [parent], [parent, sub], [{ ...parent, archived: true }]];
  it.each(untouched)("never moves step %s: step 0 belongs to 'Get Started', 2 and later are never reset", (current) => {
    for (const companies of groups) expect(companiesOnboardingStep(current, companies)).toEqual({ step: current, firstCompanyModal: false });
  });

  it("covers every step value: the result is always a step of the guide", () => {
    for (const current of ONBOARDING_STEPS) {
      for (const companies of groups) expect(ONBOARDING_STEPS).toContain(companiesOnboardingStep(current, companies).step);
    }
  });
});
