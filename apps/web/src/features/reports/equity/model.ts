import type { ChangesInEquityReport } from "@groupledger/contract";
import { formatAmount, parseMonth, formatMonth, fiscalYearOf, fiscalYearRange } from "@groupledger/domain";
import { longMonth } from "../period.ts";

type Statement = NonNullable<ChangesInEquityReport["statement"]>;
export type EquityColumnId = Statement["columns"][number]["id"];

/**
 * The columns shown: every component, and "Other reserves" only when it holds anything (most
 * groups have none), so the statement reads as share capital, retained earnings, translation
 * reserve, total for the owners of the parent, NCI and total equity.
 */
export function visibleColumns(s: Statement): Statement["columns"] {
  const rows = [...s.rows, s.balanceSheet, s.difference];
  return s.columns.filter((c) => c.id !== "otherReserves" || rows.some((r) => r.amounts.otherReserves !== 0));
}

/** The reconciliation line under the statement, in words, with the columns that differ. */
export function reconciliation(s: Statement, currency: string, to: string): { ok: boolean; text: string } {
  const at = `the consolidated balance sheet at the end of ${longMonth(to)}`;
  if (s.reconciles) return { ok: true, text: `Reconciles to ${at}: every column's closing balance equals its figure there.` };
  const differing = s.columns.filter((c) => c.id !== "parent" && c.id !== "total" && s.difference.amounts[c.id] !== 0);
  const parts = differing.map((c) => `${c.label} ${formatAmount(s.difference.amounts[c.id], currency)}`);
  return { ok: false, text: `Does not reconcile to ${at}: ${parts.join(", ")} (balance sheet − statement) is not explained by the period's movements.` };
}

/** The period an equity statement opens on: the fiscal year to date of the month given. */
export function yearToDate(month: string, fyStart: number): { from: string; to: string } {
  const r = fiscalYearRange(fiscalYearOf(parseMonth(month), fyStart), fyStart);
  return { from: formatMonth(r.from), to: month };
}
