import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { App } from "./App.tsx";
import { fetchHealth } from "./api.ts";

const respond = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status });

describe("fetchHealth", () => {
  it("returns the contract-checked health", async () => {
    const health = await fetchHealth(respond(200, { status: "ok", database: "pglite", version: "0.1.0" }));
    expect(health).toEqual({ status: "ok", database: "pglite", version: "0.1.0" });
  });

  it("fails with the status when the server is down", async () => {
    await expect(fetchHealth(respond(503, { error: { code: "database_unavailable" } }))).rejects.toThrow("The server answered 503.");
  });

  it("fails when the answer does not match the contract", async () => {
    await expect(fetchHealth(respond(200, { status: "fine" }))).rejects.toThrow(/unexpected shape/);
  });
});

describe("App", () => {
  it("says what the product is and shows the server state", () => {
    const html = renderToString(<App initial={{ state: "ok", health: { status: "ok", database: "postgres", version: "1.2.3" } }} />);
    expect(html).toContain("GroupLedger");
    expect(html).toContain("QuickBooks Online");
    expect(html).toContain("Server 1.2.3 is up (database: postgres).");
  });

  it("explains when the server cannot be reached", () => {
    const html = renderToString(<App initial={{ state: "error", message: "The server answered 503." }} />);
    expect(html).toContain("The server is not reachable: The server answered 503.");
  });
});
