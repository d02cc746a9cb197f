import type { ConsolidationOutput } from "../consolidation/output-schema.ts";
import { currencyExponent } from "../money/currency.ts";
import { monthList } from "../periods/month.ts";
import { mulDivRound, parseRate, translationFactor, type Factor } from "../money/rate.ts";

/**
 * The consolidated profit and loss by segment (IFRS 8 Operating Segments; ASC 280 Segment
 * Reporting): one column per QuickBooks class (or location) across the group's companies, a
 * column for what carries none, the intra-group eliminations in a column of their own, and the
 * consolidated figure as the total. IFRS 8.28(b) and ASC 280-10-50-30(b) ask for the
 * reconciliation of the segments' profit to the entity's, with inter-segment eliminations and
 * unallocated amounts as separately identified reconciling items: the columns here are that
 * reconciliation, line by line, to the cent.
 *
 * Built from one consolidation (the engine's output for the period, its rates) and each
 * company's monthly activity per class, in its own currency:
 * - A segment's amount of a company's account is translated as the engine translates that
 *   account: each month's activity at the month's average rate (the line's own rate when the
 *   engine used one rate for it, a historical rate; unchanged in the reporting currency). So a
 *   segment's figures are what the segment's books alone would translate to.
 * - Segments match across companies by name (case and spacing aside): "Wholesale" at the parent
 *   and "wholesale" in the UK are one segment. `segments[].members` says who holds each.
 * - The column for lines with no segment ("unallocated") is each company line's translated
 *   amount less its segments': it holds the untagged lines and the rounding of the segments'
 *   own translation (under half a minor unit per segment, account and month), so the company's
 *   columns add up to exactly its translated line.
 * - A subsidiary acquired or disposed of inside the period: its columns hold the months of control
 *   only (its segments' activity of those months; the engine's entry leaving out the other months
 *   is taken as part of its line, not as an elimination).
 * - Eliminations: the worksheet's Eliminations column on the line, the engine's entries
 *   (intra-group revenue and expense with their exchange difference, unrealised profit,
 *   dividends, manual group entries). Whatever else separates the consolidated line from the
 *   companies' translated lines and those entries falls in `otherAdjustments` (zero in every case
 *   we know of; shown rather than absorbed).
 *
 * Every row (and the net income) then holds: Σ segments + unallocated + eliminations +
 * otherAdjustments = total = the consolidated income statement's figure.
 */

/** One company's monthly P&L activity of one segment on one of its accounts, local minor units, debit positive. */
export interface SegmentActivity {
  readonly entity: string;
  readonly account: string;
  /** The segment's name in that company (QuickBooks' class or location name). */
  readonly segment: string;
  /** "YYYY-MM" */
  readonly month: string;
  readonly amount: number;
}

export interface SegmentMember {
  entity: string;
  entityName: string;
  /** The name as that company spells it. */
  name: string;
}

export interface SegmentColumn {
  name: string;
  members: SegmentMember[];
}

export interface SegmentAmounts {
  /** One per segment column, in `segments` order. */
  segments: number[];
  unallocated: number;
  eliminations: number;
  otherAdjustments: number;
  /** The consolidated figure. */
  total: number;
}

export interface SegmentRow extends SegmentAmounts {
  account: string;
  name: string;
}

export interface SegmentStatement {
  segments: SegmentColumn[];
  /** Credit positive. */
  revenue: SegmentRow[];
  /** Debit positive. */
  expenses: SegmentRow[];
  /** Credit positive: revenue less expenses, per column. */
  netIncome: SegmentAmounts;
  /** Whether any row has other adjustments (the screen shows their column only then). */
  hasOtherAdjustments: boolean;
  /** Each row's columns add up to its total, and the total net income is the consolidated one. */
  reconciles: boolean;
  /** Segment activity the statement could not place, said in words (an account the engine did not translate at a known rate). */
  warnings: string[];
}

export interface SegmentStatementInput {
  readonly output: ConsolidationOutput;
  /** The engine input's rates (currency → month → rates); only the average is read. */
  readonly rates: Readonly<Record<string, Readonly<Record<string, { readonly average: string }>>>>;
  readonly activity: readonly SegmentActivity[];
}

/** Segment names match across companies by this key: case and runs of spaces aside. */
export const segmentKey = (name: string): string => name.trim().replace(/\s+/g, " ").toLocaleLowerCase("en");

const byName = (a: string, b: string): number => a.localeCompare(b, "en", { sensitivity: "base" }) || (a < b ? -1 : a > b ? 1 : 0);

export function segmentStatement(input: SegmentStatementInput): SegmentStatement {
  const { output, rates, activity } = input;
  const reportingExponent = currencyExponent(output.reportingCurrency);
  const months = new Set(monthList(output.period.from, output.period.to));
  const entities = new Map(output.entities.map((e) => [e.id, e]));
  // The worksheet's revenue and expense accounts: the statement's lines and those eliminated to nothing.
  const plAccounts = new Set(output.worksheet.rows.filter((w) => w.role === "account" && (w.classification === "Revenue" || w.classification === "Expense")).map((w) => w.account));
  const warnings: string[] = [];

  // A subsidiary acquired or disposed of inside the period is consolidated for the months of control
  // only: the engine leaves the others out with an entry of their trial balance (IFRS 10.20, B88).
  // Those entries belong to the company's own columns (its lines for the months of control), not
  // to the eliminations, and its segments count only those months.
  const windows = new Map<string, { from?: string; to?: string }>();
  const controlLines = new Map<string, Map<string, number>>();
  for (const entry of output.eliminations) {
    const subsidiary = String(entry.details["subsidiary"] ?? "");
    const window = windows.get(subsidiary) ?? {};
    if (entry.id.startsWith("pre-acquisition:")) window.from = String(entry.details["firstMonthConsolidated"]);
    else if (entry.id.startsWith("after-disposal:")) window.to = String(entry.details["disposalMonth"]);
    else continue;
    windows.set(subsidiary, window);
    let byAccount = controlLines.get(subsidiary);
    if (!byAccount) controlLines.set(subsidiary, (byAccount = new Map()));
    for (const l of entry.lines) byAccount.set(l.account, (byAccount.get(l.account) ?? 0) + l.amount);
  }
  const controlled = (entity: string, month: string): boolean => {
    const w = windows.get(entity);
    return w === undefined || ((w.from === undefined || month >= w.from) && (w.to === undefined || month <= w.to));
  };

  // Segments: by key, the first spelling met in the entities' order (the parent first) as the column's name.
  const columns = new Map<string, { name: string; members: Map<string, SegmentMember> }>();
  const entityOrder = new Map(output.entities.map((e, i) => [e.id, i]));
  const sorted = [...activity].filter((a) => months.has(a.month) && entities.has(a.entity) && controlled(a.entity, a.month)).sort((a, b) => (entityOrder.get(a.entity)! - entityOrder.get(b.entity)!));
  for (const a of sorted) {
    const key = segmentKey(a.segment);
    let column = columns.get(key);
    if (!column) columns.set(key, (column = { name: a.segment.trim().replace(/\s+/g, " "), members: new Map() }));
    if (!column.members.has(a.entity)) column.members.set(a.entity, { entity: a.entity, entityName: entities.get(a.entity)!.name, name: a.segment });
  }
  const keys = [...columns.keys()].sort((a, b) => byName(columns.get(a)!.name, columns.get(b)!.name));
  const index = new Map(keys.map((k, i) => [k, i]));
  const n = keys.length;

  // Activity by entity → account → segment index → month.
  const byLine = new Map<string, Map<number, Map<string, number>>>();
  for (const a of sorted) {
    const lineKey = `${a.entity}\u0000${a.account}`;
    let segs = byLine.get(lineKey);
    if (!segs) byLine.set(lineKey, (segs = new Map()));
    const i = index.get(segmentKey(a.segment))!;
    let perMonth = segs.get(i);
    if (!perMonth) segs.set(i, (perMonth = new Map()));
    perMonth.set(a.month, (perMonth.get(a.month) ?? 0) + a.amount);
  }

  // Each parent account's companies' translated amounts, debit positive: per segment, and unallocated.
  const rows = new Map<string, { segments: number[]; unallocated: number; companies: number }>();
  const rowOf = (account: string) => {
    let r = rows.get(account);
    if (!r) rows.set(account, (r = { segments: new Array<number>(n).fill(0), unallocated: 0, companies: 0 }));
    return r;
  };
  const factors = new Map<string, Factor>();
  const factorOf = (currency: string, rate: string): Factor => {
    const k = `${currency}|${rate}`;
    let f = factors.get(k);
    if (!f) factors.set(k, (f = translationFactor(parseRate(rate), currencyExponent(currency), reportingExponent)));
    return f;
  };
  for (const e of output.entities) {
    for (const line of e.lines) {
      const target = line.parentAccount;
      if (!plAccounts.has(target)) continue;
      const row = rowOf(target);
      row.companies += line.translated;
      const segs = line.account === null || line.special !== null ? undefined : byLine.get(`${e.id}\u0000${line.account}`);
      if (!segs) {
        row.unallocated += line.translated;
        continue;
      }
      byLine.delete(`${e.id}\u0000${line.account}`);
      const translate = (month: string, amount: number): number | null => {
        if (line.basis === "unchanged") return amount;
        if (line.basis === "historical" && line.rate !== null) return mulDivRound(amount, factorOf(e.currency, line.rate));
        if (line.basis === "average") {
          const average = rates[e.currency]?.[month]?.average;
          return average === undefined ? null : mulDivRound(amount, factorOf(e.currency, average));
        }
        return null;
      };
      let placed = 0;
      for (const [i, perMonth] of segs) {
        let translated = 0;
        let known = true;
        for (const [month, amount] of perMonth) {
          const t = translate(month, amount);
          if (t === null) known = false;
          else translated += t;
        }
        if (!known) {
          warnings.push(`${e.name}'s ${line.name} (${line.basis}) has segment amounts the statement cannot translate at a known rate; they are shown as unallocated.`);
          continue;
        }
        row.segments[i]! += translated;
        placed += translated;
      }
      row.unallocated += line.translated - placed;
    }
  }
  const controlOf = new Map<string, number>();
  for (const byAccount of controlLines.values()) {
    for (const [account, amount] of byAccount) {
      if (!plAccounts.has(account)) continue;
      const row = rowOf(account);
      row.companies += amount;
      row.unallocated += amount;
      controlOf.set(account, (controlOf.get(account) ?? 0) + amount);
    }
  }
  for (const key of byLine.keys()) {
    const [entity, account] = key.split("\u0000") as [string, string];
    warnings.push(`Segment amounts on account ${account} of ${entities.get(entity)?.name ?? entity} are not in the consolidated profit and loss (not a translated revenue or expense line); they are left out.`);
  }

  // The rows: the worksheet's revenue and expense accounts (a line eliminated to nothing included),
  // with its Eliminations and Consolidated columns (debit positive).
  const column = (id: string): number => output.worksheet.columns.findIndex((c) => c.id === id);
  const [eliminationsAt, consolidatedAt] = [column("eliminations"), column("consolidated")];
  let reconciles = true;
  const revenue: SegmentRow[] = [];
  const expenses: SegmentRow[] = [];
  for (const w of output.worksheet.rows) {
    if (!plAccounts.has(w.account)) continue;
    const sign = w.classification === "Revenue" ? -1 : 1;
    const r = rows.get(w.account) ?? { segments: new Array<number>(n).fill(0), unallocated: 0, companies: 0 };
    const total = sign * (consolidatedAt < 0 ? 0 : (w.amounts[consolidatedAt] ?? 0)) || 0;
    const eliminations = sign * ((eliminationsAt < 0 ? 0 : (w.amounts[eliminationsAt] ?? 0)) - (controlOf.get(w.account) ?? 0)) || 0;
    const segments = r.segments.map((v) => sign * v || 0);
    const unallocated = sign * r.unallocated || 0;
    const otherAdjustments = total - sign * r.companies - eliminations || 0;
    if (segments.every((v) => v === 0) && unallocated === 0 && eliminations === 0 && otherAdjustments === 0 && total === 0) continue;
    if (segments.reduce((a, v) => a + v, 0) + unallocated + eliminations + otherAdjustments !== total) reconciles = false;
    (sign === -1 ? revenue : expenses).push({ account: w.account, name: w.name, segments, unallocated, eliminations, otherAdjustments, total });
  }
  // Every line of the consolidated income statement is a row, with its figure.
  for (const [lines, list] of [[output.incomeStatement.revenue, revenue], [output.incomeStatement.expenses, expenses]] as const) {
    for (const l of lines) if (list.find((r) => r.account === l.account)?.total !== l.amount) reconciles = false;
  }
  const net = (pick: (r: SegmentAmounts) => number): number => revenue.reduce((s, r) => s + pick(r), 0) - expenses.reduce((s, r) => s + pick(r), 0);
  const netIncome: SegmentAmounts = {
    segments: keys.map((_, i) => net((r) => r.segments[i]!)),
    unallocated: net((r) => r.unallocated),
    eliminations: net((r) => r.eliminations),
    otherAdjustments: net((r) => r.otherAdjustments),
    total: net((r) => r.total),
  };
  if (netIncome.total !== output.incomeStatement.netIncome) reconciles = false;
  const hasOtherAdjustments = [...revenue, ...expenses].some((r) => r.otherAdjustments !== 0);
  return {
    segments: keys.map((k) => {
      const c = columns.get(k)!;
      return { name: c.name, members: [...c.members.values()] };
    }),
    revenue,
    expenses,
    netIncome,
    hasOtherAdjustments,
    reconciles,
    warnings,
  };
}
