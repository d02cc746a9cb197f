import type { Company } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { NAV_REASONS, navAvailability, navFacts, type NavFacts } from "./enabling.ts";
import { isInGroup, NAV_ITEMS, screensHeldByOnboarding } from "./navItems.ts";
import { PARENT_CO } from "../../test/fixtures.ts";

const STEPS = [0, 1, 1.1, 1.2, 2, 2.1, 2.2, 2.3, 3, 3.1, 3.2];
const bools = [false, true];

/** Every combination of facts the rules look at. */
function* allFacts(): Generator<NavFacts> {
  for (const hasParent of bools)
    for (const hasSubsidiary of bools)
      for (const onboarding of bools)
        for (const foreignCurrency of bools)
          for (const obalConfigured of bools)
            for (const onboardingStep of STEPS) yield { hasParent, hasSubsidiary, onboarding, foreignCurrency, obalConfigured, onboardingStep };
}

/** The SPEC §2 table's "Enabled only when" column, written out independently of the flags. */
const specEnabled: Record<string, (f: NavFacts) => boolean> = {
  "/setup/companies": () => true,
  "/setup/coa": (f) => f.hasParent && f.hasSubsidiary,
  "/setup/cta": (f) => f.hasParent && f.hasSubsidiary && f.foreignCurrency,
  // Issue 16: a same-currency subsidiary has an acquisition too.
  "/setup/acquisitions": (f) => f.hasParent && f.hasSubsidiary,
  // "onboarding step 3 or later"; once onboarding is switched off the guide no longer gates it.
  "/setup/obal": (f) => f.hasParent && f.hasSubsidiary && (!f.onboarding || f.onboardingStep >= 3),
  "/consolidation/fx_rates": (f) => (f.hasParent || f.hasSubsidiary) && !f.onboarding && f.foreignCurrency,
  "/multipleconsolidation/run": (f) => f.hasParent && f.hasSubsidiary && !f.onboarding,
  "/consolidation/run": (f) => f.hasParent && f.hasSubsidiary && !f.onboarding,
  "/consolidation/elimination": (f) => f.hasParent && f.hasSubsidiary && !f.onboarding,
  "/consolidation/transaction-detail": (f) => f.hasParent && f.hasSubsidiary && !f.onboarding,
  // Issue 18: Reports and Verify open when Single Period does.
  "/consolidation/reports": (f) => f.hasParent && f.hasSubsidiary && !f.onboarding,
  "/consolidation/verify": (f) => f.hasParent && f.hasSubsidiary && !f.onboarding,
};

const leaves = NAV_ITEMS.flatMap((i) => i.items ?? []);

describe("navigation items (SPEC §2)", () => {
  it("has Home disabled, then the two bold sections with the exact labels", () => {
    expect(NAV_ITEMS.map((i) => [i.path, i.label, Boolean(i.disabled), Boolean(i.bold)])).toEqual([
      ["/home", "Home", true, false],
      ["/setup", "SETUP & CONFIGURE", false, true],
      ["/consolidation", "CONSOLIDATION", false, true],
    ]);
    expect(leaves.map((i) => [i.path, i.label])).toEqual([
      ["/setup/companies", "Connected Companies"],
      ["/setup/coa", "COA Mapping"],
      ["/setup/cta", "CTA & Historical"],
      ["/setup/acquisitions", "Acquisitions"],
      ["/setup/obal", "Opening Balance Sheet"],
      ["/consolidation/fx_rates", "FOREX Management"],
      ["/multipleconsolidation/run", "Multi Period / Company"],
      ["/consolidation/run", "Single Period / Company"],
      ["/consolidation/elimination", "Interco Eliminations"],
      ["/consolidation/transaction-detail", "Transaction Detail"],
      ["/consolidation/reports", "Consolidated Reports"],
      ["/consolidation/verify", "Verify Consolidation"],
    ]);
  });

  it("enables every item exactly as the SPEC table says, for every combination of facts", () => {
    let checked = 0;
    for (const facts of allFacts()) {
      for (const item of leaves) {
        const rule = specEnabled[item.path];
        expect(rule, item.path).toBeDefined();
        expect(navAvailability(item, facts).enabled, `${item.path} ${JSON.stringify(facts)}`).toBe(rule!(facts));
        checked++;
      }
    }
    expect(checked).toBe(2 ** 5 * STEPS.length * leaves.length);
  });

  it("highlights the group the current path belongs to", () => {
    const [, setup, consolidation] = NAV_ITEMS;
    expect(isInGroup(setup!, "/setup/coa")).toBe(true);
    expect(isInGroup(setup!, "/settings")).toBe(false);
    expect(isInGroup(consolidation!, "/multipleconsolidation/run")).toBe(true);
    expect(isInGroup(consolidation!, "/consolidation/verify")).toBe(true);
    expect(isInGroup(consolidation!, "/consolidation/reports")).toBe(true);
    expect(isInGroup(setup!, "/consolidation/reports")).toBe(false);
    expect(isInGroup(consolidation!, "/setup/companies")).toBe(false);
  });
});

describe("screensHeldByOnboarding (what 'Skip This Step' unlocks)", () => {
  const facts: NavFacts = { hasParent: true, hasSubsidiary: true, onboarding: true, onboardingStep: 0, foreignCurrency: true, obalConfigured: false };

  it("lists, in navigation order, exactly the entries locked now by the guide, and what each still needs without it", () => {
    for (const f of allFacts()) {
      const held = screensHeldByOnboarding(f);
      for (const h of held) {
        const item = leaves.find((i) => i.path === h.path)!;
        expect(navAvailability(item, f).enabled, h.path).toBe(false);
        const after = navAvailability(item, { ...f, onboarding: false });
        expect(h.stillNeeds).toEqual(after.enabled ? [] : after.reasons);
      }
      // Nothing is held back once the guide has ended.
      if (!f.onboarding) expect(held).toEqual([]);
    }
    expect(screensHeldByOnboarding(facts).map((h) => [h.label, h.stillNeeds])).toEqual([
      ["Opening Balance Sheet", []],
      ["FOREX Management", []],
      ["Multi Period / Company", []],
      ["Single Period / Company", []],
      ["Interco Eliminations", []],
      ["Transaction Detail", []],
      ["Consolidated Reports", []],
      ["Verify Consolidation", []],
    ]);
  });

  it("leaves out what the guide does not hold (step 3 reached opens Opening Balance Sheet already) and says what else is missing", () => {
    const held = screensHeldByOnboarding({ ...facts, onboardingStep: 3, hasSubsidiary: false, foreignCurrency: false });
    expect(held.map((h) => h.label)).not.toContain("Opening Balance Sheet");
    expect(held.find((h) => h.label === "Verify Consolidation")?.stillNeeds).toEqual([NAV_REASONS.subsidiary]);
    expect(held.find((h) => h.label === "FOREX Management")?.stillNeeds).toEqual([NAV_REASONS.foreignCurrency]);
  });
});

describe("navAvailability reasons", () => {
  const none: NavFacts = { hasParent: false, hasSubsidiary: false, onboarding: true, onboardingStep: 1, foreignCurrency: false, obalConfigured: false };

  it("says every unmet condition, in the order the user has to act on them", () => {
    expect(navAvailability({ requireParent: true, requireSubsidiary: true, requireOnboardingComplete: true }, none)).toEqual({
      enabled: false,
      reasons: [NAV_REASONS.parent, NAV_REASONS.subsidiary, NAV_REASONS.onboardingComplete],
    });
    expect(navAvailability({ requireCompanies: true, requireForeignCurrency: true }, none)).toEqual({
      enabled: false,
      reasons: [NAV_REASONS.companies, NAV_REASONS.foreignCurrency],
    });
    expect(navAvailability({ requireOnboardingStep: 3 }, none)).toEqual({ enabled: false, reasons: ["Complete onboarding up to step 3 first"] });
    expect(NAV_REASONS.parent).toBe("Connect a parent company first");
  });

  it("checks requireOBALConfigured (year and month both set)", () => {
    expect(navAvailability({ requireOBALConfigured: true }, none)).toEqual({ enabled: false, reasons: [NAV_REASONS.obal] });
    expect(navAvailability({ requireOBALConfigured: true }, { ...none, obalConfigured: true })).toEqual({ enabled: true });
  });
});

describe("navFacts", () => {
  // A US parent as the fixtures' (USD, calendar year, wholly owned), under another id and name.
  const company = (over: Partial<Company>): Company => ({ ...PARENT_CO, realmId: "1", companyName: "Parent Inc", connectedAt: "2026-01-01T00:00:00.000Z", ...over });

  it("treats missing data as 'not yet' and an unloaded account as onboarding", () => {
    expect(navFacts({ account: undefined, companies: undefined, obal: undefined })).toEqual({
      hasParent: false,
      hasSubsidiary: false,
      onboarding: true,
      onboardingStep: 0,
      foreignCurrency: false,
      obalConfigured: false,
    });
  });

  it("derives parent, subsidiary, foreign currency and OBAL from server state, ignoring archived companies", () => {
    const facts = navFacts({
      account: { onboarding: false, onboardingStep: 2.3 },
      companies: [
        company({}),
        company({ realmId: "2", parent: false, homeCurrency: "USD" }),
        company({ realmId: "3", parent: false, homeCurrency: "EUR", archivedAt: "2026-06-30" }),
      ],
      obal: { year: 2026, month: 6 },
    });
    expect(facts).toEqual({ hasParent: true, hasSubsidiary: true, onboarding: false, onboardingStep: 2.3, foreignCurrency: false, obalConfigured: true });
    expect(navFacts({ account: undefined, companies: [company({}), company({ realmId: "2", parent: false, homeCurrency: "GBP" })], obal: { year: 2026, month: null } })).toMatchObject({
      foreignCurrency: true,
      obalConfigured: false,
    });
  });
});
