import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { posterOf } from "../../services/audit.ts";
import { actorOf, authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { AdjustmentService } from "./service.ts";

const docs = docsOf({ tags: ["group adjustments"], security: bearer, errors: [400, 401, 403, 404, 409, 502] });

export const adjustmentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider }) => {
  const adjustments = new AdjustmentService({ database, provider });
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(
      contract.getAdjustments,
      docs("A period's group adjustments (investments against equity at acquisition, goodwill, NCI at acquisition), each line explained, and the entry to post"),
    ),
    handler: async (req) => adjustments.view(authOf(req).user.accountId, req.query),
  });

  app.route({
    ...routeOf(
      contract.postAdjustmentsRepost,
      docs("Replace a posted group adjustment entry whose inputs changed: delete it in QuickBooks, then post the period again (after the user approved the changes)"),
    ),
    handler: async (req) => adjustments.replace(posterOf(actorOf(req)), req.params.postingId),
  });

  app.route({
    ...routeOf(
      contract.postAdjustments,
      docs(`Post a period's group adjustments into the parent's QuickBooks under the class "${contract.GROUP_ADJUSTMENTS_CLASS}", once`),
    ),
    handler: async (req) => adjustments.post(posterOf(actorOf(req)), req.body.period),
  });
};
