import { describe, expect, it } from "vitest";
import type { NamedListItem, Report } from "@groupledger/qbo";
import { readSegmentChunk, segmentColumnsRequests, segmentParams, segmentsInUse, segmentsOf } from "./segments.ts";

const item = (id: string, name: string, fullyQualifiedName = name): NamedListItem => ({ id, syncToken: "0", name, fullyQualifiedName, active: true, parentId: undefined });
const column = (title: string, key: string | undefined) => ({ title, key, money: key !== "account" });
/** A ProfitAndLoss by Classes as the qbo parser gives it: only its columns are read. */
const byColumns = (...columns: ReturnType<typeof column>[]) => ({ name: "ProfitAndLoss", columns: [column("", "account"), ...columns], rows: [] }) as unknown as Report;

describe("sync: segments", () => {
  it("are every class and location, by full name, less the classes GroupLedger posts under", () => {
    const segments = segmentsOf([item("1", "Wholesale"), item("2", "North", "Wholesale:North"), item("9", "Interco")], [item("1", "London")], ["9"]);
    expect(segments).toEqual([
      { dimension: "class", id: "1", name: "Wholesale" },
      { dimension: "class", id: "2", name: "Wholesale:North" },
      { dimension: "location", id: "1", name: "London" },
    ]);
  });

  it("are read month by month only when the chunk's P&L by class has a column for them (by ColKey, or by title)", () => {
    const segments = segmentsOf([item("1", "Wholesale"), item("2", "Retail"), item("3", "Retired")], [item("1", "London")], []);
    const report = byColumns(column("Wholesale", "1"), column("Retail", undefined), column("Not Specified", "NotSpecified"), column("TOTAL", "total"));
    expect(segmentsInUse(report, segments, "class").map((s) => s.id)).toEqual(["1", "2"]);
    expect(segmentsInUse(byColumns(column("Manchester", "7"), column("TOTAL", "total")), segments, "location")).toEqual([]);
    expect(segmentsInUse(null, segments, "class")).toEqual([]);
  });

  it("narrow the chunk's request by class or by department", () => {
    const params = { start_date: "2026-01-01", end_date: "2026-03-31", summarize_column_by: "Month" };
    expect(segmentParams(params, { dimension: "class", id: "4", name: "Retail" })).toEqual({ ...params, class: "4" });
    expect(segmentParams(params, { dimension: "location", id: "2", name: "London" })).toEqual({ ...params, department: "2" });
  });

  it("read a segment's P&L when it has P&L lines in the chunk, its balance sheet when it has those or a balance at the chunk's end; none otherwise", async () => {
    const segments = segmentsOf([item("1", "Wholesale"), item("2", "Retail"), item("3", "Retired")], [item("1", "London")], []);
    const asked: string[] = [];
    const empty = (name: string) => ({ name, columns: [column("", "account")], rows: [] }) as unknown as Report;
    const client = {
      report: async (name: string, params: Record<string, string>) => {
        asked.push(`${name} ${params["summarize_column_by"]}${params["class"] ? ` class=${params["class"]}` : ""}${params["department"] ? ` department=${params["department"]}` : ""}`);
        return empty(name);
      },
    } as unknown as Parameters<typeof readSegmentChunk>[0];
    const params = { start_date: "2026-01-01", end_date: "2026-03-31", accounting_method: "Accrual", summarize_column_by: "Month" } as const;
    // Which segments have lines: the chunk's four reports by Classes and by Departments.
    await Promise.all(segmentColumnsRequests(client, params, segments));
    expect(asked.sort()).toEqual(["BalanceSheet Classes", "BalanceSheet Departments", "ProfitAndLoss Classes", "ProfitAndLoss Departments"]);
    asked.length = 0;
    // Wholesale has P&L lines; Retail only a balance (a receivable) at the chunk's end; London neither; Retired nothing.
    const plByClass = byColumns(column("Wholesale", "1"), column("TOTAL", "total"));
    const bsByClass = { ...byColumns(column("Retail", "2"), column("TOTAL", "total")), name: "BalanceSheet" } as Report;
    const amounts = await readSegmentChunk(client, params, segments, [plByClass, byColumns(), bsByClass, null], () => "Asset");
    expect(amounts).toEqual([]);
    expect(asked.sort()).toEqual(["BalanceSheet Month class=1", "BalanceSheet Month class=2", "ProfitAndLoss Month class=1"]);
  });
});
