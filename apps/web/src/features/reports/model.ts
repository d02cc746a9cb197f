import type { ConsolidatedReport } from "@groupledger/contract";
import { fixLink as obalFixLink } from "../obal/model.ts";

/**
 * The consolidated report as the screens show it: statement lines beside their comparison, the
 * worksheet's totals, the entities with their NCI, links to where a problem is fixed and to the
 * transactions behind a figure. Amounts stay integer minor units of the parent currency; signs are
 * the server's (statements credit positive where they say so, the worksheet debit positive).
 */

export type Report = ConsolidatedReport;
export type Statements = NonNullable<Report["report"]>;
export type BalanceSheet = Statements["balanceSheet"];
export type IncomeStatement = Statements["incomeStatement"];
export type Worksheet = Statements["worksheet"];
export type WorksheetRow = Worksheet["rows"][number];
type Line = { account: string; name: string; amount: number };

// --- Problems ------------------------------------------------------------------------------------

/** Where a report's warning is mended: the screen it names (the statements and the statement of changes in equity). */
export const warningFix = (w: string): { href: string; label: string } | null =>
  /Acquisitions/.test(w)
    ? { href: "/setup/acquisitions", label: "Open Acquisitions" }
    : /Interco Eliminations/.test(w)
      ? { href: "/consolidation/elimination", label: "Open Interco Eliminations" }
      : null;

/** Where each kind of problem is fixed: the shared translation links, plus what only a group report meets. */
export function fixLink(code: string): { href: string; label: string } | null {
  if (code === "invalid_pair") return { href: "/consolidation/elimination", label: "Fix the pair in Interco Eliminations" };
  if (code === "invalid_acquisition" || code === "acquired_after_period") return { href: "/setup/acquisitions", label: "Check it in Acquisitions" };
  if (code === "invalid_intragroup") return { href: "/consolidation/elimination", label: "Fix it in Interco Eliminations" };
  return obalFixLink(code);
}

// --- Drill-down ----------------------------------------------------------------------------------

/** The transactions behind a figure: a parent account over the report's months, of one company when given. */
export function drillHref(q: { account: string; from: string; to: string; realmId?: string }): string {
  const params = new URLSearchParams({ account: q.account, from: q.from, to: q.to });
  if (q.realmId) params.set("realmId", q.realmId);
  return `/consolidation/transaction-detail?${params.toString()}`;
}

/**
 * Rows of the worksheet that are parent accounts, so their figures have transactions to show.
 * Unmapped rows (a subsidiary account with no parent yet), the NCI share of profit and the
 * period's profit line of the balance sheet are computed figures with no account of their own.
 */
export function drillableAccounts(ws: Worksheet): Set<string> {
  return new Set(ws.rows.filter((r) => r.role === "account").map((r) => r.account));
}

export const isUnmappedRow = (account: string): boolean => account.startsWith("unmapped:");

// --- Statements with their comparison ------------------------------------------------------------

export interface StatementRow {
  account: string;
  name: string;
  amount: number;
  /** The comparison period's amount; null without a comparison (0 when the account had nothing then). */
  prior: number | null;
}

/**
 * The current period's lines in their order, then lines only the comparison period has (an
 * account that had a balance then and none now still belongs on the statement).
 */
export function withComparison(current: readonly Line[], prior: readonly Line[] | null): StatementRow[] {
  if (prior === null) return current.map((l) => ({ account: l.account, name: l.name, amount: l.amount, prior: null }));
  const before = new Map(prior.map((l) => [l.account, l]));
  const rows: StatementRow[] = current.map((l) => ({ account: l.account, name: l.name, amount: l.amount, prior: before.get(l.account)?.amount ?? 0 }));
  const seen = new Set(current.map((l) => l.account));
  for (const l of prior) if (!seen.has(l.account)) rows.push({ account: l.account, name: l.name, amount: 0, prior: l.amount });
  return rows;
}

export const sumOf = (lines: readonly { amount: number }[]): number => lines.reduce((s, l) => s + l.amount, 0);

/**
 * The change from the comparison period and its percentage of the comparison amount (one
 * decimal); no percentage from zero, and none when the sign flipped (a swing from a loss to a
 * profit is not a percentage anyone reads correctly).
 */
export function change(amount: number, prior: number | null): { amount: number; percent: string | null } | null {
  if (prior === null) return null;
  const diff = amount - prior;
  if (prior === 0 || (amount !== 0 && Math.sign(amount) !== Math.sign(prior))) return { amount: diff, percent: null };
  const pct = (diff / Math.abs(prior)) * 100;
  const rounded = Math.round(pct * 10) / 10;
  return { amount: diff, percent: `${rounded > 0 ? "+" : ""}${rounded.toFixed(1)}%` };
}

export interface Totals {
  amount: number;
  prior: number | null;
}

export interface BalanceSheetView {
  assets: StatementRow[];
  liabilities: StatementRow[];
  equity: StatementRow[];
  totalAssets: Totals;
  totalLiabilities: Totals;
  totalEquity: Totals;
  nci: Totals;
  totalLiabilitiesAndEquity: Totals;
}

const totals = (amount: number, prior: number | undefined | null): Totals => ({ amount, prior: prior ?? null });

/** The balance sheet's sections and totals, each beside the comparison's when there is one. */
export function balanceSheetView(b: BalanceSheet, c: BalanceSheet | null): BalanceSheetView {
  return {
    assets: withComparison(b.assets, c?.assets ?? null),
    liabilities: withComparison(b.liabilities, c?.liabilities ?? null),
    equity: withComparison(b.equity, c?.equity ?? null),
    totalAssets: totals(b.totalAssets, c?.totalAssets),
    totalLiabilities: totals(b.totalLiabilities, c?.totalLiabilities),
    totalEquity: totals(b.totalEquity, c?.totalEquity),
    nci: totals(b.nonControllingInterests, c?.nonControllingInterests),
    totalLiabilitiesAndEquity: totals(
      b.totalLiabilities + b.totalEquity + b.nonControllingInterests,
      c ? c.totalLiabilities + c.totalEquity + c.nonControllingInterests : null,
    ),
  };
}

export interface IncomeStatementView {
  revenue: StatementRow[];
  expenses: StatementRow[];
  totalRevenue: Totals;
  totalExpenses: Totals;
  netIncome: Totals;
  attributableToNci: Totals;
  attributableToParent: Totals;
}

export function incomeStatementView(p: IncomeStatement, c: IncomeStatement | null): IncomeStatementView {
  return {
    revenue: withComparison(p.revenue, c?.revenue ?? null),
    expenses: withComparison(p.expenses, c?.expenses ?? null),
    totalRevenue: totals(sumOf(p.revenue), c ? sumOf(c.revenue) : null),
    totalExpenses: totals(sumOf(p.expenses), c ? sumOf(c.expenses) : null),
    netIncome: totals(p.netIncome, c?.netIncome),
    attributableToNci: totals(p.attributableToNci, c?.attributableToNci),
    attributableToParent: totals(p.attributableToParent, c?.attributableToParent),
  };
}

// --- Worksheet -----------------------------------------------------------------------------------

export interface ColumnTotals {
  /** Sum of the debits (positive amounts) of each column. */
  debits: number[];
  /** Sum of the credits of each column, as a negative number (the worksheet is debit positive). */
  credits: number[];
  /** Each column's debits equal its credits: the engine's own check, shown rather than trusted. */
  balanced: boolean[];
}

export function columnTotals(ws: Worksheet): ColumnTotals {
  const debits = ws.columns.map(() => 0);
  const credits = ws.columns.map(() => 0);
  for (const row of ws.rows) {
    row.amounts.forEach((a, i) => {
      if (a > 0) debits[i]! += a;
      else credits[i]! += a;
    });
  }
  return { debits, credits, balanced: debits.map((d, i) => d + credits[i]! === 0) };
}

/** Rows with an amount in some column; a chart's untouched accounts add nothing to read. */
export function worksheetRows(ws: Worksheet, showEmpty: boolean): WorksheetRow[] {
  return showEmpty ? ws.rows : ws.rows.filter((r) => r.amounts.some((a) => a !== 0));
}

/** Above this many rows the worksheet renders only what is on screen. */
export const VIRTUALIZE_ABOVE = 200;

export type ColumnKind = "entity" | "eliminations" | "nci" | "consolidated";
export function columnKind(id: string): ColumnKind {
  return id === "eliminations" || id === "nci" || id === "consolidated" ? id : "entity";
}

// --- Entities ------------------------------------------------------------------------------------

export interface EntityRow {
  id: string;
  name: string;
  currency: string;
  method: string;
  netIncomeLocal: number;
  netIncomeTranslated: number;
  ctaChange: number;
  /** The non-controlling interest's share ("20%") and closing NCI; null at 100% ownership. */
  nci: { share: string; closing: number; netIncome: number } | null;
}

const METHOD_LABELS: Record<string, string> = {
  none: "Not translated",
  currentRate: "Current rate",
  temporal: "Temporal (remeasured)",
};
export const methodLabel = (method: string): string => METHOD_LABELS[method] ?? method;

/** "0.2" → "20%", "0.125" → "12.5%": the NCI share as a percentage, exactly (no binary fractions). */
export function sharePercent(share: string): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(share);
  if (!m) return share;
  const whole = m[1]!;
  const frac = (m[2] ?? "").padEnd(2, "0");
  const intPart = String(Number(`${whole}${frac.slice(0, 2)}`));
  const rest = frac.slice(2).replace(/0+$/, "");
  return `${intPart}${rest ? `.${rest}` : ""}%`;
}

export function entityRows(s: Statements): EntityRow[] {
  const nci = new Map(s.nci.map((n) => [n.entity, n]));
  return s.entities.map((e) => {
    const n = nci.get(e.id);
    return {
      id: e.id,
      name: e.name,
      currency: e.currency,
      method: e.method,
      netIncomeLocal: e.netIncome.local,
      netIncomeTranslated: e.netIncome.translated,
      ctaChange: e.ctaChange,
      nci: n ? { share: sharePercent(n.share), closing: n.closing, netIncome: n.netIncome } : null,
    };
  });
}

// --- Files ---------------------------------------------------------------------------------------

/** The file name the server chose (content-disposition), else `fallback`. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim().replace(/^"|"$/g, ""));
    } catch {
      // A malformed encoding: the plain filename parameter, if any, still names it.
    }
  }
  const plain = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;]+)/i.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  // Never a path: a name with separators would be a server bug, and the browser strips them anyway.
  return name && !/[\\/]/.test(name) ? name : fallback;
}
