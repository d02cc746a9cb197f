import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [react()],
  server: { proxy: { "/api": "http://127.0.0.1:3000" } },
  build: { outDir: "dist", emptyOutDir: true },
  test: { name: "web", include: ["src/**/*.test.{ts,tsx}"] },
});
