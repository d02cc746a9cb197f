/**
 * TrialBalance as of the end date, shaped like reports/TrialBalance__intuit-docs-example.json:
 * Data rows without `type`, Debit and Credit columns, a GrandTotal section. Balance-sheet accounts
 * show their balance; income and expense accounts their activity since the fiscal year began;
 * Retained Earnings holds the earlier years (QBO closes the year in reports, not by a posting).
 * The list stays flat: a sub-account is one row named by its FullyQualifiedName ("Parent:Child"),
 * its parent's row holds only the parent's own amount, and it follows its parent.
 */
import { isBalanceSheet } from "../accountTypes.ts";
import { shownName } from "../deleted.ts";
import type { Json } from "../entities.ts";
import type { CompanyLedger } from "../ledger.ts";
import { formatCents } from "../money.ts";
import { balanceAt, fiscalYearOf } from "./books.ts";
import type { ReportParams } from "./params.ts";
import { cells, reportHeader } from "./rows.ts";
import { accountTree, inTreeOrder } from "./tree.ts";

export function trialBalance(ledger: CompanyLedger, params: ReportParams, now: Date): Json {
  const end = params.end;
  const fyStart = fiscalYearOf(ledger, end);
  let debits = 0;
  let credits = 0;
  const rows: Json[] = [];
  for (const a of inTreeOrder(accountTree(ledger, ledger.accounts, () => true))) {
    const balance = isBalanceSheet(a.type) ? balanceAt(ledger, a, end) : ledger.activity(a.id, fyStart, end);
    if (balance === 0) continue;
    if (balance > 0) debits += balance;
    else credits -= balance;
    rows.push({ ColData: cells([{ value: shownName(ledger.fullyQualifiedName(a), a.active), id: a.id }, balance > 0 ? formatCents(balance) : "", balance < 0 ? formatCents(-balance) : ""]) });
  }
  const noData = rows.length === 0;
  rows.push({
    Summary: { ColData: cells(["TOTAL", noData ? "" : formatCents(debits), noData ? "" : formatCents(credits)]) },
    type: "Section",
    group: "GrandTotal",
  });
  return {
    Header: reportHeader({ now, name: "TrialBalance", params, currency: ledger.profile.currency, summarize: false, accountingStandard: false, noData }),
    Columns: {
      Column: [
        { ColTitle: "", ColType: "Account" },
        { ColTitle: "Debit", ColType: "Money" },
        { ColTitle: "Credit", ColType: "Money" },
      ],
    },
    Rows: { Row: rows },
  };
}
