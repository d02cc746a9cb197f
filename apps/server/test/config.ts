import { defaultRateLimits, type Config, type RateLimits } from "../src/config.ts";

/** A complete config for tests and benchmarks: no files, no mail server, no Intuit keys. */
export type TestConfigOverrides = Partial<Omit<Config, "rateLimits">> & { rateLimits?: Partial<RateLimits> };

export function testConfig(overrides: TestConfigOverrides = {}): Config {
  const { rateLimits, ...rest } = overrides;
  return {
    env: "test",
    host: "127.0.0.1",
    port: 0,
    database: { kind: "pglite", dataDir: "unused" },
    dataDir: "unused",
    appSecret: "test-secret-that-is-long-enough-for-hs256-0123456789",
    smtpUrl: undefined,
    mailFrom: "GroupLedger <no-reply@test>",
    logLevel: "silent",
    logPretty: false,
    publicUrl: undefined,
    tokenTtlSeconds: 3600,
    trustProxy: false,
    codeTtlMs: 15 * 60 * 1000,
    codeMaxAttempts: 5,
    devMailbox: true,
    idleTimeoutMs: 900_000,
    fxRatesUrl: undefined,
    qbo: { kind: "embedded", admin: false, stateDir: undefined },
    ...rest,
    // Suites sign many users up from one address; the rate-limit suite sets its own small limits.
    rateLimits: {
      ...defaultRateLimits,
      loginPerIp: 1000,
      loginFailuresPerEmailIp: 1000,
      loginFailuresPerEmail: 1000,
      codePerIp: 1000,
      codeGuessesWithoutEmail: 1000,
      mailPerIp: 1000,
      ...rateLimits,
    },
  };
}

