import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import rateLimit from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import type { AppContext } from "./context.ts";
import type { Database } from "./db/client.ts";
import { registerAfterResponse } from "./http/after-response.ts";
import { requireAuth } from "./http/auth.ts";
import { body, registerErrorHandling } from "./http/errors.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { registerInputGuard } from "./http/input-guard.ts";
import { registerPermissions } from "./http/permissions.ts";
import { registerCompression, registerWebApp } from "./http/web.ts";
import { accountRoutes } from "./modules/account/routes.ts";
import { companyRoutes } from "./modules/companies/routes.ts";
import { ctaRoutes } from "./modules/cta/routes.ts";
import { acquisitionRoutes } from "./modules/acquisitions/routes.ts";
import { adjustmentRoutes } from "./modules/adjustments/routes.ts";
import { intragroupRoutes } from "./modules/intragroup/routes.ts";
import { fxRoutes } from "./modules/fx/routes.ts";
import { mappingRoutes } from "./modules/mapping/routes.ts";
import { ConnectService } from "./modules/qbo/connect.ts";
import { qboRoutes } from "./modules/qbo/routes.ts";
import { qboCallRoutes } from "./modules/qbo/usage-routes.ts";
import { SYNC_AGAIN_JOB, SYNC_JOB, syncAgainHandler } from "./modules/sync/enqueue.ts";
import { NIGHTLY_JOB, NightlyScheduler, nightlyHandler } from "./modules/sync/nightly.ts";
import { webhookRoutes } from "./modules/webhooks/routes.ts";
import { RUN_JOB, runHandler } from "./modules/runs/job.ts";
import { mailNightlyReplacement, NIGHTLY_REPLACE_JOB, nightlyReplaceHandler } from "./modules/reconsolidation/nightly.ts";
import { runRoutes } from "./modules/runs/routes.ts";
import { reportRoutes } from "./modules/reports/routes.ts";
import { cashFlowRoutes } from "./modules/cash-flow/routes.ts";
import { boardPackPublicRoutes, boardPackRoutes } from "./modules/board-pack/routes.ts";
import { BOARD_PACK_JOB } from "./modules/board-pack/service.ts";
import { boardPackHandler } from "./modules/board-pack/job.ts";
import { BOARD_PACK_MAIL_JOB, BoardPackScheduler, boardPackMailHandler } from "./modules/board-pack/schedule.ts";
import { BoardPackRecipients } from "./modules/board-pack/recipients.ts";
import { segmentRoutes } from "./modules/segments/routes.ts";
import { budgetRoutes } from "./modules/budgets/routes.ts";
import { eliminationRoutes } from "./modules/eliminations/routes.ts";
import { syncHandler, type AfterSyncCheck } from "./modules/sync/handler.ts";
import { detectChangedPostings } from "./modules/runs/stale.ts";
import { detectChangedAdjustments } from "./modules/adjustments/stale.ts";
import { detectChangedEliminations } from "./modules/eliminations/stale.ts";
import { JobQueue } from "./jobs/queue.ts";
import { Worker } from "./jobs/worker.ts";
import { connectEmbeddedWebhooks, createQboProvider, SANDBOX_PREFIX, type QboProvider } from "./services/qbo-provider.ts";
import { PgTokenStore } from "./services/qbo-token-store.ts";
import { sandboxPlugin, type Sandbox } from "@groupledger/qbo-sandbox";
import type { RetryOptions } from "@groupledger/qbo";
import { obalRoutes } from "./modules/obal/routes.ts";
import { SessionService } from "./modules/session/service.ts";
import { sessionRoutes } from "./modules/session/routes.ts";
import { billingModule } from "./modules/billing/routes.ts";
import { settingsRoutes } from "./modules/settings/routes.ts";
import { teamRoutes } from "./modules/team/routes.ts";
import { systemRoutes } from "./modules/system/routes.ts";
import { purgeExpired } from "./services/maintenance.ts";
import { logTransport, Mailer, smtpTransport, type Transport } from "./services/mailer.ts";
import { RateLimiter } from "./services/rate-limiter.ts";
import { TokenService } from "./services/tokens.ts";

export const VERSION: string = JSON.parse(
  readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"),
).version;

export const WEB_DIST = fileURLToPath(new URL("../../web/dist/", import.meta.url));

declare module "fastify" {
  interface FastifyInstance {
    /** Long-lived services, for main and tests. */
    services: { queue: JobQueue; worker: Worker; provider: QboProvider; tokenStore: PgTokenStore; nightly: NightlyScheduler; boardPacks: BoardPackScheduler };
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** Replaces SMTP/log delivery, e.g. a failing transport in tests. */
  mailTransport?: Transport;
  /** Purge expired tokens, counters and codes this often (main sets it; tests call purgeExpired). */
  maintenanceIntervalMs?: number;
  /** Lease of a running job before another worker may take it over (shortened in tests). */
  jobLeaseMs?: number;
  /** Run background jobs and the nightly-sync scheduler in this process (main does; tests drive `services.worker` and `services.nightly` themselves). */
  startWorker?: boolean;
  /** The embedded emulator instance (tests pass one to inject faults). */
  sandbox?: Sandbox;
  /** Retry policy of QBO calls (tests shorten the waits). */
  qboRetry?: Partial<RetryOptions>;
  /** Replaces the QBO provider (tests use a standalone emulator over real HTTP). */
  qboProvider?: (tokens: PgTokenStore) => QboProvider;
  /** Serve the built web app from this folder when it exists. */
  webDist?: string | false;
  /** Where the default logger writes (stdout when absent); the log-secrets test captures it. */
  logStream?: { write(line: string): void };
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.logLevel,
      redact: { paths: ["req.headers.authorization", "req.headers.cookie", "*.password", "*.token"], censor: "[redacted]" },
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      // pino's JSON lines unless a person asks (LOG_PRETTY=true): formatting every line in the
      // process cost the request path about a third of its throughput (issue 22).
      ...(config.logPretty ? { transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" } } } : {}),
    },
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  const webDist = opts.webDist === undefined ? WEB_DIST : opts.webDist;
  const serveWeb = Boolean(webDist && existsSync(`${webDist}/index.html`));

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app, { spaFallback: serveWeb });
  registerInputGuard(app);
  registerAfterResponse(app);
  registerPermissions(app, database.db);
  app.decorateRequest("auth", null);
  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
  });

  registerSecurityHeaders(app);
  await registerCompression(app);
  const tokenStore = new PgTokenStore(database, config.appSecret);
  // The embedded emulator is mounted before the API's rate limit and OpenAPI document: it applies
  // Intuit's own limits and is not part of our API.
  const provider = opts.qboProvider?.(tokenStore) ?? createQboProvider(config, app, tokenStore, opts.sandbox, opts.qboRetry);
  if (provider.mode === "embedded" && provider.sandbox) {
    // Its admin routes (reset, faults) only with QBO_EMULATOR_ADMIN, which production refuses.
    const admin = config.qbo.kind === "embedded" && config.qbo.admin;
    await app.register(sandboxPlugin, { prefix: SANDBOX_PREFIX, sandbox: provider.sandbox, admin });
    // It tells this server's /api/qbo/webhooks about changes, as Intuit would (unless configured off);
    // once this server closes, it tells no one.
    const { sandbox } = provider;
    if (connectEmbeddedWebhooks(config, app, sandbox)) app.addHook("onClose", async () => sandbox.webhooks.configure(null));
  }
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimits.globalPerMinute,
    timeWindow: 60_000,
    // A guard for the API only: the web app's assets and the emulator's in-process calls are not
    // requests a person makes, and the emulator applies Intuit's own limits.
    allowList: (req) => !req.url.startsWith("/api/") || req.url.startsWith("/api/health"),
    keyGenerator: (req) => req.ip || "unknown",
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      ...body("rate_limited", `Too many requests. Please wait ${Math.ceil(ctx.ttl / 1000)} seconds and try again.`),
    }),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: "GroupLedger API", version: VERSION },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });

  const transport = opts.mailTransport ?? (config.smtpUrl ? smtpTransport(config.smtpUrl) : logTransport(app.log));
  const mailer = new Mailer(database.db, transport, config.mailFrom, app.log);
  const tokens = new TokenService(config.appSecret, config.tokenTtlSeconds);
  const queue = new JobQueue(database.db, opts.jobLeaseMs);
  // Re-consolidation after each sync: what was posted from the company's books is checked again.
  const afterSync: AfterSyncCheck[] = [
    // Periods already posted for the company: flag the ones whose entry would now differ.
    { what: "posted periods", resultKey: "reconsolidation", check: (accountId, realmId) => detectChangedPostings(database.db, accountId, realmId) },
    // The group adjustments read every group company's books.
    { what: "posted group adjustments", check: (accountId) => detectChangedAdjustments(database.db, accountId) },
    // So do the elimination entries (each pair's two sides).
    { what: "posted eliminations", check: (accountId) => detectChangedEliminations(database.db, accountId) },
  ];
  const handlers = {
    [SYNC_JOB]: syncHandler({ database, provider, afterSync, log: app.log }),
    [SYNC_AGAIN_JOB]: syncAgainHandler({ database, queue }),
    [NIGHTLY_JOB]: nightlyHandler({ database, queue }),
    [RUN_JOB]: runHandler({ database, provider, log: app.log, ended: (runId) => mailNightlyReplacement({ database, provider, queue, mailer }, runId) }),
    [NIGHTLY_REPLACE_JOB]: nightlyReplaceHandler({ database, provider, queue }),
    [BOARD_PACK_JOB]: boardPackHandler({ database }),
    [BOARD_PACK_MAIL_JOB]: boardPackMailHandler({ database, mailer, recipients: new BoardPackRecipients(database.db, config, mailer, new RateLimiter(database.db)), publicUrl: config.publicUrl }),
  };
  const worker = new Worker(queue, handlers, {
    log: app.log,
    // Syncs in slots of their own (each of another realm: Intuit's 10 in flight are per realm), the
    // rest (runs, nightly and follow-up jobs) in 2: neither starves the other. 10 jobs at most,
    // each holding one of the pool's 10 connections only while it queries.
    lanes: [{ kinds: [SYNC_JOB], concurrency: 8 }, { concurrency: 2 }],
    ...(opts.jobLeaseMs ? { leaseMs: opts.jobLeaseMs } : {}),
  });
  const nightly = new NightlyScheduler(database, app.log);
  const boardPacks = new BoardPackScheduler(database, app.log);
  const ctx: AppContext = {
    config,
    database,
    mailer,
    queue,
    provider,
    tokenStore,
    connect: new ConnectService(database, provider, tokenStore, queue),
    sessions: new SessionService(database.db, config, tokens, mailer, new RateLimiter(database.db)),
    requireAuth: requireAuth(database.db, tokens),
    version: VERSION,
  };

  // In this order; billing registers its own paths (its test provider is outside /api).
  for (const routes of [systemRoutes, sessionRoutes, accountRoutes, teamRoutes, settingsRoutes, boardPackPublicRoutes]) await app.register(routes, { ...ctx, prefix: "/api" });
  await app.register(billingModule, ctx);
  for (const routes of [companyRoutes, qboCallRoutes, obalRoutes, qboRoutes, webhookRoutes, mappingRoutes, fxRoutes, ctaRoutes, acquisitionRoutes, runRoutes, reportRoutes, cashFlowRoutes, boardPackRoutes, segmentRoutes, budgetRoutes, eliminationRoutes, adjustmentRoutes, intragroupRoutes]) {
    await app.register(routes, { ...ctx, prefix: "/api" });
  }

  app.decorate("services", { queue, worker, provider, tokenStore, nightly, boardPacks });
  if (opts.startWorker) {
    app.addHook("onReady", async () => {
      worker.start();
      nightly.start();
      boardPacks.start();
    });
  }
  // Stop claiming and let running jobs reach a checkpoint; their leases expire for another process.
  app.addHook("onClose", async () => Promise.all([worker.stop(), nightly.stop(), boardPacks.stop()]));
  // Mails prepared after their request was answered (forgot-password, resend) finish before the database closes.
  app.addHook("onClose", async () => mailer.settled());

  if (serveWeb && webDist) await registerWebApp(app, webDist);

  if (opts.maintenanceIntervalMs) {
    const interval = opts.maintenanceIntervalMs;
    const purge = () =>
      purgeExpired(database.db)
        .then((purged) => app.log.debug({ purged }, "purged expired rows"))
        .catch((err: unknown) => app.log.warn({ err }, "purging expired rows failed; will retry"));
    let timer: NodeJS.Timeout | undefined;
    app.addHook("onReady", async () => {
      void purge();
      timer = setInterval(purge, interval).unref();
    });
    app.addHook("onClose", async () => clearInterval(timer));
  }
  return app;
}
