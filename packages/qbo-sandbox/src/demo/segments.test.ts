/**
 * The demo's segments (demo/segments.ts): classes and locations on its profit-and-loss lines,
 * tags only. Checked through the report code the API serves: the by-class and by-location
 * ProfitAndLoss of every company add up to its TOTAL, which is the unsummarized report's, and the
 * untagged books (the same generator without the tags) give the same balances everywhere.
 */
import { describe, expect, it } from "vitest";
import type { Json } from "../entities.ts";
import { CompanyLedger } from "../ledger.ts";
import { parseAmount } from "../money.ts";
import { runReport } from "../reports/index.ts";
import { DEMO_COMPANIES } from "./companies.ts";
import { buildDemoCompanies } from "./index.ts";

const NOW = new Date("2026-11-02T17:00:00.000Z");
const data = buildDemoCompanies();
const ledgers = data.map((d) => new CompanyLedger(d));
const untagged = data.map(
  (d) => new CompanyLedger({ ...d, entries: d.entries.map((e) => ({ ...e, lines: e.lines.map(({ classId: _c, departmentId: _d, ...line }) => line) })) }),
);
const YEAR = { start_date: "2025-01-01", end_date: "2025-12-31" } as const;

type Row = Json & { ColData?: { value: string; id?: string }[]; Rows?: { Row: Row[] }; Summary?: { ColData: { value: string }[] }; Header?: { ColData: { value: string }[] }; group?: string };
type Report = { Columns: { Column: { ColTitle: string; MetaData?: { Name: string; Value: string }[] }[] }; Rows: { Row?: Row[] } };

const cents = (v: string | undefined): number => (v === undefined || v === "" ? 0 : (parseAmount(v) ?? Number.NaN));

function figures(r: Report): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const walk = (rows: readonly Row[], path: string): void => {
    for (const row of rows) {
      if (row.ColData !== undefined) out.set(`${path}/${row.ColData[0]?.id ?? row.ColData[0]?.value}`, row.ColData.slice(1).map((c) => cents(c.value)));
      const title = row.Header?.ColData[0]?.value ?? row.group ?? "";
      if (row.Rows !== undefined) walk(row.Rows.Row, `${path}/${title}`);
      if (row.Summary !== undefined) out.set(`${path}/${row.group ?? title}:summary`, row.Summary.ColData.slice(1).map((c) => cents(c.value)));
    }
  };
  walk(r.Rows.Row ?? [], "");
  return out;
}

describe("demo segments", () => {
  it("tags only: every company's balance sheet and P&L, month by month, are those of the untagged books", () => {
    ledgers.forEach((ledger, i) => {
      for (const name of ["BalanceSheet", "ProfitAndLoss"] as const) {
        const params = { start_date: "2023-01-01", end_date: "2026-10-31", summarize_column_by: "Month" };
        expect(runReport(ledger, name, params, NOW), `${ledger.profile.name} ${name}`).toEqual(runReport(untagged[i]!, name, params, NOW));
      }
    });
  });

  it("every company's P&L by class and by location adds up to TOTAL, the unsummarized P&L; some lines stay Not Specified", () => {
    for (const ledger of ledgers) {
      const whole = figures(runReport(ledger, "ProfitAndLoss", YEAR, NOW) as unknown as Report);
      for (const by of ["Classes", "Departments"]) {
        const r = runReport(ledger, "ProfitAndLoss", { ...YEAR, summarize_column_by: by }, NOW) as unknown as Report;
        const titles = r.Columns.Column.map((c) => c.ColTitle);
        expect(titles.at(-1)).toBe("TOTAL");
        expect(titles, `${ledger.profile.name} ${by}`).toContain("Not Specified");
        expect(titles.length, `${ledger.profile.name} ${by}`).toBeGreaterThanOrEqual(4);
        for (const [key, values] of figures(r)) {
          expect(values.slice(0, -1).reduce((a, b) => a + b, 0), `${ledger.profile.name} ${by} ${key}`).toBe(values.at(-1));
          expect(values.at(-1), `${ledger.profile.name} ${by} ${key}`).toBe(whole.get(key)?.[0] ?? 0);
        }
      }
    }
  });

  it("a class's P&L month by month (class=, summarize_column_by=Month: what GroupLedger's sync reads) adds up to its column of the P&L by Classes", () => {
    for (const ledger of ledgers) {
      const r = runReport(ledger, "ProfitAndLoss", { ...YEAR, summarize_column_by: "Classes" }, NOW) as unknown as Report;
      const byClass = figures(r);
      const columns = r.Columns.Column.slice(1, -1);
      expect(columns.length, ledger.profile.name).toBeGreaterThan(2);
      columns.forEach((column, i) => {
        const id = column.MetaData?.find((m) => m.Name === "ColKey")?.Value;
        if (id === undefined || id === "NotSpecified") return;
        const monthly = figures(runReport(ledger, "ProfitAndLoss", { ...YEAR, summarize_column_by: "Month", class: id }, NOW) as unknown as Report);
        for (const [key, values] of monthly) {
          // The monthly report's last column is its Total; the months add up to it and to the class's column.
          expect(values.slice(0, -1).reduce((a, b) => a + b, 0), `${ledger.profile.name} ${column.ColTitle} ${key}`).toBe(values.at(-1));
          expect(values.at(-1), `${ledger.profile.name} ${column.ColTitle} ${key}`).toBe(byClass.get(key)?.[i] ?? 0);
        }
      });
    }
  });

  it("classes share their names across the group (Wholesale in four companies, Retail in three)", () => {
    const used = (name: string) =>
      DEMO_COMPANIES.filter((_, i) => {
        const r = runReport(ledgers[i]!, "ProfitAndLoss", { ...YEAR, summarize_column_by: "Classes" }, NOW) as unknown as Report;
        return r.Columns.Column.some((c) => c.ColTitle === name);
      }).map((p) => p.code);
    expect(used("Wholesale")).toEqual(["PARENT", "UK", "CA", "DE"]);
    expect(used("Retail")).toEqual(["UK", "DE", "US2"]);
  });
});
