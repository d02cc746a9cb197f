import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { ConfigError, loadConfig, type Config } from "../src/config.ts";
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

describe("configuration", () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const d = mkdtempSync(join(tmpdir(), "gl-emulator-"));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("production without Intuit keys is a start-up error unless the demo mode is explicit", () => {
    expect(() => loadConfig({ ...PRODUCTION, DATA_DIR: dataDir() })).toThrow(ConfigError);
    expect(() => loadConfig({ ...PRODUCTION, DATA_DIR: dataDir() })).toThrow(/QBO_CLIENT_ID, QBO_CLIENT_SECRET and QBO_REDIRECT_URI: required in production \(or DEMO_MODE=true/);
    expect(loadConfig({ ...PRODUCTION, DATA_DIR: dataDir(), ...INTUIT }).qbo.kind).toBe("intuit");
    const demo = loadConfig({ ...PRODUCTION, DATA_DIR: dataDir(), DEMO_MODE: "true" });
    expect(demo.qbo).toMatchObject({ kind: "embedded", admin: false });
    expect(() => loadConfig({ ...PRODUCTION, DATA_DIR: dataDir(), DEMO_MODE: "yes" })).toThrow(/DEMO_MODE: must be true or false/);
  });

  it("the emulator's admin flag is refused in production and off by default elsewhere", () => {
    expect(() => loadConfig({ ...PRODUCTION, DATA_DIR: dataDir(), DEMO_MODE: "true", QBO_EMULATOR_ADMIN: "true" })).toThrow(/QBO_EMULATOR_ADMIN: not allowed in production/);
    expect(loadConfig({ DATA_DIR: dataDir() }).qbo).toMatchObject({ kind: "embedded", admin: false });
    expect(loadConfig({ DATA_DIR: dataDir(), QBO_EMULATOR_ADMIN: "true" }).qbo).toMatchObject({ kind: "embedded", admin: true });
  });

  it("keeps the emulator's state under DATA_DIR", () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).qbo).toMatchObject({ stateDir: join(dir, "qbo-sandbox") });
  });

  it("the dev mailbox is off whenever real SMTP is configured, and in production", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).devMailbox).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), SMTP_URL: "smtp://mail.example:587" }).devMailbox).toBe(false);
    expect(loadConfig({ ...PRODUCTION, DATA_DIR: dataDir(), ...INTUIT }).devMailbox).toBe(false);
  });
});

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
