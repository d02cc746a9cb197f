import { defineConfig } from "vitest/config";

// CI asks for a JSON report to print a plain "N passed, N failed" line at the end.
const jsonReport = process.env.VITEST_JSON_REPORT;

// One runner for the whole repo: each workspace is a project, so `npm test` runs them all.
export default defineConfig({
  test: {
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
