import type { Ratio } from "../money/rate.ts";
import { formatMonth, type MonthRange } from "../periods/month.ts";
import { entityPeriodTrialBalance, type EntityPeriodTrialBalance, type TranslatedLine } from "../translation/period.ts";
import { translateEntity, type EntityTranslation } from "../translation/translate.ts";
import { ConsolidationInputError, IssueList, issuesFromZod } from "./errors.ts";
import {
  assertBalanced,
  intercompanyEliminations,
  investmentEliminations,
  manualEliminations,
  type AcquisitionEquity,
  type Elimination,
  type EliminationContext,
} from "./eliminations.ts";
import { disposalEliminations, disposalMonths, postDisposalEliminations } from "./disposal.ts";
import { dividendEliminations } from "./dividends.ts";
import { controlWindows, preAcquisitionEliminations, withControlWindows } from "./mid-year.ts";
import { ownershipChangeEliminations, ownershipHistories, segmentedNonControllingInterest, type OwnershipHistory } from "./ownership-change.ts";
import { consolidationInputSchema, type ConsolidationInput } from "./input-schema.ts";
import { parseConsolidationInputFast } from "./input-fast.ts";
import { takeBalanceColumns } from "./balance-columns.ts";
import { compileMappings, requireParentAccount, WorksheetRows } from "./mapping.ts";
import { LineKind, type CompiledEntity } from "./model.ts";
import { nonControllingInterest, type NciComputation } from "./nci.ts";
import { attributeManualEntries, type NciAttributions } from "./nci-attribution.ts";
import type { ConsolidationOutput, EntityResult } from "./output-schema.ts";
import { postingEntry } from "./posting.ts";
import { compileGroup } from "./prepare.ts";
import { buildStatements } from "./statements.ts";
import { unrealisedProfitEliminations } from "./unrealised-profit.ts";
import { derivedOpeningCtaWarnings } from "./warnings.ts";

/**
 * Validates JSON against the input contract; throws ConsolidationInputError with JSON paths.
 * Large inputs take the fast path (input-fast.ts); anything it does not accept gets zod's full walk,
 * which gives the messages.
 *
 * The contract on the amounts: a balance series' `amounts` array may be the caller's own array,
 * checked but not copied (1.8 million amounts for a large group), so the parsed input shares it with
 * `json`; so may an account object that has only the schema's keys, in its order (51,000 of them).
 * `consolidate` copies every amount into its own columns and never writes an account, and its result
 * refers to neither, so changing the input after consolidating never changes a result; changing it
 * between the parse and `consolidate` does.
 *
 * An entity may give its balances as `balanceColumns` instead (balance-columns.ts: one Float64Array
 * of every series, for callers in the same process); they are checked here (shape, lengths, every
 * amount a safe integer) and kept as given, under the same contract. Its accounts are checked
 * against the entity's when it is consolidated, as a series' account is.
 */
export function parseConsolidationInput(json: unknown): ConsolidationInput {
  // An entity's balanceColumns (balance-columns.ts) is checked on its own; the rest parses as JSON.
  const taken = takeBalanceColumns(json);
  if (!taken) return parseJson(json);
  let parsed: ConsolidationInput | undefined;
  let issues = taken.issues;
  try {
    parsed = parseJson(taken.json);
  } catch (e) {
    if (!(e instanceof ConsolidationInputError)) throw e;
    issues = [...e.issues, ...issues];
  }
  if (issues.length) throw new ConsolidationInputError(issues);
  parsed!.entities.forEach((e, i) => {
    const columns = taken.columns[i];
    if (columns) e.balanceColumns = columns;
  });
  return parsed!;
}

function parseJson(json: unknown): ConsolidationInput {
  const fast = parseConsolidationInputFast(json);
  if (fast) return fast;
  const parsed = consolidationInputSchema.safeParse(json);
  if (!parsed.success) throw new ConsolidationInputError(issuesFromZod(parsed.error));
  return parsed.data;
}

export const NCI_SHARE_OF_PROFIT_ROW = "(nci share of profit)";

/**
 * Consolidates a group for the input's period: translate every entity, map onto the parent's
 * chart, eliminate, split out NCI, and build the worksheet, statements and posting entries.
 * Throws ConsolidationInputError listing every problem when the input cannot be consolidated.
 */
export function consolidate(input: ConsolidationInput): ConsolidationOutput {
  const issues = new IssueList();
  const group = compileGroup(input, issues);
  issues.throwIfAny();
  if (!group) throw new ConsolidationInputError([{ path: [], message: "the group could not be compiled" }]);
  const { parent, period } = group;

  const designated = input.designatedAccounts;
  const dPath = ["designatedAccounts"];
  const ctaId = requireParentAccount(parent, designated.cta, [...dPath, "cta"], [LineKind.OtherEquity], "the CTA (it must be Equity, equityKind other)", issues);
  const fxId = requireParentAccount(parent, designated.fxDifference, [...dPath, "fxDifference"], [LineKind.Revenue, LineKind.Expense], "FX differences (it must be Revenue or Expense)", issues);
  const goodwillId = requireParentAccount(parent, designated.goodwill, [...dPath, "goodwill"], [LineKind.Asset], "goodwill (it must be an Asset)", issues);
  const nciId = requireParentAccount(parent, designated.nci, [...dPath, "nci"], [LineKind.OtherEquity], "NCI (it must be Equity, equityKind other)", issues);
  const impairmentId = requireParentAccount(parent, designated.goodwillImpairment, [...dPath, "goodwillImpairment"], [LineKind.Expense], "goodwill impairment losses (it must be an Expense)", issues);
  const bargainGainId = requireParentAccount(parent, designated.bargainPurchaseGain, [...dPath, "bargainPurchaseGain"], [LineKind.Revenue], "a gain on a bargain purchase (it must be Revenue)", issues);
  const mappings = compileMappings(input, group, issues);
  if (!nciId && group.entities.some((e) => e.nciShare.num !== 0n)) {
    issues.add([...dPath, "nci"], "a subsidiary is owned below 100%: name the parent's NCI account");
  }

  const translations = new Map<string, EntityTranslation>();
  for (const e of group.entities) translations.set(e.id, translateEntity(e, issues));
  issues.throwIfAny();
  const periodTbs = new Map<string, EntityPeriodTrialBalance>();
  for (const e of group.entities) periodTbs.set(e.id, entityPeriodTrialBalance(translations.get(e.id)!, period));

  // Rows: the parent's chart first, then one suspense row per unmapped account with a balance.
  const rows = new WorksheetRows();
  parent.accounts.forEach((a, i) => rows.add(a.id, a.name, a.classification, parent.kinds[i]! as LineKind, "account"));
  // Per entity (by its index), the worksheet row of each of its accounts.
  const rowIndex: Int32Array[] = [];
  const unmapped: ConsolidationOutput["unmapped"] = [];
  for (const e of group.entities) rowIndex[e.index] = accountRows(e, mappings.get(e.id)!.target, periodTbs.get(e.id)!, rows, unmapped);
  const nciShareRow = rows.add(NCI_SHARE_OF_PROFIT_ROW, "Net income attributable to non-controlling interests", "Expense", undefined, "nciShareOfProfit");
  const rowOf = (e: CompiledEntity, i: number) => rowIndex[e.index]![i]!;
  const ctaRow = ctaId === undefined ? undefined : rows.row(ctaId);
  const fxRow = fxId === undefined ? undefined : rows.row(fxId);
  const nciRow = nciId === undefined ? undefined : rows.row(nciId);
  const goodwillRow = goodwillId === undefined ? undefined : rows.row(goodwillId);
  const goodwillImpairmentRow = impairmentId === undefined ? undefined : rows.row(impairmentId);
  issues.throwIfAny();

  // Entity columns.
  const columns: Float64Array[] = [];
  const entityResults: EntityResult[] = [];
  for (const e of group.entities) {
    const tb = periodTbs.get(e.id)!;
    columns.push(entityColumn(tb.lines, rowIndex[e.index]!, rows, ctaRow, fxRow));
    entityResults.push(entityResult(e, translations.get(e.id)!, tb, tb.lines, period));
  }

  // Subsidiaries acquired or disposed of inside the period: every elimination and the NCI see
  // only the months the parent controlled them (mid-year.ts).
  const windows = controlWindows(input, group, translations, periodTbs, disposalMonths(input), issues);
  issues.throwIfAny();

  // Eliminations.
  const warnings: string[] = derivedOpeningCtaWarnings(group, translations);
  const histories = new Map<string, OwnershipHistory>();
  const ctx: EliminationContext = {
    input,
    group,
    translations,
    periodTbs: withControlWindows(periodTbs, windows),
    windows,
    ownershipHistories: histories,
    rowOf,
    ctaRow,
    fxRow,
    goodwillRow,
    nciRow,
    goodwillImpairmentRow,
    bargainPurchaseGainRow: bargainGainId === undefined ? undefined : rows.row(bargainGainId),
    retainedEarningsRow: rows.row(parent.accounts[parent.retainedEarningsRow]!.id)!,
    parentRow: (id) => (parent.accountIndex.has(id) ? rows.row(id) : undefined),
    issues,
    warnings,
  };
  // Ownership changes without a loss of control: each subsidiary's NCI shares by month
  // (ownership-change.ts). Filled before any elimination reads it; empty for groups without any.
  if (input.eliminations.investments.some((r) => r.ownershipChanges.length > 0)) {
    for (const [id, history] of ownershipHistories(ctx)) histories.set(id, history);
  }
  const acquisitions = new Map<string, AcquisitionEquity>();
  // What the eliminations attribute to a subsidiary's NCI (unrealised profit it made, manual entries about it).
  const attributions: NciAttributions = new Map();
  const eliminations: Elimination[] = [
    ...preAcquisitionEliminations(ctx),
    ...postDisposalEliminations(ctx),
    ...intercompanyEliminations(ctx),
    ...investmentEliminations(ctx, acquisitions),
    ...manualEliminations(ctx),
    ...unrealisedProfitEliminations(ctx, attributions),
    ...dividendEliminations(ctx),
  ];
  attributeManualEntries(ctx, attributions);
  const ownershipChanges = histories.size ? ownershipChangeEliminations(ctx, histories, acquisitions, eliminations) : undefined;
  if (ownershipChanges) eliminations.push(...ownershipChanges.eliminations);
  issues.throwIfAny();
  const eliminationColumn = new Float64Array(rows.size);
  for (const el of eliminations) {
    assertBalanced(el);
    for (const line of el.lines) eliminationColumn[line.row]! += line.amount;
  }

  // Non-controlling interests.
  const nciColumn = new Float64Array(rows.size);
  const nci: ConsolidationOutput["nci"] = [];
  for (const e of group.entities) {
    const history = histories.get(e.id);
    if (e.role !== "subsidiary" || (e.nciShare.num === 0n && !history)) continue;
    const nciRows = { nci: nciRow!, cta: ctaRow!, nciShareOfProfit: nciShareRow };
    const share: NciComputation = history
      ? segmentedNonControllingInterest(ctx, history, acquisitions.get(e.id), nciRows, ownershipChanges?.adjustments.get(e.id) ?? 0, attributions.get(e.id))
      : nonControllingInterest(e, ctx.periodTbs.get(e.id)!, acquisitions.get(e.id), (i) => rowIndex[e.index]![i]!, nciRows, attributions.get(e.id));
    for (const line of share.lines) nciColumn[line.row]! += line.amount;
    const { lines: _lines, ...figures } = share;
    nci.push({ entity: e.id, share: shareText(history ? history.segments.at(-1)!.share : e.nciShare), ...figures });
  }

  // Subsidiaries sold: derecognised at the disposal date, once their NCI there is known.
  if (input.eliminations.disposals.length) {
    const disposals = disposalEliminations(ctx, acquisitions, nci, eliminations);
    issues.throwIfAny();
    for (const el of disposals) {
      assertBalanced(el);
      for (const line of el.lines) eliminationColumn[line.row]! += line.amount;
      const n = nci.find((x) => x.entity === el.details.subsidiary);
      if (n) Object.assign(n, { derecognisedOnDisposal: n.closing, closing: 0 });
    }
    eliminations.push(...disposals);
  }

  const consolidated = sumColumns([...columns, eliminationColumn, nciColumn], rows.size);
  const statements = buildStatements(rows, consolidated, nciRow);

  const worksheet: ConsolidationOutput["worksheet"] = {
    columns: [
      ...group.entities.map((e) => ({ id: e.id, label: `${e.name} (${e.currency}${e.identity ? "" : ` → ${group.reportingCurrency}`})` })),
      { id: "eliminations", label: "Eliminations" },
      { id: "nci", label: "Non-controlling interests" },
      { id: "consolidated", label: "Consolidated" },
    ],
    rows: rows.ids.map((account, r) => ({
      account,
      name: rows.names[r]!,
      classification: rows.classifications[r]!,
      role: rows.roles[r]!,
      amounts: worksheetAmounts(columns, eliminationColumn[r]!, nciColumn[r]!, consolidated[r]!, r),
    })),
  };

  const journalEntries = group.entities
    .filter((e) => e.role === "subsidiary")
    .map((e) => postingEntry(e, translations.get(e.id)!, periodTbs.get(e.id)!, period, rows, rowIndex[e.index]!, ctaRow!, fxRow!));

  if (unmapped.length) warnings.unshift(`${unmapped.length} account(s) with balances are not mapped; they sit on UNMAPPED rows and the posting entries are not postable until they are mapped`);

  return withoutNegativeZero({
    reportingCurrency: group.reportingCurrency,
    exponent: group.reportingExponent,
    period: { from: formatMonth(period.from), to: formatMonth(period.to), months: period.to - period.from + 1 },
    entities: entityResults,
    unmapped,
    eliminations: eliminations.map((el) => ({
      id: el.id,
      kind: el.kind,
      description: el.description,
      lines: el.lines.map((l) => ({ account: rows.ids[l.row]!, name: rows.names[l.row]!, amount: l.amount })),
      details: el.details,
    })),
    nci,
    worksheet,
    ...statements,
    journalEntries,
    warnings,
  });
}

/*
 * The loops over every account of every entity live in small functions of their own, outside
 * consolidate: V8 then optimises each loop quickly on its own, instead of compiling all of
 * consolidate (a long compilation) because one of its loops is hot.
 */

/**
 * The worksheet row of each of an entity's accounts: its mapped parent account (the parent's
 * accounts are the first rows, in order), else an UNMAPPED suspense row; unmapped accounts with a
 * balance are listed in `unmapped`.
 */
function accountRows(e: CompiledEntity, target: Int32Array, tb: EntityPeriodTrialBalance, rows: WorksheetRows, unmapped: ConsolidationOutput["unmapped"]): Int32Array {
  const index = new Int32Array(e.accounts.length);
  for (let i = 0; i < e.accounts.length; i++) {
    const to = target[i]!;
    if (to >= 0) {
      index[i] = to;
      continue;
    }
    const a = e.accounts[i]!;
    const line = tb.lines[i]!;
    // Retained earnings and dividends lines carry the roll-forward; they must be mapped too.
    if (line.local !== 0 || line.translated !== 0) {
      unmapped.push({ entity: e.id, account: a.id, name: a.name, local: line.local, translated: line.translated });
    }
    index[i] = rows.add(`unmapped:${e.id}:${a.id}`, `UNMAPPED ${e.name}: ${a.name}`, a.classification, e.kinds[i]! as LineKind, "unmapped");
  }
  return index;
}

/**
 * An entity's worksheet column: each line of its period trial balance added to its row. The lines
 * are the result's lines (period.ts), so this also fills in the row each lands on.
 */
function entityColumn(lines: readonly TranslatedLine[], index: Int32Array, rows: WorksheetRows, ctaRow: number | undefined, fxRow: number | undefined): Float64Array {
  const column = new Float64Array(rows.size);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const row = line.special === "cta" ? ctaRow! : line.special === "remeasurement" ? fxRow! : index[i]!;
    column[row]! += line.translated;
    line.parentAccount = rows.ids[row]!;
  }
  return column;
}

/** Row by row, the sum of the columns (in their order). */
function sumColumns(columns: readonly Float64Array[], size: number): Float64Array {
  const sum = new Float64Array(size);
  for (const column of columns) {
    for (let r = 0; r < size; r++) sum[r]! += column[r]!;
  }
  return sum;
}

/** One worksheet row's amounts: each entity's column, then eliminations, NCI and consolidated (never −0). */
function worksheetAmounts(columns: readonly Float64Array[], elimination: number, nci: number, consolidated: number, r: number): number[] {
  const out = new Array<number>(columns.length + 3);
  for (let c = 0; c < columns.length; c++) out[c] = columns[c]![r]! + 0;
  out[columns.length] = elimination + 0;
  out[columns.length + 1] = nci + 0;
  out[columns.length + 2] = consolidated + 0;
  return out;
}

/**
 * Negating a zero balance gives −0, which JSON cannot carry and deep equality distinguishes;
 * the in-memory result should be exactly what a JSON reader sees. The large parts are built
 * without −0 and not walked again: entity lines (period.ts), worksheet amounts and the CTA
 * explanation's months (translate.ts explainCta) add + 0 (−0 + 0 is 0), its totals (entityResult)
 * are sums from 0, and a posting line's debit and credit are a positive amount or a literal 0.
 */
function withoutNegativeZero(out: ConsolidationOutput): ConsolidationOutput {
  const record = out as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === "entities") for (const e of out.entities) zeroNegativeZerosExcept(e, "lines", "ctaExplanation");
    else if (key === "journalEntries") for (const j of out.journalEntries) zeroNegativeZerosExcept(j, "lines");
    else if (key === "worksheet") zeroNegativeZerosExcept(out.worksheet, "rows");
    else if (record[key] === 0) record[key] = 0;
    else zeroNegativeZeros(record[key]);
  }
  return out;
}

function zeroNegativeZerosExcept(value: object, ...skip: readonly string[]): void {
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (skip.includes(key)) continue;
    if (record[key] === 0) record[key] = 0;
    else zeroNegativeZeros(record[key]);
  }
}

function zeroNegativeZeros<T>(value: T): T {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v === 0) value[i] = 0;
      else if (typeof v === "object" && v !== null) zeroNegativeZeros(v);
    }
  } else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    // Indexed, not for…of: this runs once, mostly before V8 optimises it, where every step of an
    // iterator is an object to collect.
    const keys = Object.keys(record);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      const v = record[key];
      if (v === 0) record[key] = 0;
      else if (typeof v === "object" && v !== null) zeroNegativeZeros(v);
    }
  }
  return value;
}

/** An NCI share (a decimal fraction num / 10^k) as text. */
function shareText(share: Ratio): string {
  const { num, den } = share;
  const scale = den.toString().length - 1;
  const digits = num.toString().padStart(scale + 1, "0");
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

function entityResult(
  e: CompiledEntity,
  tr: EntityTranslation,
  tb: EntityPeriodTrialBalance,
  lines: EntityResult["lines"],
  period: MonthRange,
): EntityResult {
  // The explanation exists for every month of the roll-forward; the result shows the period's.
  const from = formatMonth(period.from);
  const to = formatMonth(period.to);
  const months = tr.ctaExplanation.filter((m) => m.month >= from && m.month <= to);
  const total = { openingNetAssets: 0, netIncome: 0, dividends: 0, equityMovements: 0, rounding: 0, change: 0 };
  for (const m of months) {
    total.openingNetAssets += m.openingNetAssets;
    total.netIncome += m.netIncome;
    total.dividends += m.dividends;
    total.equityMovements += m.equityMovements;
    total.rounding += m.rounding;
    total.change += m.change;
  }
  return {
    id: e.id,
    name: e.name,
    role: e.role,
    currency: e.currency,
    method: e.identity ? "none" : e.method,
    ownership: e.ownershipText,
    lines,
    netIncome: { local: tb.netIncomeLocal, translated: tb.netIncomeTranslated },
    retainedEarnings: tb.retainedEarnings,
    cta: tb.cta,
    remeasurement: tb.remeasurement,
    ctaExplanation: { months, total },
  };
}
