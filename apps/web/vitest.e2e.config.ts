import { defineConfig } from "vitest/config";

/**
 * End-to-end tests: headless Chromium (Debian's, never downloaded) against the real server on the
 * embedded database, started by the global setup with a shortened idle timeout.
 */
export default defineConfig({
  test: {
    name: "e2e",
    root: import.meta.dirname,
    include: ["e2e/**/*.e2e.ts"],
    environment: "node",
    globalSetup: ["e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
