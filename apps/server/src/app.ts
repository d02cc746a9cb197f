import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import type { AppContext } from "./context.ts";
import type { Database } from "./db/client.ts";
import { requireAuth } from "./http/auth.ts";
import { body, registerErrorHandling } from "./http/errors.ts";
import { registerInputGuard } from "./http/input-guard.ts";
import { accountRoutes } from "./modules/account/routes.ts";
import { companyRoutes } from "./modules/companies/routes.ts";
import { obalRoutes } from "./modules/obal/routes.ts";
import { publicConfigRoute } from "./modules/system/config-route.ts";
import { SessionService } from "./modules/session/service.ts";
import { sessionRoutes } from "./modules/session/routes.ts";
import { systemRoutes } from "./modules/system/routes.ts";
import { purgeExpired } from "./services/maintenance.ts";
import { logTransport, Mailer, smtpTransport, type Transport } from "./services/mailer.ts";
import { RateLimiter } from "./services/rate-limiter.ts";
import { TokenService } from "./services/tokens.ts";

export const VERSION: string = JSON.parse(
  readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"),
).version;

export const WEB_DIST = fileURLToPath(new URL("../../web/dist/", import.meta.url));

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** Replaces SMTP/log delivery, e.g. a failing transport in tests. */
  mailTransport?: Transport;
  /** Purge expired tokens, counters and codes this often (main sets it; tests call purgeExpired). */
  maintenanceIntervalMs?: number;
  /** Serve the built web app from this folder when it exists. */
  webDist?: string | false;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.logLevel,
      redact: { paths: ["req.headers.authorization", "req.headers.cookie", "*.password", "*.token"], censor: "[redacted]" },
      // People read development logs (mailed codes included); machines read production's JSON.
      ...(config.env === "development"
        ? { transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" } } }
        : {}),
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
  app.decorateRequest("auth", null);
  app.addHook("onSend", async (req, reply) => {
    reply.header("x-request-id", req.id);
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimits.globalPerMinute,
    timeWindow: 60_000,
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
  const ctx: AppContext = {
    config,
    database,
    mailer,
    sessions: new SessionService(database.db, config, tokens, mailer, new RateLimiter(database.db)),
    requireAuth: requireAuth(database.db, tokens),
    version: VERSION,
  };

  await app.register(systemRoutes, { ...ctx, prefix: "/api" });
  await app.register(sessionRoutes, { ...ctx, prefix: "/api/session" });
  await app.register(accountRoutes, { ...ctx, prefix: "/api" });
  await app.register(companyRoutes, { ...ctx, prefix: "/api" });
  await app.register(obalRoutes, { ...ctx, prefix: "/api" });
  await app.register(publicConfigRoute, { ...ctx, prefix: "/api" });

  if (serveWeb && webDist) await app.register(fastifyStatic, { root: webDist, wildcard: false });

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
