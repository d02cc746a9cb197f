import { z } from "zod";
import {
  credentialsWithNewPasswordSchema,
  emailSchema,
  loginPasswordSchema,
  newPasswordSchema,
  PASSWORD_RULE_MESSAGES,
  whenFieldsAreStrings,
} from "@groupledger/domain";
import { endpoint } from "./endpoint.ts";

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

export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** Display name (Account Settings → Profile); "" until set. */
  name: z.string().optional(),
  permissionLevel: z.number().int(),
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

export const postSignup = endpoint({ method: "POST", path: "/session/signup", body: signupRequestSchema, responses: { 201: signupResponseSchema } });
export const postResendCode = endpoint({ method: "POST", path: "/session/resendcode", body: emailOnlyRequestSchema, responses: { 200: messageResponseSchema } });
export const postValidationCode = endpoint({
  method: "POST",
  path: "/session/validationcode",
  body: validationCodeRequestSchema,
  responses: { 200: validationCodeResponseSchema },
});
export const postToken = endpoint({ method: "POST", path: "/session/token", body: tokenRequestSchema, responses: { 200: tokenResponseSchema } });
export const getSession = endpoint({ method: "GET", path: "/session", responses: { 200: sessionUserSchema } });
export const postLogout = endpoint({ method: "POST", path: "/session/logout", responses: { 204: null } });
export const postLogoutAll = endpoint({ method: "POST", path: "/session/logout/all", responses: { 204: null } });
export const postForgotPassword = endpoint({ method: "POST", path: "/session/forgotpassword", body: emailOnlyRequestSchema, responses: { 200: messageResponseSchema } });
export const postResetPassword = endpoint({ method: "POST", path: "/session/resetpassword", body: resetPasswordRequestSchema, responses: { 200: messageResponseSchema } });
export const postChangePassword = endpoint({ method: "POST", path: "/session/changepassword", body: changePasswordRequestSchema, responses: { 200: tokenResponseSchema } });
