import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { GROUP_ADJUSTMENTS_CLASS, getAdjustments, postAdjustments, postAdjustmentsRepost } from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { actorOf, authOf } from "../../http/auth.ts";
import { bearer, routeOf } from "../../http/endpoint.ts";
import { AdjustmentService } from "./service.ts";

const tags = ["group adjustments"];
const errors = [400, 401, 403, 404, 409, 502] as const;
const docs = (summary: string) => ({ tags, security: bearer, summary, errors });

export const adjustmentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider }) => {
  const adjustments = new AdjustmentService({ database, provider });
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(
      getAdjustments,
      docs("A period's group adjustments (investments against equity at acquisition, goodwill, NCI at acquisition), each line explained, and the entry to post"),
    ),
    handler: async (req) => adjustments.view(authOf(req).user.accountId, req.query),
  });

  app.route({
    ...routeOf(
      postAdjustmentsRepost,
      docs("Replace a posted group adjustment entry whose inputs changed: delete it in QuickBooks, then post the period again (after the user approved the changes)"),
    ),
    handler: async (req) => adjustments.replace(actorOf(req), req.params.postingId),
  });

  app.route({
    ...routeOf(postAdjustments, docs(`Post a period's group adjustments into the parent's QuickBooks under the class "${GROUP_ADJUSTMENTS_CLASS}", once`)),
    handler: async (req) => adjustments.post(actorOf(req), req.body.period),
  });
};
