import { defineConfig } from "vitest/config";

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
    ],
  },
});
