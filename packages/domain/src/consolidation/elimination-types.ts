import type { Ratio } from "../money/rate.ts";
import type { EntityPeriodTrialBalance } from "../translation/period.ts";
import type { EntityTranslation } from "../translation/translate.ts";
import type { IssueList } from "./errors.ts";
import type { ConsolidationInput } from "./input-schema.ts";
import type { CompiledEntity, CompiledGroup } from "./model.ts";

/**
 * The shapes the elimination modules pass each other (eliminations.ts, mid-year.ts,
 * ownership-change.ts, nci.ts, …). They live apart from the code so that those modules, which
 * call each other, never import one another just for a type (no import loop).
 */

export interface EntryLine {
  readonly row: number;
  readonly amount: number;
}

export interface Elimination {
  readonly id: string;
  readonly kind: "receivablePayable" | "revenueExpense" | "investment" | "manual" | "unrealisedProfit" | "dividend" | "preAcquisition" | "disposal" | "ownershipChange";
  readonly description: string;
  readonly lines: readonly EntryLine[];
  readonly details: Record<string, number | string>;
}

/** Equity of a subsidiary at acquisition, by worksheet row, debit positive (so mostly negative). */
export interface AcquisitionEquity {
  readonly byAccount: ReadonlyMap<number, number>;
  readonly retainedEarnings: number;
  readonly cta: number;
  /** Credit positive: proportionate share of net assets, or the given fair value. */
  readonly nciAtAcquisition: number;
  /** Fair-value measurement: the NCI owns its share of goodwill, so of its impairment and exchange differences. */
  readonly nciSharesGoodwill: boolean;
  /** Goodwill impairment recognised in the period, reporting minor units (positive = a loss). */
  readonly impairmentInPeriod: number;
  /** NCI's share of impairment recognised before the period (positive = reduces the NCI). */
  readonly nciImpairmentBeforePeriod: number;
  /** NCI's share of the cumulative exchange difference on goodwill, credit positive. */
  readonly nciGoodwillCta: number;
  /** Fair-value adjustments released in the period (an expense, reporting minor units); the NCI's profit share bears its part. */
  readonly fairValueReleasedInPeriod?: number;
  /** NCI's share of fair-value adjustments released before the period (positive = reduces the NCI). */
  readonly nciFairValueReleasedBeforePeriod?: number;
  /** NCI's share of the exchange difference on fair-value adjustments, credit positive. */
  readonly nciFairValueCta?: number;
}

export interface EliminationContext {
  readonly input: ConsolidationInput;
  readonly group: CompiledGroup;
  readonly translations: ReadonlyMap<string, EntityTranslation>;
  readonly periodTbs: ReadonlyMap<string, EntityPeriodTrialBalance>;
  /** Worksheet row of an entity's account. */
  rowOf(entity: CompiledEntity, accountIndex: number): number;
  readonly ctaRow: number | undefined;
  readonly fxRow: number | undefined;
  readonly goodwillRow: number | undefined;
  readonly nciRow: number | undefined;
  readonly goodwillImpairmentRow: number | undefined;
  /** designatedAccounts.bargainPurchaseGain, when named. */
  readonly bargainPurchaseGainRow?: number | undefined;
  /** The parent's retained earnings row (impairment charged before the period). */
  readonly retainedEarningsRow: number;
  readonly parentRow: (accountId: string) => number | undefined;
  readonly issues: IssueList;
  readonly warnings: string[];
  /** Subsidiaries acquired or disposed of inside the period (mid-year.ts); absent or empty otherwise. */
  readonly windows?: ControlWindows;
  /** Subsidiaries whose ownership changed without a loss of control (ownership-change.ts); absent or empty otherwise. */
  readonly ownershipHistories?: ReadonlyMap<string, OwnershipHistory>;
}

/** The months of the period a subsidiary was controlled in (mid-year.ts explains the rule). */
export interface ControlWindow {
  readonly entity: CompiledEntity;
  /** Roll-forward offsets (t) of the first and last months consolidated; first = last + 1 when none is. */
  readonly first: number;
  readonly last: number;
  /** Acquired inside the period: the acquisition month's offset (the first month consolidated is the next). */
  readonly acquiredAt: number | undefined;
  /** Disposed of inside the period: the disposal month's offset (the last month consolidated). */
  readonly disposedAt: number | undefined;
  /** The subsidiary's translated trial balance for the whole period (its worksheet column). */
  readonly periodTb: EntityPeriodTrialBalance;
  /** The trial balance of the months consolidated: balance sheet at the last one, P&L over them, retained earnings at the start. */
  readonly tb: EntityPeriodTrialBalance;
}

export type ControlWindows = ReadonlyMap<string, ControlWindow>;

/** One stretch of months with one NCI share: movements of months start < t ≤ end. */
export interface OwnershipSegment {
  readonly start: number;
  readonly end: number;
  readonly share: Ratio;
}

/** A subsidiary's changes in ownership without a loss of control (ownership-change.ts). */
export interface OwnershipHistory {
  readonly sub: CompiledEntity;
  readonly segments: readonly OwnershipSegment[];
  /** Changes up to the last month consolidated, in order. */
  readonly changes: readonly { readonly t: number; readonly before: Ratio; readonly after: Ratio; readonly ownershipText: string; readonly index: number }[];
  readonly ruleIndex: number;
}
