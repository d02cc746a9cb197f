import { describe, expect, it } from "vitest";
import { FIRST_COMPANY_MAPPED_MODAL_TITLE, mappingOnboardingStep, type SubsidiaryForMappingStep } from "./mapping-step.ts";
import { ONBOARDING_STEPS, type OnboardingStep } from "./steps.ts";

const none: SubsidiaryForMappingStep = { mapped: 0, complete: false };
const started: SubsidiaryForMappingStep = { mapped: 3, complete: false };
const done: SubsidiaryForMappingStep = { mapped: 40, complete: true };

describe("mappingOnboardingStep (SPEC §4 onboarding step 2)", () => {
  it("keeps the exact modal text of the spec", () => {
    expect(FIRST_COMPANY_MAPPED_MODAL_TITLE).toBe("You've completed the chart-of-accounts mapping for your first company!");
  });

  it("nothing mapped yet stays at 2 without a modal", () => {
    expect(mappingOnboardingStep(2, [none, none])).toEqual({ step: 2, modal: null });
    expect(mappingOnboardingStep(2, [])).toEqual({ step: 2, modal: null });
  });

  it("the first mapping sets 2.1 with its modal", () => {
    expect(mappingOnboardingStep(2, [none, started])).toEqual({ step: 2.1, modal: "firstMapping" });
    expect(mappingOnboardingStep(2, [{ mapped: 1, complete: false }])).toEqual({ step: 2.1, modal: "firstMapping" });
  });

  it("at 2.1 more mapping without a complete company changes nothing (the modal does not repeat)", () => {
    expect(mappingOnboardingStep(2.1, [started, started])).toEqual({ step: 2.1, modal: null });
  });

  it("one company fully mapped sets 2.2 with the first-company modal, from 2 or 2.1", () => {
    expect(mappingOnboardingStep(2.1, [done, none])).toEqual({ step: 2.2, modal: "firstCompanyMapped" });
    expect(mappingOnboardingStep(2, [done, started])).toEqual({ step: 2.2, modal: "firstCompanyMapped" });
  });

  it("a subsidiary with nothing to map (complete at 0 mapped) counts as fully mapped", () => {
    expect(mappingOnboardingStep(2, [{ mapped: 0, complete: true }, none])).toEqual({ step: 2.2, modal: "firstCompanyMapped" });
  });

  it("all subsidiaries mapped sets 2.3; from 2.2 without a modal", () => {
    expect(mappingOnboardingStep(2.2, [done, done])).toEqual({ step: 2.3, modal: null });
  });

  it("the only subsidiary mapped in one go (2 → 2.3) opens the company-completed modal, not the first-mapping one", () => {
    expect(mappingOnboardingStep(2, [done])).toEqual({ step: 2.3, modal: "firstCompanyMapped" });
    expect(mappingOnboardingStep(2.1, [done, done])).toEqual({ step: 2.3, modal: "firstCompanyMapped" });
  });

  it("never goes back: unmapping at 2.1/2.2/2.3 keeps the step and opens nothing", () => {
    expect(mappingOnboardingStep(2.1, [none])).toEqual({ step: 2.1, modal: null });
    expect(mappingOnboardingStep(2.2, [started, none])).toEqual({ step: 2.2, modal: null });
    expect(mappingOnboardingStep(2.3, [none])).toEqual({ step: 2.3, modal: null });
    expect(mappingOnboardingStep(2.3, [done, started])).toEqual({ step: 2.3, modal: null });
  });

  it("no subsidiary is never 'all mapped'", () => {
    expect(mappingOnboardingStep(2.2, [])).toEqual({ step: 2.2, modal: null });
  });

  it.each(ONBOARDING_STEPS.filter((s) => s < 2 || s >= 3))("outside step 2 (at %s) the maps change nothing", (current: OnboardingStep) => {
    for (const subs of [[], [none], [started], [done], [done, done]]) {
      expect(mappingOnboardingStep(current, subs)).toEqual({ step: current, modal: null });
    }
  });

  it("exhaustively: the step never decreases, stays within 2..2.3, and a modal opens only on a change", () => {
    const kinds = [none, started, done];
    const groups: SubsidiaryForMappingStep[][] = [[]];
    for (const a of kinds) {
      groups.push([a]);
      for (const b of kinds) {
        groups.push([a, b]);
        for (const c of kinds) groups.push([a, b, c]);
      }
    }
    for (const current of [2, 2.1, 2.2, 2.3] as const) {
      for (const subs of groups) {
        const r = mappingOnboardingStep(current, subs);
        expect(r.step).toBeGreaterThanOrEqual(current);
        expect([2, 2.1, 2.2, 2.3]).toContain(r.step);
        if (r.step === current) expect(r.modal).toBeNull();
        const allDone = subs.length > 0 && subs.every((s) => s.complete);
        if (allDone) expect(r.step).toBe(2.3);
        if (r.modal === "firstCompanyMapped") expect(current).toBeLessThan(2.2);
      }
    }
  });
});
