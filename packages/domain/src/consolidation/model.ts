import type { Factor, FactorColumns, Rate, Ratio } from "../money/rate.ts";
import type { MonthIndex, MonthRange } from "../periods/month.ts";
import type { AmountsPass } from "../translation/amounts-pass.ts";
import type { AccountInput, Classification, EquityKind } from "./input-schema.ts";

/**
 * The compiled, columnar form the engine computes on. Amounts live in Float64Arrays holding safe
 * integers (minor units): one row per account, one column per month, row-major.
 */

export const LineKind = {
  Asset: 0,
  Liability: 1,
  ContributedCapital: 2,
  RetainedEarnings: 3,
  Dividends: 4,
  OtherEquity: 5,
  Revenue: 6,
  Expense: 7,
} as const;
export type LineKind = (typeof LineKind)[keyof typeof LineKind];

export const CLASSIFICATION_OF_KIND: readonly Classification[] = [
  "Asset", "Liability", "Equity", "Equity", "Equity", "Equity", "Revenue", "Expense",
];

export function lineKindOf(classification: Classification, equityKind: EquityKind | undefined): LineKind {
  switch (classification) {
    case "Asset": return LineKind.Asset;
    case "Liability": return LineKind.Liability;
    case "Revenue": return LineKind.Revenue;
    case "Expense": return LineKind.Expense;
    case "Equity":
      switch (equityKind) {
        case "contributedCapital": return LineKind.ContributedCapital;
        case "retainedEarnings": return LineKind.RetainedEarnings;
        case "dividends": return LineKind.Dividends;
        default: return LineKind.OtherEquity;
      }
  }
}

export function isProfitAndLoss(kind: LineKind): boolean {
  return kind === LineKind.Revenue || kind === LineKind.Expense;
}

/** Retained earnings and dividends accounts are replaced by the translated roll-forward. */
export function isRolledForward(kind: LineKind): boolean {
  return kind === LineKind.RetainedEarnings || kind === LineKind.Dividends;
}

/**
 * One account with what compiling it found. Built only where one is asked for (mappingProblem):
 * an entity keeps its accounts as given (`accounts`) and the rest as typed columns (`kinds`,
 * `monetary`), not as an object per account (51,000 for a large group).
 */
export interface CompiledAccount {
  readonly id: string;
  readonly name: string;
  readonly classification: Classification;
  readonly equityKind: EquityKind | undefined;
  readonly kind: LineKind;
  readonly monetary: boolean;
}

export function compiledAccount(e: CompiledEntity, i: number): CompiledAccount {
  const a = e.accounts[i]!;
  return { id: a.id, name: a.name, classification: a.classification, equityKind: a.equityKind, kind: e.kinds[i]! as LineKind, monetary: e.monetary[i] === 1 };
}

/** How a historically translated line gets its opening translated balance. */
export type HistoricalBasis =
  | { readonly type: "rate"; readonly rate: Rate; readonly factor: Factor }
  | { readonly type: "amount"; readonly amount: number };

export interface CompiledDividend {
  readonly t: number;
  readonly amount: number;
  readonly path: readonly (string | number)[];
  /** declarationDate policy: the factor to translate at. */
  readonly factor: Factor | undefined;
  readonly rateText: string | undefined;
  /** profitPeriod policy: roll-forward month offsets whose translated profit is distributed. */
  readonly profitOf: { readonly from: number; readonly to: number } | undefined;
}

export interface CompiledEntity {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly role: "parent" | "subsidiary";
  readonly currency: string;
  readonly exponent: number;
  readonly reportingExponent: number;
  /** Same currency as the reporting currency: amounts pass through unchanged (no translation). */
  readonly identity: boolean;
  readonly method: "currentRate" | "temporal";
  readonly ownershipText: string;
  /** 1 − ownership, exact. */
  readonly nciShare: Ratio;
  readonly fiscalYearStartMonth: number;
  /** The entity's accounts as the input gives them (id, name, classification, equityKind). */
  readonly accounts: readonly AccountInput[];
  /** Each account's LineKind, a typed column for the loops over every account. */
  readonly kinds: Uint8Array;
  /** 1 for a monetary account (the input's `monetary`, by default a Liability's): the temporal method's closing-rate items. */
  readonly monetary: Uint8Array;
  readonly accountIndex: ReadonlyMap<string, number>;
  /** The rows of equity accounts (every kind), ascending: what the NCI reads, without a pass over every account. */
  readonly equityRows: Int32Array;
  /** Opening month; offset t counts months from it (t = 0 is the opening month-end). */
  readonly start: MonthIndex;
  /** Months held: start … start + months − 1 (the consolidation period's last month). */
  readonly months: number;
  /** Local minor units, account-major: local[i * months + t]. */
  readonly local: Float64Array;
  readonly closing: readonly Factor[];
  readonly average: readonly Factor[];
  /** The same factors as typed columns, for the translation's row loops. */
  readonly closingColumns: FactorColumns;
  readonly averageColumns: FactorColumns;
  readonly closingRates: readonly (Rate | undefined)[];
  readonly averageRates: readonly (Rate | undefined)[];
  readonly historical: ReadonlyMap<number, HistoricalBasis>;
  /** key accountIndex × months + t (as `local`) → rate for the change in a historically translated balance. */
  readonly movementRates: ReadonlyMap<number, { readonly rate: Rate; readonly factor: Factor }>;
  readonly dividends: readonly CompiledDividend[];
  readonly openingRetainedEarnings: number | undefined;
  readonly openingCta: number | undefined;
  /** Account receiving the translated retained earnings roll-forward. */
  readonly retainedEarningsRow: number;
  /** Account receiving translated dividends (the first dividends account, else retainedEarningsRow). */
  readonly dividendsRow: number;
  readonly inputPath: readonly (string | number)[];
  /** The pass over `local` made when compiling: the translation's rows and the books' sums (translation/translate.ts translateAmounts). */
  readonly pass: AmountsPass;
}

export interface CompiledGroup {
  readonly reportingCurrency: string;
  readonly reportingExponent: number;
  readonly period: MonthRange;
  readonly parent: CompiledEntity;
  readonly entities: readonly CompiledEntity[];
}
