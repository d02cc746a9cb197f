import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { toCompany } from "../group/service.ts";

const docs = docsOf({ tags: ["companies"], security: bearer, errors: [400, 401, 409] });

export const qboRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { requireAuth, connect }) => {
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(
      contract.getQboAuthorize,
      docs("Start connecting a QuickBooks company: the consent page for the pop-up", {
        description: "Creates a single-use state bound to the caller, valid for 10 minutes. key is the app's client id.",
      }),
    ),
    handler: async (req) => connect.authorize(authOf(req).user, `${req.protocol}://${req.host}`),
  });

  app.route({
    ...routeOf(
      contract.postQboCallback,
      docs("Finish connecting: what QuickBooks sent to /qbo/auth/complete", {
        description:
          "Exchanges the code, reads CompanyInfo and Preferences, stores the company and its encrypted tokens and starts a sync. " +
          "A company connected to another account is refused (409); one already connected to this account is re-authorized in place.",
      }),
    ),
    handler: async (req) => {
      const { company, reconnected } = await connect.complete(authOf(req).user, req.body, { ip: req.ip, requestId: req.id });
      return { company: toCompany(company), reconnected };
    },
  });
};
