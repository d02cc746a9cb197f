import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files share a worker's modules (the app and its dependencies) instead of importing them again
    // each (issue 19, CI time): each file builds its own app, database and emulator, and the files
    // that spy on a module restore it after each test.
    isolate: false,
  },
});
