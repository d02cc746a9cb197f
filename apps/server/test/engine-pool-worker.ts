// The engine pool's worker for engine-pool.test.ts: the real one (engine-worker.ts), except that an
// input saying so crashes the thread, stalls it, or throws inside the engine's handler.
import { parentPort } from "node:worker_threads";

parentPort!.on("message", ({ input }: { input: { test?: { crash?: boolean; stallMs?: number } } }) => {
  if (input?.test?.crash) process.exit(7);
  if (input?.test?.stallMs) {
    const until = Date.now() + input.test.stallMs;
    while (Date.now() < until);
  }
});
await import("../src/modules/consolidation/engine-worker.ts");
