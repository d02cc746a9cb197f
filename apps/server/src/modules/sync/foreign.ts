/**
 * Foreign-currency accounts (QBO multicurrency): their month-end balances in their own currency.
 *
 * QuickBooks' summary reports (BalanceSheet, TrialBalance) are in the home currency only; what a
 * GBP loan account holds in GBP is the sum of its GeneralLedger lines' Foreign Amount
 * (`nat_foreign_amount`). One GeneralLedger call per sync, limited to those accounts (`account=`),
 * from the company's first month: the Beginning Balance is then zero, and an account whose
 * Beginning Balance is not (history before what was read) is left out rather than guessed.
 */
import { eq } from "drizzle-orm";
import { parseAmount, type Report } from "@groupledger/qbo";
import { currencyExponent, lastDayOfMonth, monthOf, shiftMonth } from "@groupledger/domain";
import type { Database } from "../../db/client.ts";
import { insertColumns } from "../../db/bulk-insert.ts";
import { foreignBalances } from "../../db/schema.ts";

/** The GeneralLedger columns read: the date, the running balance (for the Beginning Balance row) and the foreign amount. */
export const FOREIGN_GL_COLUMNS = ["tx_date", "rbal_nat_amount", "nat_foreign_amount", "currency"] as const;

export interface ForeignAccount {
  readonly id: string;
  readonly currency: string;
  /** Liabilities (and equity) show credits as positive in the GeneralLedger: turned debit positive here. */
  readonly creditNatured: boolean;
}

export interface ForeignMonthEnd {
  readonly qboAccountId: string;
  /** "YYYY-MM" */
  readonly month: string;
  readonly currency: string;
  /** Minor units of `currency`, debit positive. */
  readonly amountMinor: number;
}

/**
 * Each account's balance in its own currency at every month end from its first line to `to`,
 * from a GeneralLedger read with FOREIGN_GL_COLUMNS. Accounts whose Beginning Balance is not zero
 * are reported in `unknown` and get no months.
 */
export function foreignMonthEnds(report: Report, accounts: readonly ForeignAccount[], to: string): { balances: ForeignMonthEnd[]; unknown: string[] } {
  const col = (key: (typeof FOREIGN_GL_COLUMNS)[number]) => report.columns.findIndex((c) => c.type === key);
  const [date, running, foreign, currencyCol] = [col("tx_date"), col("rbal_nat_amount"), col("nat_foreign_amount"), col("currency")];
  if (date < 0 || foreign < 0) throw new Error("the GeneralLedger was read without its tx_date and nat_foreign_amount columns");
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const movements = new Map<string, Map<string, number>>();
  const unknown = new Set<string>();
  for (const row of report.rows) {
    const account = row.sectionAccountId === undefined ? undefined : byId.get(row.sectionAccountId);
    if (row.kind !== "data" || account === undefined) continue;
    const when = row.cells[date]?.value ?? "";
    if (!/^\d{4}-\d{2}-\d{2}$/.test(when)) {
      // The Beginning Balance row: anything but zero is history this read does not cover.
      if (running >= 0 && (row.amounts[running] ?? 0) !== 0) unknown.add(account.id);
      continue;
    }
    const code = currencyCol >= 0 ? row.cells[currencyCol]?.value : undefined;
    // A line in another currency than the account's cannot be: QuickBooks posts a foreign account only in its currency.
    if (code && code !== account.currency) throw new Error(`a GeneralLedger line of account ${account.id} (${account.currency}) is in ${code}`);
    const text = row.cells[foreign]?.value ?? "";
    const natural = text === "" ? 0 : parseAmount(text, currencyExponent(account.currency));
    const amount = account.creditNatured ? -natural : natural;
    let months = movements.get(account.id);
    if (months === undefined) movements.set(account.id, (months = new Map()));
    const month = monthOf(when);
    months.set(month, (months.get(month) ?? 0) + amount);
  }
  const balances: ForeignMonthEnd[] = [];
  for (const account of accounts) {
    const months = movements.get(account.id);
    if (unknown.has(account.id) || months === undefined) continue;
    let balance = 0;
    for (let month = [...months.keys()].sort()[0]!; month <= to; month = shiftMonth(month, 1)) {
      balance += months.get(month) ?? 0;
      balances.push({ qboAccountId: account.id, month, currency: account.currency, amountMinor: balance });
    }
  }
  return { balances, unknown: [...unknown] };
}

/** The GeneralLedger request for the company's foreign accounts, from `from` to `to` ("YYYY-MM"). */
export function foreignLedgerParams(accounts: readonly ForeignAccount[], from: string, to: string): Record<string, string> {
  return { start_date: `${from}-01`, end_date: lastDayOfMonth(to), account: accounts.map((a) => a.id).join(","), columns: FOREIGN_GL_COLUMNS.join(","), accounting_method: "Accrual" };
}

/** Replaces the company's foreign balances in one transaction (none when it has no foreign accounts). */
export async function saveForeignBalances(database: Database, realmId: string, balances: readonly ForeignMonthEnd[]): Promise<void> {
  await database.db.transaction(async (tx) => {
    await tx.delete(foreignBalances).where(eq(foreignBalances.realmId, realmId));
    const rows = balances.map((b) => ({ realmId, qboAccountId: b.qboAccountId, month: `${b.month}-01`, currency: b.currency, amountMinor: b.amountMinor }));
    await insertColumns(tx, foreignBalances, ["realmId", "qboAccountId", "month", "currency", "amountMinor"], rows);
  });
}
