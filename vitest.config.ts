import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// CI asks for a JSON report to print a plain "N passed, N failed" line at the end.
const jsonReport = process.env.VITEST_JSON_REPORT;

// One runner for the whole repo: each workspace is a project, so `npm test` runs them all.
export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: one worker on CI's 2 cores. Most of the
    // suite waits on something else (PostgreSQL, the e2e server and Chromium, each its own
    // process), so more workers fill that time: three on CI's 2 cores measured 11.2 min for
    // .ci/run against 12.1 with two (issue 19: CI under 12 minutes). With the suite grown to 3,037
    // tests, a clean-clone .ci/run with three used 1.5 of the 2 cores over 13.3 min (20.5 min of
    // CPU): a fourth worker fills more of the waiting.
    // On 2026-11-29's machine (a fresh 4 KB page costs 15-20 µs, docs/performance.md) two clean-clone
    // runs with four workers took 23 and 26 minutes and lost e2e tests to timeouts (a modal still
    // animating under the load, a 60 s screen check): three leave each worker more of the cores.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    projects: [
      "packages/domain",
      "packages/contract",
      "packages/qbo",
      "packages/qbo-sandbox",
      "apps/server",
      "apps/web",
      "apps/web/vitest.e2e.config.ts",
    ],
    ...(jsonReport ? { reporters: ["default", "json"], outputFile: { json: jsonReport } } : {}),
  },
});
