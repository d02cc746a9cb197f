/**
 * ProfitAndLoss: activity per column, in Intuit's sections (Income, COGS, GrossProfit, Expenses,
 * NetOperatingIncome, OtherIncome, OtherExpenses, NetOtherIncome, NetIncome). With nothing posted
 * in the period it answers the NoReportData shape of minimul-qbo_api/reports__profit_and_loss__0.
 */
import type { AccountType } from "../accountTypes.ts";
import type { Json } from "../entities.ts";
import type { CompanyLedger } from "../ledger.ts";
import { formatCents } from "../money.ts";
import { chartOrder, natural } from "./books.ts";
import { reportColumns } from "./columns.ts";
import type { ReportParams } from "./params.ts";
import { dataRow, reportHeader, sectionRow } from "./rows.ts";

export function profitAndLoss(ledger: CompanyLedger, params: ReportParams, now: Date): Json {
  const layout = reportColumns(ledger, params, "ProfitAndLoss");
  const columns = layout.columns;
  const zero = (): number[] => columns.map(() => 0);
  const blank = (): string[] => columns.map(() => "");
  const money = (v: readonly number[]): string[] => v.map(formatCents);

  const block = (type: AccountType): { rows: Json[]; totals: number[] } => {
    const accounts = ledger.accounts.filter((a) => a.type === type && ledger.hasPostings(a.id, params.start, params.end)).sort(chartOrder);
    const totals = zero();
    const rows = accounts.map((a) => {
      const colData = columns.map((c, i) => {
        if (!c.ledger.hasPostings(a.id, c.start, c.end)) return "";
        const v = natural(a, c.ledger.activity(a.id, c.start, c.end));
        totals[i] = (totals[i] as number) + v;
        return formatCents(v);
      });
      return dataRow([{ value: a.name, id: a.id }, ...colData]);
    });
    return { rows, totals };
  };

  const income = block("Income");
  const cogs = block("Cost of Goods Sold");
  const expenses = block("Expense");
  const otherIncome = block("Other Income");
  const otherExpenses = block("Other Expense");
  const noData = [income, cogs, expenses, otherIncome, otherExpenses].every((b) => b.rows.length === 0);
  const sub = (a: number[], b: number[]): number[] => a.map((v, i) => v - (b[i] as number));
  const show = (v: number[]): string[] => (noData ? blank() : money(v));

  const grossProfit = sub(income.totals, cogs.totals);
  const netOperating = sub(grossProfit, expenses.totals);
  const netOther = sub(otherIncome.totals, otherExpenses.totals);
  const netIncome = netOperating.map((v, i) => v + (netOther[i] as number));
  const hasOther = otherIncome.rows.length > 0 || otherExpenses.rows.length > 0;

  const rows: Json[] = [
    sectionRow({ header: ["Income", ...blank()], rows: income.rows, summary: ["Total Income", ...show(income.totals)], group: "Income" }),
    ...(cogs.rows.length > 0
      ? [sectionRow({ header: ["Cost of Goods Sold", ...blank()], rows: cogs.rows, summary: ["Total Cost of Goods Sold", ...show(cogs.totals)], group: "COGS" })]
      : []),
    sectionRow({ rows: [], summary: ["Gross Profit", ...show(grossProfit)], group: "GrossProfit" }),
    sectionRow({ header: ["Expenses", ...blank()], rows: expenses.rows, summary: ["Total Expenses", ...show(expenses.totals)], group: "Expenses" }),
    sectionRow({ rows: [], summary: ["Net Operating Income", ...show(netOperating)], group: "NetOperatingIncome" }),
    ...(hasOther
      ? [
          ...(otherIncome.rows.length > 0
            ? [sectionRow({ header: ["Other Income", ...blank()], rows: otherIncome.rows, summary: ["Total Other Income", ...show(otherIncome.totals)], group: "OtherIncome" })]
            : []),
          ...(otherExpenses.rows.length > 0
            ? [
                sectionRow({
                  header: ["Other Expenses", ...blank()],
                  rows: otherExpenses.rows,
                  summary: ["Total Other Expenses", ...show(otherExpenses.totals)],
                  group: "OtherExpenses",
                }),
              ]
            : []),
          sectionRow({ rows: [], summary: ["Net Other Income", ...show(netOther)], group: "NetOtherIncome" }),
        ]
      : []),
    sectionRow({ rows: [], summary: ["Net Income", ...show(netIncome)], group: "NetIncome" }),
  ];

  return {
    Header: reportHeader({ now, name: "ProfitAndLoss", params, currency: ledger.profile.currency, summarize: true, accountingStandard: true, noData }),
    Columns: { Column: layout.json },
    Rows: { Row: rows },
  };
}
