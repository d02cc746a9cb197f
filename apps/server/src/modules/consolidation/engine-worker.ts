// One thread of the engine pool (engine-pool.ts): consolidates the built inputs it is sent, one at a
// time, and answers each with the output, the issues the engine refused the input with, or the
// failure (an engine bug: that request fails, the thread stays).
import { parentPort } from "node:worker_threads";
import { consolidate, ConsolidationInputError, parseConsolidationInput } from "@groupledger/domain";
import { type EngineAnswer, type EngineJob, leanOutput, unpackBalances } from "./engine-pool.ts";

const port = parentPort!;
port.on("message", ({ id, input, amounts, lean }: EngineJob) => {
  let answer: EngineAnswer;
  try {
    const output = consolidate(parseConsolidationInput(unpackBalances(input, amounts)));
    answer = { id, ok: true, output: lean ? leanOutput(output) : output };
  } catch (e) {
    answer =
      e instanceof ConsolidationInputError
        ? { id, ok: false, issues: e.issues }
        : { id, ok: false, failure: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  port.postMessage(answer);
});
port.postMessage({ ready: true });
