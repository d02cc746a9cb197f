import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  changePasswordRequestSchema,
  emailOnlyRequestSchema,
  errorBodySchema,
  messageResponseSchema,
  resetPasswordRequestSchema,
  sessionUserSchema,
  signupRequestSchema,
  signupResponseSchema,
  tokenRequestSchema,
  tokenResponseSchema,
  validationCodeRequestSchema,
  validationCodeResponseSchema,
} from "@groupledger/contract";
import { afterResponse } from "../../http/after-response.ts";
import { authOf } from "../../http/auth.ts";
import type { AppContext } from "../../context.ts";
import { messages } from "./service.ts";

const tags = ["session"];
const security = [{ bearer: [] }];
/** About the caller's own session: anyone signed in, also while a lapsed trial is read-only. */
const ownSession = { permission: "member", whenLapsed: "allowed" } as const;
const err = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema };

export const sessionRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { sessions, requireAuth } = ctx;
  const meta = (r: { ip: string; id: string }) => ({ ip: r.ip, requestId: r.id });

  app.post(
    "/signup",
    {
      config: { permission: "public" },
      schema: {
        tags,
        summary: "Create an account and its first user; mails a verification code",
        description:
          "Not in the product spec; defined here. Signing up again before verifying mails a new code for the first sign-up and keeps its password (so nobody can replace the password of a sign-up the mailbox owner then verifies). The password must pass the spec's creation rules and not be a common or easily guessed one.",
        body: signupRequestSchema,
        response: { 201: signupResponseSchema, ...err },
      },
    },
    async (req, reply) => reply.status(201).send(await sessions.signup(req.body, meta(req))),
  );

  app.post(
    "/resendcode",
    {
      config: { permission: "public" },
      schema: {
        tags,
        summary: "Mail a new verification code (same answer whether or not the email is known)",
        body: emailOnlyRequestSchema,
        response: { 200: messageResponseSchema, ...err },
      },
    },
    async (req) => {
      await sessions.resendVerification(req.body.email, meta(req), afterResponse(req));
      return { message: messages.resendSent };
    },
  );

  app.post(
    "/validationcode",
    {
      config: { permission: "public" },
      schema: {
        tags,
        summary: "Verify the email with the mailed code; returns the email",
        description:
          "With the email, wrong codes count against that user's code (burnt after five). Without it, they count against one budget shared by every address; once it is spent, a code is accepted only with its email (429 until the window ends).",
        body: validationCodeRequestSchema,
        response: { 200: validationCodeResponseSchema, ...err },
      },
    },
    async (req) => sessions.verifyEmail(req.body, meta(req)),
  );

  app.post(
    "/token",
    {
      config: { permission: "public" },
      schema: {
        tags,
        summary: "Sign in: returns a JWT",
        body: tokenRequestSchema,
        response: { 200: tokenResponseSchema, ...err },
      },
    },
    async (req) => {
      const { token, expiresAt } = await sessions.login(req.body, meta(req));
      return { token, expiresAt: expiresAt.toISOString() };
    },
  );

  app.get(
    "/",
    {
      onRequest: requireAuth,
      schema: { tags, security, summary: "The signed-in user", response: { 200: sessionUserSchema, ...err } },
    },
    async (req) => {
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
  );

  app.post(
    "/logout",
    {
      onRequest: requireAuth,
      config: ownSession,
      schema: { tags, security, summary: "End this session: the token is refused from now on", response: { 204: z.null(), ...err } },
    },
    async (req, reply) => {
      const { user, claims } = authOf(req);
      await sessions.logout(user, claims, meta(req));
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/logout/all",
    {
      onRequest: requireAuth,
      config: ownSession,
      schema: {
        tags,
        security,
        summary: "Log out everywhere: every session of the user ends, this one included",
        description: "Not in the product spec; defined here.",
        response: { 204: z.null(), ...err },
      },
    },
    async (req, reply) => {
      await sessions.logoutEverywhere(authOf(req).user, meta(req));
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/forgotpassword",
    {
      config: { permission: "public" },
      schema: {
        tags,
        summary: "Mail a password-reset code (same answer whether or not the email is known)",
        body: emailOnlyRequestSchema,
        response: { 200: messageResponseSchema, ...err },
      },
    },
    async (req) => {
      await sessions.forgotPassword(req.body.email, meta(req), afterResponse(req));
      return { message: messages.forgotSent };
    },
  );

  app.post(
    "/resetpassword",
    {
      config: { permission: "public" },
      schema: {
        tags,
        summary: "Set a new password with the mailed reset code; ends every session of the user",
        description: "Not in the product spec; defined here.",
        body: resetPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...err },
      },
    },
    async (req) => {
      await sessions.resetPassword(req.body, meta(req));
      return { message: messages.passwordReset };
    },
  );

  app.post(
    "/changepassword",
    {
      onRequest: requireAuth,
      config: ownSession,
      schema: {
        tags,
        security,
        summary: "Change the signed-in user's password; other sessions end, this one gets a new token",
        description: "Not in the product spec; defined here.",
        body: changePasswordRequestSchema,
        response: { 200: tokenResponseSchema, ...err },
      },
    },
    async (req) => {
      const { token, expiresAt } = await sessions.changePassword(authOf(req).user, req.body, meta(req));
      return { token, expiresAt: expiresAt.toISOString() };
    },
  );
};
