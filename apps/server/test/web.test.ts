import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { testConfig } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./databases.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** The body as the browser reads it, whatever Content-Encoding it came in. */
function decoded(res: LightMyRequestResponse): Buffer {
  const encoding = res.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(res.rawPayload);
  if (encoding === "gzip") return gunzipSync(res.rawPayload);
  expect(encoding).toBeUndefined();
  return res.rawPayload;
}

describe("serving the built web app", () => {
  let app: FastifyInstance;
  let db: TestDatabase;
  const dist = mkdtempSync(join(tmpdir(), "gl-web-"));
  // Laid out as `vite build` leaves it: hashed names under assets/, a brotli and a gzip copy beside
  // the chunks big enough to have them (apps/web/vite.config.ts), index.html without copies.
  const chunk = Buffer.from(Array.from({ length: 400 }, (_, i) => `export const screen${i} = "GroupLedger screen ${i}";\n`).join(""));
  const copies = { br: brotliCompressSync(chunk), gz: gzipSync(chunk, { level: 9 }) };
  const small = "console.log(1)";
  const shell = "<!doctype html><div id=root></div>";

  beforeAll(async () => {
    mkdirSync(join(dist, "assets"));
    writeFileSync(join(dist, "index.html"), shell);
    writeFileSync(join(dist, "assets", "LoginPage-C-l1EGH4.js"), chunk);
    writeFileSync(join(dist, "assets", "LoginPage-C-l1EGH4.js.br"), copies.br);
    writeFileSync(join(dist, "assets", "LoginPage-C-l1EGH4.js.gz"), copies.gz);
    writeFileSync(join(dist, "assets", "app-Dai8m545.js"), small);
    db = await createTestDatabase("pglite");
    app = await buildApp({ config: testConfig(), database: db.database, logger: false, webDist: dist });
    // A stand-in for the report download: the .xlsx type itself is what decides.
    app.get("/api/test/download.xlsx", async (_req, reply) => reply.type(XLSX).send(Buffer.alloc(64 * 1024, 7)));
  });
  afterAll(async () => {
    await app.close();
    await db.drop();
    rmSync(dist, { recursive: true, force: true });
  });

  it("serves the shell at / and for client-side routes, revalidated on every load", async () => {
    for (const url of ["/", "/index.html", "/setup/companies", "/consolidation/run?period=2026-10"]) {
      const res = await app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/text\/html/);
      expect(res.headers["cache-control"], url).toBe("no-cache");
      expect(decoded(res).toString(), url).toBe(shell);
    }
  });

  it("answers HEAD for client-side routes like GET, headers without a body (monitors and link checkers use HEAD)", async () => {
    for (const url of ["/login", "/setup/companies"]) {
      const res = await app.inject({ method: "HEAD", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/text\/html/);
      expect(res.body, url).toBe("");
    }
    expect((await app.inject({ method: "HEAD", url: "/api/nope" })).statusCode).toBe(404);
  });

  it("serves assets as they are to a client that accepts no encoding", async () => {
    for (const [url, body] of [["/assets/app-Dai8m545.js", small], ["/assets/LoginPage-C-l1EGH4.js", chunk.toString()]] as const) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-encoding"], url).toBeUndefined();
      expect(res.headers["content-type"]).toMatch(/javascript/);
      expect(res.body).toBe(body);
    }
  });

  it("sends the brotli copy when brotli is accepted, else the gzip copy, varying on Accept-Encoding", async () => {
    const url = "/assets/LoginPage-C-l1EGH4.js";
    const br = await app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toMatch(/javascript/);
    expect(br.headers["vary"]).toMatch(/accept-encoding/i);
    // The copy made at build time, byte for byte: nothing is compressed per request.
    expect(br.rawPayload.equals(copies.br)).toBe(true);
    expect(brotliDecompressSync(br.rawPayload).equals(chunk)).toBe(true);

    const gz = await app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["vary"]).toMatch(/accept-encoding/i);
    expect(gz.rawPayload.equals(copies.gz)).toBe(true);
    expect(gunzipSync(gz.rawPayload).equals(chunk)).toBe(true);

    const plain = await app.inject({ method: "GET", url, headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["vary"]).toMatch(/accept-encoding/i);
    expect(plain.rawPayload.equals(chunk)).toBe(true);
  });

  it("caches hashed assets for a year as immutable, whichever copy is sent", async () => {
    for (const encoding of ["br", "gzip", "identity"]) {
      for (const url of ["/assets/LoginPage-C-l1EGH4.js", "/assets/app-Dai8m545.js"]) {
        const res = await app.inject({ method: "GET", url, headers: { "accept-encoding": encoding } });
        expect(res.statusCode, `${url} ${encoding}`).toBe(200);
        expect(res.headers["cache-control"], `${url} ${encoding}`).toBe(IMMUTABLE);
      }
    }
  });

  it("answers a missing asset with a 404, not with the shell", async () => {
    const res = await app.inject({ method: "GET", url: "/assets/LoginPage-gone1234.js" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("not_found");
  });

  it("keeps JSON 404s for the API and for non-GET requests", async () => {
    for (const [method, url] of [["GET", "/api/nope"], ["GET", "/api"], ["POST", "/setup/companies"]] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe("not_found");
    }
  });

  it("compresses a large API answer for a client that accepts it, and it reads back the same", async () => {
    const plain = await app.inject({ method: "GET", url: "/api/docs/json" });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);

    const br = await app.inject({ method: "GET", url: "/api/docs/json", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["vary"]).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 4);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await app.inject({ method: "GET", url: "/api/docs/json", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it("leaves small answers and spreadsheet downloads uncompressed", async () => {
    const health = await app.inject({ method: "GET", url: "/api/health", headers: { "accept-encoding": "br, gzip" } });
    expect(health.statusCode).toBe(200);
    expect(health.headers["content-encoding"]).toBeUndefined();
    expect(health.json()).toBeTruthy();

    const xlsx = await app.inject({ method: "GET", url: "/api/test/download.xlsx", headers: { "accept-encoding": "br, gzip" } });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers["content-encoding"]).toBeUndefined();
    expect(xlsx.rawPayload.equals(Buffer.alloc(64 * 1024, 7))).toBe(true);
  });
});
