import { createHmac, randomBytes } from "node:crypto";
import { and, asc, eq, gte, isNull, or, sql } from "drizzle-orm";
import {
  ErrorCodes,
  INVITATION_TTL_DAYS,
  PERMISSION_LABELS,
  PERMISSION_LEVELS,
  type Invitation,
  type InvitationPreview,
  type PermissionLevel,
  type Team,
} from "@groupledger/contract";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { accounts, invitations, users } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import { auditUser, type RequestMeta } from "../../services/audit.ts";
import type { Mail, Mailer } from "../../services/mailer.ts";
import { assertNewPassword } from "../../services/password-strength.ts";
import { hashPassword } from "../../services/passwords.ts";
import type { RateLimiter } from "../../services/rate-limiter.ts";
import type { TokenService } from "../../services/tokens.ts";
import { assertEmailFree, messages } from "../session/service.ts";

const DAY_MS = 86_400_000;

export const teamMessages = {
  alreadyMember: "This person is already a member of your account.",
  emailElsewhere:
    "This email already signs in to another GroupLedger account. A person can belong to one account; ask them to use another email.",
  alreadyInvited: "This email already has a pending invitation. Resend it from the list of invitations instead.",
  invitationInvalid: "This invitation link is not valid any more. Ask the person who invited you to send a new one.",
  invitationExpired: "This invitation has expired. Ask the person who invited you to send it again.",
  lastAdmin: "Your account needs at least one admin. Make another member an admin first.",
  memberNotFound: "That member is not part of your account.",
  invitationNotFound: "That invitation does not exist in your account.",
};

/** Invitation links carry 32 random bytes; only their keyed hash is stored. */
const newToken = () => randomBytes(32).toString("base64url");

export class TeamService {
  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, "appSecret" | "rateLimits">,
    private readonly mailer: Mailer,
    private readonly tokens: TokenService,
    private readonly limiter: RateLimiter,
  ) {}

  private hash(token: string): string {
    return createHmac("sha256", this.config.appSecret).update(`invitation:${token}`).digest("hex");
  }

  /** Every invitation is a mail, and every link tried a guess: both limited per IP like the session's. */
  private async limit(kind: "mail" | "code", meta: RequestMeta): Promise<void> {
    const { windowMs, mailPerIp, codePerIp } = this.config.rateLimits;
    await this.limiter.enforce(`${kind}:ip:${meta.ip}`, kind === "mail" ? mailPerIp : codePerIp, windowMs, messages.tooManyCodes);
  }

  async team(caller: UserRow, now = new Date()): Promise<Team> {
    const members = await this.db
      .select({ id: users.id, email: users.email, name: users.name, permissionLevel: users.permissionLevel, createdAt: users.createdAt })
      .from(users)
      .where(and(eq(users.accountId, caller.accountId), sql`${users.emailVerifiedAt} is not null`))
      .orderBy(asc(users.createdAt), asc(users.email));
    const pending = await this.db
      .select({ invitation: invitations, invitedBy: users.email })
      .from(invitations)
      .leftJoin(users, eq(users.id, invitations.invitedBy))
      .where(and(eq(invitations.accountId, caller.accountId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .orderBy(asc(invitations.createdAt));
    return {
      members: members.map((m) => ({ ...m, isYou: m.id === caller.id, joinedAt: m.createdAt.toISOString() })),
      invitations: pending.map(({ invitation, invitedBy }) => toInvitation(invitation, invitedBy, now)),
    };
  }

  async invite(caller: UserRow, input: { email: string; permissionLevel: PermissionLevel }, origin: string, meta: RequestMeta): Promise<Invitation> {
    await this.limit("mail", meta);
    const token = newToken();
    const { row, mail } = await this.db.transaction(async (tx) => {
      const [existing] = await tx.select({ accountId: users.accountId }).from(users).where(eq(users.email, input.email)).limit(1);
      if (existing?.accountId === caller.accountId) throw errors.conflict("already_member", teamMessages.alreadyMember);
      if (existing) throw errors.conflict(ErrorCodes.emailTaken, teamMessages.emailElsewhere);
      const [live] = await tx
        .select({ id: invitations.id })
        .from(invitations)
        .where(and(eq(invitations.accountId, caller.accountId), eq(invitations.email, input.email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
        .limit(1);
      if (live) throw errors.conflict("already_invited", teamMessages.alreadyInvited);
      const [row] = await tx
        .insert(invitations)
        .values({
          accountId: caller.accountId,
          email: input.email,
          permissionLevel: input.permissionLevel,
          tokenHash: this.hash(token),
          invitedBy: caller.id,
          expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS),
        })
        .returning();
      if (!row) throw new Error("invitation insert returned no row");
      const mail = await this.invitationMail(tx, caller, row.email, row.permissionLevel, token, origin);
      await auditUser(tx, caller, meta, "team.invited", { email: row.email, permissionLevel: row.permissionLevel });
      return { row, mail };
    });
    await this.mailer.deliver(mail.id, mail.mail);
    return toInvitation(row, caller.email, new Date());
  }

  /** A new link (the old one stops working) and a new expiry. */
  async resend(caller: UserRow, id: string, origin: string, meta: RequestMeta): Promise<Invitation> {
    await this.limit("mail", meta);
    const token = newToken();
    const { row, mail } = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(invitations)
        .set({
          tokenHash: this.hash(token),
          expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * DAY_MS),
          sendCount: sql`${invitations.sendCount} + 1`,
          lastSentAt: new Date(),
        })
        .where(and(eq(invitations.id, id), eq(invitations.accountId, caller.accountId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
        .returning();
      if (!row) throw errors.notFound(teamMessages.invitationNotFound);
      const mail = await this.invitationMail(tx, caller, row.email, row.permissionLevel, token, origin);
      await auditUser(tx, caller, meta, "team.invitation_resent", { email: row.email });
      return { row, mail };
    });
    await this.mailer.deliver(mail.id, mail.mail);
    const [inviter] = row.invitedBy ? await this.db.select({ email: users.email }).from(users).where(eq(users.id, row.invitedBy)).limit(1) : [];
    return toInvitation(row, inviter?.email ?? null, new Date());
  }

  async revoke(caller: UserRow, id: string, meta: RequestMeta): Promise<void> {
    const [row] = await this.db
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(and(eq(invitations.id, id), eq(invitations.accountId, caller.accountId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning({ email: invitations.email });
    if (!row) throw errors.notFound(teamMessages.invitationNotFound);
    await auditUser(this.db, caller, meta, "team.invitation_revoked", { email: row.email });
  }

  /** What the accept page shows before the person sets a password. */
  async preview(token: string, meta: RequestMeta, now = new Date()): Promise<InvitationPreview> {
    await this.limit("code", meta);
    const [found] = await this.db
      .select({ invitation: invitations, accountName: accounts.name, invitedBy: users.email })
      .from(invitations)
      .innerJoin(accounts, eq(accounts.id, invitations.accountId))
      .leftJoin(users, eq(users.id, invitations.invitedBy))
      .where(eq(invitations.tokenHash, this.hash(token)))
      .limit(1);
    const invitation = this.usable(found?.invitation, now);
    return {
      email: invitation.email,
      accountName: found!.accountName,
      invitedBy: found!.invitedBy,
      permissionLevel: invitation.permissionLevel,
      expiresAt: invitation.expiresAt.toISOString(),
    };
  }

  /**
   * Creates the user in the inviting account with the invited level. The emailed link proves the
   * mailbox, so the user starts verified and is signed in at once.
   */
  async accept(input: { token: string; name: string; password: string }, meta: RequestMeta): Promise<{ token: string; expiresAt: Date }> {
    await this.limit("code", meta);
    const tokenHash = this.hash(input.token);
    const [peek] = await this.db.select().from(invitations).where(eq(invitations.tokenHash, tokenHash)).limit(1);
    const invitation = this.usable(peek, new Date());
    assertNewPassword(input.password, invitation.email);
    const passwordHash = await hashPassword(input.password);
    const user = await this.db.transaction(async (tx) => {
      // Claim the invitation first: of two tabs accepting at once, one wins and the other is told the link is used.
      const [claimed] = await tx
        .update(invitations)
        .set({ acceptedAt: new Date() })
        .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gte(invitations.expiresAt, new Date())))
        .returning();
      if (!claimed) throw new AppError(400, ErrorCodes.invalidInvitation, teamMessages.invitationInvalid);
      await assertEmailFree(tx, claimed.email, teamMessages.emailElsewhere);
      const [created] = await tx
        .insert(users)
        .values({
          accountId: claimed.accountId,
          email: claimed.email,
          name: input.name,
          passwordHash,
          permissionLevel: claimed.permissionLevel,
          emailVerifiedAt: new Date(),
        })
        .returning();
      if (!created) throw new Error("user insert returned no row");
      await tx.update(invitations).set({ acceptedUserId: created.id }).where(eq(invitations.id, claimed.id));
      await auditUser(tx, created, meta, "team.invitation_accepted", { email: created.email, permissionLevel: created.permissionLevel });
      return created;
    });
    return this.tokens.issue(user);
  }

  async changeLevel(caller: UserRow, userId: string, level: PermissionLevel, meta: RequestMeta): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { target, otherAdmins } = await this.lockMember(tx, caller.accountId, userId);
      if (target.permissionLevel === level) return;
      if (level < PERMISSION_LEVELS.admin && otherAdmins === 0) throw errors.conflict(ErrorCodes.lastAdmin, teamMessages.lastAdmin);
      await tx.update(users).set({ permissionLevel: level, updatedAt: new Date() }).where(eq(users.id, userId));
      await auditUser(tx, caller, meta, "team.level_changed", { email: target.email, from: target.permissionLevel, to: level });
    });
  }

  /** Removing a member deletes their user: their sessions end at once and the email is free again. */
  async remove(caller: UserRow, userId: string, meta: RequestMeta): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { target, otherAdmins } = await this.lockMember(tx, caller.accountId, userId);
      if (otherAdmins === 0) throw errors.conflict(ErrorCodes.lastAdmin, teamMessages.lastAdmin);
      await tx.delete(users).where(eq(users.id, userId));
      await auditUser(tx, caller, meta, "team.member_removed", { email: target.email, permissionLevel: target.permissionLevel });
    });
  }

  /**
   * Locks the member and every admin of the account, in id order, in one statement, and counts the
   * admins other than the member. One order for every transaction: two admins demoting each other
   * at once queue on the same first row instead of each holding the row the other needs (which
   * PostgreSQL ends as a deadlock, a 500); the second then sees the first's change and is refused
   * as the last admin.
   */
  private async lockMember(tx: Db, accountId: string, userId: string): Promise<{ target: UserRow; otherAdmins: number }> {
    const rows = await tx
      .select()
      .from(users)
      .where(and(eq(users.accountId, accountId), or(eq(users.id, userId), gte(users.permissionLevel, PERMISSION_LEVELS.admin))))
      .orderBy(asc(users.id))
      .for("update");
    const target = rows.find((r) => r.id === userId);
    if (!target) throw errors.notFound(teamMessages.memberNotFound);
    return { target, otherAdmins: rows.filter((r) => r.id !== userId && r.permissionLevel >= PERMISSION_LEVELS.admin).length };
  }

  private usable(invitation: typeof invitations.$inferSelect | undefined, now: Date) {
    if (!invitation || invitation.acceptedAt || invitation.revokedAt) {
      throw new AppError(400, ErrorCodes.invalidInvitation, teamMessages.invitationInvalid);
    }
    if (invitation.expiresAt <= now) throw new AppError(400, "invitation_expired", teamMessages.invitationExpired);
    return invitation;
  }

  private async invitationMail(
    tx: Db,
    inviter: UserRow,
    to: string,
    level: number,
    token: string,
    origin: string,
  ): Promise<{ id: string; mail: Mail }> {
    const [account] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, inviter.accountId)).limit(1);
    const who = inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email;
    const role = PERMISSION_LABELS[level as PermissionLevel] ?? PERMISSION_LABELS[0];
    // The token travels in the fragment: browsers never send it to a server, so no access log holds it.
    const link = `${origin}/invitation#token=${token}`;
    const mail: Mail = {
      to,
      subject: `${who} invited you to GroupLedger`,
      text:
        `${who} invited you to join "${account?.name ?? "their group"}" on GroupLedger as ${role.toLowerCase() === "admin" ? "an admin" : "a member"}.\n\n` +
        `Accept the invitation and choose your password here:\n${link}\n\n` +
        `The link works for ${INVITATION_TTL_DAYS} days. If you did not expect this email, you can ignore it.`,
    };
    return { id: await this.mailer.enqueue(mail, tx), mail };
  }
}

function toInvitation(row: typeof invitations.$inferSelect, invitedBy: string | null, now: Date): Invitation {
  return {
    id: row.id,
    email: row.email,
    permissionLevel: row.permissionLevel,
    invitedBy,
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt <= now,
    sendCount: row.sendCount,
    lastSentAt: row.lastSentAt.toISOString(),
  };
}
