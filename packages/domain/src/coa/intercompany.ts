import { comparableCompanyName, containsWords, isInvestmentAccount } from "./company-name.ts";
import { plainName } from "./detail-types.ts";
import type { ChartAccount } from "./mapping-rules.ts";

/**
 * Intercompany accounts by their names: an account that names a group company ("Loan Payable –
 * Northwind Holdings", "Intercompany Receivable – Northwind UK") or says it is with the group
 * ("Management Charges – Group", "Zinsaufwendungen verbundene Unternehmen"). Mapping suggestions
 * send such an account only to the parent's intercompany account for the same counterparty.
 */

/** Words that make an account intercompany without naming the company (compared as plainly as company names). */
const GROUP_WORDS =
  /\b(intercompany|inter company|interco|intragroup|intra group|group compan(y|ies)|konzern\w*|verbundene\w* unternehmen|affiliated compan(y|ies)|subsidiar(y|ies)|parent company)\b/;
/** "Loan Interest – Group", "Fees (group)": the group as a qualifier, unlike "Group Benefits" (group insurance). */
const GROUP_QUALIFIER = /[-–—:(]\s*group\b/i;

const saysGroup = (name: string) => GROUP_WORDS.test(plainName(name)) || GROUP_QUALIFIER.test(name);

/** The group's companies as comparable names; `parent` is the one the subsidiaries map onto, `self` the subsidiary being mapped. */
export interface GroupNames {
  parent: string;
  self: string;
  /** Every group company's comparable name, the parent and `self` included. */
  all: readonly string[];
}

/**
 * The group's company names: the companies connected, plus the counterparties the parent's own
 * chart names in its intercompany and investment accounts ("Intercompany Loan – Northwind
 * Deutschland", "Investment in Northwind Retail LLC"), so a sister company not connected yet is
 * still recognised. Names of fewer than three characters are dropped: they would match words.
 */
export function groupNames(companies: { parent: string; self: string; others?: readonly string[] }, parentChart: readonly ChartAccount[]): GroupNames {
  const found = new Set<string>();
  const add = (name: string) => {
    const c = comparableCompanyName(name);
    if (c.length >= 3 && !GROUP_WORDS.test(c)) found.add(c);
  };
  for (const n of [companies.parent, companies.self, ...(companies.others ?? [])]) add(n);
  for (const a of parentChart) {
    const investee = /^\s*(investments?|beteiligung)( in| an)?\s+(.+)$/i.exec(a.name);
    if (investee && isInvestmentAccount(a)) add(investee[3] ?? "");
    else if (saysGroup(a.name)) {
      const parts = a.name.split(/\s+[-–—:]\s+/);
      if (parts.length > 1) add(parts[parts.length - 1] ?? "");
    }
  }
  return { parent: comparableCompanyName(companies.parent), self: comparableCompanyName(companies.self), all: [...found] };
}

/**
 * Whether an account is intercompany and with whom: `counterparty` is the comparable name of the
 * group company it names (the longest, so "Northwind UK Retail" beats "Northwind UK"), or null
 * when it only says "group". Null for accounts that are not intercompany, for equity (a member's
 * capital naming the parent is ownership, eliminated against the investment, not a balance between
 * companies) and for the parent's investments in its subsidiaries.
 */
export function intercompanyOf(a: ChartAccount, group: GroupNames): { counterparty: string | null } | null {
  if (a.classification === "Equity" || isInvestmentAccount(a)) return null;
  const name = comparableCompanyName(a.name);
  const named = group.all.filter((g) => containsWords(name, g)).sort((x, y) => y.length - x.length)[0];
  if (named !== undefined) return { counterparty: named };
  return saysGroup(a.name) ? { counterparty: null } : null;
}

/**
 * Whether the parent's intercompany account `parent` is the subsidiary's intercompany account
 * `sub` seen from the group: "specific" when it names the same counterparty (a balance with the
 * parent itself is the parent's account naming this subsidiary), "generic" when it names no
 * company ("Intercompany Payable"), else null. An account that only says "group" has no known
 * counterparty and matches only a generic account.
 */
export function intercompanyMatch(sub: { counterparty: string | null }, parent: { counterparty: string | null }, group: GroupNames): "specific" | "generic" | null {
  const parentSide = parent.counterparty === group.parent ? null : parent.counterparty;
  if (parentSide === null) return "generic";
  if (sub.counterparty === null || sub.counterparty === group.self) return null;
  const seenFromParent = sub.counterparty === group.parent ? group.self : sub.counterparty;
  return parentSide === seenFromParent ? "specific" : null;
}
