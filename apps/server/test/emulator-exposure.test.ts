import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { loadConfig, type Config } from "../src/config.ts";
import { createTestDatabase, drivers, type TestDatabase } from "./databases.ts";

/**
 * Issue #17.7: the QuickBooks emulator's admin routes answered anyone, even in production. The
 * apps here are built from configurations loaded from the environment, as `npm start` loads them.
 */
const SECRET = "p".repeat(40);
const PRODUCTION = { NODE_ENV: "production", APP_SECRET: SECRET, DATABASE_URL: "postgres://u@db.example:5432/groupledger" };
const INTUIT = { QBO_CLIENT_ID: "id", QBO_CLIENT_SECRET: "secret", QBO_REDIRECT_URI: "https://ledger.example/qbo/auth/complete" };
const ADMIN: [string, string][] = [
  ["POST", "/qbo-sandbox/_sandbox/reset"],
  ["GET", "/qbo-sandbox/_sandbox/faults"],
  ["PUT", "/qbo-sandbox/_sandbox/faults"],
  ["GET", "/qbo-sandbox/_sandbox/rules"],
  ["PUT", "/qbo-sandbox/_sandbox/rules"],
  ["GET", "/qbo-sandbox/_sandbox/companies"],
];

describe.each(drivers)("the emulator as mounted, on %s", (driver) => {
  const open: { app: FastifyInstance; db: TestDatabase; dir: string }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await o.app.close();
      await o.db.drop();
      rmSync(o.dir, { recursive: true, force: true });
    }
  });
  const appWith = async (env: Record<string, string>): Promise<{ app: FastifyInstance; config: Config }> => {
    const dir = mkdtempSync(join(tmpdir(), "gl-emulator-app-"));
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", ...env });
    const db = await createTestDatabase(driver);
    const app = await buildApp({ config, database: db.database, logger: false, webDist: false });
    await app.ready();
    open.push({ app, db, dir });
    return { app, config };
  };
  const statuses = async (app: FastifyInstance) =>
    Promise.all(ADMIN.map(async ([method, url]) => `${method} ${url} ${(await app.inject({ method: method as "GET", url, payload: method === "PUT" ? { rate5xx: 1 } : undefined })).statusCode}`));

  it("production in demo mode serves the consent page, but no admin route answers", async () => {
    const { app, config } = await appWith({ ...PRODUCTION, DEMO_MODE: "true" });
    expect(config.env).toBe("production");
    expect(await statuses(app)).toEqual(ADMIN.map(([m, u]) => `${m} ${u} 404`));
    const discovery = await app.inject({ method: "GET", url: "/qbo-sandbox/.well-known/openid_configuration" });
    expect(discovery.statusCode).toBe(200);
    // Nothing reached the emulator's fault settings: its API still answers normally.
    expect(app.services.provider.sandbox?.faults.current).toEqual({});
  });

  it("production with Intuit keys does not mount the emulator at all", async () => {
    const { app } = await appWith({ ...PRODUCTION, ...INTUIT });
    expect(app.services.provider.mode).toBe("intuit");
    expect((await app.inject({ method: "GET", url: "/qbo-sandbox/.well-known/openid_configuration" })).statusCode).toBe(404);
    expect(await statuses(app)).toEqual(ADMIN.map(([m, u]) => `${m} ${u} 404`));
  });

  it("development: admin routes only with QBO_EMULATOR_ADMIN=true; the dev mailbox only without SMTP", async () => {
    const plain = await appWith({ NODE_ENV: "test" });
    expect(await statuses(plain.app)).toEqual(ADMIN.map(([m, u]) => `${m} ${u} 404`));
    expect((await plain.app.inject({ method: "GET", url: "/api/dev/mailbox?to=a@b.example" })).statusCode).toBe(200);

    const admin = await appWith({ NODE_ENV: "test", QBO_EMULATOR_ADMIN: "true" });
    expect((await admin.app.inject({ method: "GET", url: "/qbo-sandbox/_sandbox/faults" })).statusCode).toBe(200);

    const smtp = await appWith({ NODE_ENV: "test", SMTP_URL: "smtp://mail.example:587" });
    expect((await smtp.app.inject({ method: "GET", url: "/api/dev/mailbox?to=a@b.example" })).statusCode).toBe(404);
    expect((await smtp.app.inject({ method: "GET", url: "/api/config" })).json()).toMatchObject({ devMailbox: false });
  });
});
