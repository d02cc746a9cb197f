import { minorToDecimal } from "../money/format.ts";
import { csvNumber, toCsv, type CsvCell } from "../spreadsheet/cells.ts";
import type { ConsolidationOutput } from "./output-schema.ts";

export interface WorksheetCsvOptions {
  /**
   * What the Account column shows for a row's account id. The product passes the parent's account
   * numbers (a row without one shows none): its ids are QuickBooks' internal ones. Without it the
   * column shows the ids of the engine's input, which are the caller's own.
   */
  readonly accountNumber?: (accountId: string) => string;
}

/** The worksheet as RFC 4180 CSV: amounts as decimals of the reporting currency, debit positive. */
export function worksheetCsv(result: Pick<ConsolidationOutput, "worksheet" | "exponent">, options: WorksheetCsvOptions = {}): string {
  const { worksheet, exponent } = result;
  const account = options.accountNumber ?? ((id: string) => id);
  const amount = (minor: number) => csvNumber(minorToDecimal(minor, exponent));
  const rows: CsvCell[][] = [["Account", "Name", "Classification", ...worksheet.columns.map((c) => c.label)]];
  const totals = worksheet.columns.map(() => 0);
  for (const row of worksheet.rows) {
    if (row.amounts.every((a) => a === 0)) continue;
    row.amounts.forEach((a, i) => (totals[i]! += a));
    rows.push([account(row.account), row.name, row.classification, ...row.amounts.map(amount)]);
  }
  rows.push(["Total", "", "", ...totals.map(amount)]);
  return toCsv(rows);
}
