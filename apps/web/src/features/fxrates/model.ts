import type { FxRate, FxRatesResponse } from "@groupledger/contract";
import { localMonthOf, monthCount, normalizeRate, RATE_MESSAGE, shiftMonth } from "@groupledger/domain";

/** The two rates of a currency and month (SPEC §3): the month's average and its end-of-period rate. */
export type RateField = "avgfx" | "endfx";
export const RATE_FIELDS: readonly RateField[] = ["avgfx", "endfx"];
export const FIELD_LABELS: Record<RateField, string> = { avgfx: "Average", endfx: "End of period" };

export interface CellRef {
  currency: string;
  month: string;
  field: RateField;
}

export const cellKey = (c: CellRef): string => `${c.currency}:${c.month}:${c.field}`;

/** The rates as saved on the server, by cell key; "" where none is entered (never zero). */
export type SavedRates = ReadonlyMap<string, string>;
/** What the user typed and has not saved yet, by cell key. */
export type Edits = Readonly<Record<string, string>>;

export function savedRatesOf(grid: FxRatesResponse): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of grid.rates) {
    out.set(cellKey({ currency: r.currency, month: r.month, field: "avgfx" }), r.avgfx);
    out.set(cellKey({ currency: r.currency, month: r.month, field: "endfx" }), r.endfx);
  }
  return out;
}

/** The same rule as the server (packages/domain normalizeRate): empty is allowed and means "no rate". */
export function cellProblem(text: string): string | null {
  if (text.trim() === "") return null;
  return normalizeRate(text) === null ? RATE_MESSAGE : null;
}

/** True when typing `text` would not change what is saved ("1.2500" over "1.25", spaces around it). */
export function sameAsSaved(text: string, saved: string): boolean {
  const t = text.trim();
  if (t === "" || saved === "") return t === saved;
  return t === saved || normalizeRate(t) === saved;
}

/** Records an edit, or forgets it when the cell is back to its saved value. */
export function applyEdit(edits: Edits, saved: SavedRates, ref: CellRef, text: string): Edits {
  const key = cellKey(ref);
  const { [key]: _old, ...rest } = edits;
  return sameAsSaved(text, saved.get(key) ?? "") ? rest : { ...rest, [key]: text };
}

/** Edits that still differ from the saved rates (a refetch after an import or a fetch may have caught up with some). */
export function pendingEdits(edits: Edits, saved: SavedRates): Edits {
  return Object.fromEntries(Object.entries(edits).filter(([key, text]) => !saved.has(key) || !sameAsSaved(text, saved.get(key) ?? "")));
}

export function editProblems(edits: Edits): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(edits)) {
    const problem = cellProblem(text);
    if (problem) out[key] = problem;
  }
  return out;
}

const parseKey = (key: string): CellRef => {
  const [currency = "", month = "", field = "avgfx"] = key.split(":");
  return { currency, month, field: field as RateField };
};

/**
 * The PUT body for the edits: one row per currency and month that changed, carrying the saved
 * value of the other rate too, because the API sets both rates of a row.
 */
export function ratesToSave(edits: Edits, saved: SavedRates): FxRate[] {
  const rows = new Map<string, FxRate>();
  for (const [key, text] of Object.entries(edits)) {
    const { currency, month, field } = parseKey(key);
    const id = `${currency}:${month}`;
    const row = rows.get(id) ?? {
      currency,
      month,
      avgfx: saved.get(cellKey({ currency, month, field: "avgfx" })) ?? "",
      endfx: saved.get(cellKey({ currency, month, field: "endfx" })) ?? "",
    };
    row[field] = text.trim();
    rows.set(id, row);
  }
  return [...rows.values()].sort((a, b) => a.currency.localeCompare(b.currency) || a.month.localeCompare(b.month));
}

/**
 * The server's field errors of a refused save (paths "rates.<i>.avgfx", "rates.<i>.currency",
 * "rates.<i>") put back on the cells of the row that was sent at index i; what belongs to no
 * cell is kept as text.
 */
export function serverCellErrors(fieldErrors: Readonly<Record<string, string>>, sent: readonly FxRate[]): { cells: Record<string, string>; other: string[] } {
  const cells: Record<string, string> = {};
  const other: string[] = [];
  for (const [path, message] of Object.entries(fieldErrors)) {
    const match = /^rates\.(\d+)(?:\.(\w+))?$/.exec(path);
    const row = match ? sent[Number(match[1])] : undefined;
    if (!match || !row) {
      other.push(message);
      continue;
    }
    const field = match[2];
    const targets: RateField[] = field === "avgfx" || field === "endfx" ? [field] : [...RATE_FIELDS];
    for (const f of targets) cells[cellKey({ currency: row.currency, month: row.month, field: f })] ??= message;
    if (field !== "avgfx" && field !== "endfx") other.push(`${row.currency} ${row.month}: ${message}`);
  }
  return { cells, other };
}

export interface MissingSummary {
  /** Months (of those given) where at least one currency lacks a rate, in the order given. */
  months: string[];
  /** Empty cells in all. */
  cells: number;
}

/** Empty cells are what a consolidation of that month would stop on, so they are counted, never read as zero. */
export function missingRates(currencies: readonly string[], months: readonly string[], valueOf: (ref: CellRef) => string): MissingSummary {
  let cells = 0;
  const missing: string[] = [];
  for (const month of months) {
    let empty = 0;
    for (const currency of currencies) for (const field of RATE_FIELDS) if (valueOf({ currency, month, field }).trim() === "") empty++;
    cells += empty;
    if (empty > 0) missing.push(month);
  }
  return { months: missing, cells };
}

export function missingText(summary: MissingSummary): string {
  const n = summary.months.length;
  if (n === 0) return "Every month shown has all its rates.";
  return `${n} ${n === 1 ? "month misses" : "months miss"} a rate (${summary.cells} empty ${summary.cells === 1 ? "cell" : "cells"}).`;
}

/** The server refuses more at once (apps/server fx routes). */
export const MAX_MONTHS = 120;
export const DEFAULT_MONTHS = 24;


export interface MonthRangeValue {
  from: string;
  to: string;
}

/** The last 24 months up to the current one. */
export function defaultRange(now: Date = new Date()): MonthRangeValue {
  const to = localMonthOf(now);
  return { from: shiftMonth(to, -(DEFAULT_MONTHS - 1)), to };
}

/** Same limits as the server, said before asking it. */
export function rangeProblem(range: MonthRangeValue): string | null {
  if (range.from > range.to) return `The range must run forward: ${monthLabel(range.from)} is after ${monthLabel(range.to)}.`;
  if (monthCount(range.from, range.to) > MAX_MONTHS) return `Choose at most ${MAX_MONTHS} months at once.`;
  return null;
}

/** "2026-10" as "Oct 2026", in UTC so no time zone moves it to the month before. */
export function monthLabel(month: string, locale?: string): string {
  const [y, m] = month.split("-").map(Number);
  if (!y || !m) return month;
  return new Intl.DateTimeFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** A block copied from a spreadsheet (tabs between cells, new lines between rows) as rows of cells. */
export function parsePastedBlock(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
  return lines.map((line) => line.split("\t").map((c) => c.trim()));
}

/**
 * A rate far from the other months of its currency is usually a typo, and near the inverse of
 * them it is usually entered the wrong way round (USD per GBP expected, GBP per USD typed). A
 * warning only: markets do move. Floats are fine here, the result is a hint and never stored.
 */
export function rateWarning(text: string, reference: string | null, currency: string, parentCurrency: string): string | null {
  const value = normalizeRate(text);
  if (value === null || !reference) return null;
  const v = Number(value);
  const ref = Number(reference);
  if (!(v > 0 && ref > 0)) return null;
  const ratio = v / ref;
  if (ratio >= 0.75 && ratio <= 1 / 0.75) return null;
  const inverse = 1 / v / ref;
  if (inverse >= 0.9 && inverse <= 1 / 0.9) {
    return `Looks inverted: nearby months are about ${reference} ${parentCurrency} per ${currency}. Enter ${parentCurrency} for 1 ${currency}.`;
  }
  return `Far from nearby months (about ${reference}); check it.`;
}

/** The nearest other month's saved rate of the same currency and field, as the warning's reference. */
export function nearestRate(saved: SavedRates, ref: CellRef, months: readonly string[]): string | null {
  const at = months.indexOf(ref.month);
  for (let d = 1; d < months.length; d++) {
    for (const i of [at - d, at + d]) {
      const month = months[i];
      const v = month ? saved.get(cellKey({ ...ref, month })) : undefined;
      if (v) return v;
    }
  }
  return null;
}

const rowsText = (n: number) => `${n} ${n === 1 ? "row" : "rows"}`;

export function importedResultText(r: { updated: number; unchanged: number }): string {
  const total = r.updated + r.unchanged;
  if (r.updated === 0) return `Imported ${rowsText(total)}: nothing changed, every rate was already there.`;
  return `Imported ${rowsText(total)}: ${r.updated} changed${r.unchanged ? `, ${r.unchanged} already had these rates` : ""}.`;
}

export function fetchedResultText(r: { updated: number; unchanged: number; months: number; currencies: string[] }, requestedMonths: number): string {
  if (r.months === 0) return "The rates service has no rates for these months yet, so nothing was filled.";
  const of = r.months < requestedMonths ? `${r.months} of ${requestedMonths} months` : `${r.months} ${r.months === 1 ? "month" : "months"}`;
  const filled = `${rowsText(r.updated)} filled or updated`;
  return `Fetched ${r.currencies.join(", ")} for ${of}: ${filled}, ${r.unchanged} unchanged.`;
}
