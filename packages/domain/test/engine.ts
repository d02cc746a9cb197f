import { expect } from "vitest";
import { consolidate, parseConsolidationInput } from "../src/consolidation/consolidate.ts";
import { ConsolidationInputError, formatIssue } from "../src/consolidation/errors.ts";
import { consolidationOutputSchema, type ConsolidationOutput } from "../src/consolidation/output-schema.ts";

/** The engine on an input, its output checked against the output contract (the tests' one way to run it). */
export function run(input: unknown): ConsolidationOutput {
  const out = consolidate(parseConsolidationInput(input));
  consolidationOutputSchema.parse(out);
  return out;
}

/** What the engine refuses in an input, each issue as "$.path: message"; fails the test when it accepts it. */
export function problems(input: unknown): string[] {
  try {
    consolidate(parseConsolidationInput(input));
  } catch (e) {
    if (e instanceof ConsolidationInputError) return e.issues.map(formatIssue);
    throw e;
  }
  throw new Error("expected the input to be refused");
}

/** A worksheet row's consolidated amount (or another column's). */
export const consolidatedAmount = (out: ConsolidationOutput, account: string, column = -1): number => out.worksheet.rows.find((r) => r.account === account)!.amounts.at(column)!;

/** Every worksheet column sums to zero (debits equal credits in each). */
export const columnsSumToZero = (out: ConsolidationOutput): void =>
  out.worksheet.columns.forEach((c, i) => expect(out.worksheet.rows.reduce((s, r) => s + r.amounts[i]!, 0), c.id).toBe(0));

/** Every elimination entry's lines sum to zero. */
export const eliminationsBalance = (out: ConsolidationOutput): void => {
  for (const e of out.eliminations) expect(e.lines.reduce((s, l) => s + l.amount, 0), e.id).toBe(0);
};

/**
 * What an NCI schedule's parts add up to, its closing NCI (output-schema.ts): at acquisition +
 * capital + retained earnings − dividends + CTA + net income − goodwill impairment before the
 * period + goodwill's CTA − fair-value releases before the period + their CTA − unrealised profit
 * before the period + attributed manual equity + the adjustments at ownership changes (if any).
 */
export const nciSumOfParts = (n: ConsolidationOutput["nci"][number]): number =>
  n.atAcquisition +
  n.capitalSinceAcquisition +
  n.retainedEarningsSinceAcquisition -
  n.dividends +
  n.cta +
  n.netIncome -
  n.goodwillImpairmentBeforePeriod +
  n.goodwillCta -
  n.fairValueReleasedBeforePeriod! +
  n.fairValueCta! -
  n.unrealisedProfitBeforePeriod! +
  n.attributedManualEquity! +
  (n.ownershipChanges ?? 0);
