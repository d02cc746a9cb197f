import ExcelJS from "exceljs";
import type { ConsolidatedReport } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { reportWorkbook, type WorkbookLabels } from "./workbook.ts";

type Statements = NonNullable<ConsolidatedReport["report"]>;

/** A small consolidated report as the engine answers it: a US parent and a UK subsidiary owned 80%. */
function consolidated(over: Partial<ConsolidatedReport> = {}, statements: Partial<Statements> = {}): ConsolidatedReport {
  return {
    ok: true,
    problems: [],
    warnings: [],
    period: { from: "2026-01", to: "2026-03", label: "2026-01 to 2026-03" },
    parentCurrency: "USD",
    exponent: 2,
    openingMonth: "2025-12",
    report: {
      worksheet: {
        columns: [
          { id: "us", label: "Parent Inc" },
          { id: "uk", label: "UK Ltd" },
          { id: "eliminations", label: "Eliminations" },
          { id: "nci", label: "NCI" },
          { id: "consolidated", label: "Consolidated" },
        ],
        rows: [
          { account: "35", name: "Checking", classification: "Asset", role: "account", amounts: [100_000, 50_050, 0, 0, 150_050] },
          { account: "36", name: "Petty cash", classification: "Asset", role: "account", amounts: [0, 0, 0, 0, 0] },
          { account: "84", name: "=HYPERLINK(\"http://x\")", classification: "Liability", role: "account", amounts: [-40_000, -10_050, 0, 0, -50_050] },
          { account: "3", name: "Retained Earnings", classification: "Equity", role: "account", amounts: [-60_000, -40_000, 0, 8_000, -92_000] },
          { account: "99", name: "@NCI", classification: "Equity", role: "account", amounts: [0, 0, 0, -8_000, -8_000] },
        ],
      },
      trialBalance: [
        { account: "35", name: "Checking", classification: "Asset", amount: 150_050 },
        { account: "84", name: "=HYPERLINK(\"http://x\")", classification: "Liability", amount: -50_050 },
        { account: "3", name: "Retained Earnings", classification: "Equity", amount: -92_000 },
        { account: "99", name: "@NCI", classification: "Equity", amount: -8_000 },
      ],
      balanceSheet: {
        assets: [{ account: "35", name: "Checking", amount: 150_050 }],
        liabilities: [{ account: "84", name: "=HYPERLINK(\"http://x\")", amount: 50_050 }],
        equity: [{ account: "3", name: "Retained Earnings", amount: 92_000 }],
        totalAssets: 150_050,
        totalLiabilities: 50_050,
        totalEquity: 92_000,
        nonControllingInterests: 8_000,
        balanced: true,
      },
      incomeStatement: {
        revenue: [{ account: "79", name: "Sales", amount: 30_000 }],
        expenses: [
          { account: "80", name: "Rent", amount: 12_000 },
          { account: "81", name: "-Fees", amount: 3_000 },
        ],
        netIncome: 15_000,
        attributableToNci: 1_000,
        attributableToParent: 14_000,
      },
      eliminations: [],
      nci: [
        {
          entity: "uk",
          share: "0.2",
          atAcquisition: 7_050,
          retainedEarningsSinceAcquisition: 0,
          capitalSinceAcquisition: 0,
          netIncome: 1_000,
          dividends: 0,
          cta: -50,
          goodwillImpairmentBeforePeriod: 0,
          goodwillCta: 0,
          closing: 8_000,
        },
      ],
      unmapped: [],
      entities: [
        { id: "us", name: "Parent Inc", currency: "USD", method: "none", netIncome: { local: 10_000, translated: 10_000 }, ctaChange: 0, ctaExplanation: { months: [], total: { openingNetAssets: 0, netIncome: 0, dividends: 0, equityMovements: 0, rounding: 0, change: 0 } } },
        { id: "uk", name: "UK Ltd", currency: "GBP", method: "currentRate", netIncome: { local: 4_000, translated: 5_000 }, ctaChange: -250, ctaExplanation: { months: [], total: { openingNetAssets: 0, netIncome: 0, dividends: 0, equityMovements: 0, rounding: 0, change: 0 } } },
        { id: "jp", name: "Tokyo KK", currency: "JPY", method: "currentRate", netIncome: { local: 123_456, translated: 0 }, ctaChange: 0, ctaExplanation: { months: [], total: { openingNetAssets: 0, netIncome: 0, dividends: 0, equityMovements: 0, rounding: 0, change: 0 } } },
      ],
      ...statements,
    },
    comparison: null,
    generatedAt: "2026-04-02T09:15:42.123Z",
    ...over,
  };
}

const LABELS: WorkbookLabels = { companyName: "Parent Inc", accountNumber: (id) => ({ "35": "1000", "84": "2100", "3": "3900", "79": "4000", "80": "6000" })[id] ?? "" };

async function workbook(report: ConsolidatedReport, labels: WorkbookLabels = LABELS) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await reportWorkbook(report, labels)) as unknown as ArrayBuffer);
  return wb;
}

/** A sheet's rows from the header (row 4) on, each as its cells' values ("" for an empty cell). */
function rowsOf(wb: ExcelJS.Workbook, name: string): (string | number)[][] {
  const ws = wb.getWorksheet(name)!;
  const rows: (string | number)[][] = [];
  for (let i = 4; i <= ws.rowCount; i++) {
    const row = ws.getRow(i);
    const cells: (string | number)[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push((row.getCell(c).value as string | number | null) ?? "");
    rows.push(cells);
  }
  return rows;
}

const USD = "#,##0.00;[Red]-#,##0.00";

describe("reportWorkbook", () => {
  it("has one sheet per report, each titled with the parent, the period, the currency and when it was made", async () => {
    const wb = await workbook(consolidated());
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Worksheet", "Balance Sheet", "Income Statement", "Trial Balance", "Entities"]);
    expect(wb.creator).toBe("GroupLedger");
    const ws = wb.getWorksheet("Worksheet")!;
    expect(ws.getCell("A1").value).toBe("Parent Inc: Consolidation worksheet");
    expect(ws.getCell("A2").value).toBe("2026-01 to 2026-03 · USD · generated 2026-04-02 09:15 UTC");
    expect(wb.getWorksheet("Balance Sheet")!.getCell("A1").value).toBe("Parent Inc: Consolidated balance sheet");
    // The header stays in view while scrolling.
    expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 4 });
  });

  it("worksheet: accounts by number, amounts as numbers in major units, all-zero rows left out, a total row", async () => {
    const wb = await workbook(consolidated());
    expect(rowsOf(wb, "Worksheet")).toEqual([
      ["Account", "Name", "Classification", "Parent Inc", "UK Ltd", "Eliminations", "NCI", "Consolidated"],
      ["1000", "Checking", "Asset", 1000, 500.5, 0, 0, 1500.5],
      ["2100", "'=HYPERLINK(\"http://x\")", "Liability", -400, -100.5, 0, 0, -500.5],
      ["3900", "Retained Earnings", "Equity", -600, -400, 0, 80, -920],
      ["", "'@NCI", "Equity", 0, 0, 0, -80, -80],
      ["Total", "", "", 0, 0, 0, 0, 0],
    ]);
    const ws = wb.getWorksheet("Worksheet")!;
    expect(ws.getCell("D5").numFmt).toBe(USD);
    expect(ws.getCell("H9").numFmt).toBe(USD);
    expect(ws.getRow(9).font?.bold).toBe(true);
  });

  it("balance sheet and income statement: natural signs, section totals, the NCI line and the lines that balance", async () => {
    const wb = await workbook(consolidated());
    expect(rowsOf(wb, "Balance Sheet")).toEqual([
      ["Account", "Line", "2026-01 to 2026-03"],
      ["", "Assets"],
      ["1000", "Checking", 1500.5],
      ["", "Total assets", 1500.5],
      [],
      ["", "Liabilities"],
      ["2100", "'=HYPERLINK(\"http://x\")", 500.5],
      ["", "Total liabilities", 500.5],
      [],
      ["", "Equity"],
      ["3900", "Retained Earnings", 920],
      ["", "Total equity", 920],
      [],
      ["", "Non-controlling interests", 80],
      ["", "Total liabilities, equity and non-controlling interests", 1500.5],
    ]);
    expect(rowsOf(wb, "Income Statement")).toEqual([
      ["Account", "Line", "2026-01 to 2026-03"],
      ["", "Revenue"],
      ["4000", "Sales", 300],
      ["", "Total revenue", 300],
      [],
      ["", "Expenses"],
      ["6000", "Rent", 120],
      ["", "'-Fees", 30],
      ["", "Total expenses", 150],
      [],
      ["", "Net income", 150],
      ["", "Attributable to non-controlling interests", 10],
      ["", "Attributable to owners of the parent", 140],
    ]);
  });

  it("trial balance: debits and credits in their own columns, each totalled", async () => {
    expect(rowsOf(await workbook(consolidated()), "Trial Balance")).toEqual([
      ["Account", "Name", "Classification", "Debit", "Credit"],
      ["1000", "Checking", "Asset", 1500.5, ""],
      ["2100", "'=HYPERLINK(\"http://x\")", "Liability", "", 500.5],
      ["3900", "Retained Earnings", "Equity", "", 920],
      ["", "'@NCI", "Equity", "", 80],
      ["Total", "", "", 1500.5, 1500.5],
    ]);
  });

  it("entities: local net income in each entity's own currency unit, translated figures in the parent's, NCI where there is one", async () => {
    expect(rowsOf(await workbook(consolidated()), "Entities")).toEqual([
      ["Entity", "Currency", "Method", "Net income (local)", "Net income (USD)", "CTA change", "NCI closing"],
      ["Parent Inc", "USD", "none", 100, 100, 0, ""],
      ["UK Ltd", "GBP", "currentRate", 40, 50, -2.5, 80],
      ["Tokyo KK", "JPY", "currentRate", 123456, 0, 0, ""],
    ]);
  });

  it("a comparison adds a column; a line the comparison lacks is 0 there", async () => {
    const report = consolidated({
      comparison: {
        kind: "prior_year",
        period: { from: "2025-01", to: "2025-03", label: "2025-01 to 2025-03" },
        ok: true,
        problems: [],
        balanceSheet: {
          assets: [{ account: "35", name: "Checking", amount: 90_000 }],
          liabilities: [],
          equity: [{ account: "3", name: "Retained Earnings", amount: 85_000 }],
          totalAssets: 90_000,
          totalLiabilities: 0,
          totalEquity: 85_000,
          nonControllingInterests: 5_000,
          balanced: true,
        },
        incomeStatement: { revenue: [{ account: "79", name: "Sales", amount: 20_000 }], expenses: [], netIncome: 20_000, attributableToNci: 500, attributableToParent: 19_500 },
      },
    });
    const wb = await workbook(report);
    const bs = rowsOf(wb, "Balance Sheet");
    expect(bs[0]).toEqual(["Account", "Line", "2026-01 to 2026-03", "2025-01 to 2025-03"]);
    expect(bs).toContainEqual(["1000", "Checking", 1500.5, 900]);
    expect(bs).toContainEqual(["2100", "'=HYPERLINK(\"http://x\")", 500.5, 0]);
    expect(bs).toContainEqual(["", "Total liabilities", 500.5, 0]);
    expect(bs).toContainEqual(["", "Non-controlling interests", 80, 50]);
    expect(bs.at(-1)).toEqual(["", "Total liabilities, equity and non-controlling interests", 1500.5, 900]);
    const is = rowsOf(wb, "Income Statement");
    expect(is).toContainEqual(["6000", "Rent", 120, 0]);
    expect(is).toContainEqual(["", "Total revenue", 300, 200]);
    expect(is).toContainEqual(["", "Total expenses", 150, 0]);
    expect(is.at(-1)).toEqual(["", "Attributable to owners of the parent", 140, 195]);
  });

  it("formats amounts with the parent currency's decimals: none for JPY, three for BHD", async () => {
    const yen = await workbook(consolidated({ parentCurrency: "JPY", exponent: 0 }));
    expect(yen.getWorksheet("Worksheet")!.getCell("D5").value).toBe(100_000);
    expect(yen.getWorksheet("Worksheet")!.getCell("D5").numFmt).toBe("#,##0;[Red]-#,##0");
    const dinar = await workbook(consolidated({ parentCurrency: "BHD", exponent: 3 }));
    expect(dinar.getWorksheet("Worksheet")!.getCell("E5").value).toBe(50.05);
    expect(dinar.getWorksheet("Worksheet")!.getCell("E5").numFmt).toBe("#,##0.000;[Red]-#,##0.000");
  });

  it("neutralises every text cell, titles included: a parent named like a formula does not run", async () => {
    const wb = await workbook(consolidated(), { ...LABELS, companyName: "=cmd|' /C calc'!A0" });
    for (const ws of wb.worksheets) {
      expect(ws.getCell("A1").value).toMatch(/^'=cmd/);
      ws.eachRow((row) =>
        row.eachCell((cell) => {
          if (typeof cell.value === "string") expect(cell.value, `${ws.name}!${cell.address}`).not.toMatch(/^[=+\-@\t\r]/);
        }),
      );
    }
  });

  it("refuses a report that could not be computed (the route answers with its problems instead)", async () => {
    await expect(reportWorkbook(consolidated({ ok: false, report: null }), LABELS)).rejects.toThrow("internal: a workbook needs a computed report");
  });
});
