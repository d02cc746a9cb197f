/**
 * ProfitAndLoss: activity per column, in Intuit's sections (Income, COGS, GrossProfit, Expenses,
 * NetOperatingIncome, OtherIncome, OtherExpenses, NetOtherIncome, NetIncome). With nothing posted
 * in the period it answers the NoReportData shape of minimul-qbo_api/reports__profit_and_loss__0.
 * A parent account with sub-accounts is a section of its own (reports/tree.ts).
 */
import type { AccountType } from "../accountTypes.ts";
import type { Json } from "../entities.ts";
import type { Account, CompanyLedger } from "../ledger.ts";
import { formatCents } from "../money.ts";
import { natural } from "./books.ts";
import { reportColumns } from "./columns.ts";
import type { ReportParams } from "./params.ts";
import { reportHeader, sectionRow } from "./rows.ts";
import { accountTree, nestedRows, type OwnRow } from "./tree.ts";

export function profitAndLoss(ledger: CompanyLedger, params: ReportParams, now: Date): Json {
  const layout = reportColumns(ledger, params, "ProfitAndLoss");
  const columns = layout.columns;
  const blank = (): string[] => columns.map(() => "");
  const money = (v: readonly number[]): string[] => v.map(formatCents);

  // Sub-accounts nest under their parent account (reports/tree.ts).
  const block = (type: AccountType): { rows: Json[]; totals: number[] } => {
    const accounts = ledger.accounts.filter((a) => a.type === type);
    const own = (a: Account): OwnRow | undefined => {
      if (!ledger.hasPostings(a.id, params.start, params.end)) return undefined;
      const values = columns.map((c) => (c.ledger.hasPostings(a.id, c.start, c.end) ? natural(a, c.ledger.activity(a.id, c.start, c.end)) : 0));
      return { cells: columns.map((c, i) => (c.ledger.hasPostings(a.id, c.start, c.end) ? formatCents(values[i] as number) : "")), values };
    };
    return nestedRows(accountTree(ledger, accounts, (a) => ledger.hasPostings(a.id, params.start, params.end)), columns.length, own);
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
