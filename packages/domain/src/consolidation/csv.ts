import { formatMinor } from "../money/money.ts";
import type { ConsolidationOutput } from "./output-schema.ts";

function cell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The worksheet as RFC 4180 CSV: amounts as decimals of the reporting currency, debit positive. */
export function worksheetCsv(result: Pick<ConsolidationOutput, "worksheet" | "exponent">): string {
  const { worksheet, exponent } = result;
  const header = ["Account", "Name", "Classification", ...worksheet.columns.map((c) => c.label)];
  const lines = [header.map(cell).join(",")];
  const totals = worksheet.columns.map(() => 0);
  for (const row of worksheet.rows) {
    if (row.amounts.every((a) => a === 0)) continue;
    row.amounts.forEach((a, i) => (totals[i]! += a));
    lines.push([row.account, row.name, row.classification, ...row.amounts.map((a) => formatMinor(a, exponent))].map(cell).join(","));
  }
  lines.push(["Total", "", "", ...totals.map((a) => formatMinor(a, exponent))].map(cell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
