import { fiscalQuarterRange, fiscalYearOf, fiscalYearRange, formatMonth, isMonthText, monthCount, monthOf, parseMonth, shiftMonth } from "@groupledger/domain";
import type { Company, CompanyStatus } from "@groupledger/contract";
import { reportComparisons } from "@groupledger/contract";

/**
 * Which months a consolidated report covers and how the controls name them. Quarters and years are
 * the parent's fiscal ones, named like everywhere in the product by the calendar year they end in.
 */

export type PeriodKind = "month" | "quarter" | "year" | "custom";
export type Comparison = (typeof reportComparisons)[number];
export const REPORT_VIEWS = ["balance-sheet", "income-statement", "worksheet", "entities", "trend"] as const;
export type ReportView = (typeof REPORT_VIEWS)[number];

export const PERIOD_KINDS: readonly { value: PeriodKind; label: string }[] = [
  { value: "month", label: "Month" },
  { value: "quarter", label: "Quarter" },
  { value: "year", label: "Fiscal year" },
  { value: "custom", label: "Custom" },
];

export const COMPARISONS: readonly { value: Comparison; label: string }[] = [
  { value: "none", label: "No comparison" },
  { value: "prior_period", label: "Prior period" },
  { value: "prior_year", label: "Prior year (same months)" },
];

/** The server refuses longer reports (apps/server reports MAX_MONTHS); said before it is asked. */
export const MAX_REPORT_MONTHS = 60;

export interface ReportPeriod {
  kind: PeriodKind;
  from: string;
  to: string;
}

export interface ReportState extends ReportPeriod {
  compare: Comparison;
  view: ReportView;
}

/** "2026-03" → "Mar 2026". */
export function shortMonth(month: string): string {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));
  return new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" }).format(d);
}

/** "2026-03" → "March 2026". */
export function longMonth(month: string): string {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));
  return new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(d);
}

/** "Jan – Mar 2026", "Nov 2025 – Jan 2026", "March 2026" for one month. */
export function spanLabel(from: string, to: string): string {
  if (from === to) return longMonth(from);
  const sameYear = from.slice(0, 4) === to.slice(0, 4);
  return sameYear ? `${shortMonth(from).slice(0, 3)} – ${shortMonth(to)}` : `${shortMonth(from)} – ${shortMonth(to)}`;
}

/**
 * The month a report opens on: the latest month that is over and that every active company's books
 * have been synced past (a month synced while still under way is not complete), else the month
 * before the current one.
 */
export function defaultMonth(companies: readonly Company[], status: Readonly<Record<string, CompanyStatus>>, currentMonth: string): string {
  let latest = shiftMonth(currentMonth, -1);
  for (const c of companies) {
    if (c.archivedAt !== null) continue;
    const synced = status[c.realmId]?.sync.lastSyncedAt;
    if (!synced) continue;
    const complete = shiftMonth(monthOf(synced), -1);
    if (complete < latest) latest = complete;
  }
  return latest;
}

/** The fiscal quarter of a month: its number, fiscal year and months. */
function quarterOf(month: string, fyStart: number): { fy: number; q: number; from: string; to: string } {
  const index = parseMonth(month);
  const fy = fiscalYearOf(index, fyStart);
  for (let q = 1; q <= 4; q++) {
    const r = fiscalQuarterRange(fy, q, fyStart);
    if (index >= r.from && index <= r.to) return { fy, q, from: formatMonth(r.from), to: formatMonth(r.to) };
  }
  throw new Error(`internal: ${month} is in no quarter of FY${fy}`);
}

/** The period of a kind that contains `month` (a custom period keeps the months it had). */
export function periodContaining(kind: PeriodKind, month: string, fyStart: number, current?: ReportPeriod): ReportPeriod {
  switch (kind) {
    case "month":
      return { kind, from: month, to: month };
    case "quarter": {
      const q = quarterOf(month, fyStart);
      return { kind, from: q.from, to: q.to };
    }
    case "year": {
      const r = fiscalYearRange(fiscalYearOf(parseMonth(month), fyStart), fyStart);
      return { kind, from: formatMonth(r.from), to: formatMonth(r.to) };
    }
    case "custom":
      return { kind, from: current?.from ?? month, to: current?.to ?? month };
  }
}

/** How a period reads in headings: "FY2026 Q1 (Jan – Mar 2026)", "FY2026 (Jan – Dec 2026)", "March 2026". */
export function periodLabel(p: ReportPeriod, fyStart: number): string {
  if (p.kind === "quarter") {
    const q = quarterOf(p.from, fyStart);
    if (q.from === p.from && q.to === p.to) return `FY${q.fy} Q${q.q} (${spanLabel(p.from, p.to)})`;
  }
  if (p.kind === "year") {
    const fy = fiscalYearOf(parseMonth(p.from), fyStart);
    const r = fiscalYearRange(fy, fyStart);
    if (formatMonth(r.from) === p.from && formatMonth(r.to) === p.to) return `FY${fy} (${spanLabel(p.from, p.to)})`;
  }
  return spanLabel(p.from, p.to);
}

export interface PeriodChoice {
  /** The period's last month: the picker's value. */
  value: string;
  from: string;
  to: string;
  label: string;
}

/**
 * The fiscal quarters or years from the one containing `first` to the one containing `last`, newest
 * first; one still under way at `currentMonth` says so.
 */
export function periodChoices(kind: "quarter" | "year", first: string, last: string, fyStart: number, currentMonth: string): PeriodChoice[] {
  const out: PeriodChoice[] = [];
  let month = periodContaining(kind, last, fyStart).from;
  const stop = periodContaining(kind, first, fyStart).from;
  while (month >= stop) {
    const p = periodContaining(kind, month, fyStart);
    const label = periodLabel(p, fyStart);
    out.push({ value: p.to, from: p.from, to: p.to, label: p.to >= currentMonth ? `${label} (in progress)` : label });
    month = shiftMonth(p.from, -1);
  }
  return out;
}

/** What is wrong with a custom range, in words; null when the server will take it. */
export function rangeProblem(from: string, to: string): string | null {
  if (to < from) return `The period ends (${shortMonth(to)}) before it starts (${shortMonth(from)}).`;
  const n = monthCount(from, to);
  if (n > MAX_REPORT_MONTHS) return `A report covers at most ${MAX_REPORT_MONTHS} months; this range is ${n}.`;
  return null;
}

/** The earliest month the group has books for, so the pickers offer nothing older. */
export function firstBookMonth(companies: readonly Company[], fallback: string): string {
  const dates = companies.map((c) => c.earliestTransactionDate).filter((d): d is string => d !== null);
  if (dates.length === 0) return fallback;
  return dates.sort()[0]!.slice(0, 7);
}

// --- The state in the address bar, so Back from a drill-down returns to the same report ---------

/** Prefixed: the section may share its page (a tab of /consolidation/run) with other parameters. */
const KEYS = { kind: "reportPeriod", from: "reportFrom", to: "reportTo", compare: "reportCompare", view: "reportView" } as const;

const isKind = (v: string | null): v is PeriodKind => PERIOD_KINDS.some((k) => k.value === v);
const isComparison = (v: string | null): v is Comparison => (reportComparisons as readonly string[]).includes(v ?? "");
const isView = (v: string | null): v is ReportView => (REPORT_VIEWS as readonly string[]).includes(v ?? "");

/**
 * What the address says, part by part: the period (kind and months, only when all three are months),
 * the comparison and the view. Missing or invalid parts are left out for the caller's defaults.
 */
export function readState(params: URLSearchParams): { period?: ReportPeriod; compare?: Comparison; view?: ReportView } {
  const kind = params.get(KEYS.kind);
  const from = params.get(KEYS.from);
  const to = params.get(KEYS.to);
  const compare = params.get(KEYS.compare);
  const view = params.get(KEYS.view);
  // A range that runs backwards or is too long is kept: the controls show it with what is wrong, and no report is asked for.
  const periodOk = isKind(kind) && from !== null && to !== null && isMonthText(from) && isMonthText(to);
  return {
    ...(periodOk ? { period: { kind, from, to } } : {}),
    ...(isComparison(compare) ? { compare } : {}),
    ...(isView(view) ? { view } : {}),
  };
}

/** The address parameters with this state written in; the page's other parameters are kept. */
export function writeState(params: URLSearchParams, s: ReportState): URLSearchParams {
  const next = new URLSearchParams(params);
  next.set(KEYS.kind, s.kind);
  next.set(KEYS.from, s.from);
  next.set(KEYS.to, s.to);
  next.set(KEYS.compare, s.compare);
  next.set(KEYS.view, s.view);
  return next;
}
