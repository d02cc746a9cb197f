import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authorizationCallbackSchema, authorizationResultSchema, authorizeResponseSchema, errorBodySchema } from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { toCompany } from "../group/service.ts";

const security = [{ bearer: [] }];
const err = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema };

export const qboRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { requireAuth, connect }) => {
  app.addHook("onRequest", requireAuth);

  app.get(
    "/qbo/account/authorize",
    {
      schema: {
        tags: ["companies"],
        security,
        summary: "Start connecting a QuickBooks company: the consent page for the pop-up",
        description: "Creates a single-use state bound to the caller, valid for 10 minutes. key is the app's client id.",
        response: { 200: authorizeResponseSchema, ...err },
      },
    },
    async (req) => connect.authorize(authOf(req).user, `${req.protocol}://${req.host}`),
  );

  app.post(
    "/qbo/account/callback",
    {
      schema: {
        tags: ["companies"],
        security,
        summary: "Finish connecting: what QuickBooks sent to /qbo/auth/complete",
        description:
          "Exchanges the code, reads CompanyInfo and Preferences, stores the company and its encrypted tokens and starts a sync. " +
          "A company connected to another account is refused (409); one already connected to this account is re-authorized in place.",
        body: authorizationCallbackSchema,
        response: { 200: authorizationResultSchema, ...err },
      },
    },
    async (req) => {
      const { company, reconnected } = await connect.complete(authOf(req).user, req.body, { ip: req.ip, requestId: req.id });
      return { company: toCompany(company), reconnected };
    },
  );
};
