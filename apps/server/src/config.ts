import { hkdfSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { resolve } from "node:path";
import { z } from "zod";

/**
 * Which hops may tell us the client's address in X-Forwarded-For (Fastify's `trustProxy`): none,
 * or the proxies' addresses and CIDR ranges (also proxy-addr's names loopback, linklocal,
 * uniquelocal). Not "true", which believes whatever X-Forwarded-For a client sends, so every
 * per-address limit could be skipped by writing a new address into the header; and not a hop
 * count, which trusts whoever connects (Fastify 5 itself ignores one now, so every client behind
 * the proxy would share the proxy's address and its limits).
 */
export type TrustProxy = false | string[];

const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function parseTrustProxy(value: string): TrustProxy | { problem: string } {
  const text = value.trim();
  if (text === "" || text === "false") return false;
  const entries = text.split(",").map((e) => e.trim());
  if (entries.every(isAddressOrRange)) return entries;
  const what =
    text === "true"
      ? `"true" would believe any client's X-Forwarded-For`
      : /^\d+$/.test(text)
        ? "a hop count would trust whoever connects directly"
        : `not an address or CIDR range: ${entries.filter((e) => !isAddressOrRange(e)).map((e) => JSON.stringify(e)).join(", ")}`;
  return { problem: `${what}; set the addresses or CIDR ranges of your proxies (e.g. 10.0.0.0/8,192.168.1.7), or false` };
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  MAIL_FROM: z.string().min(3).default("GroupLedger <no-reply@groupledger.local>"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_PRETTY: z.enum(["true", "false"], { error: "must be true or false" }).default("false"),
  PUBLIC_URL: z.string().url().optional(),
  QBO_CLIENT_ID: z.string().min(1).optional(),
  QBO_CLIENT_SECRET: z.string().min(1).optional(),
  QBO_REDIRECT_URI: z.string().url("must be the full redirect URI registered on your Intuit app").optional(),
  QBO_ENVIRONMENT: z.enum(["sandbox", "production"]).default("sandbox"),
  FX_RATES_URL: z.string().url("must be the base URL of an ECB-based rates API (Frankfurter format)").optional(),
  IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(24 * 3600 * 1000).default(900_000),
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed === "object" && "problem" in parsed) {
        ctx.addIssue({ code: "custom", message: parsed.problem });
        return z.NEVER;
      }
      return parsed;
    }),
  DEMO_MODE: z.enum(["true", "false"], { error: "must be true or false" }).default("false"),
  QBO_EMULATOR_ADMIN: z.enum(["true", "false"], { error: "must be true or false" }).default("false"),
  QBO_WEBHOOK_VERIFIER_TOKEN: z.string().trim().min(8, "must be the verifier token shown on your Intuit app's Webhooks page").optional(),
  QBO_EMULATOR_WEBHOOKS: z.enum(["true", "false"], { error: "must be true or false" }).default("true"),
  QBO_EMULATOR_WEBHOOK_WINDOW_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 24 * 3600).default(8 * 3600),
});

export interface RateLimits {
  /** Login attempts per IP in the window. */
  loginPerIp: number;
  /** Wrong passwords for one email from one IP in the window (a sign-in from that IP forgives them). */
  loginFailuresPerEmailIp: number;
  /**
   * Wrong passwords for one email from every IP together in the window. Past it, only IPs the user
   * has signed in from before are still heard, so guesses spread over many addresses slow down
   * without locking the owner out.
   */
  loginFailuresPerEmail: number;
  /** Code submissions (validation and reset) per IP in the window. */
  codePerIp: number;
  /** Wrong verification codes sent without an email, from every IP together in the window. */
  codeGuessesWithoutEmail: number;
  /** Mails requested (sign-up, resend, forgot) per IP in the window. */
  mailPerIp: number;
  windowMs: number;
  /** Report workbooks mailed per account (POST /api/consolidation/report/email) in `reportMailWindowMs`. */
  reportMailsPerAccount: number;
  reportMailWindowMs: number;
  /** Report-address codes mailed per user in `reportMailWindowMs`: each is a mail to an address nobody verified yet. */
  reportAddressCodesPerUser: number;
  /** Board pack confirmation mails per account in `reportMailWindowMs`: each goes to an address outside the team that nobody confirmed yet. */
  boardPackConfirmationsPerAccount: number;
  /** Everything else, per IP per minute (in-process guard against floods). */
  globalPerMinute: number;
  /** QuickBooks' webhook notifications (POST /api/qbo/webhooks), per IP per minute, in-process, apart from the API's. */
  webhooksPerMinute: number;
}

export interface Config {
  env: "development" | "test" | "production";
  host: string;
  port: number;
  database: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };
  dataDir: string;
  appSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: string;
  /** Logs formatted for a person (pino-pretty, in a worker thread) instead of pino's JSON lines: only when asked. */
  logPretty: boolean;
  publicUrl: string | undefined;
  tokenTtlSeconds: number;
  /** Behind a load balancer: whose X-Forwarded-For gives the client IP (rate limits, audit). */
  trustProxy: TrustProxy;
  codeTtlMs: number;
  codeMaxAttempts: number;
  rateLimits: RateLimits;
  /**
   * Real Intuit when client id/secret/redirect are set; otherwise the embedded emulator (in
   * production only with DEMO_MODE). `admin` mounts its `_sandbox` routes (reset, faults, rules):
   * development and tests only. `stateDir` keeps its grants and books across restarts (unset: in
   * memory). `webhooks`: the emulator sends its webhook notifications to this server's own
   * /api/qbo/webhooks, gathering a company's changes over `windowMs` (absent: it sends none).
   */
  qbo:
    | { kind: "intuit"; clientId: string; clientSecret: string; redirectUri: string; environment: "sandbox" | "production" }
    | { kind: "embedded"; admin: boolean; stateDir: string | undefined; webhooks?: { windowMs: number } };
  /**
   * The verifier token of the app's webhooks (QBO_WEBHOOK_VERIFIER_TOKEN): the HMAC key of
   * `intuit-signature`. Unset: with Intuit, webhooks are refused; with the emulator, one derived
   * from APP_SECRET (`webhookVerifierToken`).
   */
  qboWebhookVerifierToken?: string;
  /** Base URL of the ECB-based rates API; unset: the embedded emulator's, or the public one with Intuit. */
  fxRatesUrl: string | undefined;
  /** SPEC §9 idle timeout the web app applies; shortened only for tests. */
  idleTimeoutMs: number;
  /** Dev mailbox endpoint: never in production, never when real SMTP delivers the mails. */
  devMailbox: boolean;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export const defaultRateLimits: RateLimits = {
  loginPerIp: 30,
  loginFailuresPerEmailIp: 10,
  loginFailuresPerEmail: 100,
  codePerIp: 20,
  codeGuessesWithoutEmail: 100,
  mailPerIp: 10,
  windowMs: 15 * 60 * 1000,
  reportMailsPerAccount: 20,
  reportMailWindowMs: 60 * 60 * 1000,
  reportAddressCodesPerUser: 5,
  boardPackConfirmationsPerAccount: 20,
  globalPerMinute: 600,
  webhooksPerMinute: 600,
};

/**
 * The token `intuit-signature` is checked with: QBO_WEBHOOK_VERIFIER_TOKEN; else, with the
 * built-in emulator, one derived from APP_SECRET that the emulator signs with too (stable across
 * restarts, different from every other key); else none, and every notification is refused.
 */
export function webhookVerifierToken(config: Pick<Config, "qbo" | "qboWebhookVerifierToken" | "appSecret">): string | undefined {
  if (config.qboWebhookVerifierToken) return config.qboWebhookVerifierToken;
  if (config.qbo.kind !== "embedded") return undefined;
  return Buffer.from(hkdfSync("sha256", config.appSecret, "groupledger", "qbo-webhook-verifier-token", 32)).toString("base64url");
}

/** A secret kept beside the embedded database, so a fresh clone needs no set-up and tokens survive restarts. */
function localSecret(dataDir: string): string {
  const file = resolve(dataDir, "app-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === "production" && !e.APP_SECRET) {
    throw new ConfigError("Invalid configuration:\n  APP_SECRET: required in production (at least 32 characters)");
  }
  if (e.NODE_ENV === "production" && !e.DATABASE_URL) {
    throw new ConfigError("Invalid configuration:\n  DATABASE_URL: required in production (PostgreSQL 15+)");
  }
  const qboKeys = [e.QBO_CLIENT_ID, e.QBO_CLIENT_SECRET, e.QBO_REDIRECT_URI];
  if (qboKeys.some((k) => k !== undefined) && qboKeys.some((k) => k === undefined)) {
    throw new ConfigError(
      "Invalid configuration:\n  QBO_CLIENT_ID, QBO_CLIENT_SECRET and QBO_REDIRECT_URI: set all three to use Intuit, or none to use the built-in QuickBooks sandbox",
    );
  }
  const intuit = e.QBO_CLIENT_ID && e.QBO_CLIENT_SECRET && e.QBO_REDIRECT_URI ? { clientId: e.QBO_CLIENT_ID, clientSecret: e.QBO_CLIENT_SECRET, redirectUri: e.QBO_REDIRECT_URI } : null;
  if (e.NODE_ENV === "production" && !intuit && e.DEMO_MODE !== "true") {
    throw new ConfigError(
      "Invalid configuration:\n  QBO_CLIENT_ID, QBO_CLIENT_SECRET and QBO_REDIRECT_URI: required in production (or DEMO_MODE=true to serve the built-in QuickBooks emulator and its demo companies instead)",
    );
  }
  if (e.NODE_ENV === "production" && e.QBO_EMULATOR_ADMIN === "true") {
    throw new ConfigError("Invalid configuration:\n  QBO_EMULATOR_ADMIN: not allowed in production (it lets anyone reset the emulator and inject faults)");
  }
  const dataDir = resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    database: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL }
      : { kind: "pglite", dataDir: resolve(dataDir, "pglite") },
    dataDir,
    appSecret: e.APP_SECRET ?? localSecret(dataDir),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY === "true",
    publicUrl: e.PUBLIC_URL,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    trustProxy: e.TRUST_PROXY,
    codeTtlMs: 15 * 60 * 1000,
    codeMaxAttempts: 5,
    rateLimits: defaultRateLimits,
    // Real mail goes to real people: the outbox is not for anyone to read then.
    devMailbox: e.NODE_ENV !== "production" && !e.SMTP_URL,
    idleTimeoutMs: e.IDLE_TIMEOUT_MS,
    fxRatesUrl: e.FX_RATES_URL,
    qbo: intuit
      ? { kind: "intuit", ...intuit, environment: e.QBO_ENVIRONMENT }
      : {
          kind: "embedded",
          admin: e.QBO_EMULATOR_ADMIN === "true",
          stateDir: resolve(dataDir, "qbo-sandbox"),
          ...(e.QBO_EMULATOR_WEBHOOKS === "true" ? { webhooks: { windowMs: e.QBO_EMULATOR_WEBHOOK_WINDOW_MS } } : {}),
        },
    ...(e.QBO_WEBHOOK_VERIFIER_TOKEN ? { qboWebhookVerifierToken: e.QBO_WEBHOOK_VERIFIER_TOKEN } : {}),
  };
}
