import { ConsolidationInputError, type ConsolidationOutput, formatIssue, type Problem } from "@groupledger/domain";
import { type EngineResult, enginePool, type LeanOutput } from "./engine-pool.ts";
import type { BuildResult } from "./input.ts";

/**
 * Runs the engine on a built input, on the engine pool's threads (engine-pool.ts). When the engine
 * refuses it, the output is null and, if `problems` (what our own checks found) does not already
 * say why, the engine's issues are added to it as "engine_refused" problems (naming `realmId` when
 * given): never lose what it says.
 */
export async function consolidateBuilt(input: BuildResult["input"], problems: Problem[], realmId?: string): Promise<ConsolidationOutput | null> {
  return outputOrProblems(await enginePool().run(input), problems, realmId);
}

/** As consolidateBuilt, without the translated lines and journal entries (engine-pool.ts leanOutput): what a report shows. */
export async function consolidateLean(input: BuildResult["input"], problems: Problem[]): Promise<LeanOutput | null> {
  return outputOrProblems(await enginePool().runLean(input), problems);
}

function outputOrProblems<Output>(result: EngineResult<Output>, problems: Problem[], realmId?: string): Output | null {
  if (result.ok) return result.output;
  if (problems.length === 0) {
    for (const issue of result.issues) problems.push({ code: "engine_refused", ...(realmId === undefined ? {} : { realmId }), message: `The consolidation engine refused the input: ${formatIssue(issue)}` });
  }
  return null;
}

/** The engine's output for a built input, on the engine pool; throws ConsolidationInputError when it refuses the input (as `consolidate` does). */
export async function consolidateOrThrow(input: BuildResult["input"]): Promise<ConsolidationOutput> {
  const result = await enginePool().run(input);
  if (!result.ok) throw new ConsolidationInputError(result.issues);
  return result.output;
}
