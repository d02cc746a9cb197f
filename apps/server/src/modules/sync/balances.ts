import { balancesByAccount, type Report } from "@groupledger/qbo";
import { monthOf } from "@groupledger/domain";

export interface MonthlyAmount {
  qboAccountId: string;
  month: string;
  kind: "closing" | "activity";
  amountMinor: number;
}

/**
 * Monthly amounts from a BalanceSheet or ProfitAndLoss summarized by month, turned debit-positive
 * (QBO shows liabilities, equity and income as positive numbers). Columns that are not a single
 * month (the P&L's Total) are ignored; accounts the chart does not know are reported back.
 */
export function monthlyAmounts(
  report: Report,
  classificationOf: (qboAccountId: string) => string | undefined,
): { amounts: MonthlyAmount[]; unknownAccounts: string[] } {
  const kind = report.name === "BalanceSheet" ? "closing" : "activity";
  const months = report.columns
    .filter((c) => c.money)
    .map((c) => (c.startDate && c.endDate && monthOf(c.startDate) === monthOf(c.endDate) && c.key !== "total" ? monthOf(c.startDate) : null));
  const amounts: MonthlyAmount[] = [];
  const unknownAccounts: string[] = [];
  for (const [qboAccountId, values] of balancesByAccount(report)) {
    const classification = classificationOf(qboAccountId);
    if (!classification) {
      unknownAccounts.push(qboAccountId);
      continue;
    }
    const creditNatured = classification === "Liability" || classification === "Equity" || classification === "Revenue";
    values.forEach((value, i) => {
      const month = months[i];
      if (month) amounts.push({ qboAccountId, month, kind, amountMinor: creditNatured ? -value || 0 : value });
    });
  }
  return { amounts, unknownAccounts };
}
