import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
  // The manifest lets bench/bundle.bench.ts follow exactly which chunks a route loads.
  build: { outDir: "dist", emptyOutDir: true, manifest: true },
  test: {
    name: "web",
    include: ["src/**/*.test.{ts,tsx}"],
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    // Component tests wait for lazy chunks (see src/test/setup.ts); leave room on a loaded machine.
    testTimeout: 30_000,
    css: false,
  },
});
