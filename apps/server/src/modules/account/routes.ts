import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { getAccount, getAccountAudit, getReleaseNotesVersion, patchAccount, postReleaseNotesVersion } from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { AccountService } from "./service.ts";

const tags = ["account"];
const errs = [400, 401, 404] as const;

/** Everything here is scoped to the caller's account id taken from the verified token, never from input. */
export const accountRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, requireAuth }) => {
  const account = new AccountService(database.db);
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(getAccount, { tags, security: bearer, summary: "The caller's account (tenant)", errors: errs }),
    handler: async (req) => account.account(authOf(req).user),
  });

  app.route({
    ...routeOf(patchAccount, { tags, security: bearer, summary: "Update onboarding, onboardingStep, nabAccounts or name", errors: errs }),
    // Onboarding bookkeeping and the group's name: any member, also on a lapsed trial.
    config: { permission: "member", whenLapsed: "allowed" },
    handler: async (req) => account.update(authOf(req).user, req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(getAccountAudit, { tags, security: bearer, summary: "Recent audit log of the caller's account, newest first", errors: errs }),
    handler: async (req) => account.auditLog(authOf(req).user, req.query.limit),
  });

  app.route({
    ...routeOf(getReleaseNotesVersion, { tags, security: bearer, summary: "The release-notes version the user has acknowledged", errors: errs }),
    handler: async (req) => ({ releaseNotesVersion: authOf(req).user.releaseNotesVersion }),
  });

  app.route({
    ...routeOf(postReleaseNotesVersion, { tags, security: bearer, summary: "Acknowledge a release-notes version", errors: errs }),
    config: { permission: "member", whenLapsed: "allowed" },
    handler: async (req) => account.acknowledgeReleaseNotes(authOf(req).user, req.body.version),
  });
};
