import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { createCtaAccount } from "./create-account.ts";
import { chooseGroupCtaAccount, ctaSettings, saveSubsidiaryCta } from "./service.ts";

const errors = [400, 401, 404, 409] as const;
const docs = docsOf({ tags: ["cta & historical"], security: bearer, errors });

export const ctaRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth, provider }) => {
  const { db } = database;
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(contract.getCta, docs("The group's CTA account, and the ownership, dividend-rate policy and historical equity of every foreign subsidiary")),
    handler: async (req) => ctaSettings(db, authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(
      contract.putCtaAccount,
      docs("Choose the group's CTA account: the parent's equity account that receives every foreign subsidiary's CTA", {
        description:
          "The group keeps one CTA account; this sets it for every foreign subsidiary at once (and for those connected later). An account that cannot hold a CTA (not equity, contributed capital, retained earnings, inactive, not in the parent's chart) answers 400 invalid_cta_account. Answers the CTA settings as GET /api/cta does.",
      }),
    ),
    // Preparing a consolidation, like each subsidiary's CTA settings: any member.
    config: { permission: "member" },
    handler: async (req) => chooseGroupCtaAccount(db, authOf(req).user, req.body.ctaAccountId, requestMeta(req)),
  });

  app.route({
    ...routeOf(
      contract.putCtaSubsidiary,
      docs("Set a foreign subsidiary's ownership, dividend-rate policy, translation method and historical equity (all or nothing)", {
        description:
          "ctaAccountId is the group's (PUT /api/cta/account): sent here it chooses the group's account while none is chosen; another account than the group's answers 409 group_cta_account.",
      }),
    ),
    handler: async (req) => saveSubsidiaryCta(db, authOf(req).user, req.params.realmId, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(
      contract.postCtaAccount,
      docs("Create an equity account for the CTA in the parent's QuickBooks company, add it to the parent's chart here and make it the group's CTA account", {
        description:
          "Equity, detail type Accumulated adjustment; the name defaults to \"Accumulated OCI – Translation\". A name QuickBooks already has answers 409 duplicate_account_name (with details.existingAccountId when it can be read); a parent QuickBooks no longer authorizes answers 409 qbo_reauthorization_required (errorCode 003200).",
        errors: [...errors, 502],
      }),
    ),
    handler: async (req) => createCtaAccount({ database, provider }, authOf(req).user, req.body.name, requestMeta(req)),
  });
};
