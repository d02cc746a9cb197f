import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import type { PaymentProvider } from "./provider.ts";
import { BillingService } from "./service.ts";
import { TEST_PROVIDER_PREFIX, TestPaymentProvider, testProviderPlugin } from "./test-provider.ts";

const docs = docsOf({ tags: ["billing"], security: bearer, errors: [400, 401, 402, 403, 404, 409, 503] });

const billingApi = (billing: BillingService): FastifyPluginAsyncZod<AppContext> =>
  async (app, { config, requireAuth }) => {
    const origin = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;
    app.addHook("onRequest", requireAuth);

    app.route({
      ...routeOf(
        contract.getBilling,
        docs("Subscription status (SPEC §3), trial days left, plan, card on file, payments and the provider's browser settings"),
      ),
      handler: async (req) => billing.view(authOf(req).user, origin(req)),
    });

    app.route({
      ...routeOf(contract.postBillingSubscribe, docs("Subscribe to a plan with a card token from the payment provider (never card details)")),
      // Admins only, and it must work on a lapsed trial: it is how the account gets out of it.
      config: { permission: "admin", whenLapsed: "allowed" },
      handler: async (req) => {
        const { user } = authOf(req);
        await billing.subscribe(user, req.body, requestMeta(req));
        return billing.view(user, origin(req));
      },
    });
  };

/**
 * Billing: the API under /api and, with the default test provider, the provider's tokenize
 * endpoint under /billing-sandbox. Production without a real provider's adapter gets no provider:
 * the settings show the status and subscribing answers 503 rather than taking fake payments.
 */
export const billingModule: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const test = ctx.config.env === "production" ? null : new TestPaymentProvider();
  const provider: PaymentProvider | null = test;
  await app.register(billingApi(new BillingService(ctx.database.db, provider)), { ...ctx, prefix: "/api" });
  if (test) await app.register(testProviderPlugin(test), { prefix: TEST_PROVIDER_PREFIX });
};

