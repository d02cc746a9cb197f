/** The Budget entity over HTTP (issue 23): the demo companies' budgets, their shape, and no writes. */
import { beforeAll, describe, expect, it } from "vitest";
import type { Harness } from "../testing/harness.ts";
import { harness, q, testClock } from "../testing/harness.ts";
import { profileByCode } from "../demo/companies.ts";

let h: Harness;
const token = new Map<string, string>();

beforeAll(async () => {
  h = await harness({ now: testClock().now });
  for (const code of ["PARENT", "UK", "DE", "US2"] as const) token.set(code, (await h.tokens(profileByCode(code).realmId)).access_token);
});

type Detail = { Amount: number; AccountRef: { value: string; name: string }; BudgetDate: string };
type Budget = Record<string, unknown> & { Id: string; Name: string; Active: boolean; StartDate: string; EndDate: string; BudgetDetail: Detail[] };

async function budgets(code: "PARENT" | "UK" | "DE" | "US2", tail = ""): Promise<{ status: number; body: { QueryResponse: { Budget?: Budget[]; startPosition?: number; maxResults?: number } } }> {
  const res = await h.get(profileByCode(code).realmId, q(`select * from Budget${tail}`), token.get(code)!);
  return { status: res.statusCode, body: res.json() };
}

describe("Budget entity", () => {
  it("answers the parent's active FY2026 budget in Intuit's documented shape, key order included", async () => {
    const { status, body } = await budgets("PARENT");
    expect(status).toBe(200);
    const list = body.QueryResponse.Budget!;
    expect(list.map((b) => [b.Id, b.Name, b.Active])).toEqual([["2", "FY2026 Budget", true]]);
    const b = list[0]!;
    // Intuit's query example ("Sandbox Budget"): these keys in this order, then Id and MetaData.
    expect(Object.keys(b)).toEqual(["StartDate", "BudgetEntryType", "EndDate", "Name", "SyncToken", "BudgetType", "domain", "sparse", "Active", "BudgetDetail", "Id", "MetaData"]);
    expect(b).toMatchObject({ StartDate: "2026-01-01", EndDate: "2026-12-31", BudgetEntryType: "Monthly", BudgetType: "ProfitAndLoss", domain: "QBO", sparse: false, SyncToken: "0" });
    expect(Object.keys(b.BudgetDetail[0]!)).toEqual(["Amount", "AccountRef", "BudgetDate"]);
    const months = new Set(b.BudgetDetail.map((d) => d.BudgetDate));
    expect([...months].sort()).toEqual(Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, "0")}-01`));
    // Whole units, positive for income and expense alike; negative only on the contra-revenue account.
    expect(b.BudgetDetail.every((d) => Number.isInteger(d.Amount) && d.Amount !== 0)).toBe(true);
    expect([...new Set(b.BudgetDetail.filter((d) => d.Amount < 0).map((d) => d.AccountRef.name))]).toEqual(["Sales Discounts"]);
    const names = new Set(b.BudgetDetail.map((d) => d.AccountRef.name));
    expect(names.has("Product Sales - Wholesale")).toBe(true);
    expect(names.has("Salaries and Wages")).toBe(true);
    // The parent budgets no intra-group line: its fees and interest sit on one account for every subsidiary.
    expect(names.has("Management Fee Income - Intercompany")).toBe(false);
    expect(names.has("Dividend Income - Subsidiaries")).toBe(false);
  });

  it("a budget is last year's same month grown: the parent's wholesale sales in January 2026 are 106% of January 2025's, in whole dollars", async () => {
    const realm = profileByCode("PARENT").realmId;
    const report = (await h.get(realm, "reports/ProfitAndLoss?start_date=2025-01-01&end_date=2025-01-31&minorversion=75", token.get("PARENT")!)).json() as { Rows: { Row: unknown[] } };
    const text = JSON.stringify(report);
    const m = /"Product Sales - Wholesale","id":"(\d+)"\},\{"value":"(-?[\d.]+)"/.exec(text);
    expect(m).not.toBeNull();
    const jan2025 = Number(m![2]);
    const b = (await budgets("PARENT")).body.QueryResponse.Budget![0]!;
    const jan = b.BudgetDetail.find((d) => d.AccountRef.value === m![1] && d.BudgetDate === "2026-01-01")!;
    expect(jan.Amount).toBe(Math.round(jan2025 * 1.06));
  });

  it("leaves the inactive budget out unless Active is asked about, and filters like other entities", async () => {
    expect((await budgets("PARENT", " where Active = false")).body.QueryResponse.Budget!.map((b) => b.Name)).toEqual(["FY2025 Budget"]);
    expect((await budgets("PARENT", " where Active in (true, false)")).body.QueryResponse.Budget!.map((b) => b.Id)).toEqual(["1", "2"]);
    expect((await budgets("PARENT", " where BudgetType = 'BalanceSheet'")).body.QueryResponse.Budget).toBeUndefined();
  });

  it("the UK's budget years run April to March, two of them; Northwind Retail keeps none", async () => {
    const uk = (await budgets("UK")).body.QueryResponse.Budget!;
    expect(uk.map((b) => [b.StartDate, b.EndDate])).toEqual([["2025-04-01", "2026-03-31"], ["2026-04-01", "2027-03-31"]]);
    expect((await budgets("US2")).body).toEqual({ QueryResponse: {}, time: expect.any(String) });
  });

  it("Germany and the UK budget both sides of their intra-group trade, each last year's same month grown 6%", async () => {
    const de = (await budgets("DE")).body.QueryResponse.Budget![0]!;
    const uk = (await budgets("UK")).body.QueryResponse.Budget!.find((b) => b.StartDate === "2026-04-01")!;
    const sales = de.BudgetDetail.filter((d) => d.AccountRef.name === "Steuerfreie innergemeinschaftliche Lieferungen");
    const purchases = uk.BudgetDetail.filter((d) => d.AccountRef.name === "Purchases - Group Companies");
    expect(sales.map((d) => d.BudgetDate)).toEqual(Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, "0")}-01`));
    expect(purchases.length).toBe(12);
    expect([...sales, ...purchases].every((d) => d.Amount > 0)).toBe(true);
    // The management charges stay unbudgeted on both sides.
    expect(uk.BudgetDetail.some((d) => d.AccountRef.name === "Management Charges - Group")).toBe(false);
  });

  it("is read-only: creating or updating a budget is QuickBooks' unsupported operation, and changes nothing", async () => {
    const realm = profileByCode("PARENT").realmId;
    const res = await h.post(realm, "budget", token.get("PARENT")!, { Name: "Mine", StartDate: "2026-01-01", EndDate: "2026-12-31", BudgetEntryType: "Monthly" });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toMatch(/Unsupported Operation/i);
    expect((await budgets("PARENT", " where Active in (true, false)")).body.QueryResponse.Budget!.length).toBe(2);
  });
});
