import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "qbo-sandbox", include: ["src/**/*.test.ts"] } });
