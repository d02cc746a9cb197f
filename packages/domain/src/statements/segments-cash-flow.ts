import type { ConsolidationInput, ConsolidationInputJson } from "../consolidation/input-schema.ts";
import type { ConsolidationOutput } from "../consolidation/output-schema.ts";
import { mulDivRound } from "../money/rate.ts";
import { monthList, shiftMonth } from "../periods/month.ts";
import type { CashFlowClass } from "./cash-flow-classes.ts";
import { type CashFlowLine, cashFlowCategoryOf, type ConsolidatedCashFlow, exchangeEffectOnCash, flowAtAverageRates } from "./cash-flow.ts";
import type { ChangesInEquity, EquityRowKind } from "./changes-in-equity.ts";
import { type SegmentBalanceSheet, type SegmentColumn, type SegmentStatement, segmentColumnsOf, segmentKey, translationFactors } from "./segments.ts";

/**
 * The consolidated statement of cash flows and the statement of changes in equity by segment
 * (issue 23; IAS 7.50(d) and 7.52, IFRS 8.23 and 8.28; ASC 280-10-50-22 and 50-30): one column per
 * class (location) across the group's companies, a column for what no segment carries, the
 * eliminations in their own column and the consolidated figure, which is the existing statement's,
 * to the cent. docs/engine.md, "Segments", gives the rules and their sources.
 *
 * Each segment's figures come from its own balances (each company's closing balance per class at
 * every month-end from the month before the period to its last, in the company's currency) and its
 * profit (the segment P&L), with the consolidated statement's rules, called here rather than
 * restated: the row's place (`cashFlowCategoryOf`: the user's class or the default), a closing-rate
 * line's flow at each month's average rate (`flowAtAverageRates`) and the IAS 7.28 effect on the
 * segment's cash (`exchangeEffectOnCash`, from its cash in each company at that company's rates).
 * A segment's balance sheet does not balance (its equity is the group's: IFRS 8 asks for segment
 * assets and liabilities, not equity), so what the segment's profit and balance movements do not
 * explain of its cash is cash moved between it and the rest of the group: its own line, "net
 * transfers", which the unallocated column carries with the opposite sign (zero for the group).
 * The same figure is the segment's net assets' movement that is neither profit nor translation.
 */

/** A company's balance of one segment on one of its balance-sheet accounts at a month's end, local minor units, debit positive. */
export interface SegmentMonthEnd {
  readonly entity: string;
  readonly account: string;
  readonly segment: string;
  /** "YYYY-MM" */
  readonly month: string;
  readonly amount: number;
}

/** Per segment: its cash flow on each consolidated row, its cash, the effect on it, its net assets and their translation. */
export interface SegmentMovements {
  segments: SegmentColumn[];
  /** Row (parent account) → cash effect per segment (an inflow positive). */
  rows: Map<string, number[]>;
  /** Each of those rows' class. */
  classes: Map<string, Exclude<CashFlowClass, "cash">>;
  openingCash: number[];
  closingCash: number[];
  /** IAS 7.28, per segment: the sum over the companies holding it. */
  exchangeEffect: number[];
  /** Segment assets − liabilities at both ends (credit positive, as equity). */
  openingNetAssets: number[];
  closingNetAssets: number[];
  /** Exchange differences on translating the segment's net assets (its lines' and its cash's), credit positive. */
  translation: number[];
  warnings: string[];
}

export interface SegmentMovementsInput {
  /** The period's engine input (rates, designated accounts, the parent's equity kinds). */
  readonly input: ConsolidationInput;
  /** The group consolidated at the end of the month before the period, and for the period. */
  readonly opening: ConsolidationOutput;
  readonly closing: ConsolidationOutput;
  /** Month-ends from the month before the period to its last; a month not given is zero. */
  readonly balances: readonly SegmentMonthEnd[];
  /** The P&L's segment activity too, so that a segment with profit and no balance has its column. */
  readonly activity?: readonly { readonly entity: string; readonly segment: string }[];
  readonly classOf: (account: string) => CashFlowClass | undefined;
}

export function segmentMovements({ input, opening, closing, balances, activity = [], classOf }: SegmentMovementsInput): SegmentMovements {
  const { from, to } = closing.period;
  const before = shiftMonth(from, -1);
  const months = monthList(before, to);
  const inRange = balances.filter((b) => b.month >= before && b.month <= to && b.amount !== 0);
  const { segments, index } = segmentColumnsOf(closing, [...activity, ...inRange]);
  const n = segments.length;
  const zeros = () => new Array<number>(n).fill(0);
  const categoryOf = cashFlowCategoryOf(input, classOf);
  const rowsByAccount = new Map(closing.worksheet.rows.map((r) => [r.account, r]));
  const reportingExponent = closing.exponent;
  const warnings: string[] = [];

  // entity → account → segment index → month-end series (local).
  const series = new Map<string, Map<string, Map<number, number[]>>>();
  for (const b of inRange) {
    const i = index.get(segmentKey(b.segment));
    if (i === undefined) continue;
    let accounts = series.get(b.entity);
    if (!accounts) series.set(b.entity, (accounts = new Map()));
    let bySegment = accounts.get(b.account);
    if (!bySegment) accounts.set(b.account, (bySegment = new Map()));
    let amounts = bySegment.get(i);
    if (!amounts) bySegment.set(i, (amounts = new Array<number>(months.length).fill(0)));
    amounts[months.indexOf(b.month)]! += b.amount;
  }

  const result: SegmentMovements = {
    segments,
    rows: new Map(),
    classes: new Map(),
    openingCash: zeros(),
    closingCash: zeros(),
    exchangeEffect: zeros(),
    openingNetAssets: zeros(),
    closingNetAssets: zeros(),
    translation: zeros(),
    warnings,
  };
  const factorOf = translationFactors(reportingExponent);
  for (const e of closing.entities) {
    const accounts = series.get(e.id);
    if (!accounts) continue;
    const lines = new Map(e.lines.filter((l) => l.account !== null && l.special === null).map((l) => [l.account!, l]));
    const openingEntity = opening.entities.find((x) => x.id === e.id);
    const openLines = new Map((openingEntity?.lines ?? []).filter((l) => l.account !== null).map((l) => [l.account!, l]));
    // Per segment, this company's share of its cash (IAS 7.28 is per currency: the effect is summed over companies).
    const cash = new Map<number, { open: number; close: number; openAtClosingRate: number; flow: number }>();
    for (const [account, bySegment] of accounts) {
      const line = lines.get(account);
      const row = line ? rowsByAccount.get(line.parentAccount) : undefined;
      if (!line || !row) {
        warnings.push(`Segment balances on account ${account} of ${e.name} are not on a translated balance-sheet line of the consolidation; they are in the unallocated column.`);
        continue;
      }
      const category = categoryOf(row.account, row.classification, row.role);
      // Equity is not split (as on the balance sheet by segment): only assets and liabilities are a segment's.
      if (category.kind !== "class" || (row.classification !== "Asset" && row.classification !== "Liability")) continue;
      const was = openLines.get(account);
      const rateAt = (when: "open" | "close"): string | null | undefined => {
        if (line.basis === "unchanged") return null;
        if (line.basis === "historical") return (when === "open" ? was?.rate : undefined) ?? line.rate ?? undefined;
        if (line.basis === "closing") return when === "open" ? (was?.rate ?? input.rates[e.currency]?.[before]?.closing) : (line.rate ?? input.rates[e.currency]?.[to]?.closing);
        return undefined;
      };
      const [openRate, closeRate] = [rateAt("open"), rateAt("close")];
      if (openRate === undefined || closeRate === undefined) {
        warnings.push(`${e.name}'s ${line.name} (${line.basis}) has segment balances the statement cannot translate at a known rate; they are in the unallocated column.`);
        continue;
      }
      const translate = (local: number, rate: string | null) => (rate === null ? local : mulDivRound(local, factorOf(e.currency, rate)));
      for (const [i, amounts] of bySegment) {
        // A company not consolidated at the opening (acquired in the period) opens at nothing.
        if (!openingEntity) amounts[0] = 0;
        const openLocal = amounts[0]!;
        const closeLocal = amounts[amounts.length - 1]!;
        const open = translate(openLocal, openRate);
        const close = translate(closeLocal, closeRate);
        // The flow as the consolidated statement translates it: a closing-rate line's at each month's average.
        const flow = line.basis === "closing" ? flowAtAverageRates(input, months, e.currency, { from: months[0]!, amounts }, reportingExponent) : close - open;
        result.openingNetAssets[i]! += open;
        result.closingNetAssets[i]! += close;
        if (category.cls === "cash") {
          const c = cash.get(i) ?? { open: 0, close: 0, openAtClosingRate: 0, flow: 0 };
          cash.set(i, { open: c.open + open, close: c.close + close, openAtClosingRate: c.openAtClosingRate + translate(openLocal, closeRate), flow: c.flow + flow });
          continue;
        }
        let perSegment = result.rows.get(row.account);
        if (!perSegment) result.rows.set(row.account, (perSegment = zeros()));
        result.classes.set(row.account, category.cls);
        perSegment[i]! -= flow;
        result.translation[i]! += close - open - flow;
      }
    }
    for (const [i, c] of cash) {
      const { total } = exchangeEffectOnCash(c, c.flow);
      result.openingCash[i]! += c.open;
      result.closingCash[i]! += c.close;
      result.exchangeEffect[i]! += total;
      result.translation[i]! += total;
    }
  }
  return result;
}

/**
 * The group's engine input without its intra-group eliminations and group entries (intercompany
 * pairs, unrealised profit, dividends, manual entries): what the companies' own cash flows add up
 * to. The investments stay (consolidation itself, with the non-controlling interests), so the
 * Eliminations column of a statement by segment is the consolidated statement less this one's.
 */
export function withoutIntraGroupEliminations(json: ConsolidationInputJson): ConsolidationInputJson {
  const kept = json.eliminations ?? {};
  return { ...json, eliminations: { ...kept, intercompany: [], manual: [], unrealisedProfit: [], dividends: [] } };
}

export interface SegmentCashAmounts {
  /** One per segment column, in `segments` order. */
  segments: number[];
  /** What no segment carries: untagged balances, equity flows, consolidation's own amounts, and the segments' net transfers with the opposite sign. */
  unallocated: number;
  /** The consolidated statement less the companies' own (intra-group flows and entries). */
  eliminations: number;
  /** The consolidated statement's figure. */
  total: number;
}
export interface SegmentCashFlowRow extends SegmentCashAmounts {
  account: string;
  name: string;
}

export interface SegmentCashFlow {
  segments: SegmentColumn[];
  operating: { profit: SegmentCashAmounts; adjustments: SegmentCashFlowRow[]; workingCapital: SegmentCashFlowRow[]; total: SegmentCashAmounts };
  investing: { lines: SegmentCashFlowRow[]; total: SegmentCashAmounts };
  /** The segments' net transfers with the rest of the group included (`SEGMENT_TRANSFERS`). */
  financing: { lines: SegmentCashFlowRow[]; total: SegmentCashAmounts };
  netCashFlow: SegmentCashAmounts;
  exchangeEffect: SegmentCashAmounts;
  openingCash: SegmentCashAmounts;
  closingCash: SegmentCashAmounts;
  /** Per column: closing cash − (opening cash + net cash flow + the effect); zero when the column reconciles. */
  difference: SegmentCashAmounts;
  /** Every column reconciles opening to closing cash and the total column is the consolidated statement's. */
  reconciles: boolean;
  warnings: string[];
}

/** The row of a segment's cash moved to or from the rest of the group. */
export const SEGMENT_TRANSFERS = "(segment transfers)";

type Section = "adjustments" | "workingCapital" | "investing" | "financing";
const SECTION_OF: Record<Exclude<CashFlowClass, "cash">, Section> = { operating: "workingCapital", nonCash: "adjustments", investing: "investing", financing: "financing" };

/** A segment's P&L figures in the columns of `segments` (matched by name). */
function bySegmentName(segments: readonly SegmentColumn[], from: readonly SegmentColumn[], amounts: readonly number[]): number[] {
  const at = new Map(from.map((c, i) => [segmentKey(c.name), amounts[i] ?? 0]));
  return segments.map((c) => at.get(segmentKey(c.name)) ?? 0);
}

export interface SegmentCashFlowInput {
  readonly movements: SegmentMovements;
  /** The segment P&L of the period (its net income per segment is each segment's profit). */
  readonly profit: SegmentStatement;
  /** The consolidated statement of cash flows (`consolidatedCashFlow`): the total column. */
  readonly total: ConsolidatedCashFlow;
  /** The same statement of the group without its intra-group eliminations (`withoutIntraGroupEliminations`). */
  readonly companies: ConsolidatedCashFlow;
  /** The worksheet, for the names of rows only the segments have. */
  readonly closing: ConsolidationOutput;
}

export function segmentCashFlow({ movements, profit, total, companies, closing }: SegmentCashFlowInput): SegmentCashFlow {
  const { segments } = movements;
  const n = segments.length;
  const amounts = (seg: readonly number[], companiesFigure: number, totalFigure: number): SegmentCashAmounts => {
    const segs = seg.map((v) => v || 0);
    return { segments: segs, unallocated: companiesFigure - segs.reduce((s, v) => s + v, 0) || 0, eliminations: totalFigure - companiesFigure || 0, total: totalFigure };
  };
  const sum = (list: readonly SegmentCashAmounts[]): SegmentCashAmounts => ({
    segments: segments.map((_, i) => list.reduce((s, a) => s + a.segments[i]!, 0)),
    unallocated: list.reduce((s, a) => s + a.unallocated, 0),
    eliminations: list.reduce((s, a) => s + a.eliminations, 0),
    total: list.reduce((s, a) => s + a.total, 0),
  });

  // The rows: the consolidated statement's, then those only the companies' statement or a segment has.
  const sectionLines = (cf: ConsolidatedCashFlow): [Section, CashFlowLine][] => [
    ...cf.operating.adjustments.map((l) => ["adjustments", l] as [Section, CashFlowLine]),
    ...cf.operating.workingCapital.map((l) => ["workingCapital", l] as [Section, CashFlowLine]),
    ...cf.investing.lines.map((l) => ["investing", l] as [Section, CashFlowLine]),
    ...cf.financing.lines.map((l) => ["financing", l] as [Section, CashFlowLine]),
  ];
  const keyOf = (section: Section, account: string) => `${section}\u0000${account}`;
  const order: { section: Section; account: string; name: string }[] = [];
  const seen = new Set<string>();
  const add = (section: Section, account: string, name: string) => {
    if (seen.has(keyOf(section, account))) return;
    seen.add(keyOf(section, account));
    order.push({ section, account, name });
  };
  const figures = (cf: ConsolidatedCashFlow) => new Map(sectionLines(cf).map(([section, l]) => [keyOf(section, l.account), l.amount]));
  const [totalOf, companiesOf] = [figures(total), figures(companies)];
  for (const [section, l] of [...sectionLines(total), ...sectionLines(companies)]) add(section, l.account, l.name);
  // A segment's row has the section its class gives; the movements only hold rows of a class.
  const classOfRow = new Map<string, Section>();
  for (const [section, l] of [...sectionLines(total), ...sectionLines(companies)]) classOfRow.set(l.account, section);
  const worksheetRows = new Map(closing.worksheet.rows.map((r) => [r.account, r]));
  const segmentRows = new Map<string, number[]>();
  for (const [account, perSegment] of movements.rows) {
    const section = classOfRow.get(account) ?? SECTION_OF[movements.classes.get(account) ?? "operating"];
    segmentRows.set(keyOf(section, account), perSegment);
    add(section, account, worksheetRows.get(account)?.name ?? account);
  }
  const zeros = new Array<number>(n).fill(0);
  const lists: Record<Section, SegmentCashFlowRow[]> = { adjustments: [], workingCapital: [], investing: [], financing: [] };
  for (const { section, account, name } of order) {
    const k = keyOf(section, account);
    const row = { account, name, ...amounts(segmentRows.get(k) ?? zeros, companiesOf.get(k) ?? 0, totalOf.get(k) ?? 0) };
    if (row.segments.every((v) => v === 0) && row.unallocated === 0 && row.eliminations === 0 && row.total === 0) continue;
    lists[section].push(row);
  }

  const profitRow = amounts(bySegmentName(segments, profit.segments, profit.netIncome.segments), companies.operating.profit, total.operating.profit);
  const openingCash = amounts(movements.openingCash, companies.openingCash, total.openingCash);
  const closingCash = amounts(movements.closingCash, companies.closingCash, total.closingCash);
  const exchangeEffect = amounts(movements.exchangeEffect, companies.exchangeEffect.total, total.exchangeEffect.total);
  // What the segment's profit and balances do not explain of its cash: moved to or from the rest of the group.
  const explained = sum([profitRow, ...Object.values(lists).flat()]);
  const transfers = segments.map((_, i) => closingCash.segments[i]! - openingCash.segments[i]! - exchangeEffect.segments[i]! - explained.segments[i]!);
  if (transfers.some((v) => v !== 0)) lists.financing.push({ account: SEGMENT_TRANSFERS, name: "Net transfers from (to) the rest of the group", ...amounts(transfers, 0, 0) });

  const operatingTotal = sum([profitRow, ...lists.adjustments, ...lists.workingCapital]);
  const investingTotal = sum(lists.investing);
  const financingTotal = sum(lists.financing);
  const netCashFlow = sum([operatingTotal, investingTotal, financingTotal]);
  const computed = sum([openingCash, netCashFlow, exchangeEffect]);
  const difference: SegmentCashAmounts = {
    segments: segments.map((_, i) => closingCash.segments[i]! - computed.segments[i]!),
    unallocated: closingCash.unallocated - computed.unallocated,
    eliminations: closingCash.eliminations - computed.eliminations,
    total: closingCash.total - computed.total,
  };
  const reconciles =
    difference.segments.every((v) => v === 0) &&
    difference.unallocated === 0 &&
    difference.eliminations === 0 &&
    difference.total === 0 &&
    netCashFlow.total === total.netCashFlow &&
    operatingTotal.total === total.operating.total &&
    investingTotal.total === total.investing.total &&
    financingTotal.total === total.financing.total;
  return {
    segments,
    operating: { profit: profitRow, adjustments: lists.adjustments, workingCapital: lists.workingCapital, total: operatingTotal },
    investing: { lines: lists.investing, total: investingTotal },
    financing: { lines: lists.financing, total: financingTotal },
    netCashFlow,
    exchangeEffect,
    openingCash,
    closingCash,
    difference,
    reconciles,
    warnings: [...movements.warnings],
  };
}

export type SegmentEquityRowKind = "opening" | "profit" | "otherComprehensiveIncome" | "transactionsWithOwners" | "transfers" | "closing";

export interface SegmentEquityRow extends SegmentCashAmounts {
  kind: SegmentEquityRowKind;
  label: string;
}

export interface SegmentChangesInEquity {
  segments: SegmentColumn[];
  openingMonth: string;
  /** Opening, the movements, closing; credit positive. */
  rows: SegmentEquityRow[];
  /** The consolidated statement's own check: its closing against the balance sheet (total equity). */
  balanceSheetDifference: number;
  /** Every row adds up to its total, each column's closing is its opening and movements, the total column is the statement's, and the statement reconciles. */
  reconciles: boolean;
}

export interface SegmentChangesInEquityInput {
  /** The consolidated statement of changes in equity (`changesInEquity`): the total column. */
  readonly statement: ChangesInEquity;
  readonly movements: SegmentMovements;
  readonly profit: SegmentStatement;
  /** The balance sheet by segment at the opening month-end (of the statement's opening consolidation) and at the period's end: their eliminations. */
  readonly openingSheet: SegmentBalanceSheet;
  readonly closingSheet: SegmentBalanceSheet;
}

const OWNER_KINDS: readonly EquityRowKind[] = ["dividends", "shareIssues", "acquisitions", "ownershipChanges", "disposals"];

/**
 * Changes in equity by segment (IFRS 8.23, 8.28(b)-(d); ASC 280-10-50-30): a segment has no equity
 * of its own, so its column is its net assets (segment assets − segment liabilities, as on the
 * balance sheet by segment) rolled from the period's start to its end by its profit (the segment
 * P&L), the exchange differences on translating them (OCI: its lines' translation differences and
 * the IAS 7.28 effect on its cash) and the net transfers with the rest of the group (the segment
 * cash flow's line of that name). Transactions with owners (dividends, share issues, NCI) are the
 * group's: unallocated. The Eliminations column rolls the eliminations' net assets (the balance
 * sheet by segment's Eliminations column) by the P&L's eliminations; the unallocated column is
 * the consolidated statement's total less the segments and the eliminations, row by row.
 */
export function segmentChangesInEquity({ statement, movements, profit, openingSheet, closingSheet }: SegmentChangesInEquityInput): SegmentChangesInEquity {
  const { segments } = movements;
  const row = (kind: EquityRowKind) => statement.rows.find((r) => r.kind === kind)?.amounts.total ?? 0;
  const netAssets = (s: SegmentBalanceSheet) => s.totalAssets.eliminations - s.totalLiabilities.eliminations;
  const segmentProfit = bySegmentName(segments, profit.segments, profit.netIncome.segments);
  const transfers = segments.map((_, i) => movements.closingNetAssets[i]! - movements.openingNetAssets[i]! - segmentProfit[i]! - movements.translation[i]!);
  const eliminationsTransfers = netAssets(closingSheet) - netAssets(openingSheet) - profit.netIncome.eliminations;
  const make = (kind: SegmentEquityRowKind, label: string, segs: readonly number[], eliminations: number, total: number): SegmentEquityRow => ({
    kind,
    label,
    segments: segs.map((v) => v || 0),
    unallocated: total - segs.reduce((s, v) => s + v, 0) - eliminations || 0,
    eliminations: eliminations || 0,
    total,
  });
  const none = segments.map(() => 0);
  const rows = [
    make("opening", `Net assets at ${statement.openingMonth} (equity in the total)`, movements.openingNetAssets, netAssets(openingSheet), row("opening")),
    make("profit", "Profit for the period", segmentProfit, profit.netIncome.eliminations, row("profit")),
    make("otherComprehensiveIncome", "Exchange differences on translation and other comprehensive income", movements.translation, 0, row("translation") + row("otherComprehensiveIncome")),
    make("transactionsWithOwners", "Transactions with owners (dividends, share issues, non-controlling interests)", none, 0, OWNER_KINDS.reduce((s, k) => s + row(k), 0)),
    make("transfers", "Net transfers from (to) the rest of the group", transfers, eliminationsTransfers, 0),
    make("closing", `Net assets at ${statement.period.to} (equity in the total)`, movements.closingNetAssets, netAssets(closingSheet), row("closing")),
  ];
  const closingRow = rows[rows.length - 1]!;
  const movementsOf = rows.slice(0, -1);
  const columnsAdd =
    segments.every((_, i) => movementsOf.reduce((s, r) => s + r.segments[i]!, 0) === closingRow.segments[i]) &&
    movementsOf.reduce((s, r) => s + r.unallocated, 0) === closingRow.unallocated &&
    movementsOf.reduce((s, r) => s + r.eliminations, 0) === closingRow.eliminations &&
    movementsOf.reduce((s, r) => s + r.total, 0) === closingRow.total;
  return { segments, openingMonth: statement.openingMonth, rows, balanceSheetDifference: statement.difference.amounts.total, reconciles: columnsAdd && statement.reconciles };
}
