import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, webhookVerifierToken } from "./config.ts";

// The QuickBooks emulator's exposure in production (issue #17.7; the apps built from these are in test/emulator-exposure.test.ts).
const PRODUCTION = { NODE_ENV: "production", APP_SECRET: "p".repeat(40), DATABASE_URL: "postgres://u@db.example:5432/groupledger" };
const INTUIT = { QBO_CLIENT_ID: "id", QBO_CLIENT_SECRET: "secret", QBO_REDIRECT_URI: "https://ledger.example/qbo/auth/complete" };

describe("loadConfig", () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const d = mkdtempSync(join(tmpdir(), "gl-config-"));
    dirs.push(d);
    return d;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("runs a fresh clone with no variables: embedded PGlite under the data folder and a kept local secret", () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.database).toEqual({ kind: "pglite", dataDir: join(dir, "pglite") });
    expect(config.port).toBe(3000);
    expect(config.appSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dir, "app-secret"), "utf8")).toBe(config.appSecret);
    expect(loadConfig({ DATA_DIR: dir }).appSecret).toBe(config.appSecret);
    expect(config.devMailbox).toBe(true);
  });

  it("logs pino's JSON unless LOG_PRETTY=true asks for pretty output", () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).logPretty).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: "development" }).logPretty).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, LOG_PRETTY: "true" }).logPretty).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dir, LOG_PRETTY: "yes" })).toThrow(/LOG_PRETTY: must be true or false/);
  });

  it("switches to PostgreSQL with DATABASE_URL", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: "postgres://u@localhost:5432/db", APP_SECRET: "s".repeat(32) });
    expect(config.database).toEqual({ kind: "postgres", url: "postgres://u@localhost:5432/db" });
  });

  it("stops with a clear message on bad values", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT: /);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(() => loadConfig({ APP_SECRET: "short" })).toThrow(/APP_SECRET: must be at least 32 characters/);
    expect(() => loadConfig({ SMTP_URL: "http://mail" })).toThrow(/SMTP_URL/);
  });

  it("trusts X-Forwarded-For only from the proxies TRUST_PROXY names (addresses or CIDR ranges)", () => {
    const secret = { APP_SECRET: "s".repeat(40) };
    expect(loadConfig(secret).trustProxy).toBe(false);
    expect(loadConfig({ ...secret, TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ ...secret, TRUST_PROXY: "" }).trustProxy).toBe(false);
    expect(loadConfig({ ...secret, TRUST_PROXY: "10.0.0.1" }).trustProxy).toEqual(["10.0.0.1"]);
    expect(loadConfig({ ...secret, TRUST_PROXY: " 10.0.0.0/8, 192.168.1.7 ,fd00::/8,::1, loopback" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "192.168.1.7",
      "fd00::/8",
      "::1",
      "loopback",
    ]);
    // "true" would believe any client's header: every per-address limit could be skipped.
    expect(() => loadConfig({ ...secret, TRUST_PROXY: "true" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...secret, TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY: .*addresses or CIDR ranges of your proxies/);
    // A hop count trusts whoever connects, so a client reaching the app directly could still pick its address.
    expect(() => loadConfig({ ...secret, TRUST_PROXY: "2" })).toThrow(/TRUST_PROXY: a hop count would trust whoever connects directly; set the addresses/);
    for (const bad of ["10.0.0.300", "10.0.0.0/33", "fd00::/129", "proxy.internal", "0", "-1", "1.5", "10.0.0.1,,"]) {
      expect(() => loadConfig({ ...secret, TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: /);
    }
  });

  it("uses the built-in QuickBooks sandbox unless all three Intuit keys are set", () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).qbo).toEqual({ kind: "embedded", admin: false, stateDir: join(dir, "qbo-sandbox"), webhooks: { windowMs: 2000 } });
    expect(() => loadConfig({ DATA_DIR: dir, QBO_CLIENT_ID: "abc" })).toThrow(/set all three to use Intuit/);
    expect(() => loadConfig({ DATA_DIR: dir, QBO_CLIENT_ID: "a", QBO_CLIENT_SECRET: "b", QBO_REDIRECT_URI: "not a url" })).toThrow(
      /QBO_REDIRECT_URI: must be the full redirect URI/,
    );
    expect(
      loadConfig({ DATA_DIR: dir, QBO_CLIENT_ID: "a", QBO_CLIENT_SECRET: "b", QBO_REDIRECT_URI: "https://app.example/qbo/auth/complete", QBO_ENVIRONMENT: "production" }).qbo,
    ).toEqual({ kind: "intuit", clientId: "a", clientSecret: "b", redirectUri: "https://app.example/qbo/auth/complete", environment: "production" });
  });

  it("demands a secret and PostgreSQL in production, and turns the dev mailbox off", () => {
    const dir = dataDir();
    expect(() => loadConfig({ NODE_ENV: "production", DATA_DIR: dir, DATABASE_URL: "postgres://x/y" })).toThrow(/APP_SECRET: required in production/);
    expect(existsSync(join(dir, "app-secret"))).toBe(false);
    expect(() => loadConfig({ NODE_ENV: "production", APP_SECRET: "s".repeat(40) })).toThrow(/DATABASE_URL: required in production/);
    const config = loadConfig({ NODE_ENV: "production", APP_SECRET: "s".repeat(40), DATABASE_URL: "postgres://x/y", DEMO_MODE: "true" });
    expect(config.devMailbox).toBe(false);
  });

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

  it("webhooks: the emulator sends them unless told not to; the verifier token is the configured one, else with the emulator one derived from APP_SECRET", () => {
    const secret = { APP_SECRET: "w".repeat(40), DATA_DIR: dataDir() };
    expect(loadConfig({ ...secret, QBO_EMULATOR_WEBHOOK_WINDOW_MS: "500" }).qbo).toMatchObject({ webhooks: { windowMs: 500 } });
    expect(loadConfig({ ...secret, QBO_EMULATOR_WEBHOOKS: "false" }).qbo).not.toHaveProperty("webhooks");
    expect(() => loadConfig({ ...secret, QBO_EMULATOR_WEBHOOKS: "yes" })).toThrow(/QBO_EMULATOR_WEBHOOKS: must be true or false/);
    expect(() => loadConfig({ ...secret, QBO_WEBHOOK_VERIFIER_TOKEN: "short" })).toThrow(/QBO_WEBHOOK_VERIFIER_TOKEN: must be the verifier token/);

    const derived = webhookVerifierToken(loadConfig(secret));
    expect(derived).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(webhookVerifierToken(loadConfig(secret))).toBe(derived); // stable across restarts
    expect(derived).not.toContain("w".repeat(8));
    expect(webhookVerifierToken(loadConfig({ ...secret, APP_SECRET: "v".repeat(40) }))).not.toBe(derived);
    expect(webhookVerifierToken(loadConfig({ ...secret, QBO_WEBHOOK_VERIFIER_TOKEN: "from-the-intuit-dashboard" }))).toBe("from-the-intuit-dashboard");
    // With Intuit, only the token from Intuit's dashboard verifies anything.
    expect(webhookVerifierToken(loadConfig({ ...secret, ...INTUIT }))).toBeUndefined();
    expect(webhookVerifierToken(loadConfig({ ...secret, ...INTUIT, QBO_WEBHOOK_VERIFIER_TOKEN: "intuit-verifier-token" }))).toBe("intuit-verifier-token");
  });

  it("the dev mailbox is off whenever real SMTP is configured, and in production", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).devMailbox).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), SMTP_URL: "smtp://mail.example:587" }).devMailbox).toBe(false);
    expect(loadConfig({ ...PRODUCTION, DATA_DIR: dataDir(), ...INTUIT }).devMailbox).toBe(false);
  });
});
