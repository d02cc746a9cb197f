import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyRequest } from "fastify";
import * as contract from "@groupledger/contract";
import type { AppContext } from "../../context.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import { RateLimiter } from "../../services/rate-limiter.ts";
import { TokenService } from "../../services/tokens.ts";
import { TeamService } from "./service.ts";

const tags = ["team"];
const errs = [400, 401, 402, 403, 404, 409, 429] as const;
const publicDocs = docsOf({ tags, errors: errs });
const docs = docsOf({ tags, security: bearer, errors: errs });
const admin = { permission: "admin", whenLapsed: "allowed" } as const;

/**
 * Team members and invitations (Account Settings → Team). Everyone in the account sees the team;
 * only admins change it. A lapsed trial can still manage its team: whoever pays may need an invite.
 */
export const teamRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { database, config, mailer, requireAuth } = ctx;
  const team = new TeamService(database.db, config, mailer, new TokenService(config.appSecret, config.tokenTtlSeconds), new RateLimiter(database.db));
  const origin = (req: FastifyRequest) => config.publicUrl ?? `${req.protocol}://${req.host}`;

  app.route({
    ...routeOf(contract.getTeam, docs("Members of the caller's account and pending invitations")),
    onRequest: requireAuth,
    handler: async (req) => team.team(authOf(req).user),
  });

  app.route({
    ...routeOf(contract.postTeamInvitation, docs("Invite someone by email to this account (admin); mails a link valid for 7 days")),
    onRequest: requireAuth,
    config: admin,
    handler: async (req, reply) => reply.status(201).send(await team.invite(authOf(req).user, req.body, origin(req), requestMeta(req))),
  });

  app.route({
    ...routeOf(contract.postTeamInvitationResend, docs("Send an invitation again with a new link and a new expiry (the old link stops working)")),
    onRequest: requireAuth,
    config: admin,
    handler: async (req) => team.resend(authOf(req).user, req.params.id, origin(req), requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.deleteTeamInvitation, docs("Revoke a pending invitation: its link stops working")),
    onRequest: requireAuth,
    config: admin,
    handler: async (req, reply) => {
      await team.revoke(authOf(req).user, req.params.id, requestMeta(req));
      return reply.status(204).send(null);
    },
  });

  app.route({
    ...routeOf(contract.patchTeamMember, docs("Change a member's permissionLevel (0 member, 1 admin); the last admin cannot be demoted")),
    onRequest: requireAuth,
    config: admin,
    handler: async (req) => {
      const { user } = authOf(req);
      await team.changeLevel(user, req.params.id, req.body.permissionLevel, requestMeta(req));
      return team.team(user);
    },
  });

  app.route({
    ...routeOf(contract.deleteTeamMember, docs("Remove a member from the account (their sessions end); the last admin cannot be removed")),
    onRequest: requireAuth,
    config: admin,
    handler: async (req, reply) => {
      await team.remove(authOf(req).user, req.params.id, requestMeta(req));
      return reply.status(204).send(null);
    },
  });

  // The invitee has no session yet: these two answer to the link's token alone (rate-limited per IP).
  app.route({
    ...routeOf(contract.postInvitationLookup, publicDocs("Who invited whom, for the accept page (token in the body so it stays out of access logs)")),
    config: { permission: "public" },
    handler: async (req) => team.preview(req.body.token, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.postInvitationAccept, publicDocs("Accept an invitation: creates the user in the inviting account with a password and signs them in")),
    config: { permission: "public" },
    handler: async (req) => {
      const { token, expiresAt } = await team.accept(req.body, requestMeta(req));
      return { token, expiresAt: expiresAt.toISOString() };
    },
  });
};
