import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { RateLimiter } from "../../services/rate-limiter.ts";
import { TokenService } from "../../services/tokens.ts";
import { nightlySyncOf, setNightlySync } from "./nightly-sync.ts";
import { SettingsService } from "./service.ts";

const docs = docsOf({ tags: ["settings"], security: bearer, errors: [400, 401, 403, 404, 409, 429] });
/** A user's own settings: anyone signed in, also while a lapsed trial is read-only. */
const own = { permission: "member", whenLapsed: "allowed" } as const;

export const settingsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, config, mailer, requireAuth }) => {
  const settings = new SettingsService(database.db, config, mailer, new TokenService(config.appSecret, config.tokenTtlSeconds), new RateLimiter(database.db));
  app.addHook("onRequest", requireAuth);

  app.route({
    ...routeOf(contract.getProfile, docs("The signed-in user's profile and report delivery email")),
    handler: async (req) => settings.profile(authOf(req).user),
  });

  app.route({
    ...routeOf(contract.patchProfile, docs("Change your name")),
    config: own,
    handler: async (req) => settings.rename(authOf(req).user, req.body.name, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.postEmailChange, docs("Start changing your sign-in email: needs your password; mails a code to the new address")),
    config: own,
    handler: async (req, reply) => reply.status(202).send(await settings.startEmailChange(authOf(req).user, req.body, requestMeta(req))),
  });

  app.route({
    ...routeOf(contract.postEmailChangeVerify, docs("Finish the email change with the mailed code; other sessions end, this one gets a new token")),
    config: own,
    handler: async (req) => {
      const { email, token, expiresAt } = await settings.confirmEmailChange(authOf(req).user, req.body.code, requestMeta(req));
      return { email, token, expiresAt: expiresAt.toISOString() };
    },
  });

  app.route({
    ...routeOf(
      contract.patchReportEmail,
      docs(
        "Set where your exported workbooks are mailed (SPEC §7); your sign-in email resets it. Another address gets a code and receives nothing until POST /api/excel/verify; the same address again mails a new code",
      ),
    ),
    config: own,
    handler: async (req) => ({ data: await settings.setReportEmail(authOf(req).user, req.body.email, requestMeta(req)) }),
  });

  app.route({
    ...routeOf(contract.postReportEmailVerify, docs("Verify the report delivery address with the code mailed to it; workbooks are sent there from then on")),
    config: own,
    handler: async (req) => ({ data: await settings.confirmReportEmail(authOf(req).user, req.body.code, requestMeta(req)) }),
  });

  app.route({
    ...routeOf(contract.getNightlySync, docs("The group's nightly sync: whether it runs, the time of day and the IANA time zone it is read in, and the local date it last ran")),
    handler: async (req) => nightlySyncOf(database.db, authOf(req).user.accountId),
  });

  app.route({
    ...routeOf(
      contract.putNightlySync,
      docs("Set the group's nightly sync (admins): every connected company is synced once a day at or after the time (HH:MM) in the time zone, daylight saving included", {
        description: "The time zone is an IANA name (e.g. Europe/London); an alias is stored under its canonical name. A day already synced is not synced again when the time moves later.",
      }),
    ),
    handler: async (req) => setNightlySync(database.db, authOf(req).user, req.body, requestMeta(req)),
  });
};
