import type { CompanyAccount, TransactionDetail } from "@groupledger/contract";
import { isMonthText } from "@groupledger/domain";

/**
 * Transaction detail as the screen reads it: what the URL asks for (the reports screen links here
 * with account, from, to and realmId), and each company's transactions summed the way the
 * consolidation sums them. Amounts stay integer minor units, debit positive.
 */

export interface DetailQuery {
  account: string;
  from: string;
  to: string;
  realmId?: string;
}

export interface UrlState {
  account: string | null;
  from: string;
  to: string;
  realmId: string | null;
  /** What is wrong with the range in the URL, in words; null when it can be asked for. */
  problem: string | null;
}

/**
 * The URL's query as the screen's state: a missing or malformed month falls back to `fallback`
 * (the month being closed), and a range that ends before it starts is said, not sent.
 */
export function readUrl(params: URLSearchParams, fallback: string): UrlState {
  const month = (key: string) => {
    const v = params.get(key);
    return v && isMonthText(v) ? v : null;
  };
  const from = month("from") ?? month("to") ?? fallback;
  const to = month("to") ?? from;
  const bad = ["from", "to"].filter((k) => params.get(k) !== null && month(k) === null);
  const problem = bad.length
    ? `The link's ${bad.join(" and ")} ${bad.length === 1 ? "is not a month" : "are not months"} like 2026-03; showing ${from} to ${to} instead.`
    : to < from
      ? `The range ends (${to}) before it starts (${from}).`
      : null;
  return { account: params.get("account")?.trim() || null, from, to, realmId: params.get("realmId")?.trim() || null, problem };
}

/** What to ask the server for, or null while no account is chosen or the range cannot be asked. */
export function queryOf(s: UrlState): DetailQuery | null {
  if (!s.account || s.to < s.from) return null;
  return { account: s.account, from: s.from, to: s.to, ...(s.realmId ? { realmId: s.realmId } : {}) };
}

/** The URL for a state, keeping only what is set, in the order the reports screen writes it. */
export function urlOf(s: Pick<UrlState, "account" | "from" | "to" | "realmId">): URLSearchParams {
  const p = new URLSearchParams();
  if (s.account) p.set("account", s.account);
  p.set("from", s.from);
  p.set("to", s.to);
  if (s.realmId) p.set("realmId", s.realmId);
  return p;
}

export interface AccountGroup {
  group: string;
  items: { value: string; label: string }[];
}

const CLASS_ORDER = ["Asset", "Liability", "Equity", "Revenue", "Expense"];

/** The parent's chart for the account picker: by classification in statement order, then by number and name. */
export function parentAccountOptions(chart: readonly CompanyAccount[]): AccountGroup[] {
  const groups = new Map<string, AccountGroup["items"]>();
  const sorted = [...chart].sort(
    (a, b) => (a.acctNum ?? "").localeCompare(b.acctNum ?? "", undefined, { numeric: true }) || a.name.localeCompare(b.name),
  );
  for (const a of sorted) {
    const items = groups.get(a.classification) ?? [];
    items.push({ value: a.Id, label: `${a.acctNum ? `${a.acctNum} · ` : ""}${a.name}${a.active ? "" : " (inactive)"}` });
    groups.set(a.classification, items);
  }
  const rank = (c: string) => (CLASS_ORDER.includes(c) ? CLASS_ORDER.indexOf(c) : CLASS_ORDER.length);
  return [...groups].sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0])).map(([group, items]) => ({ group, items }));
}

export type CompanyDetail = TransactionDetail["companies"][number];

export interface CompanySums {
  /** The transactions' own translated amounts added up; null when one of them has no rate. */
  transactions: number | null;
  /**
   * The consolidation translates each account-month as one sum, so its total may be a cent or so
   * away from the transactions' own amounts: the difference, shown as its own line; 0 when none.
   */
  rounding: number;
}

export function companySums(c: CompanyDetail): CompanySums {
  const amounts = c.transactions.map((t) => t.translated);
  const transactions = amounts.some((a) => a === null) ? null : amounts.reduce<number>((s, a) => s + a!, 0);
  const rounding = transactions === null || c.totalTranslated === null ? 0 : c.totalTranslated - transactions;
  return { transactions, rounding };
}

/** The companies together in the parent's currency; null when a company's total cannot be translated. */
export function grandTotal(companies: readonly CompanyDetail[]): number | null {
  let total = 0;
  for (const c of companies) {
    if (c.totalTranslated === null) return null;
    total += c.totalTranslated;
  }
  return total;
}

export const transactionCount = (companies: readonly CompanyDetail[]): number => companies.reduce((s, c) => s + c.transactions.length, 0);
