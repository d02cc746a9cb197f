import type { Page } from "playwright-core";
import type { QboCalls } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import * as e2e from "./support.ts";

/**
 * Issue 21, budget of calls, in the browser: the demo parent and its UK subsidiary connected
 * through the real pop-up, their requests to QuickBooks counted by the server and shown on the
 * Companies screen as the API gives them; and the warning as it looks when a month's reads head
 * past 80 % of Intuit's allowance (that answer stood in for by the browser: a real group would
 * need ~400,000 reads).
 */
// Its own server: a QuickBooks company belongs to one account, and other journeys take the demo parent.
let baseUrl = "";
e2e.ownServer((url) => (baseUrl = url));

const EMAIL = `calls.${Date.now()}@northwind.example`;
const { parent: PARENT, uk: UK } = e2e.DEMO;

let session: e2e.Session;
let page: Page;
e2e.browserForFile((s) => ({ page } = session = s), { width: 1440, height: 900 });

describe("Connected Companies: calls to QuickBooks", { timeout: 180_000 }, () => {
  it("shows each company's calls today and this month, as counted by the server", async () => {
    await e2e.signUpAndLogIn(page, baseUrl, EMAIL);
    await e2e.connectDemoGroup(session, baseUrl, [UK]);
    await page.reload();
    const calls = await e2e.api<QboCalls>(page, baseUrl, "/companies/calls");
    for (const { realmId } of [PARENT, UK]) {
      const c = calls.companies[realmId]!;
      expect(c.today.reads).toBeGreaterThan(5);
      const cell = page.getByTestId(`company-${realmId}`).getByTestId("qbo-calls");
      await expect.poll(() => cell.textContent()).toContain(`${(c.today.reads + c.today.writes).toLocaleString("en-US")} today`);
      expect(await cell.textContent()).toContain(`${(c.month.reads + c.month.writes).toLocaleString("en-US")} this month`);
    }
    await expect.poll(() => page.getByTestId("group-calls").textContent()).toContain(`QuickBooks calls this month: ${calls.group.month.reads.toLocaleString("en-US")} reads`);
    expect(calls.group.warn).toBe(false);
    expect(await page.getByRole("alert").count()).toBe(0);
    await e2e.shot(page, "95-qbo-calls");
  });

  it("warns, calmly, when the month's reads head past 80 % of the allowance", async () => {
    const real = await e2e.api<QboCalls>(page, baseUrl, "/companies/calls");
    const heavy: QboCalls = { ...real, group: { ...real.group, month: { reads: 236_000, writes: real.group.month.writes }, projectedReads: 424_800, warn: true } };
    await page.route("**/api/companies/calls", (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(heavy) }));
    await page.reload();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("about 424,800 times, 85% of the 500,000 reads");
    await e2e.shot(page, "96-qbo-calls-warning");
    await page.unroute("**/api/companies/calls");
  });
});
