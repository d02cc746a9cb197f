import { currencyExponent } from "../money/currency.ts";
import { factorColumns, makeFactor, parseRate, translationFactor, type Factor, type FactorColumns, type Rate } from "../money/rate.ts";
import { fiscalQuarterRange, fiscalYearRange, formatMonth, parseMonth, type MonthRange } from "../periods/month.ts";
import type { LocalBookSums } from "../translation/amounts-pass.ts";
import { translateAmounts } from "../translation/translate.ts";
import type { IssueList } from "./errors.ts";
import type { BalanceColumns } from "./balance-columns.ts";
import type { AccountInput, ConsolidationInput, EntityInput } from "./input-schema.ts";
import {
  CLASSIFICATION_OF_KIND,
  isProfitAndLoss,
  LineKind,
  lineKindOf,
  type CompiledDividend,
  type CompiledEntity,
  type CompiledGroup,
  type HistoricalBasis,
} from "./model.ts";

const IDENTITY_FACTOR: Factor = makeFactor(1n, 1n);

export function resolvePeriod(input: ConsolidationInput, parentFiscalStart: number): MonthRange {
  const p = input.period;
  if ("month" in p) {
    const m = parseMonth(p.month);
    return { from: m, to: m };
  }
  if ("from" in p) return { from: parseMonth(p.from), to: parseMonth(p.to) };
  if ("quarter" in p) return fiscalQuarterRange(p.fiscalYear, p.quarter, parentFiscalStart);
  return fiscalYearRange(p.fiscalYear, parentFiscalStart);
}

/** Turns validated JSON into the columnar model, reporting every inconsistency it finds. */
export function compileGroup(input: ConsolidationInput, issues: IssueList): CompiledGroup | undefined {
  const parents = input.entities.filter((e) => e.role === "parent");
  if (parents.length !== 1) {
    issues.add(["entities"], `exactly one entity must have role "parent" (found ${parents.length})`);
    return undefined;
  }
  const parentInput = parents[0]!;
  if (parentInput.currency !== input.reportingCurrency) {
    issues.add(["entities", input.entities.indexOf(parentInput), "currency"], `the parent's currency (${parentInput.currency}) must be the reporting currency (${input.reportingCurrency})`);
  }
  const seen = new Set<string>();
  input.entities.forEach((e, i) => {
    if (seen.has(e.id)) issues.add(["entities", i, "id"], `entity id "${e.id}" is used twice`);
    seen.add(e.id);
  });
  const period = resolvePeriod(input, parentInput.fiscalYearStartMonth);
  if (period.to < period.from) {
    issues.add(["period"], "the period ends before it starts");
    return undefined;
  }
  const reportingExponent = currencyExponent(input.reportingCurrency);
  const rateCache: RateCache = { byText: new Map(), byMonths: new Map() };
  const entities = input.entities.map((e, i) => compileEntity(input, e, i, period, reportingExponent, rateCache, issues));
  if (!issues.empty) return undefined;
  const compiled = entities as CompiledEntity[];
  const parent = compiled.find((e) => e.role === "parent")!;
  return { reportingCurrency: input.reportingCurrency, reportingExponent, period, parent, entities: compiled };
}

function compileEntity(
  input: ConsolidationInput,
  e: EntityInput,
  index: number,
  period: MonthRange,
  reportingExponent: number,
  rateCache: RateCache,
  issues: IssueList,
): CompiledEntity | undefined {
  const path = ["entities", index] as const;
  const before = issues.items.length;
  const exponent = currencyExponent(e.currency);
  const identity = e.currency === input.reportingCurrency;
  const start = parseMonth(e.opening.month);
  if (start >= period.from) {
    issues.add([...path, "opening", "month"], `the opening month ${e.opening.month} must be before the first month consolidated (${formatMonth(period.from)})`);
    return undefined;
  }
  const months = period.to - start + 1;

  const accounts = e.accounts;
  const { kinds, monetary, accountIndex } = compileAccounts(e, path, issues);
  const n = accounts.length;
  let local: Float64Array;
  if (e.balanceColumns) local = columnsAsLocal(e.balanceColumns, accounts, accountIndex, start, months, path, issues);
  else {
    local = new Float64Array(n * months);
    loadBalances(e, accounts, accountIndex, start, local, months, path, issues);
  }

  // Rates: every month from the opening month to the period end must have them unless the entity is
  // in the reporting currency (it is then not translated at all, ASC 830-10-45-17 / IAS 21.39).
  const { closing, average, closingRates, averageRates, closingColumns, averageColumns } = monthlyRates(input, e, identity, start, months, exponent, reportingExponent, rateCache, issues);
  const historical = new Map<number, HistoricalBasis>();
  e.historical.forEach((h, k) => {
    const row = accountIndex.get(h.account);
    if (row === undefined) {
      issues.add([...path, "historical", k, "account"], `unknown account "${h.account}"`);
      return;
    }
    const rate = h.rate === undefined ? undefined : parseRate(h.rate);
    historical.set(row, rate ? { type: "rate", rate, factor: translationFactor(rate, exponent, reportingExponent) } : { type: "amount", amount: h.amount! });
  });
  const movementRates = new Map<number, { rate: Rate; factor: Factor }>();
  e.movementRates.forEach((m, k) => {
    const row = accountIndex.get(m.account);
    if (row === undefined) {
      issues.add([...path, "movementRates", k, "account"], `unknown account "${m.account}"`);
      return;
    }
    const rate = parseRate(m.rate);
    const t = parseMonth(m.month) - start;
    // Only a change after the opening month and within the period is ever translated.
    if (t > 0 && t < months) movementRates.set(row * months + t, { rate, factor: translationFactor(rate, exponent, reportingExponent) });
  });

  if (!identity) checkHistoricalBases(e, path, kinds, monetary, historical, local, months, issues);

  const { reRows, equityRows, dividendsRow } = equityRowsOf(kinds);
  let retainedEarningsRow: number;
  if (e.retainedEarningsAccount !== undefined) {
    const row = accountIndex.get(e.retainedEarningsAccount);
    if (row === undefined || kinds[row] !== LineKind.RetainedEarnings) {
      issues.add([...path, "retainedEarningsAccount"], `"${e.retainedEarningsAccount}" is not a retainedEarnings account of ${e.name}`);
      return undefined;
    }
    retainedEarningsRow = row;
  } else if (reRows.length === 1) {
    retainedEarningsRow = reRows[0]!;
  } else {
    issues.add([...path, "accounts"], reRows.length === 0
      ? `${e.name} needs one Equity account with equityKind "retainedEarnings"`
      : `${e.name} has ${reRows.length} retainedEarnings accounts: name the one to use in retainedEarningsAccount`);
    return undefined;
  }

  const dividends: CompiledDividend[] = [];
  e.dividends.forEach((d, k) => {
    const dPath = [...path, "dividends", k];
    const t = parseMonth(d.month) - start;
    if (t < 1) {
      issues.add([...dPath, "month"], `the dividend must be declared after the opening month ${e.opening.month}`);
      return;
    }
    if (t >= months) return; // declared after the period: irrelevant to this consolidation
    let factor: Factor | undefined;
    let rateText: string | undefined;
    let profitOf: { from: number; to: number } | undefined;
    if (e.dividendRatePolicy === "profitPeriod" && !identity) {
      if (!d.profitOf) {
        issues.add([...dPath, "profitOf"], "the profitPeriod policy needs the months whose profit is distributed");
        return;
      }
      const from = parseMonth(d.profitOf.from) - start;
      const to = parseMonth(d.profitOf.to) - start;
      // Under the temporal method the declaration month's profit includes a remeasurement result
      // that itself depends on the dividend, so that month cannot be part of the window.
      const last = e.method === "temporal" ? t - 1 : t;
      if (from < 1 || to < from || to > last) {
        issues.add([...dPath, "profitOf"], `profitOf must be months after the opening month ${e.opening.month} and not after the declaration month ${d.month}${e.method === "temporal" ? " (before it, under the temporal method)" : ""}`);
        return;
      }
      profitOf = { from, to };
    } else if (identity) {
      factor = IDENTITY_FACTOR;
    } else if (d.rate !== undefined) {
      const rate = parseRate(d.rate);
      factor = translationFactor(rate, exponent, reportingExponent);
      rateText = d.rate;
    } else {
      factor = average[t];
      rateText = averageRates[t]?.text;
    }
    dividends.push({ t, amount: d.amount, path: dPath, factor, rateText, profitOf });
  });

  // The one pass over the amounts: translated, and the books' sums added up as they are read.
  const pass = translateAmounts({ kinds, monetary, local, months, identity, method: e.method, historical, movementRates, closing, average, closingColumns, averageColumns }, period.from - start);
  checkLocalBooks(e, path, pass.books, months, start, dividends, issues);

  let openingRetainedEarnings = e.opening.retainedEarnings;
  if (identity) {
    // Not translated: the books' own retained earnings are the translated ones (the rolled-forward rows' opening sum).
    const booked = pass.books.retained[0]!;
    if (openingRetainedEarnings !== undefined && openingRetainedEarnings !== booked) {
      issues.add([...path, "opening", "retainedEarnings"], `${e.name} is in the reporting currency, so its opening retained earnings are its books' ${booked}, not ${openingRetainedEarnings} (or leave them out)`);
    }
    openingRetainedEarnings = booked;
  }
  if (openingRetainedEarnings === undefined) {
    issues.add([...path, "opening", "retainedEarnings"], `${e.name} is translated from ${e.currency}: give its translated retained earnings at ${e.opening.month}`);
  }
  if (issues.items.length > before) return undefined;

  const ownership = parseRate(e.ownership);
  const one = 10n ** BigInt(ownership.scale);
  return {
    index,
    id: e.id,
    name: e.name,
    role: e.role,
    currency: e.currency,
    exponent,
    reportingExponent,
    identity,
    method: e.method,
    ownershipText: e.ownership,
    nciShare: { num: one - ownership.numerator, den: one },
    fiscalYearStartMonth: e.fiscalYearStartMonth,
    accounts,
    kinds,
    monetary,
    accountIndex,
    equityRows: Int32Array.from(equityRows),
    start,
    months,
    local,
    closing,
    average,
    closingColumns,
    averageColumns,
    closingRates,
    averageRates,
    historical,
    movementRates,
    dividends,
    openingRetainedEarnings,
    openingCta: e.opening.cta,
    retainedEarningsRow,
    dividendsRow: dividendsRow >= 0 ? dividendsRow : retainedEarningsRow,
    inputPath: path,
    pass,
  };
}

/**
 * The rows of retained earnings accounts, of every equity account, and the first dividends account
 * (−1 when none): one loop over the kinds, in a small function of its own rather than inside
 * compileEntity, which V8 would otherwise compile whole for this loop's sake.
 */
function equityRowsOf(kinds: Uint8Array): { reRows: number[]; equityRows: number[]; dividendsRow: number } {
  const reRows: number[] = [];
  const equityRows: number[] = [];
  let dividendsRow = -1;
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i]! as LineKind;
    if (kind === LineKind.RetainedEarnings) reRows.push(i);
    else if (kind === LineKind.Dividends && dividendsRow < 0) dividendsRow = i;
    if (CLASSIFICATION_OF_KIND[kind] === "Equity") equityRows.push(i);
  }
  return { reRows, equityRows, dividendsRow };
}

/** Every line translated at historical rates needs its opening basis; revenue and expense take one only under the temporal method. */
function checkHistoricalBases(
  e: EntityInput,
  path: readonly (string | number)[],
  kinds: Uint8Array,
  monetary: Uint8Array,
  historical: ReadonlyMap<number, HistoricalBasis>,
  local: Float64Array,
  months: number,
  issues: IssueList,
): void {
  const temporal = e.method === "temporal";
  const anyHistorical = historical.size > 0;
  for (let row = 0; row < kinds.length; row++) {
    const kind = kinds[row]! as LineKind;
    if (anyHistorical && historical.has(row)) {
      if (isProfitAndLoss(kind) && !temporal) {
        const a = e.accounts[row]!;
        issues.add([...path, "historical"], `account "${a.id}": historical rates for revenue/expense apply only under the temporal method`);
      }
      continue;
    }
    const needsHistory =
      kind === LineKind.ContributedCapital ||
      kind === LineKind.OtherEquity ||
      (temporal && !monetary[row] && (kind === LineKind.Asset || kind === LineKind.Liability));
    if (needsHistory && local[row * months] !== 0) {
      const a = e.accounts[row]!;
      issues.add([...path, "historical"], `account "${a.id}" (${a.name}) is translated at historical rates: give its historical rate or translated amount`);
    }
  }
}

/** An entity's factors and rates month by month from its opening month (compileEntity), with the factors as columns too. */
interface MonthlyRates {
  readonly closing: readonly Factor[];
  readonly average: readonly Factor[];
  readonly closingRates: readonly (Rate | undefined)[];
  readonly averageRates: readonly (Rate | undefined)[];
  readonly closingColumns: FactorColumns;
  readonly averageColumns: FactorColumns;
}

/**
 * The entity's monthly rates. Entities in one currency with the same months share them (`cache`, by
 * currency and months; they are only read): a large group's fifty subsidiaries in five currencies
 * then look up and copy their 37 months of rates five times, not fifty. An entity with a month's
 * rates missing is not cached, so each such entity reports its missing months.
 */
function monthlyRates(
  input: ConsolidationInput,
  e: EntityInput,
  identity: boolean,
  start: number,
  months: number,
  exponent: number,
  reportingExponent: number,
  cache: RateCache,
  issues: IssueList,
): MonthlyRates {
  const key = `${e.currency} ${start} ${months}`;
  const cached = cache.byMonths.get(key);
  if (cached) return cached;
  const closing: Factor[] = [];
  const average: Factor[] = [];
  const closingRates: (Rate | undefined)[] = [];
  const averageRates: (Rate | undefined)[] = [];
  const table = input.rates[e.currency];
  let complete = true;
  for (let t = 0; t < months; t++) {
    if (identity) {
      closing.push(IDENTITY_FACTOR);
      average.push(IDENTITY_FACTOR);
      closingRates.push(undefined);
      averageRates.push(undefined);
      continue;
    }
    const key = formatMonth(start + t);
    const r = table?.[key];
    if (!r) {
      issues.add(["rates", e.currency, key], `missing ${e.currency} rates for ${key} (needed to translate ${e.name})`);
      complete = false;
      closing.push(IDENTITY_FACTOR);
      average.push(IDENTITY_FACTOR);
      closingRates.push(undefined);
      averageRates.push(undefined);
      continue;
    }
    // Entities in one currency share its monthly rates: each rate is parsed once per exponent.
    const c = cachedRate(cache.byText, r.closing, exponent, reportingExponent);
    const a = cachedRate(cache.byText, r.average, exponent, reportingExponent);
    closingRates.push(c.rate);
    averageRates.push(a.rate);
    closing.push(c.factor);
    average.push(a.factor);
  }
  const rates = { closing, average, closingRates, averageRates, closingColumns: factorColumns(closing), averageColumns: factorColumns(average) };
  if (complete) cache.byMonths.set(key, rates);
  return rates;
}

/** compileGroup's rates, shared by its entities: each rate text parsed once per exponent, each currency's months once. */
interface RateCache {
  readonly byText: Map<string, { rate: Rate; factor: Factor }>;
  readonly byMonths: Map<string, MonthlyRates>;
}

function cachedRate(cache: Map<string, { rate: Rate; factor: Factor }>, text: string, exponent: number, reportingExponent: number): { rate: Rate; factor: Factor } {
  const key = `${exponent} ${text}`;
  let hit = cache.get(key);
  if (!hit) {
    const rate = parseRate(text);
    hit = { rate, factor: translationFactor(rate, exponent, reportingExponent) };
    cache.set(key, hit);
  }
  return hit;
}

/** The accounts' kinds and monetary flags as typed columns, and the id map (no object per account). */
function compileAccounts(e: EntityInput, path: readonly (string | number)[], issues: IssueList): { kinds: Uint8Array; monetary: Uint8Array; accountIndex: Map<string, number> } {
  const kinds = new Uint8Array(e.accounts.length);
  const monetary = new Uint8Array(e.accounts.length);
  const accountIndex = new Map<string, number>();
  for (let i = 0; i < e.accounts.length; i++) {
    const a = e.accounts[i]!;
    // One lookup, not two: a repeated id leaves the map's size unchanged (and keeps its last row).
    const size = accountIndex.size;
    accountIndex.set(a.id, i);
    if (accountIndex.size === size) issues.add([...path, "accounts", i, "id"], `account id "${a.id}" is used twice`);
    const kind = lineKindOf(a.classification, a.equityKind);
    kinds[i] = kind;
    if (a.monetary ?? defaultMonetary(a.classification)) monetary[i] = 1;
  }
  return { kinds, monetary, accountIndex };
}

/**
 * Every balance series into its account's row of `local` (account-major, months columns). Series
 * usually list the accounts in the chart's order, so series s is first tried against account s
 * (one string comparison) before the id map is asked (51,000 lookups for a large group). The local
 * books' sums are added up later, by the translation's pass over `local` (translateAmounts).
 */
function loadBalances(
  e: EntityInput,
  accounts: readonly AccountInput[],
  accountIndex: ReadonlyMap<string, number>,
  start: number,
  local: Float64Array,
  months: number,
  path: readonly (string | number)[],
  issues: IssueList,
): void {
  const covered = new Uint8Array(accounts.length);
  // The guess is the map's answer only while every id is unique (the map keeps a repeated id's last row).
  const unique = accountIndex.size === accounts.length;
  // Series nearly always start in the same month: parse each distinct month text once.
  let fromText = "";
  let from = 0;
  for (let s = 0; s < e.balances.length; s++) {
    const series = e.balances[s]!;
    const row = unique && s < accounts.length && accounts[s]!.id === series.account ? s : accountIndex.get(series.account);
    if (row === undefined) {
      issues.add([...path, "balances", s, "account"], `unknown account "${series.account}" (not in this entity's accounts)`);
      continue;
    }
    if (covered[row]) {
      issues.add([...path, "balances", s, "account"], `account "${series.account}" has more than one balance series`);
      continue;
    }
    covered[row] = 1;
    if (series.from !== fromText) {
      fromText = series.from;
      from = parseMonth(fromText) - start;
    }
    // amounts[k] is month from + k; months outside 0 … months − 1 are left out.
    loadRow(series.amounts, local, row * months, from, months);
  }
}

/**
 * The entity's `local` from its balanceColumns (balance-columns.ts). When the columns are laid out as
 * `local` is (a row for every account in the chart's order, from the opening month, the entity's
 * months), they are `local`, not copied: the engine never writes `local`, and no result refers to it.
 * Otherwise each row is copied to its account's row, as loadBalances copies a series.
 */
function columnsAsLocal(
  c: BalanceColumns,
  accounts: readonly AccountInput[],
  accountIndex: ReadonlyMap<string, number>,
  start: number,
  months: number,
  path: readonly (string | number)[],
  issues: IssueList,
): Float64Array {
  const n = accounts.length;
  const from = parseMonth(c.from) - start;
  const rows = c.accounts;
  // Only while every id is unique (a repeated id is reported by compileAccounts, and would be again here).
  const unique = accountIndex.size === n;
  if (unique && from === 0 && c.months === months && rows.length === n && sameIds(rows, accounts)) return c.amounts;
  const local = new Float64Array(n * months);
  const covered = new Uint8Array(n);
  for (let r = 0; r < rows.length; r++) {
    const id = rows[r]!;
    const row = unique && r < n && accounts[r]!.id === id ? r : accountIndex.get(id);
    if (row === undefined) {
      issues.add([...path, "balanceColumns", "accounts", r], `unknown account "${id}" (not in this entity's accounts)`);
      continue;
    }
    if (covered[row]) {
      issues.add([...path, "balanceColumns", "accounts", r], `account "${id}" has more than one row`);
      continue;
    }
    covered[row] = 1;
    copyColumnsRow(c.amounts, r * c.months, c.months, local, row * months, from, months);
  }
  return local;
}

function sameIds(ids: readonly string[], accounts: readonly AccountInput[]): boolean {
  for (let i = 0; i < ids.length; i++) if (ids[i] !== accounts[i]!.id) return false;
  return true;
}

/** local[base + from + k] = amounts[at + k] for k < count and the months held (loadRow over a row of columns). */
function copyColumnsRow(amounts: Float64Array, at: number, count: number, local: Float64Array, base: number, from: number, months: number): void {
  const end = Math.min(count, months - from);
  for (let k = Math.max(0, -from); k < end; k++) local[base + from + k] = amounts[at + k]!;
}

/** local[base + from + k] = amounts[k] for the months held. */
function loadRow(amounts: readonly number[], local: Float64Array, base: number, from: number, months: number): void {
  const end = Math.min(amounts.length, months - from);
  for (let k = Math.max(0, -from); k < end; k++) local[base + from + k] = amounts[k]!;
}

function defaultMonetary(classification: string): boolean {
  // Only matters for the temporal method; liabilities are usually monetary, assets are not
  // reliably so, hence an explicit flag is expected on assets there.
  return classification === "Liability";
}

/**
 * The local books must be a consistent roll-forward, or the CTA would silently absorb errors:
 * each month-end balance sheet balances, and retained earnings (with dividends accounts) move by
 * exactly the month's result and declared dividends.
 */
function checkLocalBooks(
  e: EntityInput,
  path: readonly (string | number)[],
  sums: LocalBookSums,
  months: number,
  start: number,
  dividends: readonly CompiledDividend[],
  issues: IssueList,
): void {
  const declared = new Float64Array(months);
  for (const d of dividends) declared[d.t]! += d.amount;
  const { balance, retained, result } = sums;
  let reported = 0;
  for (let t = 0; t < months && reported < 5; t++) {
    const month = formatMonth(start + t);
    if (balance[t] !== 0) {
      issues.add([...path, "balances"], `${e.name}'s balance sheet at ${month} does not balance: debits exceed credits by ${balance[t]} minor units (retained earnings must include the year's profit)`);
      reported++;
    } else if (t > 0 && retained[t]! - retained[t - 1]! !== result[t]! + declared[t]!) {
      issues.add([...path, "balances"], `${e.name}'s retained earnings moved by ${retained[t]! - retained[t - 1]!} in ${month}, but that month's result and declared dividends explain ${result[t]! + declared[t]!} (debit positive)`);
      reported++;
    }
  }
}
