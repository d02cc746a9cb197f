import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyRequest } from "fastify";
import {
  emailChangeConfirmSchema,
  emailChangedSchema,
  emailChangeRequestSchema,
  emailChangeStartedSchema,
  errorBodySchema,
  profilePatchSchema,
  profileSchema,
  reportEmailRequestSchema,
  reportEmailResponseSchema,
  reportEmailVerifySchema,
} from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import { RateLimiter } from "../../services/rate-limiter.ts";
import { TokenService } from "../../services/tokens.ts";
import { SettingsService } from "./service.ts";

const tags = ["settings"];
const security = [{ bearer: [] }];
const err = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema };
/** A user's own settings: anyone signed in, also while a lapsed trial is read-only. */
const own = { permission: "member", whenLapsed: "allowed" } as const;
const meta = (r: FastifyRequest) => ({ ip: r.ip, requestId: r.id });

export const settingsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database, config, mailer, requireAuth }) => {
  const settings = new SettingsService(database.db, config, mailer, new TokenService(config.appSecret, config.tokenTtlSeconds));
  const limiter = new RateLimiter(database.db);
  const limit = async (key: string, max: number) => {
    const r = await limiter.hit(key, max, config.rateLimits.windowMs);
    if (!r.allowed) {
      const minutes = Math.max(1, Math.ceil(r.retryAfterMs / 60_000));
      throw errors.tooManyRequests(`Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`, r.retryAfterMs);
    }
  };
  app.addHook("onRequest", requireAuth);

  app.get(
    "/settings/profile",
    { schema: { tags, security, summary: "The signed-in user's profile and report delivery email", response: { 200: profileSchema, ...err } } },
    async (req) => settings.profile(authOf(req).user),
  );

  app.patch(
    "/settings/profile",
    { config: own, schema: { tags, security, summary: "Change your name", body: profilePatchSchema, response: { 200: profileSchema, ...err } } },
    async (req) => settings.rename(authOf(req).user, req.body.name, meta(req)),
  );

  app.post(
    "/settings/email",
    {
      config: own,
      schema: {
        tags,
        security,
        summary: "Start changing your sign-in email: needs your password; mails a code to the new address",
        body: emailChangeRequestSchema,
        response: { 202: emailChangeStartedSchema, ...err },
      },
    },
    async (req, reply) => {
      await limit(`mail:ip:${req.ip}`, config.rateLimits.mailPerIp);
      return reply.status(202).send(await settings.startEmailChange(authOf(req).user, req.body, meta(req)));
    },
  );

  app.post(
    "/settings/email/verify",
    {
      config: own,
      schema: {
        tags,
        security,
        summary: "Finish the email change with the mailed code; other sessions end, this one gets a new token",
        body: emailChangeConfirmSchema,
        response: { 200: emailChangedSchema, ...err },
      },
    },
    async (req) => {
      await limit(`code:ip:${req.ip}`, config.rateLimits.codePerIp);
      const { email, token, expiresAt } = await settings.confirmEmailChange(authOf(req).user, req.body.code, meta(req));
      return { email, token, expiresAt: expiresAt.toISOString() };
    },
  );

  app.patch(
    "/excel/update",
    {
      config: own,
      schema: {
        tags,
        security,
        summary:
          "Set where your exported workbooks are mailed (SPEC §7); your sign-in email resets it. Another address gets a code and receives nothing until POST /api/excel/verify; the same address again mails a new code",
        body: reportEmailRequestSchema,
        response: { 200: reportEmailResponseSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      if (req.body.email !== user.email) {
        // Each code is a mail to an address nobody has verified: limited per IP and per user.
        await limit(`mail:ip:${req.ip}`, config.rateLimits.mailPerIp);
        const r = await limiter.hit(`report-address:user:${user.id}`, config.rateLimits.reportAddressCodesPerUser, config.rateLimits.reportMailWindowMs);
        if (!r.allowed) {
          const minutes = Math.max(1, Math.ceil(r.retryAfterMs / 60_000));
          throw errors.tooManyRequests(`You asked for ${config.rateLimits.reportAddressCodesPerUser} report address codes recently. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`, r.retryAfterMs);
        }
      }
      return { data: await settings.setReportEmail(user, req.body.email, meta(req)) };
    },
  );

  app.post(
    "/excel/verify",
    {
      config: own,
      schema: {
        tags,
        security,
        summary: "Verify the report delivery address with the code mailed to it; workbooks are sent there from then on",
        body: reportEmailVerifySchema,
        response: { 200: reportEmailResponseSchema, ...err },
      },
    },
    async (req) => {
      await limit(`code:ip:${req.ip}`, config.rateLimits.codePerIp);
      return { data: await settings.confirmReportEmail(authOf(req).user, req.body.code, meta(req)) };
    },
  );
};
