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

/**
 * The segment columns of a statement (every statement by segment asks here): by key, the first spelling met in the entities' order (the
 * parent first) as the column's name, sorted by name; `sorted` is the amounts in entity order.
 */
export function segmentColumnsOf<T extends { readonly entity: string; readonly segment: string }>(output: ConsolidationOutput, amounts: readonly T[]) {
  const entities = new Map(output.entities.map((e) => [e.id, e]));
  const columns = new Map<string, { name: string; members: Map<string, SegmentMember> }>();
  const entityOrder = new Map(output.entities.map((e, i) => [e.id, i]));
  const sorted = amounts.filter((a) => entities.has(a.entity)).sort((a, b) => entityOrder.get(a.entity)! - entityOrder.get(b.entity)!);
  for (const a of sorted) {
    const key = segmentKey(a.segment);
    let column = columns.get(key);
    if (!column) columns.set(key, (column = { name: a.segment.trim().replace(/\s+/g, " "), members: new Map() }));
    if (!column.members.has(a.entity)) column.members.set(a.entity, { entity: a.entity, entityName: entities.get(a.entity)!.name, name: a.segment });
  }
  const keys = [...columns.keys()].sort((a, b) => byName(columns.get(a)!.name, columns.get(b)!.name));
  const index = new Map(keys.map((k, i) => [k, i]));
  const segments: SegmentColumn[] = keys.map((k) => {
    const c = columns.get(k)!;
    return { name: c.name, members: [...c.members.values()] };
  });
  return { sorted, columns, keys, index, segments };
}

/** A rate's translation factor from a currency into the reporting currency, each made once (rate text parsed once). */
export function translationFactors(reportingExponent: number): (currency: string, rate: string) => Factor {
  const factors = new Map<string, Factor>();
  return (currency, rate) => {
    const k = `${currency}|${rate}`;
    let f = factors.get(k);
    if (!f) factors.set(k, (f = translationFactor(parseRate(rate), currencyExponent(currency), reportingExponent)));
    return f;
  };
}

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

  const { sorted, columns, keys, index } = segmentColumnsOf(output, activity.filter((a) => months.has(a.month) && entities.has(a.entity) && controlled(a.entity, a.month)));
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
  const factorOf = translationFactors(reportingExponent);
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

/**
 * The consolidated balance sheet by segment, as at the period's end (IFRS 8.23 and 8.28(c)-(d):
 * segment assets and liabilities, reconciled to the entity's; ASC 280-10-50-22, 50-25 and
 * 50-30(c)-(d)). Built from the same consolidation as the statement (its worksheet, at the
 * period end) and each company's closing balance per class (location) on its balance-sheet
 * accounts at the end of the period's last month, in its own currency:
 * - Assets and liabilities: a segment's closing balance of a company's account is translated at
 *   the rate the engine translated that account at (the closing rate under the current-rate
 *   method; the line's historical rate under the temporal method; unchanged in the reporting
 *   currency), so a segment's figure is what its own balances translate to. No class holds the
 *   company's line less its segments' (untagged balances and the segments' rounding, under half a
 *   minor unit per segment and account).
 * - Equity is not split: a company's equity is translated at historical rates and retained
 *   earnings rolled forward at average rates (IAS 21.39-41), and a class's share of share capital,
 *   retained earnings or the translation reserve has no meaning a segment manager answers for
 *   (neither IFRS 8 nor ASC 280 asks for segment equity). The companies' equity lines, and the
 *   period's profit attributable to the parent, are wholly in No class.
 * - Eliminations: the engine's intra-group entries on the line (receivables and payables,
 *   revenue and expense, unrealised profit, dividends, manual group entries).
 * - Group: what consolidation adds that belongs to no company's books and no intra-group
 *   elimination: the investment's elimination against the subsidiary's equity at acquisition,
 *   goodwill, ownership changes, disposals and pre-acquisition months (their entries), the
 *   non-controlling interests (the worksheet's NCI column) and anything else that separates the
 *   consolidated line from the companies' and the eliminations.
 *
 * Every row then holds: Σ segments + unallocated + eliminations + group = total = the
 * consolidated balance sheet's figure, and total assets = total liabilities + equity (NCI
 * included) in the total column.
 */

/** One company's closing balance of one segment on one of its balance-sheet accounts at the period's end, local minor units, debit positive. */
export interface SegmentClosingBalance {
  readonly entity: string;
  readonly account: string;
  readonly segment: string;
  readonly amount: number;
}

export interface SegmentBalanceAmounts {
  /** One per segment column, in `segments` order. */
  segments: number[];
  unallocated: number;
  eliminations: number;
  group: number;
  /** The consolidated figure. */
  total: number;
}

export interface SegmentBalanceRow extends SegmentBalanceAmounts {
  account: string;
  name: string;
}

export interface SegmentBalanceSheet {
  segments: SegmentColumn[];
  /** The period's last month, "YYYY-MM": the balances are at its end. */
  asAt: string;
  /** Debit positive. */
  assets: SegmentBalanceRow[];
  /** Credit positive. */
  liabilities: SegmentBalanceRow[];
  /** Credit positive; non-controlling interests and the period's profit attributable to the parent included. */
  equity: SegmentBalanceRow[];
  totalAssets: SegmentBalanceAmounts;
  totalLiabilities: SegmentBalanceAmounts;
  totalEquity: SegmentBalanceAmounts;
  totalLiabilitiesAndEquity: SegmentBalanceAmounts;
  /** Every row adds up to its total, each total is the consolidated balance sheet's, and it balances. */
  reconciles: boolean;
  warnings: string[];
}

/** Entries of consolidation itself rather than intra-group eliminations: shown in the Group column. */
const GROUP_KINDS: ReadonlySet<string> = new Set(["investment", "preAcquisition", "disposal", "ownershipChange"]);

export function segmentBalanceSheet(input: { readonly output: ConsolidationOutput; readonly balances: readonly SegmentClosingBalance[] }): SegmentBalanceSheet {
  const { output } = input;
  const reportingExponent = currencyExponent(output.reportingCurrency);
  const classes = new Map(output.worksheet.rows.filter((w) => w.role === "account").map((w) => [w.account, w.classification]));
  const splittable = (account: string) => classes.get(account) === "Asset" || classes.get(account) === "Liability";
  const warnings: string[] = [];
  const { sorted, index, segments } = segmentColumnsOf(output, input.balances.filter((b) => b.amount !== 0));
  const n = segments.length;
  const entityName = new Map(output.entities.map((e) => [e.id, e.name]));

  const byLine = new Map<string, Map<number, number>>();
  for (const b of sorted) {
    const lineKey = `${b.entity}\u0000${b.account}`;
    let segs = byLine.get(lineKey);
    if (!segs) byLine.set(lineKey, (segs = new Map()));
    const i = index.get(segmentKey(b.segment))!;
    segs.set(i, (segs.get(i) ?? 0) + b.amount);
  }

  const rows = new Map<string, { segments: number[]; unallocated: number; companies: number }>();
  const rowOf = (account: string) => {
    let r = rows.get(account);
    if (!r) rows.set(account, (r = { segments: new Array<number>(n).fill(0), unallocated: 0, companies: 0 }));
    return r;
  };
  for (const e of output.entities) {
    for (const line of e.lines) {
      const target = line.parentAccount;
      if (!classes.has(target) || !["Asset", "Liability", "Equity"].includes(classes.get(target)!)) continue;
      const row = rowOf(target);
      row.companies += line.translated;
      const lineKey = `${e.id}\u0000${line.account}`;
      const segs = line.account === null || line.special !== null ? undefined : byLine.get(lineKey);
      if (!segs) {
        row.unallocated += line.translated;
        continue;
      }
      byLine.delete(lineKey);
      if (!splittable(target)) {
        row.unallocated += line.translated;
        continue;
      }
      const factor =
        line.basis === "unchanged" ? null : (line.basis === "closing" || line.basis === "historical") && line.rate !== null ? translationFactor(parseRate(line.rate), currencyExponent(e.currency), reportingExponent) : undefined;
      if (factor === undefined) {
        warnings.push(`${e.name}'s ${line.name} (${line.basis}) has segment balances the statement cannot translate at a known rate; they are shown in the No class column.`);
        row.unallocated += line.translated;
        continue;
      }
      let placed = 0;
      for (const [i, amount] of segs) {
        const translated = factor === null ? amount : mulDivRound(amount, factor);
        row.segments[i]! += translated;
        placed += translated;
      }
      row.unallocated += line.translated - placed;
    }
  }
  for (const key of byLine.keys()) {
    const [entity, account] = key.split("\u0000") as [string, string];
    warnings.push(`Segment balances on account ${account} of ${entityName.get(entity) ?? entity} are not on a translated balance-sheet line of the consolidation; they are left out.`);
  }
  // The consolidation's own entries per row (debit positive).
  const groupEntries = new Map<string, number>();
  for (const entry of output.eliminations) {
    if (!GROUP_KINDS.has(entry.kind)) continue;
    for (const l of entry.lines) groupEntries.set(l.account, (groupEntries.get(l.account) ?? 0) + l.amount);
  }

  const column = (id: string): number => output.worksheet.columns.findIndex((c) => c.id === id);
  const [eliminationsAt, consolidatedAt] = [column("eliminations"), column("consolidated")];
  const at = (amounts: readonly number[], i: number): number => (i < 0 ? 0 : (amounts[i] ?? 0));
  let reconciles = true;
  const assets: SegmentBalanceRow[] = [];
  const liabilities: SegmentBalanceRow[] = [];
  const equity: SegmentBalanceRow[] = [];
  for (const w of output.worksheet.rows) {
    if (w.role !== "account" || !["Asset", "Liability", "Equity"].includes(w.classification)) continue;
    const sign = w.classification === "Asset" ? 1 : -1;
    const r = rows.get(w.account) ?? { segments: new Array<number>(n).fill(0), unallocated: 0, companies: 0 };
    const total = sign * at(w.amounts, consolidatedAt) || 0;
    const own = groupEntries.get(w.account) ?? 0;
    const eliminations = sign * (at(w.amounts, eliminationsAt) - own) || 0;
    const segs = r.segments.map((v) => sign * v || 0);
    const unallocated = sign * r.unallocated || 0;
    const group = total - sign * r.companies - eliminations || 0;
    if (segs.every((v) => v === 0) && unallocated === 0 && eliminations === 0 && group === 0 && total === 0) continue;
    if (segs.reduce((a, v) => a + v, 0) + unallocated + eliminations + group !== total) reconciles = false;
    (w.classification === "Asset" ? assets : w.classification === "Liability" ? liabilities : equity).push({ account: w.account, name: w.name, segments: segs, unallocated, eliminations, group, total });
  }
  // The period's profit attributable to the parent: the engine's figure, not split (equity).
  const bs = output.balanceSheet;
  const periodProfit = bs.equity.find((l) => l.account === "(period profit)");
  if (periodProfit && periodProfit.amount !== 0) equity.push({ account: periodProfit.account, name: periodProfit.name, segments: new Array<number>(n).fill(0), unallocated: periodProfit.amount, eliminations: 0, group: 0, total: periodProfit.amount });

  const totalOf = (list: readonly SegmentBalanceAmounts[]): SegmentBalanceAmounts => ({
    segments: segments.map((_, i) => list.reduce((s, r) => s + r.segments[i]!, 0)),
    unallocated: list.reduce((s, r) => s + r.unallocated, 0),
    eliminations: list.reduce((s, r) => s + r.eliminations, 0),
    group: list.reduce((s, r) => s + r.group, 0),
    total: list.reduce((s, r) => s + r.total, 0),
  });
  const totalAssets = totalOf(assets);
  const totalLiabilities = totalOf(liabilities);
  const totalEquity = totalOf(equity);
  const totalLiabilitiesAndEquity = totalOf([totalLiabilities, totalEquity]);
  // Each line of the consolidated balance sheet is a row with its figure, and the totals are its totals.
  for (const [lines, list] of [[bs.assets, assets], [bs.liabilities, liabilities], [bs.equity, equity]] as const) {
    // (A nil period profit is on the balance sheet's list but not a row.)
    for (const l of lines) if ((list.find((r) => r.account === l.account)?.total ?? 0) !== l.amount) reconciles = false;
  }
  if (totalAssets.total !== bs.totalAssets || totalLiabilities.total !== bs.totalLiabilities || totalEquity.total !== bs.totalEquity + bs.nonControllingInterests) reconciles = false;
  if (totalAssets.total !== totalLiabilitiesAndEquity.total) reconciles = false;
  return { segments, asAt: output.period.to, assets, liabilities, equity, totalAssets, totalLiabilities, totalEquity, totalLiabilitiesAndEquity, reconciles, warnings };
}
