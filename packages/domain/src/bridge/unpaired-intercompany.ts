import { groupNames, intercompanyOf } from "../coa/intercompany.ts";
import { monthList } from "../periods/month.ts";
import type { ChartRow } from "./books.ts";
import type { GroupCompany, IntercompanyPair } from "./group.ts";
import { accountLabel } from "./problems.ts";

/**
 * Intercompany accounts left out of the eliminations: an account of a group company named as a
 * balance or flow with another group company ("Intercompany Receivable – Northwind UK", "Loan from
 * Northwind Holdings", "Management Fees – Group": coa/intercompany.ts, the rule the mapping
 * suggestions use) that moves or holds an amount in the period but is a side of no intercompany
 * pair. Nothing eliminates it, so it stays in the consolidated statements, grossing up both sides
 * (IFRS 10.B86(c), ASC 810-10-45-1: intragroup balances and transactions are eliminated in full).
 * A warning, not a problem: the figures are computed, but they are not yet the group's. Accounts a
 * dividend setting eliminates (`handled`) are not named.
 */
export function unpairedIntercompany(args: {
  parent: GroupCompany;
  group: readonly GroupCompany[];
  charts: ReadonlyMap<string, readonly ChartRow[]>;
  /** The month's balance (balance sheet) or movement (P&L) of an account, minor units; 0 when none. */
  amount: (realmId: string, accountId: string, month: string) => number;
  pairs: readonly IntercompanyPair[];
  /** `${realmId}|${accountId}` of accounts another rule eliminates (intra-group dividends). */
  handled: ReadonlySet<string>;
  from: string;
  to: string;
}): string[] {
  const { parent, group, charts, amount, pairs, handled, from, to } = args;
  const paired = new Set(pairs.flatMap((p) => [p.left, p.right]).map((s) => `${s.entity}|${s.account}`));
  const parentChart = charts.get(parent.realmId) ?? [];
  const months = monthList(from, to);
  const companies = { parent: parent.companyName, self: parent.companyName, others: group.map((c) => c.companyName) };
  // Which group company an account names depends only on the names (`intercompanyOf` reads `all`),
  // not on whose chart it is in: the same for every company.
  const names = groupNames(companies, parentChart);
  // The companies in this consolidation: a balance with a group company outside it (a sister
  // company not connected, one not acquired yet in the period) is not eliminated here by design.
  const members = new Set(groupNames(companies, []).all);
  /** One warning a company. */
  const found: string[] = [];
  for (const company of group) {
    const accounts: string[] = [];
    for (const a of charts.get(company.realmId) ?? []) {
      const key = `${company.realmId}|${a.id}`;
      if (paired.has(key) || handled.has(key)) continue;
      const interco = intercompanyOf({ ...a, name: a.fullyQualifiedName ?? a.name }, names);
      if (!interco || (interco.counterparty !== null && !members.has(interco.counterparty))) continue;
      if (!months.some((m) => amount(company.realmId, a.id, m) !== 0)) continue;
      accounts.push(accountLabel(a));
    }
    if (accounts.length) found.push(unpairedText(company.companyName, accounts, from === to ? from : `${from} to ${to}`));
  }
  return found;
}

/** One company's warning, so each reads on its own line of the report. */
function unpairedText(company: string, accounts: readonly string[], period: string): string {
  const one = accounts.length === 1;
  return one
    ? `${company}'s intercompany account ${accounts[0]} holds an amount in ${period} but is in no intercompany pair, so it is not eliminated and stays in the consolidated statements. Pair it on Interco Eliminations.`
    : `${company}'s intercompany accounts ${accounts.join(", ")} hold amounts in ${period} but are in no intercompany pair, so they are not eliminated and stay in the consolidated statements. Pair them on Interco Eliminations.`;
}
