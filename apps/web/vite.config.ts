import react from "@vitejs/plugin-react";
import { compression, defineAlgorithm } from "vite-plugin-compression2";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    react(),
    // Brotli and gzip copies beside each asset (x.js.br, x.js.gz), made once at build time at the
    // highest levels; the server picks one by Accept-Encoding (apps/server/src/http/web.ts).
    // index.html is left alone: it is tiny and is the one file a deploy rewrites in place, so a
    // stale compressed copy could outlive it.
    compression({
      include: /\/?assets\/.+\.(js|css|svg)$/,
      algorithms: [defineAlgorithm("brotliCompress"), defineAlgorithm("gzip", { level: 9 })],
      logLevel: "silent",
    }),
  ],
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The manifest lets bench/bundle.bench.ts follow exactly which chunks a route loads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // React and the router change only on upgrades: in their own chunks, a deploy of app code
          // leaves them cached (assets are immutable). The router is apart from React because a
          // first visit to /login draws its form without it (src/app/shell.tsx).
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "router", test: /node_modules[\\/]react-router[\\/]/ },
          ],
        },
      },
    },
  },
  test: {
    name: "web",
    include: ["src/**/*.test.{ts,tsx}"],
    environment: "jsdom",
    setupFiles: ["./src/test/setup.ts"],
    // Component tests wait for lazy chunks (see src/test/setup.ts); leave room on a loaded machine.
    testTimeout: 30_000,
    // Files share a worker's modules (React, Mantine, the app) instead of importing them again each:
    // the project ran in 188 s instead of 547 s (issue 19, CI time). What a module keeps between
    // tests is reset after each one in src/test/setup.ts.
    isolate: false,
    css: false,
  },
});
