/**
 * Sub-accounts and a chart without account numbers through the client, against the emulator's demo
 * group (issue #20 items 3 and 5): Northwind Canada's sub-accounts read with their parent and full
 * name, its nested balance sheet and profit and loss read so that every account's own amount counts
 * once; Northwind Retail's accounts without AcctNum.
 */
import { demoGroup, startSandbox, type RunningSandbox } from "@groupledger/qbo-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectCompany, QboClient } from "./client.ts";
import { sandboxEndpoints } from "./endpoints.ts";
import { QboOAuth } from "./oauth.ts";
import { balancesByAccount, moneyColumns, type Report } from "./reports.ts";
import { MemoryTokenStore } from "./tokens.ts";

const REDIRECT_URI = "http://127.0.0.1/qbo/callback";
const [, , canada, , retail] = demoGroup();
let running: RunningSandbox;

beforeAll(async () => {
  running = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await running.close();
});

async function client(realmId: string): Promise<QboClient> {
  const oauth = new QboOAuth({ clientId: "sandbox-client-id", clientSecret: "sandbox-client-secret", redirectUri: REDIRECT_URI, endpoints: sandboxEndpoints(running.url) });
  const tokens = new MemoryTokenStore();
  await connectCompany(oauth, tokens, realmId, running.sandbox.issueAuthorizationCode(realmId, REDIRECT_URI));
  return new QboClient({ realmId, oauth, tokens, retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 } });
}

/** A summary row's amounts, by the title QuickBooks gives it. */
function summary(report: Report, title: string): readonly (number | null)[] {
  return (report.rows.find((r) => r.kind === "summary" && r.accountName === title) ?? expect.unreachable(title)).amounts;
}

describe("Northwind Canada's sub-accounts through the client", () => {
  it("accounts() reads each sub-account's parent and full name", async () => {
    const chart = await (await client(canada?.realmId as string)).accounts();
    const byName = (name: string) => chart.find((a) => a.name === name) ?? expect.unreachable(name);
    expect(byName("Laptops and Workstations")).toMatchObject({ subAccount: true, parentId: byName("Computer Equipment").id, fullyQualifiedName: "Computer Equipment:Laptops and Workstations" });
    expect(byName("Wages - Vancouver")).toMatchObject({ subAccount: true, parentId: byName("Wages and Salaries").id, fullyQualifiedName: "Wages and Salaries:Wages - Vancouver" });
    expect(byName("Computer Equipment")).toMatchObject({ subAccount: false, parentId: undefined, fullyQualifiedName: "Computer Equipment" });
  });

  it("balancesByAccount reads every account's own amount once from the nested sections: they add up to the statements' totals month by month", async () => {
    const ca = await client(canada?.realmId as string);
    const chart = await ca.accounts();
    const id = (name: string) => (chart.find((a) => a.name === name) ?? expect.unreachable(name)).id;
    const range = { start_date: "2024-11-01", end_date: "2025-03-31", summarize_column_by: "Month" } as const;
    const bs = await ca.report("BalanceSheet", range);
    // The parent account is a section header (with its id) and, for its own amount, a data row.
    expect(bs.rows.filter((r) => r.accountId === id("Computer Equipment")).map((r) => r.kind)).toEqual(["header", "data"]);
    const balances = balancesByAccount(bs);
    const months = moneyColumns(bs).length;
    const assets = chart.filter((a) => a.classification === "Asset").map((a) => a.id);
    const totalAssets = summary(bs, "TOTAL ASSETS");
    for (let m = 0; m < months; m++) {
      const sum = assets.reduce((s, a) => s + (balances.get(a)?.[m] ?? 0), 0);
      expect(sum, `month ${m}`).toBe(totalAssets[m + 1]);
    }
    // The sub-accounts begin in January 2025 (the fourth column); Computer Equipment keeps what it had.
    expect(balances.get(id("Laptops and Workstations"))?.slice(0, 2)).toEqual([0, 0]);
    expect(balances.get(id("Computer Equipment"))?.[2]).toBe(balances.get(id("Computer Equipment"))?.[4]);
    expect(summary(bs, "Total Computer Equipment")[5]).toBe(
      (balances.get(id("Computer Equipment"))?.[4] ?? 0) + (balances.get(id("Laptops and Workstations"))?.[4] ?? 0) + (balances.get(id("Servers and Networking"))?.[4] ?? 0),
    );

    const pl = await ca.report("ProfitAndLoss", range);
    const activity = balancesByAccount(pl);
    const expenses = chart.filter((a) => a.accountType === "Expense").map((a) => a.id);
    const totalExpenses = summary(pl, "Total Expenses");
    for (let m = 0; m < moneyColumns(pl).length; m++) {
      expect(expenses.reduce((s, a) => s + (activity.get(a)?.[m] ?? 0), 0), `column ${m}`).toBe(totalExpenses[m + 1]);
    }
    expect(activity.get(id("Wages and Salaries"))?.[3]).toBe(0);
    expect((activity.get(id("Wages - Toronto"))?.[3] ?? 0) + (activity.get(id("Wages - Vancouver"))?.[3] ?? 0)).toBe(summary(pl, "Total Wages and Salaries")[4]);
  });
});

describe("Northwind Retail keeps account numbers off", () => {
  it("accounts() gives no acctNum; names carry the chart", async () => {
    const chart = await (await client(retail?.realmId as string)).accounts();
    expect(chart.length).toBeGreaterThan(50);
    expect(chart.filter((a) => a.acctNum !== undefined)).toEqual([]);
    expect(new Set(chart.map((a) => a.fullyQualifiedName)).size).toBe(chart.length);
  });
});
