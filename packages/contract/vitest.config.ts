import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "contract",
    include: ["src/**/*.test.ts"],
    // Files share a worker's modules instead of each importing them again in a fresh process (CI
    // time): measured on this package set, 72 s of CPU against 125 s isolated. What a test stubs it
    // restores after itself (vi.unstubAllGlobals), so no file sees another's state.
    isolate: false,
    // CI runs three or four workers on two cores beside PostgreSQL, the e2e servers and Chromium: property
    // tests that take 2–3 s alone (password rules, token decoding) and the emulator's start took over
    // vitest's default 5 s there (a clean-clone run on 2026-11-29). A hang still fails, at 20 s.
    testTimeout: 20_000,
  },
});
