import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { acquisitionInputSchema, acquisitionsSchema, acquisitionSubsidiarySchema, errorBodySchema, realmParamsSchema } from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { acquisitionsView, deleteAcquisition, saveAcquisition } from "./service.ts";

const security = [{ bearer: [] }];
const tags = ["acquisitions"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export const acquisitionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.get(
    "/acquisitions",
    {
      schema: {
        tags,
        security,
        summary: "Each subsidiary's acquisition: as saved, and as proposed from the books (investment account, date, consideration, equity at acquisition), with its goodwill",
        response: { 200: acquisitionsSchema, ...err },
      },
    },
    async (req) => acquisitionsView(db, authOf(req).user.accountId),
  );

  app.put(
    "/acquisitions/:realmId",
    {
      schema: {
        tags,
        security,
        summary: "Confirm or change a subsidiary's acquisition (all or nothing); sets its ownership",
        description:
          "A 400 invalid_acquisition lists every field that cannot be saved in details.fields (path and message): an investment account that is not an asset of the parent, an equity line that is not the subsidiary's equity, a fair-value adjustment without a useful life, a date in the future. Nothing is saved then.",
        params: realmParamsSchema,
        body: acquisitionInputSchema,
        response: { 200: acquisitionSubsidiarySchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      return saveAcquisition(db, user, req.params.realmId, req.body, { ip: req.ip, requestId: req.id });
    },
  );

  app.delete(
    "/acquisitions/:realmId",
    {
      schema: { tags, security, summary: "Forget a subsidiary's acquisition (its investment is no longer eliminated)", params: realmParamsSchema, response: { 204: z.null(), ...err } },
    },
    async (req, reply) => {
      const { user } = authOf(req);
      await deleteAcquisition(db, user, req.params.realmId, { ip: req.ip, requestId: req.id });
      return reply.code(204).send(null);
    },
  );
};
