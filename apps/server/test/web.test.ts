import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { testConfig } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./databases.ts";

describe("serving the built web app", () => {
  let app: FastifyInstance;
  let db: TestDatabase;
  const dist = mkdtempSync(join(tmpdir(), "gl-web-"));

  beforeAll(async () => {
    mkdirSync(join(dist, "assets"));
    writeFileSync(join(dist, "index.html"), "<!doctype html><div id=root></div>");
    writeFileSync(join(dist, "assets", "app.js"), "console.log(1)");
    db = await createTestDatabase("pglite");
    app = await buildApp({ config: testConfig(), database: db.database, logger: false, webDist: dist });
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
    rmSync(dist, { recursive: true, force: true });
  });

  it("serves the shell at / and for client-side routes", async () => {
    for (const url of ["/", "/setup/companies", "/consolidation/run?period=2026-10"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.body).toContain('<div id=root>');
    }
  });

  it("serves assets", async () => {
    const res = await app.inject({ method: "GET", url: "/assets/app.js" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("console.log(1)");
  });

  it("keeps JSON 404s for the API and for non-GET requests", async () => {
    for (const [method, url] of [["GET", "/api/nope"], ["GET", "/api"], ["POST", "/setup/companies"]] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe("not_found");
    }
  });
});
