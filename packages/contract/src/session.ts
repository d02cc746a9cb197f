import { z } from "zod";
import {
  credentialsWithNewPasswordSchema,
  emailSchema,
  loginPasswordSchema,
  newPasswordSchema,
  PASSWORD_RULE_MESSAGES,
  whenFieldsAreStrings,
} from "@groupledger/domain";
import { GET, POST, noContent } from "./endpoint.ts";

export const CODE_MESSAGE = "Please enter the code from your email.";

/** Codes are mailed in upper case; people type them however they like, with or without spaces or dashes. */
export const codeSchema = z
  .string({ error: CODE_MESSAGE })
  .transform((s) => s.replace(/[\s-]/g, "").toUpperCase())
  .pipe(z.string().min(4, CODE_MESSAGE).max(64, CODE_MESSAGE));

export const signupRequestSchema = credentialsWithNewPasswordSchema;
export type SignupRequest = z.input<typeof signupRequestSchema>;

export const signupResponseSchema = z.object({ email: z.string(), message: z.string() });

export const validationCodeRequestSchema = z.object({
  validationCode: codeSchema,
  /** Optional: when given, wrong codes count against that user's code so it burns after too many tries. */
  email: emailSchema.optional(),
});
export type ValidationCodeRequest = z.input<typeof validationCodeRequestSchema>;
export const validationCodeResponseSchema = z.object({ email: z.string() });

export const emailOnlyRequestSchema = z.object({ email: emailSchema });
export const messageResponseSchema = z.object({ message: z.string() });

export const tokenRequestSchema = z.object({ email: emailSchema, password: loginPasswordSchema });
export type TokenRequest = z.input<typeof tokenRequestSchema>;
export const tokenResponseSchema = z.object({
  token: z.string(),
  expiresAt: z.string().describe("ISO-8601 time the token stops being accepted"),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** Who a user is, as the session, the team and the profile show them; each adds its own fields. */
export const userSchema = z.object({ id: z.string(), email: z.string(), name: z.string(), permissionLevel: z.number().int() });

export const sessionUserSchema = userSchema.extend({
  /** Display name (Account Settings → Profile); "" until set. */
  name: z.string().optional(),
  accountId: z.string(),
  emailVerified: z.boolean(),
  releaseNotesVersion: z.string(),
  createdAt: z.string(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const resetPasswordRequestSchema = z
  .object({ email: emailSchema, code: codeSchema, password: z.string({ error: PASSWORD_RULE_MESSAGES.notBlank }) })
  .superRefine(newPasswordSchema(), whenFieldsAreStrings("password"));
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** The new password is checked against the signed-in user's email on the server. */
export const changePasswordRequestSchema = z.object({
  currentPassword: loginPasswordSchema,
  newPassword: z.string(),
});
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const postSignup = POST("/session/signup", { 201: signupResponseSchema }, { body: signupRequestSchema });
export const postResendCode = POST("/session/resendcode", { 200: messageResponseSchema }, { body: emailOnlyRequestSchema });
export const postValidationCode = POST("/session/validationcode", { 200: validationCodeResponseSchema }, { body: validationCodeRequestSchema });
export const postToken = POST("/session/token", { 200: tokenResponseSchema }, { body: tokenRequestSchema });
export const getSession = GET("/session", { 200: sessionUserSchema });
export const postLogout = POST("/session/logout", noContent);
export const postLogoutAll = POST("/session/logout/all", noContent);
export const postForgotPassword = POST("/session/forgotpassword", { 200: messageResponseSchema }, { body: emailOnlyRequestSchema });
export const postResetPassword = POST("/session/resetpassword", { 200: messageResponseSchema }, { body: resetPasswordRequestSchema });
export const postChangePassword = POST("/session/changepassword", { 200: tokenResponseSchema }, { body: changePasswordRequestSchema });
