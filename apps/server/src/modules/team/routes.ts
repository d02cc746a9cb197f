import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import {
  errorBodySchema,
  idParamsSchema,
  invitationAcceptSchema,
  invitationLookupRequestSchema,
  invitationPreviewSchema,
  invitationSchema,
  inviteRequestSchema,
  memberPatchSchema,
  teamSchema,
  tokenResponseSchema,
} from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { errors } from "../../http/errors.ts";
import { RateLimiter } from "../../services/rate-limiter.ts";
import { TokenService } from "../../services/tokens.ts";
import { TeamService } from "./service.ts";

const tags = ["team"];
const security = [{ bearer: [] }];
const err = { 400: errorBodySchema, 401: errorBodySchema, 402: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema };
const admin = { permission: "admin", whenLapsed: "allowed" } as const;

const meta = (r: FastifyRequest) => ({ ip: r.ip, requestId: r.id });

/**
 * Team members and invitations (Account Settings → Team). Everyone in the account sees the team;
 * only admins change it. A lapsed trial can still manage its team: whoever pays may need an invite.
 */
export const teamRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { database, config, mailer, requireAuth } = ctx;
  const team = new TeamService(database.db, config.appSecret, mailer, new TokenService(config.appSecret, config.tokenTtlSeconds));
  const limiter = new RateLimiter(database.db);
  const origin = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;
  const limit = async (key: string, max: number) => {
    const r = await limiter.hit(key, max, config.rateLimits.windowMs);
    if (!r.allowed) {
      const minutes = Math.max(1, Math.ceil(r.retryAfterMs / 60_000));
      throw errors.tooManyRequests(`Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`, r.retryAfterMs);
    }
  };

  app.get(
    "/team",
    { onRequest: requireAuth, schema: { tags, security, summary: "Members of the caller's account and pending invitations", response: { 200: teamSchema, ...err } } },
    async (req) => team.team(authOf(req).user),
  );

  app.post(
    "/team/invitations",
    {
      onRequest: requireAuth,
      config: admin,
      schema: {
        tags,
        security,
        summary: "Invite someone by email to this account (admin); mails a link valid for 7 days",
        body: inviteRequestSchema,
        response: { 201: invitationSchema, ...err },
      },
    },
    async (req, reply) => {
      await limit(`mail:ip:${req.ip}`, config.rateLimits.mailPerIp);
      return reply.status(201).send(await team.invite(authOf(req).user, req.body, origin(req), meta(req)));
    },
  );

  app.post(
    "/team/invitations/:id/resend",
    {
      onRequest: requireAuth,
      config: admin,
      schema: {
        tags,
        security,
        summary: "Send an invitation again with a new link and a new expiry (the old link stops working)",
        params: idParamsSchema,
        response: { 200: invitationSchema, ...err },
      },
    },
    async (req) => {
      await limit(`mail:ip:${req.ip}`, config.rateLimits.mailPerIp);
      return team.resend(authOf(req).user, req.params.id, origin(req), meta(req));
    },
  );

  app.delete(
    "/team/invitations/:id",
    {
      onRequest: requireAuth,
      config: admin,
      schema: { tags, security, summary: "Revoke a pending invitation: its link stops working", params: idParamsSchema, response: { 204: z.null(), ...err } },
    },
    async (req, reply) => {
      await team.revoke(authOf(req).user, req.params.id, meta(req));
      return reply.status(204).send(null);
    },
  );

  app.patch(
    "/team/members/:id",
    {
      onRequest: requireAuth,
      config: admin,
      schema: {
        tags,
        security,
        summary: "Change a member's permissionLevel (0 member, 1 admin); the last admin cannot be demoted",
        params: idParamsSchema,
        body: memberPatchSchema,
        response: { 200: teamSchema, ...err },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      await team.changeLevel(user, req.params.id, req.body.permissionLevel, meta(req));
      return team.team(user);
    },
  );

  app.delete(
    "/team/members/:id",
    {
      onRequest: requireAuth,
      config: admin,
      schema: {
        tags,
        security,
        summary: "Remove a member from the account (their sessions end); the last admin cannot be removed",
        params: idParamsSchema,
        response: { 204: z.null(), ...err },
      },
    },
    async (req, reply) => {
      await team.remove(authOf(req).user, req.params.id, meta(req));
      return reply.status(204).send(null);
    },
  );

  // The invitee has no session yet: these two answer to the link's token alone (rate-limited per IP).
  app.post(
    "/invitations/lookup",
    {
      config: { permission: "public" },
      schema: {
        tags,
        summary: "Who invited whom, for the accept page (token in the body so it stays out of access logs)",
        body: invitationLookupRequestSchema,
        response: { 200: invitationPreviewSchema, ...err },
      },
    },
    async (req) => {
      await limit(`code:ip:${req.ip}`, config.rateLimits.codePerIp);
      return team.preview(req.body.token);
    },
  );

  app.post(
    "/invitations/accept",
    {
      config: { permission: "public" },
      schema: {
        tags,
        summary: "Accept an invitation: creates the user in the inviting account with a password and signs them in",
        body: invitationAcceptSchema,
        response: { 200: tokenResponseSchema, ...err },
      },
    },
    async (req) => {
      await limit(`code:ip:${req.ip}`, config.rateLimits.codePerIp);
      const { token, expiresAt } = await team.accept(req.body, meta(req));
      return { token, expiresAt: expiresAt.toISOString() };
    },
  );
};
