/**
 * A budget imported from a CSV file, for a company whose QuickBooks keeps none (issue 23): one
 * row per account and month, `account,month,amount`, the amount in the company's currency in the
 * account's natural sign (income and expenses both positive); an empty amount leaves the line out,
 * so the template's lines left blank need not be deleted. The rules here read the rows a CSV
 * parser gave; all or nothing: every bad row is named, and nothing is kept unless all are good.
 *
 * A cell that a spreadsheet would take for a formula (it begins with =, +, @, a tab or a carriage
 * return, or - followed by anything but a plain number) is refused, not cleaned: a budget file
 * with `=HYPERLINK(...)` in it was not written by hand, and guessing what it meant is how a wrong
 * budget gets in (OWASP "CSV injection"; the same starts as spreadsheet/cells.ts neutralises on output).
 */

import { isMonthText } from "../periods/month.ts";

export const BUDGET_CSV_HEADER = ["account", "month", "amount"] as const;
export const MAX_BUDGET_CSV_ROWS = 20_000;

/** A company account as the import matches it: by number, else by exact name. */
export interface BudgetChartAccount {
  readonly id: string;
  readonly name: string;
  readonly acctNum: string | null;
  readonly classification: string;
}

export interface BudgetRow {
  readonly line: number;
  readonly account: string;
  readonly month: string;
  /** Minor units of the company's currency, natural sign. */
  readonly amount: number;
}

export interface BudgetRowError {
  /** The file's line number (the header is line 1). */
  readonly line: number;
  readonly message: string;
}

const FORMULA_START = /^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/;
const AMOUNT = /^(-)?(\d{1,15})(?:\.(\d+))?$/;

/** Whether a profit and loss account (QuickBooks classification Revenue or Expense) can carry a budget. */
export const isBudgetClassification = (classification: string): boolean => classification === "Revenue" || classification === "Expense";

/** "1234.5" → 123450 at exponent 2, exactly; null when it is not a plain decimal or has more decimals than the currency. */
export function budgetAmountMinor(text: string, exponent: number): number | null {
  const m = AMOUNT.exec(text);
  if (!m) return null;
  const fraction = (m[3] ?? "").replace(/0+$/, "");
  if (fraction.length > exponent) return null;
  const minor = BigInt(m[2]!) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, "0") || "0");
  const n = Number(m[1] ? -minor : minor);
  return Number.isSafeInteger(n) ? n : null;
}

/** Whether a spreadsheet would read the cell as a formula. */
export const isFormulaLike = (cell: string): boolean => FORMULA_START.test(cell);

/**
 * The rows of a budget file (the header row first) against the company's chart. `exponent`: the
 * company currency's decimals. Returns the rows, or every error with its line.
 */
export function readBudgetRows(records: readonly (readonly string[])[], chart: readonly BudgetChartAccount[], exponent: number, companyName: string): { rows: BudgetRow[]; errors: BudgetRowError[] } {
  const errors: BudgetRowError[] = [];
  const [header, ...body] = records;
  const expected = BUDGET_CSV_HEADER.join(",");
  if (!header || header.map((h) => h.trim().toLowerCase()).join(",") !== expected) {
    return { rows: [], errors: [{ line: 1, message: `The first line must be the header ${expected}.` }] };
  }
  if (body.length === 0) return { rows: [], errors: [{ line: 2, message: "The file has a header but no budget lines." }] };
  if (body.length > MAX_BUDGET_CSV_ROWS) return { rows: [], errors: [{ line: 2, message: `At most ${MAX_BUDGET_CSV_ROWS.toLocaleString("en-US")} budget lines in one file; this one has ${body.length.toLocaleString("en-US")}.` }] };

  const byNumber = new Map<string, BudgetChartAccount>();
  const byName = new Map<string, BudgetChartAccount[]>();
  for (const a of chart) {
    if (a.acctNum) byNumber.set(a.acctNum, a);
    const key = a.name.trim().toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), a]);
  }
  const rows: BudgetRow[] = [];
  const seen = new Map<string, number>();
  body.forEach((cells, i) => {
    const line = i + 2;
    const fail = (message: string) => errors.push({ line, message: `Line ${line}: ${message}` });
    if (cells.length !== 3) return fail(`${cells.length} values; expected 3 (account, month, amount).`);
    const [accountCell, monthCell, amountCell] = cells.map((c) => c.trim()) as [string, string, string];
    const formula = cells.findIndex((c) => isFormulaLike(c) || isFormulaLike(c.trim()));
    if (formula >= 0) return fail(`the ${BUDGET_CSV_HEADER[formula]} cell starts like a spreadsheet formula (${JSON.stringify(cells[formula]!.slice(0, 20))}); write the plain value.`);
    if (amountCell === "") return; // left blank: not budgeted
    if (!accountCell) return fail("the account is empty; write the account's number or name.");
    const named = byName.get(accountCell.toLowerCase()) ?? [];
    const account = byNumber.get(accountCell) ?? (named.length === 1 ? named[0] : undefined);
    if (!account) {
      return fail(
        named.length > 1
          ? `${companyName} has ${named.length} accounts named "${accountCell}"; write the account's number.`
          : `"${accountCell}" is not an account of ${companyName} (by number or name).`,
      );
    }
    if (!isBudgetClassification(account.classification)) return fail(`${account.name} is a ${account.classification.toLowerCase()} account; a budget is for income and expense accounts.`);
    if (!isMonthText(monthCell)) return fail(`the month "${monthCell}" is not a month written YYYY-MM, e.g. 2026-03.`);
    const amount = budgetAmountMinor(amountCell, exponent);
    if (amount === null) return fail(`the amount "${amountCell}" is not a plain number with at most ${exponent} decimal place(s), e.g. 1250.00 (no currency signs or thousands separators).`);
    const key = `${account.id}|${monthCell}`;
    const before = seen.get(key);
    if (before !== undefined) return fail(`${account.name} for ${monthCell} is already on line ${before}.`);
    seen.set(key, line);
    rows.push({ line, account: account.id, month: monthCell, amount });
  });
  if (!errors.length && rows.length === 0) errors.push({ line: 2, message: "Every amount in the file is empty: there is no budget to import." });
  return errors.length ? { rows: [], errors } : { rows, errors };
}

/** How the template and the import name an account: its number when it has one, else its name. */
export const budgetAccountKey = (a: BudgetChartAccount): string => a.acctNum || a.name;

/**
 * The template of a company's budget: the header, then a line for each active income and expense
 * account (by number, else name) and month, the amount left blank for the user to fill in.
 */
export function budgetTemplateRows(chart: readonly (BudgetChartAccount & { active: boolean })[], months: readonly string[]): string[][] {
  const accounts = chart
    .filter((a) => a.active && isBudgetClassification(a.classification))
    .sort((a, b) => (a.classification === b.classification ? 0 : a.classification === "Revenue" ? -1 : 1) || (a.acctNum ?? "").localeCompare(b.acctNum ?? "") || a.name.localeCompare(b.name));
  return [[...BUDGET_CSV_HEADER], ...accounts.flatMap((a) => months.map((m) => [budgetAccountKey(a), m, ""]))];
}
