/**
 * Text cells of every spreadsheet the product writes (CSV and Excel), safe to open: a cell that
 * begins with `=`, `+`, `-`, `@`, a tab or a carriage return is taken for a formula by Excel,
 * LibreOffice and Google Sheets (OWASP "CSV injection"), so an account named
 * `-2+3+cmd|' /C calc'!A0` in QuickBooks would run when the file is opened. Such text gets a
 * leading apostrophe, which spreadsheets read as "this is text". Numbers are never text cells:
 * they are written as numbers, so a negative amount stays a negative number.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** The text as a spreadsheet must show it: unchanged unless it could start a formula. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A number cell of a CSV file: exact decimal text such as "-1234.56", written as it is. */
export interface CsvNumber {
  readonly decimal: string;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A CSV number cell; anything that is not a plain decimal is refused, so text cannot pass as a number. */
export function csvNumber(decimal: string): CsvNumber {
  if (!DECIMAL.test(decimal)) throw new Error(`internal: ${JSON.stringify(decimal)} is not a decimal number`);
  return { decimal };
}

export type CsvCell = string | CsvNumber;

function csvField(cell: CsvCell): string {
  if (typeof cell !== "string") return cell.decimal;
  const text = neutraliseFormula(cell);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV: CRLF line ends, fields quoted when they must be, text cells neutralised. */
export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return rows.map((row) => `${row.map(csvField).join(",")}\r\n`).join("");
}
