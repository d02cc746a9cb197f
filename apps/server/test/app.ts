import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { buildApp, type AppOptions } from "../src/app.ts";
import { testConfig, type TestConfigOverrides } from "./config.ts";

export { testConfig, type TestConfigOverrides };
import type { Transport } from "../src/services/mailer.ts";
import { Sandbox } from "@groupledger/qbo-sandbox";
import { createTestDatabase, type Driver, type TestDatabase } from "./databases.ts";

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
}

/** Registers beforeAll/afterAll building an app on its own fresh database; read `.app` inside tests. */
export function useTestApp(
  driver: Driver,
  options: {
    config?: TestConfigOverrides;
    mailTransport?: Transport;
    sandbox?: Sandbox;
    jobLeaseMs?: number;
    /** The app's own logger (none by default), or one of its choosing writing to `logStream`. */
    logger?: AppOptions["logger"];
    logStream?: AppOptions["logStream"];
  } = {},
): { readonly app: FastifyInstance; readonly db: TestDatabase } {
  let current: TestApp | undefined;
  beforeAll(async () => {
    const db = await createTestDatabase(driver);
    const app = await buildApp({
      config: testConfig(options.config),
      database: db.database,
      logger: options.logger ?? (options.logStream ? undefined : false),
      ...(options.logStream ? { logStream: options.logStream } : {}),
      webDist: false,
      ...(options.mailTransport ? { mailTransport: options.mailTransport } : {}),
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
      ...(options.jobLeaseMs ? { jobLeaseMs: options.jobLeaseMs } : {}),
      // QBO retries without Intuit's real waits, so fault tests stay fast.
      qboRetry: { baseDelayMs: 2, maxDelayMs: 20, maxAttempts: 8 },
    });
    await app.ready();
    current = { app, db };
  }, 60_000);
  afterAll(async () => {
    await current?.app.close();
    await current?.db.drop();
  });
  return {
    get app() {
      if (!current) throw new Error("test app used outside a test");
      return current.app;
    },
    get db() {
      if (!current) throw new Error("test app used outside a test");
      return current.db;
    },
  };
}

/** `useTestApp` with its own QuickBooks emulator, `sandbox`, to connect companies from. */
export function useSandboxApp(driver: Driver, options: Omit<Parameters<typeof useTestApp>[1] & object, "sandbox"> = {}) {
  const sandbox = new Sandbox();
  return { sandbox, t: useTestApp(driver, { ...options, sandbox }) };
}
