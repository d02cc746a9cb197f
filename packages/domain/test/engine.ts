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
