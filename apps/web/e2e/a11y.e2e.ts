import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Accessibility (issue 11): axe-core on every main screen in headless Chromium, with real data
 * behind the screens (the demo parent and its UK subsidiary mapped, translated and opened), and no
 * serious or critical violation allowed. Prints a table of what axe found per screen.
 */
// Evaluated over the DevTools protocol, which the app's CSP (script-src 'self') rightly does not
// let a script tag do.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let baseUrl = "";
let session: e2e.Session;
let page: Page;

e2e.ownServer((url) => (baseUrl = url));
e2e.browserForFile((s) => {
  session = s;
  page = s.page;
});

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

async function audit(path: string, ready: () => Promise<unknown>): Promise<Violation[]> {
  await page.goto(`${baseUrl}${path}`);
  await ready();
  await page.waitForTimeout(300); // transitions settle before axe reads colours
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
}

const found: { screen: string; serious: number; moderate: number; minor: number; details: string[] }[] = [];

async function check(screen: string, path: string, ready: () => Promise<unknown>) {
  const violations = await audit(path, ready);
  const count = (impacts: string[]) => violations.filter((v) => impacts.includes(v.impact ?? "")).reduce((s, v) => s + v.nodes.length, 0);
  const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  found.push({
    screen,
    serious: count(["serious", "critical"]),
    moderate: count(["moderate"]),
    minor: count(["minor"]),
    details: blocking.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`),
  });
}

describe("accessibility of the main screens (axe-core)", () => {
  it("public screens", async () => {
    await check("Landing", "/", () => page.locator("main, h1").first().waitFor());
    await check("Log in", "/login", () => page.getByRole("button", { name: "Log in" }).waitFor());
    await check("Sign up", "/signup", () => page.getByLabel("Email").waitFor());
    await check("Reset password", "/resetPassword", () => page.getByLabel("Email").first().waitFor());
    await check("Pricing", "/pricing", () => page.locator("h1, h2").first().waitFor());
  });

  it("setup and consolidation screens with the demo group behind them", async () => {
    await e2e.signUpAndLogIn(page, baseUrl, `a11y.${Date.now()}@northwind.example`);
    await check("Welcome (step 0)", "/setup/companies", () => page.getByRole("dialog", { name: "Welcome to GroupLedger" }).waitFor());
    await e2e.connectDemoGroup(session, baseUrl, [e2e.DEMO.uk]);
    await e2e.mapAllAccounts(page, baseUrl, e2e.DEMO.parent.realmId, e2e.DEMO.uk.realmId);
    await e2e.configureTranslation(page, baseUrl, { from: "2024-11", to: "2026-10" });
    await e2e.api(page, baseUrl, "/account", { method: "PATCH", body: { onboardingStep: 3 } });
    await check("Connected Companies", "/setup/companies", () => page.getByTestId(`company-${e2e.DEMO.uk.realmId}`).waitFor());
    await check("COA Mapping", "/setup/coa", () => page.getByRole("grid").locator("[data-row-id]").first().waitFor());
    await check("CTA & Historical", "/setup/cta", () => page.getByRole("heading").first().waitFor());
    await check("Opening Balance Sheet", "/setup/obal", () => page.getByRole("heading").first().waitFor());
    await e2e.postOpeningBalances(page, baseUrl, "2025-12", [e2e.DEMO.uk.realmId]);
    await e2e.api(page, baseUrl, "/account", { method: "PATCH", body: { onboarding: false } });
    const screens: [string, string][] = [
      ["FOREX Management", "/consolidation/fx_rates"],
      ["Single Period / Company", "/consolidation/run"],
      ["Multi Period / Company", "/multipleconsolidation/run"],
      ["Interco Eliminations", "/consolidation/elimination"],
      ["Transaction Detail", "/consolidation/transaction-detail"],
      ["Verify", "/consolidation/verify"],
      ["Account Settings", "/settings"],
      ["Change Password", "/changePassword"],
    ];
    for (const [name, path] of screens) {
      await check(name, path, () => page.getByRole("heading").first().waitFor());
    }
  }, 180_000); // walks a dozen screens with the demo group: about 35 s alone, over 60 s with the whole suite beside it on a slow machine

  it("no screen has a serious or critical violation", () => {
    expect(found.length).toBeGreaterThan(15);
    expect(found.filter((f) => f.serious > 0).map((f) => `${f.screen}: ${f.details.join(" | ")}`)).toEqual([]);
  });

  afterAll(() => {
    const table = [
      "| Screen | Serious/critical | Moderate | Minor |",
      "|---|---|---|---|",
      ...found.map((f) => `| ${f.screen} | ${f.serious} | ${f.moderate} | ${f.minor} |`),
    ];
    console.log(`\naxe-core on ${found.length} screens:\n${table.join("\n")}`);
    for (const f of found) for (const d of f.details) console.log(`  ${f.screen}: ${d}`);
  });
});
