import type { ConsolidationOutput } from "../consolidation/output-schema.ts";
import { formatAmount } from "../money/format.ts";
import { monthSpan, monthTextLabel } from "../periods/month-label.ts";
import { monthList } from "../periods/month.ts";
import type { ConsolidatedCashFlow } from "./cash-flow.ts";
import { EQUITY_COLUMN_LABELS, EQUITY_COLUMNS, type ChangesInEquity, type EquityColumn } from "./changes-in-equity.ts";

/**
 * The board pack (issue 23): what goes on each page of the PDF and of the printable page, built
 * once from the statements the engine already gave, as text. The server draws this layout into a
 * PDF and the web shows the same object, so both carry the same figures as the same strings.
 *
 * Amounts are formatted here, from integer minor units (`formatAmount`, en-US: "$1,234.56",
 * credits in parentheses), never recomputed: every total is the engine's or a sum of the shown
 * lines in integers. Names that come from QuickBooks go in as text: control characters become
 * spaces and a name longer than `LABEL_MAX` is cut with an ellipsis (the PDF wraps what is left).
 */

export const BOARD_PACK_LOCALE = "en-US";
/** The longest label kept whole; QuickBooks allows 100-character account names and longer customer names. */
export const LABEL_MAX = 80;

export type BoardPackRowKind = "heading" | "line" | "subtotal" | "total";
export interface BoardPackRow {
  kind: BoardPackRowKind;
  label: string;
  /** One per column after the label column: formatted amounts (or text, for the rates). Empty for a heading. */
  cells: string[];
}
export interface BoardPackTable {
  caption: string;
  /** Column headings; the first is the label column's. */
  columns: string[];
  rows: BoardPackRow[];
}
/** A grouped bar chart: one group per figure, one bar per period. Values are minor units, used only for the bars' lengths. */
export interface BoardPackChart {
  title: string;
  series: string[];
  groups: { label: string; values: number[]; texts: string[] }[];
}
export const BOARD_PACK_SECTIONS = ["balance-sheet", "income-statement", "chart", "cash-flow", "equity", "fx-rates", "cta"] as const;
export type BoardPackSectionId = (typeof BOARD_PACK_SECTIONS)[number];
export interface BoardPackSection {
  id: BoardPackSectionId;
  title: string;
  intro: string;
  tables: BoardPackTable[];
  chart: BoardPackChart | null;
  /** Sentences under the tables: a reconciliation, or why a statement is missing. */
  notes: string[];
}
export interface BoardPack {
  groupName: string;
  period: { from: string; to: string; label: string };
  currency: string;
  generatedAt: string;
  sections: BoardPackSection[];
}

type BalanceSheet = ConsolidationOutput["balanceSheet"];
type IncomeStatement = ConsolidationOutput["incomeStatement"];
type CtaMonth = ConsolidationOutput["entities"][number]["ctaExplanation"]["months"][number];
type CtaParts = ConsolidationOutput["entities"][number]["ctaExplanation"]["total"];

export interface BoardPackInput {
  groupName: string;
  period: { from: string; to: string };
  currency: string;
  balanceSheet: BalanceSheet;
  incomeStatement: IncomeStatement;
  /** The comparison column (prior period or prior year), when asked for and computable. */
  comparison: { period: { from: string; to: string }; balanceSheet: BalanceSheet; incomeStatement: IncomeStatement } | null;
  /** Null with the reason when the statement cannot be computed for the period. */
  cashFlow: ConsolidatedCashFlow | { missing: string };
  equity: Pick<ChangesInEquity, "rows" | "balanceSheet" | "difference" | "reconciles"> | { missing: string };
  /** The rates the consolidation used: per foreign currency and month of the period, exact decimal text. */
  rates: { currency: string; month: string; average: string; closing: string }[];
  /** Each translated subsidiary's CTA explanation over the period (current-rate method). */
  cta: { name: string; currency: string; months: CtaMonth[]; total: CtaParts }[];
  generatedAt: string;
}

/** A QuickBooks name as text on a page: no control characters, at most LABEL_MAX characters. */
export function cleanLabel(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
  const chars = [...flat];
  return chars.length <= LABEL_MAX ? flat : `${chars.slice(0, LABEL_MAX - 1).join("").trimEnd()}…`;
}

export function boardPackLayout(input: BoardPackInput): BoardPack {
  const money = (minor: number) => formatAmount(minor, input.currency, { locale: BOARD_PACK_LOCALE });
  const label = spanLabel(input.period);
  const c = input.comparison && { ...input.comparison, label: spanLabel(input.comparison.period) };
  const columns = c ? ["", label, c.label] : ["", label];
  const sections: BoardPackSection[] = [
    balanceSheetSection(input.balanceSheet, c?.balanceSheet ?? null, columns, money),
    incomeStatementSection(input.incomeStatement, c?.incomeStatement ?? null, columns, money),
    chartSection(input, label, c?.label ?? null, money),
    cashFlowSection(input.cashFlow, label, money),
    equitySection(input.equity, money),
    ratesSection(input.rates, input.currency),
    ctaSection(input.cta, input.currency, money),
  ];
  return { groupName: cleanLabel(input.groupName), period: { ...input.period, label }, currency: input.currency, generatedAt: input.generatedAt, sections };
}

type Money = (minor: number) => string;
/** "March 2026", "January 2026 to March 2026". */
const spanLabel = (p: { from: string; to: string }) => monthSpan(monthList(p.from, p.to));
interface Line {
  account: string;
  name: string;
  amount: number;
}

/** The period's lines in order, then those only the comparison has (as the screen's statements). */
function linesWith(current: readonly Line[], prior: readonly Line[] | null, money: Money): BoardPackRow[] {
  const before = new Map((prior ?? []).map((l) => [l.account, l.amount]));
  const rows = current.map((l) => row("line", cleanLabel(l.name), [l.amount, ...(prior ? [before.get(l.account) ?? 0] : [])], money));
  if (prior) {
    const seen = new Set(current.map((l) => l.account));
    for (const l of prior) if (!seen.has(l.account)) rows.push(row("line", cleanLabel(l.name), [0, l.amount], money));
  }
  return rows;
}

/** A row of our own words (`label`) or of a QuickBooks name (pass it through `cleanLabel`). */
function row(kind: BoardPackRowKind, label: string, amounts: readonly number[], money: Money): BoardPackRow {
  return { kind, label, cells: amounts.map(money) };
}
const heading = (text: string): BoardPackRow => ({ kind: "heading", label: text, cells: [] });
const both = (a: number, b: number | undefined): number[] => (b === undefined ? [a] : [a, b]);

function balanceSheetSection(b: BalanceSheet, p: BalanceSheet | null, columns: string[], money: Money): BoardPackSection {
  const liabilitiesAndEquity = (s: BalanceSheet) => s.totalLiabilities + s.totalEquity + s.nonControllingInterests;
  return {
    id: "balance-sheet",
    title: "Consolidated balance sheet",
    intro: "Balances at the end of the period. Assets are debit balances; liabilities, equity and non-controlling interests credit balances. Equity includes the period's net income attributable to the owners of the parent.",
    tables: [
      {
        caption: "Consolidated balance sheet",
        columns,
        rows: [
          heading("Assets"),
          ...linesWith(b.assets, p?.assets ?? null, money),
          row("subtotal", "Total assets", both(b.totalAssets, p?.totalAssets), money),
          heading("Liabilities"),
          ...linesWith(b.liabilities, p?.liabilities ?? null, money),
          row("subtotal", "Total liabilities", both(b.totalLiabilities, p?.totalLiabilities), money),
          heading("Equity"),
          ...linesWith(b.equity, p?.equity ?? null, money),
          row("subtotal", "Total equity", both(b.totalEquity, p?.totalEquity), money),
          row("line", "Non-controlling interests", both(b.nonControllingInterests, p?.nonControllingInterests), money),
          row("total", "Total liabilities, equity and non-controlling interests", both(liabilitiesAndEquity(b), p ? liabilitiesAndEquity(p) : undefined), money),
        ],
      },
    ],
    chart: null,
    notes: [b.balanced ? "Balanced: total assets equal total liabilities, equity and non-controlling interests." : `Out of balance by ${money(b.totalAssets - liabilitiesAndEquity(b))}.`],
  };
}

const sum = (lines: readonly { amount: number }[]) => lines.reduce((s, l) => s + l.amount, 0);

function incomeStatementSection(i: IncomeStatement, p: IncomeStatement | null, columns: string[], money: Money): BoardPackSection {
  return {
    id: "income-statement",
    title: "Consolidated income statement",
    intro: "Revenue and expenses over the period, each subsidiary's translated month by month at that month's average rate, after intercompany eliminations.",
    tables: [
      {
        caption: "Consolidated income statement",
        columns,
        rows: [
          heading("Revenue"),
          ...linesWith(i.revenue, p?.revenue ?? null, money),
          row("subtotal", "Total revenue", both(sum(i.revenue), p ? sum(p.revenue) : undefined), money),
          heading("Expenses"),
          ...linesWith(i.expenses, p?.expenses ?? null, money),
          row("subtotal", "Total expenses", both(sum(i.expenses), p ? sum(p.expenses) : undefined), money),
          row("total", "Net income", both(i.netIncome, p?.netIncome), money),
          row("line", "Attributable to non-controlling interests", both(i.attributableToNci, p?.attributableToNci), money),
          row("line", "Attributable to owners of the parent", both(i.attributableToParent, p?.attributableToParent), money),
        ],
      },
    ],
    chart: null,
    notes: [],
  };
}

function chartSection(input: BoardPackInput, label: string, priorLabel: string | null, money: Money): BoardPackSection {
  const c = input.comparison && priorLabel !== null ? { ...input.comparison, label: priorLabel } : null;
  const figure = (name: string, now: number, before: number | undefined) => {
    const values = both(now, before);
    return { label: name, values, texts: values.map(money) };
  };
  const b = input.balanceSheet;
  const i = input.incomeStatement;
  return {
    id: "chart",
    title: c ? `Key figures against ${c.label}` : "Key figures",
    intro: c ? `The period's key figures beside the comparison period's (${c.label}), in ${input.currency}.` : `The period's key figures in ${input.currency}; ask for a comparison to see them beside another period.`,
    tables: [],
    chart: {
      title: "Key figures",
      series: c ? [label, c.label] : [label],
      groups: [
        figure("Revenue", sum(i.revenue), c ? sum(c.incomeStatement.revenue) : undefined),
        figure("Expenses", sum(i.expenses), c ? sum(c.incomeStatement.expenses) : undefined),
        figure("Net income", i.netIncome, c?.incomeStatement.netIncome),
        figure("Total assets", b.totalAssets, c?.balanceSheet.totalAssets),
        figure("Total equity", b.totalEquity, c?.balanceSheet.totalEquity),
      ],
    },
    notes: [],
  };
}

function cashFlowSection(cf: BoardPackInput["cashFlow"], label: string, money: Money): BoardPackSection {
  const base = {
    id: "cash-flow" as const,
    title: "Consolidated statement of cash flows",
    intro: "Indirect method (IAS 7, ASC 230): from profit through non-cash items and working-capital changes, then investing and financing; intra-group flows eliminated; the effect of exchange-rate changes on cash computed from each subsidiary's cash at its rates (IAS 7.28).",
    chart: null,
  };
  if ("missing" in cf) return { ...base, tables: [], notes: [cf.missing] };
  const lines = (ls: readonly Line[]) => ls.map((l) => row("line", cleanLabel(l.name), [l.amount], money));
  const r = cf.reconciliation;
  return {
    ...base,
    tables: [
      {
        caption: "Consolidated statement of cash flows",
        columns: ["", label],
        rows: [
          heading("Operating activities"),
          row("line", "Profit for the period", [cf.operating.profit], money),
          ...lines(cf.operating.adjustments),
          ...lines(cf.operating.workingCapital),
          row("subtotal", "Net cash from operating activities", [cf.operating.total], money),
          heading("Investing activities"),
          ...lines(cf.investing.lines),
          row("subtotal", "Net cash from investing activities", [cf.investing.total], money),
          heading("Financing activities"),
          ...lines(cf.financing.lines),
          row("subtotal", "Net cash from financing activities", [cf.financing.total], money),
          row("total", "Net change in cash", [cf.netCashFlow], money),
          row("line", "Effect of exchange-rate changes on cash", [cf.exchangeEffect.total], money),
          row("line", "Cash at the start of the period", [cf.openingCash], money),
          row("total", "Cash at the end of the period", [cf.closingCash], money),
        ],
      },
    ],
    notes: [
      r.reconciles
        ? `Reconciles: opening cash ${money(cf.openingCash)} + net change ${money(cf.netCashFlow)} + exchange effect ${money(cf.exchangeEffect.total)} = closing cash ${money(cf.closingCash)}.`
        : `Does not reconcile: opening cash + flows + exchange effect is ${money(r.computedClosingCash)}, the balance sheet's cash ${money(cf.closingCash)} (difference ${money(r.difference)}).`,
    ],
  };
}

function equitySection(eq: BoardPackInput["equity"], money: Money): BoardPackSection {
  const base = {
    id: "equity" as const,
    title: "Consolidated statement of changes in equity",
    intro: "How the group's equity moved over the period, component by component (IAS 1.106, ASC 810-10-50-1A). Increases in equity are positive.",
    chart: null,
  };
  if ("missing" in eq) return { ...base, tables: [], notes: [eq.missing] };
  // Columns that hold an amount somewhere, and always the total: a page holds five or six.
  const all = [...eq.rows, eq.balanceSheet];
  const shown: EquityColumn[] = EQUITY_COLUMNS.filter((col) => col === "total" || all.some((r) => r.amounts[col] !== 0));
  const strong = (kind: string): BoardPackRowKind => (kind === "opening" || kind === "closing" ? "total" : kind === "comprehensiveIncome" ? "subtotal" : "line");
  return {
    ...base,
    tables: [
      {
        caption: "Consolidated statement of changes in equity",
        columns: ["", ...shown.map((col) => EQUITY_COLUMN_LABELS[col])],
        rows: [...eq.rows, eq.balanceSheet, eq.difference].map((r) => row(strong(r.kind), r.label, shown.map((col) => r.amounts[col]), money)),
      },
    ],
    notes: [eq.reconciles ? "Reconciles: the closing balances equal the balance sheet's equity in every column." : "Does not reconcile to the balance sheet: the difference row shows by how much."],
  };
}

function ratesSection(rates: BoardPackInput["rates"], currency: string): BoardPackSection {
  const sorted = [...rates].sort((a, b) => a.currency.localeCompare(b.currency) || a.month.localeCompare(b.month));
  return {
    id: "fx-rates",
    title: "Exchange rates used",
    intro: `Units of ${currency} per unit of each subsidiary's currency, as set on FX Rates: closing rates translate balances at each month-end, average rates each month's income and expenses.`,
    tables: sorted.length
      ? [
          {
            caption: "Exchange rates used",
            columns: ["Currency and month", "Average", "Closing"],
            rows: sorted.map((r) => ({ kind: "line" as const, label: `${r.currency} ${monthTextLabel(r.month)}`, cells: [r.average, r.closing] })),
          },
        ]
      : [],
    chart: null,
    notes: sorted.length ? [] : ["Every company of the group reports in the parent's currency: no rates were needed."],
  };
}

function ctaSection(cta: BoardPackInput["cta"], currency: string, money: Money): BoardPackSection {
  return {
    id: "cta",
    title: "Translation reserve (CTA): how it was computed",
    intro:
      `Each month's change in a subsidiary's translation reserve, credit positive in ${currency}, is the sum of: its opening net assets × (closing rate − previous closing rate); ` +
      "its net income at the closing rate less as translated at the average rate; dividends at the closing rate less as translated, deducted; other equity movements at the closing rate less as translated; and the rounding left by translating line by line (IAS 21.39, ASC 830-30-45). The rates are those on the previous page.",
    tables: cta.map((s) => ({
      caption: `${cleanLabel(s.name)} (${s.currency})`,
      columns: ["Month", `Opening net assets (${s.currency})`, "On opening net assets", "On net income", "On dividends", "Other equity and rounding", "Change in CTA"],
      rows: [
        ...s.months.map((m) => ({
          kind: "line" as const,
          label: monthTextLabel(m.month),
          cells: [
            formatAmount(m.openingNetAssetsLocal, s.currency, { locale: BOARD_PACK_LOCALE }),
            money(m.openingNetAssets),
            money(m.netIncome),
            money(m.dividends),
            money(m.equityMovements + m.rounding),
            money(m.change),
          ],
        })),
        { kind: "total" as const, label: "Period", cells: ["", money(s.total.openingNetAssets), money(s.total.netIncome), money(s.total.dividends), money(s.total.equityMovements + s.total.rounding), money(s.total.change)] },
      ],
    })),
    chart: null,
    notes: cta.length ? [] : ["No subsidiary is translated with the current-rate method: there is no translation reserve to explain."],
  };
}
