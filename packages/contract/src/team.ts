import { z } from "zod";
import { CONFIRMATION_MESSAGE, emailSchema, passwordProblems, PASSWORD_RULE_MESSAGES } from "@groupledger/domain";
import { permissionLevelSchema } from "./permissions.ts";
import { DELETE, GET, PATCH, POST, noContent } from "./endpoint.ts";
import { tokenResponseSchema, userSchema } from "./session.ts";
import { NAME_MAX_LENGTH, NAME_MESSAGE } from "./settings.ts";

/** How long an invitation link works. Resending starts a new period with a new link. */
export const INVITATION_TTL_DAYS = 7;

export const teamMemberSchema = userSchema.extend({
  /** The caller's own row. */
  isYou: z.boolean(),
  joinedAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  permissionLevel: z.number().int(),
  invitedBy: z.string().nullable(),
  expiresAt: z.string(),
  expired: z.boolean(),
  sendCount: z.number().int(),
  lastSentAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const teamSchema = z.object({
  members: z.array(teamMemberSchema),
  /** Invitations not accepted or revoked yet (expired ones included, so they can be resent). */
  invitations: z.array(invitationSchema),
});
export type Team = z.infer<typeof teamSchema>;

const strict = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, { error: (iss) => (iss.code === "unrecognized_keys" ? `Unknown field: ${iss.keys.join(", ")}.` : undefined) });

export const inviteRequestSchema = strict({ email: emailSchema, permissionLevel: permissionLevelSchema.default(0) });
export type InviteRequest = z.input<typeof inviteRequestSchema>;

export const memberPatchSchema = strict({ permissionLevel: permissionLevelSchema });
export type MemberPatch = z.input<typeof memberPatchSchema>;

export const idParamsSchema = z.object({ id: z.uuid({ error: "That id is not valid." }) });

export const INVITATION_TOKEN_MESSAGE = "This invitation link is not complete. Open the link from the email again.";
export const invitationTokenSchema = z
  .string({ error: INVITATION_TOKEN_MESSAGE })
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,100}$/, INVITATION_TOKEN_MESSAGE);

export const invitationLookupRequestSchema = z.object({ token: invitationTokenSchema });
export const invitationPreviewSchema = z.object({
  email: z.string(),
  accountName: z.string(),
  invitedBy: z.string().nullable(),
  permissionLevel: z.number().int(),
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/**
 * Accepting sets the new user's name and password. The password follows the creation rules of
 * SPEC §5, checked against the invited email on the server (the web form checks it too).
 */
export const invitationAcceptSchema = z
  .object({
    token: invitationTokenSchema,
    name: z.string({ error: NAME_MESSAGE }).trim().min(1, NAME_MESSAGE).max(NAME_MAX_LENGTH, NAME_MESSAGE),
    password: z.string({ error: PASSWORD_RULE_MESSAGES.notBlank }),
    confirmPassword: z.string({ error: CONFIRMATION_MESSAGE }),
  })
  .superRefine((v, ctx) => {
    if (v.confirmPassword.trim() !== v.password.trim()) {
      ctx.addIssue({ code: "custom", message: CONFIRMATION_MESSAGE, path: ["confirmPassword"] });
    }
  });
export type InvitationAccept = z.input<typeof invitationAcceptSchema>;

/** Rules of the accept form that need the invited email (the password must not contain its name part). */
export function invitationPasswordProblems(password: string, email: string): string[] {
  return passwordProblems(password, email);
}

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getTeam = GET("/team", { 200: teamSchema });
export const postTeamInvitation = POST("/team/invitations", { 201: invitationSchema }, { body: inviteRequestSchema });
export const postTeamInvitationResend = POST("/team/invitations/:id/resend", { 200: invitationSchema }, { params: idParamsSchema });
export const deleteTeamInvitation = DELETE("/team/invitations/:id", noContent, { params: idParamsSchema });
export const patchTeamMember = PATCH("/team/members/:id", { 200: teamSchema }, { params: idParamsSchema, body: memberPatchSchema });
export const deleteTeamMember = DELETE("/team/members/:id", noContent, { params: idParamsSchema });
/** The invitee has no session yet: the link's token travels in the body. */
export const postInvitationLookup = POST("/invitations/lookup", { 200: invitationPreviewSchema }, { body: invitationLookupRequestSchema });
export const postInvitationAccept = POST("/invitations/accept", { 200: tokenResponseSchema }, { body: invitationAcceptSchema });
