import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { deleteAcquisition, getAcquisitions, putAcquisition } from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, routeOf } from "../../http/endpoint.ts";
import { acquisitionsView, forgetAcquisition, saveAcquisition } from "./service.ts";

const tags = ["acquisitions"];
const errors = [400, 401, 404, 409] as const;

export const acquisitionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(getAcquisitions, {
      tags,
      security: bearer,
      summary: "Each subsidiary's acquisition: as saved, and as proposed from the books (investment account, date, consideration, equity at acquisition), with its goodwill",
      errors,
    }),
    handler: async (req) => acquisitionsView(db, authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(putAcquisition, {
      tags,
      security: bearer,
      summary: "Confirm or change a subsidiary's acquisition (all or nothing); sets its ownership",
      description:
        "A 400 invalid_acquisition lists every field that cannot be saved in details.fields (path and message): an investment account that is not an asset of the parent, an equity line that is not the subsidiary's equity, a fair-value adjustment without a useful life, a date in the future. Nothing is saved then.",
      errors,
    }),
    handler: async (req) => saveAcquisition(db, authOf(req).user, req.params.realmId, req.body, { ip: req.ip, requestId: req.id }),
  });

  app.route({
    ...routeOf(deleteAcquisition, { tags, security: bearer, summary: "Forget a subsidiary's acquisition (its investment is no longer eliminated)", errors }),
    handler: async (req, reply) => {
      await forgetAcquisition(db, authOf(req).user, req.params.realmId, { ip: req.ip, requestId: req.id });
      return reply.code(204).send(null);
    },
  });
};
