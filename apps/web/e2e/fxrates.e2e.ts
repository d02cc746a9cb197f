import { readFileSync } from "node:fs";
import { RATE_MESSAGE } from "@groupledger/domain";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { monthLabel } from "../src/features/fxrates/model.ts";
import * as e2e from "./support.ts";

/**
 * Issue 7 end to end, FOREX Management: the demo parent (USD) with its UK (GBP) and German (EUR)
 * subsidiaries connected through the real pop-up, then on /consolidation/fx_rates: a rate typed
 * and saved, refusals of a negative and a non-numeric rate, a CSV imported through the file input
 * (and one refused for a bad row), the template downloaded, and rates fetched from the emulator's
 * offline rates service, each checked through the API.
 */
// Its own server: a QuickBooks company belongs to one account, and other journeys connect the demo parent too.
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));

const EMAIL = `treasurer.${Date.now()}@northwind.example`;
// The emulator's rates history ends in October 2026; the default grid (the last 24 months) shows these months until late 2028.
const OCT = "2026-10";
const SEP = "2026-09";

let session: e2e.Session;
let page: Page;
const shot = (name: string) => e2e.shot(page, name);

interface Grid {
  parentCurrency: string | null;
  currencies: string[];
  months: string[];
  rates: { currency: string; month: string; avgfx: string; endfx: string }[];
}
const rateOf = async (currency: string, month: string) => {
  const grid = await e2e.api<Grid>(page, baseUrl, `/fxrates?from=${month}&to=${month}`);
  return grid.rates.find((r) => r.currency === currency);
};
const cell = (currency: string, field: "average" | "end of period", month: string) =>
  page.getByRole("textbox", { name: `${currency} ${field} rate, ${monthLabel(month)}`, exact: true });
const status = () => page.getByRole("status").filter({ hasText: /Saved|Imported|Fetched/ });

const pickMonth = (scope: Locator, label: "From" | "To", month: string) => e2e.pickMonth(page, scope, label, month, monthLabel);

e2e.browserForFile((s) => {
  session = s;
  page = s.page;
});

describe("FOREX Management in a browser", () => {
  it("connects the demo parent with its UK and German subsidiaries and opens FOREX Management from the navigation", async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, [e2e.DEMO.uk, e2e.DEMO.germany]);
    // SPEC §2: the menu entry opens once onboarding is complete; this journey is about rates, so it skips the guide.
    await e2e.api(page, baseUrl, "/account", { method: "PATCH", body: { onboarding: false } });
    await page.reload();
    await page.getByRole("link", { name: "FOREX Management" }).click();
    await page.waitForURL("**/consolidation/fx_rates");
    await page.getByRole("table", { name: "FX rates: USD per one unit of each foreign currency" }).waitFor();
    await page.getByTestId("rate-semantics").getByText("1 GBP = x USD").waitFor();
    const grid = await e2e.api<Grid>(page, baseUrl, "/fxrates");
    expect(grid).toMatchObject({ parentCurrency: "USD", currencies: ["EUR", "GBP"] });
    // Nothing entered yet: every cell of every month shown is missing, and counted.
    await page.getByTestId("missing-summary").getByText(/^24 months miss a rate \(96 empty cells\)\.$/).waitFor();
    await shot("50-fx-rates-empty");
  });

  it("saves a rate typed by hand", async () => {
    await cell("GBP", "average", OCT).fill("1.2745");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => cell("GBP", "end of period", OCT).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type("1.28100");
    await page.getByTestId("unsaved-summary").getByText("2 unsaved changes").waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await status().getByText("Saved 2 rates.").waitFor();
    expect(await rateOf("GBP", OCT)).toEqual({ currency: "GBP", month: OCT, avgfx: "1.2745", endfx: "1.281" });
    await expect.poll(() => cell("GBP", "end of period", OCT).inputValue()).toBe("1.281");
  });

  it("refuses a negative and a non-numeric rate in the cell, before anything is sent", async () => {
    const negative = cell("EUR", "average", SEP);
    await negative.fill("-1.08");
    const td = (l: Locator) => l.locator("xpath=ancestor::td[1]");
    await td(negative).getByText(RATE_MESSAGE).waitFor();
    const text = cell("EUR", "end of period", SEP);
    await text.fill("abc");
    await td(text).getByText(RATE_MESSAGE).waitFor();
    await page.getByTestId("unsaved-summary").getByText("2 unsaved changes, 2 not valid").waitFor();
    expect(await page.getByRole("button", { name: "Save", exact: true }).isDisabled()).toBe(true);
    await shot("51-fx-rates-validation");
    await page.getByRole("button", { name: "Discard" }).click();
    await expect.poll(() => negative.inputValue()).toBe("");
    expect((await rateOf("EUR", SEP))?.avgfx).toBe("");
  });

  it("downloads the template", async () => {
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download template" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("fx-rates-template.csv");
    const lines = readFileSync((await file.path())!, "utf8").trim().split(/\r?\n/); // RFC 4180 line ends (CRLF)
    expect(lines[0]).toBe("currency,month,avgfx,endfx");
    expect(lines.slice(1).every((l) => /^(EUR|GBP),\d{4}-\d{2},,$/.test(l))).toBe(true);
    expect(lines).toHaveLength(7);
  });

  it("imports a CSV through the file input; a file with a bad row is refused whole, with the row named", async () => {
    await page.getByRole("button", { name: "Import CSV" }).click();
    const dialog = page.getByRole("dialog", { name: "Import rates from CSV" });
    const input = dialog.locator('input[type="file"]');
    const bad = `currency,month,avgfx,endfx\nEUR,${SEP},1.0901,1.0925\nEUR,Sept 2026,1.09,1.1\nGBP,${SEP},1.27\n`;
    await input.setInputFiles({ name: "rates-with-errors.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
    await dialog.getByText("3 rows of rates in rates-with-errors.csv").waitFor();
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    const errors = dialog.getByTestId("import-errors");
    await errors.getByText("Row 3: Use a month like 2026-10.").waitFor();
    await errors.getByText("Row 4 has 3 values; expected 4 (currency, month, avgfx, endfx).").waitFor();
    await shot("52-fx-rates-import-errors");
    // All or nothing: the good first row was not imported either.
    expect((await rateOf("EUR", SEP))?.avgfx).toBe("");

    const good = `currency,month,avgfx,endfx\nEUR,${SEP},1.0901,1.0925\neur,${OCT},1.0801,1.0874\n`;
    await input.setInputFiles({ name: "rates.csv", mimeType: "text/csv", buffer: Buffer.from(good) });
    await dialog.getByText("2 rows of rates in rates.csv").waitFor();
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await status().getByText("Imported 2 rows: 2 changed.").waitFor();
    await dialog.waitFor({ state: "hidden" });
    expect(await rateOf("EUR", SEP)).toEqual({ currency: "EUR", month: SEP, avgfx: "1.0901", endfx: "1.0925" });
    expect(await rateOf("EUR", OCT)).toEqual({ currency: "EUR", month: OCT, avgfx: "1.0801", endfx: "1.0874" });
    await expect.poll(() => cell("EUR", "average", OCT).inputValue()).toBe("1.0801");
  });

  it("fetches rates from the emulator's rates service for a range, keeping what was entered unless told to overwrite", async () => {
    await page.getByRole("button", { name: "Fetch rates" }).click();
    const dialog = page.getByRole("dialog", { name: "Fetch rates from the rates service" });
    await pickMonth(dialog, "From", "2026-01");
    await pickMonth(dialog, "To", OCT);
    await shot("53-fx-rates-fetch-dialog");
    await dialog.getByRole("button", { name: "Fetch rates" }).click();
    // Jan–Oct for EUR and GBP is 20 rows; Oct GBP and EUR, and Sep EUR, were entered and are kept.
    await status().getByText("Fetched EUR, GBP for 10 months: 17 rows filled or updated, 3 unchanged.").waitFor();
    expect(await rateOf("GBP", OCT)).toEqual({ currency: "GBP", month: OCT, avgfx: "1.2745", endfx: "1.281" });
    const march = await rateOf("GBP", "2026-03");
    expect(Number(march?.avgfx)).toBeGreaterThan(1);
    expect(Number(march?.endfx)).toBeGreaterThan(1);
    await expect.poll(() => cell("GBP", "average", "2026-03").inputValue()).toBe(march?.avgfx);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot("54-fx-rates-fetched");

    await page.getByRole("button", { name: "Fetch rates" }).click();
    await pickMonth(dialog, "From", OCT);
    await pickMonth(dialog, "To", OCT);
    await dialog.getByRole("checkbox", { name: "Overwrite rates already entered" }).check();
    await dialog.getByRole("button", { name: "Fetch rates" }).click();
    await status().getByText("Fetched EUR, GBP for 1 month: 2 rows filled or updated, 0 unchanged.").waitFor();
    const gbp = await rateOf("GBP", OCT);
    expect(gbp?.avgfx).not.toBe("1.2745");
    expect(Math.abs(Number(gbp?.avgfx) - 1.2745)).toBeLessThan(0.2);
  });

  it("shows who changed which rate, old and new, in the history", async () => {
    await page.getByRole("button", { name: "History" }).click();
    const table = page.getByRole("table", { name: "Rate changes" });
    await table.waitFor();
    const typed = table.getByRole("row").filter({ hasText: `GBP ${monthLabel(OCT)}` }).last();
    await typed.getByText(EMAIL).waitFor();
    await typed.getByText("— → 1.2745").waitFor();
    // The drawer slides in; the screenshot waits for it to settle.
    await page.waitForTimeout(400);
    await shot("55-fx-rates-history");
  });
});
