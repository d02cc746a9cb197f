/**
 * The demo's sub-accounts and its company without account numbers (issue #20 items 3 and 5), as
 * the API serves them: Canada's sub-accounts nested in its reports with the company's totals
 * unchanged, Retail's accounts without AcctNum and its Preferences saying so.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { harness, q, testClock } from "../testing/harness.ts";
import { findRow as find, type WireRow as Row } from "../testing/reportRows.ts";
import { profileByCode } from "./companies.ts";

type Account = { Id: string; Name: string; FullyQualifiedName: string; SubAccount: boolean; ParentRef?: { value: string }; AcctNum?: string; CurrentBalance: number; CurrentBalanceWithSubAccounts: number };

const CA = profileByCode("CA").realmId;
const RETAIL = profileByCode("US2").realmId;
let h: Harness;
const tokens = new Map<string, string>();

beforeAll(async () => {
  h = await harness({ now: testClock("2026-11-02T17:00:00.000Z").now });
  for (const realm of h.realms) tokens.set(realm, (await h.tokens(realm)).access_token);
});

async function get<T>(realm: string, path: string): Promise<T> {
  const res = await h.get(realm, path, tokens.get(realm) as string);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

const accounts = async (realm: string) => (await get<{ QueryResponse: { Account: Account[] } }>(realm, q("SELECT * FROM Account WHERE Active IN (true, false) MAXRESULTS 1000"))).QueryResponse.Account;
const rows = async (realm: string, report: string, query: string) => (await get<{ Rows: { Row: Row[] } }>(realm, `reports/${report}?${query}`)).Rows.Row;


/** Every Data row naming an account, with its first amount: what a reader that skips headers and summaries adds up. */
function ownAmounts(list: readonly Row[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of list) {
    const id = r.ColData?.[0]?.id;
    if (id !== undefined) out.set(id, (out.get(id) ?? 0) + Math.round(Number(r.ColData?.[1]?.value || "0") * 100));
    for (const [k, v] of ownAmounts(r.Rows?.Row ?? [])) out.set(k, (out.get(k) ?? 0) + v);
  }
  return out;
}

const cents = (value: string | undefined) => Math.round(Number(value || "0") * 100);
const sum = (m: Map<string, number>) => [...m.values()].reduce((s, v) => s + v, 0);

describe("Northwind Canada's sub-accounts", () => {
  it("are in its chart under their parents, with FullyQualifiedName and the parents' balances with sub-accounts", async () => {
    const chart = await accounts(CA);
    const byName = (name: string) => chart.find((a) => a.Name === name) ?? expect.unreachable(name);
    const equipment = byName("Computer Equipment");
    const wages = byName("Wages and Salaries");
    expect(chart.filter((a) => a.SubAccount).map((a) => [a.FullyQualifiedName, a.ParentRef?.value, a.AcctNum])).toEqual([
      ["Computer Equipment:Laptops and Workstations", equipment.Id, "15010"],
      ["Computer Equipment:Servers and Networking", equipment.Id, "15020"],
      ["Wages and Salaries:Wages - Toronto", wages.Id, "60010"],
      ["Wages and Salaries:Wages - Vancouver", wages.Id, "60020"],
    ]);
    const laptops = byName("Laptops and Workstations");
    const servers = byName("Servers and Networking");
    expect(laptops.CurrentBalance).toBeGreaterThan(0);
    expect(servers.CurrentBalance).toBeGreaterThan(0);
    expect(Math.round(equipment.CurrentBalanceWithSubAccounts * 100)).toBe(Math.round((equipment.CurrentBalance + laptops.CurrentBalance + servers.CurrentBalance) * 100));
  });

  it("nest in the BalanceSheet: Computer Equipment's own amount (bought before 2025) beside its sub-accounts, counted once in Total Fixed Assets", async () => {
    const chart = await accounts(CA);
    const equipment = chart.find((a) => a.Name === "Computer Equipment") ?? expect.unreachable("Computer Equipment");
    const bs = await rows(CA, "BalanceSheet", "start_date=2025-06-01&end_date=2025-06-30");
    const section = find(bs, (r) => r.Header?.ColData[0]?.id === equipment.Id) ?? expect.unreachable("a Computer Equipment section");
    expect(section.Rows?.Row.map((r) => r.ColData?.[0]?.value)).toEqual(["Computer Equipment", "Laptops and Workstations", "Servers and Networking"]);
    const inside = ownAmounts(section.Rows?.Row ?? []);
    expect(cents(section.Summary?.ColData[1]?.value)).toBe(sum(inside));
    // Before the sub-accounts there is nothing to nest: December 2024 shows Computer Equipment as one row.
    const before = await rows(CA, "BalanceSheet", "start_date=2024-12-01&end_date=2024-12-31");
    expect(find(before, (r) => r.Header?.ColData[0]?.id === equipment.Id)).toBeUndefined();
    expect(find(before, (r) => r.ColData?.[0]?.id === equipment.Id)?.ColData?.[1]?.value).toBe(section.Rows?.Row[0]?.ColData?.[1]?.value);
    // Every account's own amount once: the data rows add up to the statement's totals.
    const fixed = find(bs, (r) => r.group === "FixedAssets") ?? expect.unreachable("Fixed Assets");
    expect(sum(ownAmounts(fixed.Rows?.Row ?? []))).toBe(cents(fixed.Summary?.ColData[1]?.value));
    const assets = find(bs, (r) => r.group === "TotalAssets") ?? expect.unreachable("Total Assets");
    expect(sum(ownAmounts(assets.Rows?.Row ?? []))).toBe(cents(assets.Summary?.ColData[1]?.value));
  });

  it("nest in the ProfitAndLoss by month: wages in 2025 are all in the sub-accounts, 2024's on the parent, and the expenses add up once", async () => {
    const chart = await accounts(CA);
    const wages = chart.find((a) => a.Name === "Wages and Salaries") ?? expect.unreachable("Wages and Salaries");
    const pl = await rows(CA, "ProfitAndLoss", "start_date=2024-12-01&end_date=2025-01-31&summarize_column_by=Month");
    const section = find(pl, (r) => r.Header?.ColData[0]?.id === wages.Id) ?? expect.unreachable("a Wages and Salaries section");
    const [own, toronto, vancouver] = (section.Rows?.Row ?? []).map((r) => r.ColData?.map((c) => c.value) ?? []);
    expect([own?.[0], toronto?.[0], vancouver?.[0]]).toEqual(["Wages and Salaries", "Wages - Toronto", "Wages - Vancouver"]);
    expect(own?.[2]).toBe(""); // nothing on the parent in January 2025
    expect(toronto?.[1]).toBe(""); // nothing on the sub-accounts in December 2024
    // Toronto 60%, Vancouver 40% of January's wages; the section's total is January's wages.
    const january = cents(section.Summary?.ColData[2]?.value);
    expect(cents(toronto?.[2]) + cents(vancouver?.[2])).toBe(january);
    expect(Math.abs(cents(toronto?.[2]) - Math.round(january * 0.6))).toBeLessThanOrEqual(1);
    const expenses = find(pl, (r) => r.group === "Expenses") ?? expect.unreachable("Expenses");
    const byColumn = (list: readonly Row[], i: number): number =>
      list.reduce((s, r) => s + (r.ColData?.[0]?.id !== undefined ? cents(r.ColData[i]?.value) : 0) + byColumn(r.Rows?.Row ?? [], i), 0);
    for (const i of [1, 2, 3]) expect(byColumn(expenses.Rows?.Row ?? [], i)).toBe(cents(expenses.Summary?.ColData[i]?.value));
  });
});

describe("Northwind Retail keeps account numbers off", () => {
  it("has no AcctNum on any account and says UseAccountNumbers false; the other companies use numbers", async () => {
    expect((await accounts(RETAIL)).filter((a) => a.AcctNum !== undefined)).toEqual([]);
    for (const realm of h.realms) {
      const prefs = await get<{ Preferences: { AccountingInfoPrefs: { UseAccountNumbers: boolean } } }>(realm, "preferences");
      expect(prefs.Preferences.AccountingInfoPrefs.UseAccountNumbers, realm).toBe(realm !== RETAIL);
      if (realm !== RETAIL) expect((await accounts(realm)).every((a) => a.AcctNum !== undefined), realm).toBe(true);
    }
    // Without numbers QuickBooks lists a chart by name.
    const tb = await rows(RETAIL, "TrialBalance", "start_date=2026-10-01&end_date=2026-10-31");
    const banks = tb.map((r) => r.ColData?.[0]?.value ?? "").filter((n) => ["Checking - Bank of America", "Savings - Bank of America", "Store Cash Drawers", "Stripe Clearing"].includes(n));
    expect(banks).toEqual(["Checking - Bank of America", "Savings - Bank of America", "Store Cash Drawers", "Stripe Clearing"]);
  });
});
