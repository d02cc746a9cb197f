import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { AccountService } from "./service.ts";

const docs = docsOf({ tags: ["account"], security: bearer, errors: [400, 401, 404] });

/** Everything here is scoped to the caller's account id taken from the verified token, never from input. */
export const accountRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const account = new AccountService(database.db);
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(contract.getAccount, docs("The caller's account (tenant)")),
    handler: async (req) => account.account(authOf(req).user),
  });

  app.route({
    ...routeOf(contract.patchAccount, docs("Update onboarding, onboardingStep, nabAccounts or name")),
    // Onboarding bookkeeping and the group's name: any member, also on a lapsed trial.
    config: { permission: "member", whenLapsed: "allowed" },
    handler: async (req) => account.update(authOf(req).user, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.getAccountAudit, docs("Recent audit log of the caller's account, newest first")),
    handler: async (req) => account.auditLog(authOf(req).user, req.query.limit),
  });

  app.route({
    ...routeOf(contract.getReleaseNotesVersion, docs("The release-notes version the user has acknowledged")),
    handler: async (req) => ({ releaseNotesVersion: authOf(req).user.releaseNotesVersion }),
  });

  app.route({
    ...routeOf(contract.postReleaseNotesVersion, docs("Acknowledge a release-notes version")),
    config: { permission: "member", whenLapsed: "allowed" },
    handler: async (req) => account.acknowledgeReleaseNotes(authOf(req).user, req.body.version),
  });
};
