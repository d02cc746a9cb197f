// What the one pass over an entity's local amounts gives (translate.ts translateAmounts), as data
// only: the compiled entity (consolidation/model.ts) keeps it, and the translation reads it, so
// these types live apart from both and neither module imports the other's types for them.

/** Each revenue and expense row's activity over the months `from` to the last, local and translated (0 for every other row). */
export interface PeriodFlows {
  readonly from: number;
  readonly local: Float64Array;
  readonly translated: Float64Array;
}

/** Each balance-sheet row's translated balance at the month before the period and at its last month (0 for every other row). */
export interface PeriodBalances {
  readonly before: Float64Array;
  readonly end: Float64Array;
}

/** Month-by-month sums of one entity's translated lines, filled row by row. */
export interface MonthSums {
  readonly bsTranslated: Float64Array;
  readonly plTranslated: Float64Array;
  readonly netAssetsLocal: Float64Array;
  /** Contributed capital and other equity, local. */
  readonly equityLocal: Float64Array;
  readonly equityTranslated: Float64Array;
  readonly plLocal: Float64Array;
}

/** Month by month (debit positive): the balance sheet's sum, retained earnings with dividends, the result. */
export interface LocalBookSums {
  readonly balance: Float64Array;
  readonly retained: Float64Array;
  /** From month 1 (month 0's is not read: a result is a month's activity). */
  readonly result: Float64Array;
}

/**
 * What the one pass over an entity's local amounts gives (translateAmounts): every row translated
 * and summed, and the local books' sums their check reads (prepare.ts checkLocalBooks).
 */
export interface AmountsPass {
  readonly rowBasis: Uint8Array;
  readonly stored: ReadonlyMap<number, Float64Array>;
  readonly sums: MonthSums;
  readonly periodFlows: PeriodFlows;
  readonly periodBalances: PeriodBalances;
  readonly books: LocalBookSums;
  /**
   * What the translation threw (a translated amount beyond ±2^53), or undefined. The books' check
   * comes first (prepare.ts), so the error is thrown only where the entity is translated
   * (translateEntity), as it was when the translation was a pass of its own.
   */
  readonly failure: unknown;
}
