import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { errorBodySchema, healthSchema, mailboxQuerySchema, mailboxSchema } from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../http/errors.ts";

export const systemRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, mailer, config, version }) => {
  app.get(
    "/health",
    {
      config: { rateLimit: false },
      schema: { tags: ["system"], summary: "Liveness with a database round trip", response: { 200: healthSchema, 503: errorBodySchema } },
    },
    async (req) => {
      try {
        await database.ping();
      } catch (err) {
        req.log.error({ err }, "health check: database unreachable");
        throw new AppError(503, "database_unavailable", "The database is not reachable.");
      }
      return { status: "ok" as const, database: database.driver, version };
    },
  );

  if (config.devMailbox) {
    app.get(
      "/dev/mailbox",
      {
        schema: {
          tags: ["system"],
          summary: "Development only: mails in the outbox, newest first (off when NODE_ENV=production)",
          querystring: mailboxQuerySchema,
          response: { 200: mailboxSchema, 400: errorBodySchema },
        },
      },
      async (req) => {
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
    );
  }
};
