import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { routeOf } from "../../http/endpoint.ts";
import { AppError } from "../../http/errors.ts";

const tags = ["system"];

export const systemRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, mailer, config, version }) => {
  app.route({
    ...routeOf(contract.getHealth, { tags, summary: "Liveness with a database round trip", errors: [503] }),
    config: { rateLimit: false },
    handler: async (req) => {
      try {
        await database.ping();
      } catch (err) {
        req.log.error({ err }, "health check: database unreachable");
        throw new AppError(503, "database_unavailable", "The database is not reachable.");
      }
      return { status: "ok" as const, database: database.driver, version };
    },
  });

  /** What the web app needs to know about this deployment before anyone signs in. */
  app.route({
    ...routeOf(contract.getPublicConfig, { tags, summary: "Public settings of this deployment" }),
    handler: async () => ({ idleTimeoutMs: config.idleTimeoutMs, devMailbox: config.devMailbox }),
  });

  if (config.devMailbox) {
    app.route({
      ...routeOf(contract.getDevMailbox, { tags, summary: "Development only: mails in the outbox, newest first (off when NODE_ENV=production)", errors: [400] }),
      handler: async (req) => {
        const rows = await mailer.recent(req.query.to, req.query.limit);
        return {
          messages: rows.map((m) => ({
            id: m.id,
            to: m.toAddress,
            subject: m.subject,
            text: m.textBody,
            attachments: m.attachments,
            status: m.status,
            createdAt: m.createdAt.toISOString(),
          })),
        };
      },
    });
  }
};
