import { describe, expect, it } from "vitest";
import { useTestApp } from "./app.ts";
import { get } from "./flows.ts";

/**
 * Logs are pino's JSON, one object a line, in every environment (issue 22): formatting them for
 * people in the process (pino-pretty) cost the request path a third of its throughput. A person at a
 * terminal asks for pretty output with LOG_PRETTY=true (config.test.ts), or pipes the JSON through
 * `npx pino-pretty`.
 */
describe("the request log in development", () => {
  const lines: string[] = [];
  const t = useTestApp("pglite", { config: { env: "development", logLevel: "info" }, logStream: { write: (line: string) => void lines.push(line) } });

  it("is one JSON object a line, with the request's id, method, URL and status", async () => {
    expect((await get(t.app, "/api/health")).statusCode).toBe(200);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const completed = records.find((r) => r["msg"] === "request completed");
    expect(completed).toMatchObject({ level: 30, reqId: expect.any(String), res: { statusCode: 200 } });
    const incoming = records.find((r) => r["msg"] === "incoming request" && r["reqId"] === completed?.["reqId"]);
    expect(incoming).toMatchObject({ req: { method: "GET", url: "/api/health" } });
  });
});
