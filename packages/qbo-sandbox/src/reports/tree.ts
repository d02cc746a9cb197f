/**
 * Sub-accounts in BalanceSheet and ProfitAndLoss, as the recordings nest them
 * (reports/BalanceSheet_2019_sandbox..., BalanceSheet__intuit-docs-example: "Truck" > "Original
 * Cost"): an account with sub-accounts to show is a Section whose Header names it (with its id,
 * money cells blank), whose Rows are its own amount as a Data row (when it has one to show) and its
 * sub-accounts' rows (sections again for theirs), and whose Summary "Total <name>" adds them up.
 * The section has no `group`. An account without sub-accounts to show is a Data row, as before.
 */
import { shownName } from "../deleted.ts";
import type { Json } from "../entities.ts";
import type { Account, CompanyLedger } from "../ledger.ts";
import { formatCents } from "../money.ts";
import { chartOrder } from "./books.ts";
import { dataRow, sectionRow } from "./rows.ts";

export interface AccountNode {
  readonly account: Account;
  readonly subAccounts: readonly AccountNode[];
}

/**
 * The accounts of one report section, each under its parent, in chart order at every level. An
 * account is kept when `shows` holds for it or for any account below it; `accounts` are the
 * section's (a sub-account has its parent's type, so they are in the same section).
 */
export function accountTree(ledger: CompanyLedger, accounts: readonly Account[], shows: (a: Account) => boolean): AccountNode[] {
  const inSection = new Set(accounts.map((a) => a.id));
  const build = (a: Account, seen: ReadonlySet<string>): AccountNode | undefined => {
    const below = new Set([...seen, a.id]);
    const subAccounts = ledger
      .subAccountsOf(a.id)
      .filter((s) => inSection.has(s.id) && !below.has(s.id))
      .sort(chartOrder)
      .flatMap((s) => build(s, below) ?? []);
    return shows(a) || subAccounts.length > 0 ? { account: a, subAccounts } : undefined;
  };
  return accounts
    .filter((a) => a.parentId === undefined || !inSection.has(a.parentId))
    .sort(chartOrder)
    .flatMap((a) => build(a, new Set()) ?? []);
}

/** The accounts of a tree, each followed by the accounts below it. */
export function inTreeOrder(nodes: readonly AccountNode[]): Account[] {
  return nodes.flatMap((n) => [n.account, ...inTreeOrder(n.subAccounts)]);
}

/** One account's own row in a report: its cells after the name, and its amounts per column (natural sign, cents). */
export interface OwnRow {
  readonly cells: readonly string[];
  readonly values: readonly number[];
}

/**
 * The rows of `nodes` and their totals per column. `own` gives an account's own row, or undefined
 * when it has none to show (an account kept only for its sub-accounts).
 */
export function nestedRows(nodes: readonly AccountNode[], columns: number, own: (a: Account) => OwnRow | undefined): { rows: Json[]; totals: number[] } {
  const totals = Array.from({ length: columns }, () => 0);
  const rows: Json[] = [];
  for (const node of nodes) {
    const a = node.account;
    const mine = own(a);
    if (node.subAccounts.length === 0) {
      if (mine === undefined) continue;
      mine.values.forEach((v, i) => (totals[i] = (totals[i] as number) + v));
      rows.push(dataRow([{ value: shownName(a.name, a.active), id: a.id }, ...mine.cells]));
      continue;
    }
    const below = nestedRows(node.subAccounts, columns, own);
    const sums = below.totals.map((v, i) => v + (mine?.values[i] ?? 0));
    sums.forEach((v, i) => (totals[i] = (totals[i] as number) + v));
    rows.push(
      sectionRow({
        header: [{ value: shownName(a.name, a.active), id: a.id }, ...Array.from({ length: columns }, () => "")],
        rows: [...(mine === undefined ? [] : [dataRow([{ value: shownName(a.name, a.active), id: a.id }, ...mine.cells])]), ...below.rows],
        summary: [`Total ${shownName(a.name, a.active)}`, ...sums.map(formatCents)],
      }),
    );
  }
  return { rows, totals };
}
