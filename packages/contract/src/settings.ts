import { z } from "zod";
import { emailSchema, loginPasswordSchema, nonEmptyText } from "@groupledger/domain";
import { GET, PATCH, POST } from "./endpoint.ts";
import { codeSchema, userSchema } from "./session.ts";

export const NAME_MAX_LENGTH = 120;
export const NAME_MESSAGE = `Please enter your name (at most ${NAME_MAX_LENGTH} characters).`;

/** The signed-in user's own settings (Account Settings → Profile, Report delivery). */
export const profileSchema = userSchema.extend({
  /** A new email waiting for its verification code, or null. */
  pendingEmail: z.string().nullable(),
  /** Where exported workbooks are mailed. */
  reportEmail: z.string(),
  /** True while no separate report address was set (reports go to the sign-in email). */
  reportEmailIsSignInEmail: z.boolean(),
  /** False while a separate report address waits for its mailed code: nothing is sent to it until then. */
  reportEmailVerified: z.boolean(),
  createdAt: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profilePatchSchema = z.strictObject(
  { name: nonEmptyText(NAME_MESSAGE).pipe(z.string().max(NAME_MAX_LENGTH, NAME_MESSAGE)) },
  { error: (iss) => (iss.code === "unrecognized_keys" ? `Unknown field: ${iss.keys.join(", ")}.` : undefined) },
);
export type ProfilePatch = z.input<typeof profilePatchSchema>;

/** Changing the sign-in email: proven by the current password, then by a code mailed to the new address. */
export const emailChangeRequestSchema = z.object({ newEmail: emailSchema, currentPassword: loginPasswordSchema });
export type EmailChangeRequest = z.input<typeof emailChangeRequestSchema>;
export const emailChangeStartedSchema = z.object({ pendingEmail: z.string(), message: z.string() });

export const emailChangeConfirmSchema = z.object({ code: codeSchema });
export type EmailChangeConfirm = z.input<typeof emailChangeConfirmSchema>;
export const emailChangedSchema = z.object({
  email: z.string(),
  token: z.string(),
  expiresAt: z.string(),
});

/**
 * SPEC §7 PATCH /api/excel/update: body email; returns data. An address other than the sign-in
 * email is verified first: a code is mailed to it (`verified: false`, `message` says so), and
 * POST /api/excel/verify with that code verifies it. Sending the same address again mails a new code.
 */
export const reportEmailRequestSchema = z.object({ email: emailSchema });
export type ReportEmailRequest = z.input<typeof reportEmailRequestSchema>;
export const reportEmailResponseSchema = z.object({
  data: z.object({ email: z.string(), verified: z.boolean(), message: z.string().optional() }),
});
export type ReportEmailResponse = z.infer<typeof reportEmailResponseSchema>;
export const reportEmailVerifySchema = z.object({ code: codeSchema });
export type ReportEmailVerify = z.input<typeof reportEmailVerifySchema>;

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getProfile = GET("/settings/profile", { 200: profileSchema });
export const patchProfile = PATCH("/settings/profile", { 200: profileSchema }, { body: profilePatchSchema });
export const postEmailChange = POST("/settings/email", { 202: emailChangeStartedSchema }, { body: emailChangeRequestSchema });
export const postEmailChangeVerify = POST("/settings/email/verify", { 200: emailChangedSchema }, { body: emailChangeConfirmSchema });
export const patchReportEmail = PATCH("/excel/update", { 200: reportEmailResponseSchema }, { body: reportEmailRequestSchema });
export const postReportEmailVerify = POST("/excel/verify", { 200: reportEmailResponseSchema }, { body: reportEmailVerifySchema });
