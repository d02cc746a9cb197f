import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { deleteDividendElimination, deleteInventory, intragroupView, saveDividendElimination, saveInventory } from "./service.ts";

const docs = docsOf({ tags: ["intra-group trade"], security: bearer, errors: [400, 401, 404, 409] });

export const intragroupRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, queue }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(contract.getIntragroup, docs("Intra-group stock held at month-ends, and where the parent books each subsidiary's dividends (saved and proposed)")),
    handler: async (req) => intragroupView(db, authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(
      contract.putIntragroupInventory,
      docs("Record the stock a group company holds at a month-end that it bought from another (one line per seller, buyer and month)"),
    ),
    handler: async (req) => saveInventory(db, authOf(req).user, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.deleteIntragroupInventory, docs("Remove a stock line")),
    handler: async (req, reply) => {
      await deleteInventory(db, authOf(req).user, req.params.id, requestMeta(req));
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...routeOf(
      contract.putIntragroupDividends,
      docs("Where the parent books a subsidiary's dividends: the income account and, for a shared account, the customer standing for the subsidiary"),
    ),
    handler: async (req) => saveDividendElimination({ database, queue }, authOf(req).user, req.params.realmId, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.deleteIntragroupDividends, docs("Stop eliminating a subsidiary's dividends")),
    handler: async (req, reply) => {
      await deleteDividendElimination(db, authOf(req).user, req.params.realmId, requestMeta(req));
      return reply.code(204).send(null);
    },
  });
};
