import { z } from "zod";
import { emailSchema, loginPasswordSchema, nonEmptyText } from "@groupledger/domain";
import { GET, PATCH, POST, PUT } from "./endpoint.ts";
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

/**
 * The group's nightly sync: every connected company is synced once a day, at or after `time`
 * (24-hour HH:MM) in `timeZone` (an IANA name), daylight saving included. Without a zone of the
 * account's own, UTC.
 */
export const NIGHTLY_SYNC_DEFAULTS = { enabled: true, time: "06:00", timeZone: "UTC" } as const;

export const TIME_OF_DAY_MESSAGE = "Give a time of day as HH:MM on the 24-hour clock, e.g. 06:00 or 18:30.";
export const TIME_ZONE_MESSAGE = "Choose a time zone from the list: an IANA name such as Europe/London or America/New_York.";

/** The IANA name the runtime knows `zone` by ("US/Eastern" → "America/New_York"), or null when it knows none. */
export function canonicalTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const timeOfDaySchema = z.string({ error: TIME_OF_DAY_MESSAGE }).trim().regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME_OF_DAY_MESSAGE);
export const timeZoneSchema = z
  .string({ error: TIME_ZONE_MESSAGE })
  .trim()
  .min(1, TIME_ZONE_MESSAGE)
  .max(64, TIME_ZONE_MESSAGE)
  .transform((zone, ctx) => {
    const known = canonicalTimeZone(zone);
    if (known === null) {
      ctx.addIssue({ code: "custom", message: TIME_ZONE_MESSAGE });
      return z.NEVER;
    }
    return known;
  });

export const nightlySyncRequestSchema = z.strictObject(
  {
    enabled: z.boolean({ error: "enabled must be true or false." }),
    time: timeOfDaySchema,
    timeZone: timeZoneSchema,
    /** Left out: unchanged. True approves in advance replacing, after each nightly sync, every posted entry it found changed. */
    replaceChanged: z.boolean({ error: "replaceChanged must be true or false." }).optional(),
  },
  { error: (iss) => (iss.code === "unrecognized_keys" ? `Unknown field: ${iss.keys.join(", ")}.` : undefined) },
);
export type NightlySyncRequest = z.input<typeof nightlySyncRequestSchema>;
export const nightlySyncSchema = z.object({
  enabled: z.boolean(),
  time: z.string(),
  timeZone: z.string(),
  /** The local date (YYYY-MM-DD, in `timeZone`) of the last nightly sync; null before the first. */
  lastRunDate: z.string().nullable(),
  /** After the nightly sync, replace every posted entry it found changed, and mail the admins a summary. */
  replaceChanged: z.boolean(),
});
export type NightlySync = z.infer<typeof nightlySyncSchema>;

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getProfile = GET("/settings/profile", { 200: profileSchema });
export const patchProfile = PATCH("/settings/profile", { 200: profileSchema }, { body: profilePatchSchema });
export const postEmailChange = POST("/settings/email", { 202: emailChangeStartedSchema }, { body: emailChangeRequestSchema });
export const postEmailChangeVerify = POST("/settings/email/verify", { 200: emailChangedSchema }, { body: emailChangeConfirmSchema });
export const patchReportEmail = PATCH("/excel/update", { 200: reportEmailResponseSchema }, { body: reportEmailRequestSchema });
export const postReportEmailVerify = POST("/excel/verify", { 200: reportEmailResponseSchema }, { body: reportEmailVerifySchema });
export const getNightlySync = GET("/settings/nightly-sync", { 200: nightlySyncSchema });
export const putNightlySync = PUT("/settings/nightly-sync", { 200: nightlySyncSchema }, { body: nightlySyncRequestSchema });
