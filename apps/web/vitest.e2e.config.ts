import { defineConfig } from "vitest/config";

/**
 * End-to-end tests: headless Chromium (Debian's, never downloaded) against the real server on the
 * embedded database, started by the global setup.
 */
export default defineConfig({
  test: {
    name: "e2e",
    root: import.meta.dirname,
    include: ["e2e/**/*.e2e.ts"],
    environment: "node",
    globalSetup: ["e2e/global-setup.ts"],
    // Files run side by side with each other and with the other projects' tests (each file has
    // its own server and emulator, or its own users on the global one): kept apart, vitest would
    // run every e2e file alone after everything else, 5+ minutes on one core (issue 19, CI time).
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
