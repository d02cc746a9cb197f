import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as contract from "@groupledger/contract";
import { afterResponse } from "../../http/after-response.ts";
import { authOf } from "../../http/auth.ts";
import { bearer, docsOf, routeOf } from "../../http/endpoint.ts";
import { requestMeta } from "../../services/audit.ts";
import type { AppContext } from "../../context.ts";
import { messages } from "./service.ts";

const tags = ["session"];
/** About the caller's own session: anyone signed in, also while a lapsed trial is read-only. */
const ownSession = { permission: "member", whenLapsed: "allowed" } as const;
const errors = [400, 401, 403, 409, 429] as const;
const publicDocs = docsOf({ tags, errors });
const docs = docsOf({ tags, security: bearer, errors });

export const sessionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { sessions, requireAuth } = ctx;
  app.route({
    ...routeOf(
      contract.postSignup,
      publicDocs("Create an account and its first user; mails a verification code", {
        description:
          "Not in the product spec; defined here. Signing up again before verifying mails a new code for the first sign-up and keeps its password (so nobody can replace the password of a sign-up the mailbox owner then verifies). The password must pass the spec's creation rules and not be a common or easily guessed one.",
      }),
    ),
    config: { permission: "public" },
    handler: async (req, reply) => reply.status(201).send(await sessions.signup(req.body, requestMeta(req))),
  });

  app.route({
    ...routeOf(contract.postResendCode, publicDocs("Mail a new verification code (same answer whether or not the email is known)")),
    config: { permission: "public" },
    handler: async (req) => {
      await sessions.resendVerification(req.body.email, requestMeta(req), afterResponse(req));
      return { message: messages.resendSent };
    },
  });

  app.route({
    ...routeOf(
      contract.postValidationCode,
      publicDocs("Verify the email with the mailed code; returns the email", {
        description:
          "With the email, wrong codes count against that user's code (burnt after five). Without it, they count against one budget shared by every address; once it is spent, a code is accepted only with its email (429 until the window ends).",
      }),
    ),
    config: { permission: "public" },
    handler: async (req) => sessions.verifyEmail(req.body, requestMeta(req)),
  });

  app.route({
    ...routeOf(contract.postToken, publicDocs("Sign in: returns a JWT")),
    config: { permission: "public" },
    handler: async (req) => {
      const { token, expiresAt } = await sessions.login(req.body, requestMeta(req));
      return { token, expiresAt: expiresAt.toISOString() };
    },
  });

  app.route({
    ...routeOf(contract.getSession, docs("The signed-in user")),
    onRequest: requireAuth,
    handler: async (req) => {
      const { user } = authOf(req);
      return {
        id: user.id,
        email: user.email,
        name: user.name,
        permissionLevel: user.permissionLevel,
        accountId: user.accountId,
        emailVerified: user.emailVerifiedAt !== null,
        releaseNotesVersion: user.releaseNotesVersion,
        createdAt: user.createdAt.toISOString(),
      };
    },
  });

  app.route({
    ...routeOf(contract.postLogout, docs("End this session: the token is refused from now on")),
    onRequest: requireAuth,
    config: ownSession,
    handler: async (req, reply) => {
      const { user, claims } = authOf(req);
      await sessions.logout(user, claims, requestMeta(req));
      return reply.status(204).send(null);
    },
  });

  app.route({
    ...routeOf(
      contract.postLogoutAll,
      docs("Log out everywhere: every session of the user ends, this one included", { description: "Not in the product spec; defined here." }),
    ),
    onRequest: requireAuth,
    config: ownSession,
    handler: async (req, reply) => {
      await sessions.logoutEverywhere(authOf(req).user, requestMeta(req));
      return reply.status(204).send(null);
    },
  });

  app.route({
    ...routeOf(contract.postForgotPassword, publicDocs("Mail a password-reset code (same answer whether or not the email is known)")),
    config: { permission: "public" },
    handler: async (req) => {
      await sessions.forgotPassword(req.body.email, requestMeta(req), afterResponse(req));
      return { message: messages.forgotSent };
    },
  });

  app.route({
    ...routeOf(
      contract.postResetPassword,
      publicDocs("Set a new password with the mailed reset code; ends every session of the user", { description: "Not in the product spec; defined here." }),
    ),
    config: { permission: "public" },
    handler: async (req) => {
      await sessions.resetPassword(req.body, requestMeta(req));
      return { message: messages.passwordReset };
    },
  });

  app.route({
    ...routeOf(
      contract.postChangePassword,
      docs("Change the signed-in user's password; other sessions end, this one gets a new token", { description: "Not in the product spec; defined here." }),
    ),
    onRequest: requireAuth,
    config: ownSession,
    handler: async (req) => {
      const { token, expiresAt } = await sessions.changePassword(authOf(req).user, req.body, requestMeta(req));
      return { token, expiresAt: expiresAt.toISOString() };
    },
  });
};
