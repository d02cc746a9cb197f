import { defineProject } from "vitest/config";

export default defineProject({ test: { name: "qbo", include: ["src/**/*.test.ts"] } });
