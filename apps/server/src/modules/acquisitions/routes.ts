import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { acquisitionsView, forgetAcquisition, saveAcquisition } from "./service.ts";

const docs = docsOf({ tags: ["acquisitions"], security: bearer, errors: [400, 401, 404, 409] });

export const acquisitionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(
      contract.getAcquisitions,
      docs(
        "Each subsidiary's acquisition: as saved, and as proposed from the books (investment account, date, consideration, equity at acquisition), with its goodwill",
      ),
    ),
    handler: async (req) => acquisitionsView(db, authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(
      contract.putAcquisition,
      docs("Confirm or change a subsidiary's acquisition (all or nothing); sets its ownership", {
        description:
          "A 400 invalid_acquisition lists every field that cannot be saved in details.fields (path and message): an investment account that is not an asset of the parent, an equity line that is not the subsidiary's equity, a fair-value adjustment without a useful life, a date in the future. Nothing is saved then.",
      }),
    ),
    handler: async (req) => saveAcquisition(db, authOf(req).user, req.params.realmId, req.body, { ip: req.ip, requestId: req.id }),
  });

  app.route({
    ...routeOf(contract.deleteAcquisition, docs("Forget a subsidiary's acquisition (its investment is no longer eliminated)")),
    handler: async (req, reply) => {
      await forgetAcquisition(db, authOf(req).user, req.params.realmId, { ip: req.ip, requestId: req.id });
      return reply.code(204).send(null);
    },
  });
};
