import { consolidate, ConsolidationInputError, type ConsolidationOutput, formatIssue, parseConsolidationInput, type Problem } from "@groupledger/domain";
import type { BuildResult } from "./input.ts";

/**
 * Runs the engine on a built input. When the engine refuses it, the output is null and, if
 * `problems` (what our own checks found) does not already say why, the engine's issues are added
 * to it as "engine_refused" problems (naming `realmId` when given): never lose what it says.
 */
export function consolidateBuilt(input: BuildResult["input"], problems: Problem[], realmId?: string): ConsolidationOutput | null {
  try {
    return consolidate(parseConsolidationInput(input));
  } catch (e) {
    if (!(e instanceof ConsolidationInputError)) throw e;
    if (problems.length === 0) {
      for (const issue of e.issues) problems.push({ code: "engine_refused", ...(realmId === undefined ? {} : { realmId }), message: `The consolidation engine refused the input: ${formatIssue(issue)}` });
    }
    return null;
  }
}
