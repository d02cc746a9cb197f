import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  dividendEliminationRequestSchema,
  dividendEliminationSchema,
  errorBodySchema,
  intragroupInventoryRequestSchema,
  intragroupInventorySchema,
  intragroupSchema,
  realmParamsSchema,
} from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { deleteDividendElimination, deleteInventory, intragroupView, saveDividendElimination, saveInventory } from "./service.ts";

const security = [{ bearer: [] }];
const tags = ["intra-group trade"];
const err = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const meta = (req: { ip: string; id: string }) => ({ ip: req.ip, requestId: req.id });

export const intragroupRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, queue }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.get(
    "/intragroup",
    { schema: { tags, security, summary: "Intra-group stock held at month-ends, and where the parent books each subsidiary's dividends (saved and proposed)", response: { 200: intragroupSchema, ...err } } },
    async (req) => intragroupView(db, authOf(req).user.accountId),
  );

  app.put(
    "/intragroup/inventory",
    {
      schema: {
        tags,
        security,
        summary: "Record the stock a group company holds at a month-end that it bought from another (one line per seller, buyer and month)",
        body: intragroupInventoryRequestSchema,
        response: { 200: intragroupInventorySchema, ...err },
      },
    },
    async (req) => saveInventory(db, authOf(req).user, req.body, meta(req)),
  );

  app.delete(
    "/intragroup/inventory/:id",
    { schema: { tags, security, summary: "Remove a stock line", params: z.object({ id: z.uuid({ error: "Not a stock line id." }) }), response: { 204: z.null(), ...err } } },
    async (req, reply) => {
      await deleteInventory(db, authOf(req).user, req.params.id, meta(req));
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/intragroup/dividends/:realmId",
    {
      schema: {
        tags,
        security,
        summary: "Where the parent books a subsidiary's dividends: the income account and, for a shared account, the customer standing for the subsidiary",
        params: realmParamsSchema,
        body: dividendEliminationRequestSchema,
        response: { 200: dividendEliminationSchema, ...err },
      },
    },
    async (req) => saveDividendElimination({ database, queue }, authOf(req).user, req.params.realmId, req.body, meta(req)),
  );

  app.delete(
    "/intragroup/dividends/:realmId",
    { schema: { tags, security, summary: "Stop eliminating a subsidiary's dividends", params: realmParamsSchema, response: { 204: z.null(), ...err } } },
    async (req, reply) => {
      await deleteDividendElimination(db, authOf(req).user, req.params.realmId, meta(req));
      return reply.code(204).send(null);
    },
  );
};
