import type ExcelJS from "exceljs";
import type { ConsolidatedReport } from "@groupledger/contract";
import { currencyExponent, neutraliseFormula } from "@groupledger/domain";

export interface WorkbookLabels {
  /** The parent's name, in each sheet's title. */
  companyName: string;
  /** The Account column: the parent's account number for an account id ("" when it has none). */
  accountNumber: (accountId: string) => string;
}

/**
 * The consolidated report as a formatted workbook: one sheet per report, amounts as numbers in
 * the parent currency's major unit (so Excel can sum them) with a thousands format, debit
 * positive on the worksheet and trial balance, natural signs on the statements. Accounts show by
 * number and name; every text cell is neutralised against formula injection before writing.
 */
export async function reportWorkbook(r: ConsolidatedReport, { companyName, accountNumber }: WorkbookLabels): Promise<Buffer> {
  if (!r.report) throw new Error("internal: a workbook needs a computed report");
  const rep = r.report;
  const scale = 10 ** r.exponent;
  const money = r.exponent > 0 ? `#,##0.${"0".repeat(r.exponent)};[Red]-#,##0.${"0".repeat(r.exponent)}` : "#,##0;[Red]-#,##0";
  const major = (minor: number) => minor / scale;

  // Loaded on the first export, not at start: exceljs is ~0.3 s of CPU to load, paid otherwise by
  // every server start and test worker whether or not a workbook is ever asked for.
  const { default: Excel } = await import("exceljs");
  const wb = new Excel.Workbook();
  wb.creator = "GroupLedger";
  wb.created = new Date(r.generatedAt);

  const titled = (name: string, title: string, widths: number[]) => {
    const ws = wb.addWorksheet(name, { views: [{ state: "frozen", ySplit: 4 }] });
    ws.getCell("A1").value = `${companyName}: ${title}`;
    ws.getCell("A1").font = { bold: true, size: 14 };
    ws.getCell("A2").value = `${r.period.label} · ${r.parentCurrency} · generated ${r.generatedAt.slice(0, 16).replace("T", " ")} UTC`;
    ws.getCell("A2").font = { italic: true, color: { argb: "FF666666" } };
    widths.forEach((w, i) => (ws.getColumn(i + 1).width = w));
    return ws;
  };
  const header = (ws: ExcelJS.Worksheet, values: string[]) => {
    const row = ws.getRow(4);
    row.values = values;
    row.font = { bold: true };
    row.eachCell((c) => {
      c.fill = { type: "pattern", pattern: "solid", fgColor: { argb: "FFE8EEF7" } };
      c.border = { bottom: { style: "thin" } };
    });
  };
  const amountsRow = (ws: ExcelJS.Worksheet, values: (string | number)[], firstAmount: number, opts: { bold?: boolean } = {}) => {
    const row = ws.addRow(values);
    row.eachCell((c, col) => {
      if (col >= firstAmount && typeof c.value === "number") c.numFmt = money;
    });
    if (opts.bold) row.font = { bold: true };
    return row;
  };

  // Worksheet: entities, eliminations, NCI, consolidated.
  const ws = titled("Worksheet", "Consolidation worksheet", [14, 40, 14, ...rep.worksheet.columns.map(() => 20)]);
  header(ws, ["Account", "Name", "Classification", ...rep.worksheet.columns.map((c) => c.label)]);
  const totals = rep.worksheet.columns.map(() => 0);
  for (const row of rep.worksheet.rows) {
    if (row.amounts.every((a) => a === 0)) continue;
    row.amounts.forEach((a, i) => (totals[i]! += a));
    amountsRow(ws, [accountNumber(row.account), row.name, row.classification, ...row.amounts.map(major)], 4);
  }
  amountsRow(ws, ["Total", "", "", ...totals.map(major)], 4, { bold: true });

  // Balance sheet.
  const bs = titled("Balance Sheet", "Consolidated balance sheet", [14, 48, 20, 20]);
  const cmp = r.comparison;
  header(bs, ["Account", "Line", r.period.label, ...(cmp ? [cmp.period.label] : [])]);
  const other = (list: { account: string; amount: number }[] | undefined, account: string) => list?.find((l) => l.account === account)?.amount ?? 0;
  const section = (ws: ExcelJS.Worksheet, title: string, lines: { account: string; name: string; amount: number }[], total: number, cmpLines?: { account: string; amount: number }[], cmpTotal?: number) => {
    const t = ws.addRow(["", title]);
    t.font = { bold: true };
    for (const l of lines) amountsRow(ws, [accountNumber(l.account), l.name, major(l.amount), ...(cmp ? [major(other(cmpLines, l.account))] : [])], 3);
    amountsRow(ws, ["", `Total ${title.toLowerCase()}`, major(total), ...(cmp ? [major(cmpTotal ?? 0)] : [])], 3, { bold: true });
    ws.addRow([]);
  };
  const b = rep.balanceSheet;
  const cb = cmp?.balanceSheet ?? undefined;
  section(bs, "Assets", b.assets, b.totalAssets, cb?.assets, cb?.totalAssets);
  section(bs, "Liabilities", b.liabilities, b.totalLiabilities, cb?.liabilities, cb?.totalLiabilities);
  section(bs, "Equity", b.equity, b.totalEquity, cb?.equity, cb?.totalEquity);
  amountsRow(bs, ["", "Non-controlling interests", major(b.nonControllingInterests), ...(cmp ? [major(cb?.nonControllingInterests ?? 0)] : [])], 3, { bold: true });
  amountsRow(
    bs,
    ["", "Total liabilities, equity and non-controlling interests", major(b.totalLiabilities + b.totalEquity + b.nonControllingInterests), ...(cmp && cb ? [major(cb.totalLiabilities + cb.totalEquity + cb.nonControllingInterests)] : [])],
    3,
    { bold: true },
  );

  // Income statement.
  const is = titled("Income Statement", "Consolidated income statement", [14, 48, 20, 20]);
  header(is, ["Account", "Line", r.period.label, ...(cmp ? [cmp.period.label] : [])]);
  const p = rep.incomeStatement;
  const cp = cmp?.incomeStatement ?? undefined;
  section(is, "Revenue", p.revenue, p.revenue.reduce((s, l) => s + l.amount, 0), cp?.revenue, cp?.revenue.reduce((s, l) => s + l.amount, 0));
  section(is, "Expenses", p.expenses, p.expenses.reduce((s, l) => s + l.amount, 0), cp?.expenses, cp?.expenses.reduce((s, l) => s + l.amount, 0));
  amountsRow(is, ["", "Net income", major(p.netIncome), ...(cp ? [major(cp.netIncome)] : [])], 3, { bold: true });
  amountsRow(is, ["", "Attributable to non-controlling interests", major(p.attributableToNci), ...(cp ? [major(cp.attributableToNci)] : [])], 3);
  amountsRow(is, ["", "Attributable to owners of the parent", major(p.attributableToParent), ...(cp ? [major(cp.attributableToParent)] : [])], 3, { bold: true });

  // Trial balance.
  const tb = titled("Trial Balance", "Consolidated trial balance", [14, 48, 14, 20, 20]);
  header(tb, ["Account", "Name", "Classification", "Debit", "Credit"]);
  let debit = 0;
  let credit = 0;
  for (const l of rep.trialBalance) {
    if (l.amount > 0) debit += l.amount;
    else credit -= l.amount;
    amountsRow(tb, [accountNumber(l.account), l.name, l.classification, l.amount > 0 ? major(l.amount) : "", l.amount < 0 ? major(-l.amount) : ""], 4);
  }
  amountsRow(tb, ["Total", "", "", major(debit), major(credit)], 4, { bold: true });

  // Translation and NCI by entity.
  const en = titled("Entities", "Entities: translation and non-controlling interests", [36, 10, 14, 20, 20, 20, 20]);
  header(en, ["Entity", "Currency", "Method", "Net income (local)", `Net income (${r.parentCurrency})`, "CTA change", "NCI closing"]);
  for (const e of rep.entities) {
    const nci = rep.nci.find((n) => n.entity === e.id);
    const row = en.addRow([e.name, e.currency, e.method, e.netIncome.local / 10 ** currencyExponent(e.currency), major(e.netIncome.translated), major(e.ctaChange), nci ? major(nci.closing) : ""]);
    row.eachCell((c, col) => {
      if (col >= 4 && typeof c.value === "number") c.numFmt = money;
    });
  }

  // Names come from QuickBooks (accounts, companies): no text cell may reach Excel as a formula.
  for (const sheet of wb.worksheets) {
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        if (typeof cell.value === "string") cell.value = neutraliseFormula(cell.value);
      }),
    );
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
