import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { ErrorCodes, type Profile } from "@groupledger/contract";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { users, verificationCodes, type CodePurpose } from "../../db/schema.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import { auditUser, type RequestMeta } from "../../services/audit.ts";
import { formatCode, hashCode } from "../../services/codes.ts";
import type { Mail, Mailer } from "../../services/mailer.ts";
import { verifyPassword } from "../../services/passwords.ts";
import type { RateLimiter } from "../../services/rate-limiter.ts";
import type { TokenService } from "../../services/tokens.ts";
import { burnCodes, writeCode } from "../../services/verification-codes.ts";
import { assertEmailFree, messages } from "../session/service.ts";

export const settingsMessages = {
  emailSame: "That is already your sign-in email.",
  emailTaken: "Another GroupLedger user already signs in with this email.",
  currentPasswordWrong: "Your current password is not correct.",
  codeInvalid: "That code is not valid or has expired. Check the latest email we sent to your new address, or start the change again.",
  emailChangeSent: (email: string) => `We sent a code to ${email}. Enter it here to finish the change.`,
  reportCodeInvalid: "That code is not valid or has expired. Check the latest email we sent to your report address, or send a new code.",
  reportCodeSent: (email: string) => `We sent a code to ${email}. Enter it here to verify the address; until then no report is sent to it.`,
  tooManyReportAddressCodes: (limit: number, minutes: number) =>
    `You asked for ${limit} report address codes recently. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
};

export interface ReportAddress {
  email: string;
  verified: boolean;
  message?: string;
}

export class SettingsService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly mailer: Mailer,
    private readonly tokens: TokenService,
    private readonly limiter: RateLimiter,
  ) {}

  /** Codes mailed, and codes tried, per IP: the session's limits. */
  private async limit(kind: "mail" | "code", meta: RequestMeta): Promise<void> {
    const { windowMs, mailPerIp, codePerIp } = this.config.rateLimits;
    await this.limiter.enforce(`${kind}:ip:${meta.ip}`, kind === "mail" ? mailPerIp : codePerIp, windowMs, messages.tooManyCodes);
  }

  async profile(user: UserRow): Promise<Profile> {
    const [pending] = await this.db
      .select({ email: verificationCodes.targetEmail })
      .from(verificationCodes)
      .where(this.liveCodes(user.id, "change_email"))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      permissionLevel: user.permissionLevel,
      pendingEmail: pending?.email ?? null,
      reportEmail: user.reportEmail ?? user.email,
      reportEmailIsSignInEmail: user.reportEmail === null,
      reportEmailVerified: reportAddressVerified(user),
      createdAt: user.createdAt.toISOString(),
    };
  }

  async rename(user: UserRow, name: string, meta: RequestMeta): Promise<Profile> {
    const [row] = await this.db.update(users).set({ name, updatedAt: new Date() }).where(eq(users.id, user.id)).returning();
    if (!row) throw errors.notFound("User not found.");
    await auditUser(this.db, user, meta, "user.renamed");
    return this.profile(row);
  }

  /**
   * SPEC §7 PATCH /api/excel/update. The sign-in email (verified at sign-up) clears the separate
   * address. Any other address is stored unverified and gets a code: workbooks carry the group's
   * figures, so they go only where someone proved they read the mail. The same unverified address
   * again mails a new code (the older one stops working).
   */
  async setReportEmail(user: UserRow, email: string, meta: RequestMeta): Promise<ReportAddress> {
    if (email !== user.email) {
      // Each code is a mail to an address nobody has verified: limited per IP and per user.
      await this.limit("mail", meta);
      const { reportAddressCodesPerUser, reportMailWindowMs } = this.config.rateLimits;
      await this.limiter.enforce(`report-address:user:${user.id}`, reportAddressCodesPerUser, reportMailWindowMs, (minutes) =>
        settingsMessages.tooManyReportAddressCodes(reportAddressCodesPerUser, minutes),
      );
    }
    if (email === user.email || (email === user.reportEmail && user.reportEmailVerifiedAt !== null)) {
      if (email === user.email) {
        await this.db.transaction(async (tx) => {
          await tx.update(users).set({ reportEmail: null, reportEmailVerifiedAt: null, updatedAt: new Date() }).where(eq(users.id, user.id));
          await burnCodes(tx, user.id, "report_email");
          await auditUser(tx, user, meta, "user.report_email_changed", { email, verified: true });
        });
      }
      return { email, verified: true };
    }
    const mail = await this.db.transaction(async (tx) => {
      await tx.update(users).set({ reportEmail: email, reportEmailVerifiedAt: null, updatedAt: new Date() }).where(eq(users.id, user.id));
      const code = await writeCode(tx, this.config, user.id, "report_email", email);
      await auditUser(tx, user, meta, "user.report_email_changed", { email, verified: false });
      const mail = reportAddressMail(email, user.email, code);
      return { id: await this.mailer.enqueue(mail, tx), mail };
    });
    await this.mailer.deliver(mail.id, mail.mail);
    return { email, verified: false, message: settingsMessages.reportCodeSent(email) };
  }

  /** POST /api/excel/verify: the code mailed to the report address proves someone reads it. */
  async confirmReportEmail(user: UserRow, code: string, meta: RequestMeta): Promise<ReportAddress> {
    await this.limit("code", meta);
    const verified = await this.db.transaction(async (tx) => {
      const targetEmail = await this.claimCode(tx, user.id, "report_email", code);
      if (!targetEmail) return null;
      // Only the address the code was mailed to, and only while it is still the report address.
      const [updated] = await tx
        .update(users)
        .set({ reportEmailVerifiedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(users.id, user.id), eq(users.reportEmail, targetEmail)))
        .returning({ email: users.reportEmail });
      if (!updated?.email) return null;
      await auditUser(tx, user, meta, "user.report_email_verified", { email: updated.email });
      return updated.email;
    });
    if (!verified) return this.wrongCode(user.id, "report_email", settingsMessages.reportCodeInvalid);
    return { email: verified, verified: true };
  }

  /**
   * Step 1 of an email change: the current password proves the person at the keyboard, a code
   * mailed to the new address proves they own it. Nothing changes until step 2.
   */
  async startEmailChange(user: UserRow, input: { newEmail: string; currentPassword: string }, meta: RequestMeta): Promise<{ pendingEmail: string; message: string }> {
    await this.limit("mail", meta);
    if (input.newEmail === user.email) {
      throw new AppError(400, "email_unchanged", settingsMessages.emailSame, { fields: [{ path: "newEmail", message: settingsMessages.emailSame }] });
    }
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
      throw new AppError(400, "wrong_password", settingsMessages.currentPasswordWrong, {
        fields: [{ path: "currentPassword", message: settingsMessages.currentPasswordWrong }],
      });
    }
    const mail = await this.db.transaction(async (tx) => {
      await assertEmailFree(tx, input.newEmail, settingsMessages.emailTaken);
      const code = await writeCode(tx, this.config, user.id, "change_email", input.newEmail);
      await auditUser(tx, user, meta, "user.email_change_requested", { to: input.newEmail });
      const mail = emailChangeMail(input.newEmail, code);
      return { id: await this.mailer.enqueue(mail, tx), mail };
    });
    await this.mailer.deliver(mail.id, mail.mail);
    return { pendingEmail: input.newEmail, message: settingsMessages.emailChangeSent(input.newEmail) };
  }

  /** Step 2: the code swaps the email. Every other session ends; this one continues with a new token. */
  async confirmEmailChange(user: UserRow, code: string, meta: RequestMeta): Promise<{ email: string; token: string; expiresAt: Date }> {
    await this.limit("code", meta);
    const result = await this.db.transaction(async (tx) => {
      const targetEmail = await this.claimCode(tx, user.id, "change_email", code);
      if (!targetEmail) return null;
      await assertEmailFree(tx, targetEmail, settingsMessages.emailTaken);
      const [updated] = await tx
        .update(users)
        .set({
          email: targetEmail,
          // A report address equal to the new sign-in email is no separate address any more.
          reportEmail: sql`nullif(${users.reportEmail}, ${targetEmail})`,
          // Like a password change, a new sign-in email ends every session issued before it.
          tokenVersion: sql`${users.tokenVersion} + 1`,
          updatedAt: new Date(),
        })
        .where(eq(users.id, user.id))
        .returning();
      if (!updated) return null;
      await auditUser(tx, user, meta, "user.email_changed", { from: user.email, to: updated.email });
      const notice: Mail = {
        to: user.email,
        subject: "Your GroupLedger sign-in email was changed",
        text:
          `The sign-in email of your GroupLedger user was changed from ${user.email} to ${updated.email}.\n\n` +
          "If you did not do this, reset your password from the sign-in page and tell your account's admin.",
      };
      return { updated, notice: { id: await this.mailer.enqueue(notice, tx), mail: notice } };
    });
    if (!result) return this.wrongCode(user.id, "change_email", settingsMessages.codeInvalid);
    await this.mailer.deliver(result.notice.id, result.notice.mail);
    const issued = await this.tokens.issue(result.updated);
    return { email: result.updated.email, ...issued };
  }

  /** Marks the user's live `purpose` code used if it is `code`; the address it was mailed to, or null. */
  private async claimCode(tx: Pick<Db, "update">, userId: string, purpose: CodePurpose, code: string): Promise<string | null> {
    const [row] = await tx
      .update(verificationCodes)
      .set({ usedAt: new Date() })
      .where(and(this.liveCodes(userId, purpose), eq(verificationCodes.codeHash, hashCode(this.config.appSecret, code))))
      .returning({ targetEmail: verificationCodes.targetEmail });
    return row?.targetEmail ?? null;
  }

  /** A wrong code counts against the user's live `purpose` code (it stops working after codeMaxAttempts); refused with `message`. */
  private async wrongCode(userId: string, purpose: CodePurpose, message: string): Promise<never> {
    await this.db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(this.liveCodes(userId, purpose));
    throw new AppError(400, ErrorCodes.invalidCode, message, { fields: [{ path: "code", message }] });
  }

  private liveCodes(userId: string, purpose: CodePurpose) {
    return and(
      eq(verificationCodes.userId, userId),
      eq(verificationCodes.purpose, purpose),
      isNull(verificationCodes.usedAt),
      gt(verificationCodes.expiresAt, new Date()),
      sql`${verificationCodes.attempts} < ${this.config.codeMaxAttempts}`,
    );
  }
}

function emailChangeMail(to: string, code: string): Mail {
  return {
    to,
    subject: "Confirm your new GroupLedger email",
    text: `Someone asked to use this address to sign in to GroupLedger.\n\nYour confirmation code is ${formatCode(code)}\n\nIt expires in 15 minutes. If this was not you, ignore this email; nothing changes without the code.`,
  };
}

/** A separate report address counts only once its code was entered; the sign-in email always does. */
export function reportAddressVerified(user: Pick<UserRow, "reportEmail" | "reportEmailVerifiedAt">): boolean {
  return user.reportEmail === null || user.reportEmailVerifiedAt !== null;
}

function reportAddressMail(to: string, requestedBy: string, code: string): Mail {
  return {
    to,
    subject: "Confirm where GroupLedger sends your reports",
    text:
      `${requestedBy} asked GroupLedger to email consolidated report workbooks to this address.\n\n` +
      `Your confirmation code is ${formatCode(code)}\n\n` +
      "It expires in 15 minutes. If you did not expect this, ignore this email: no report is sent here without the code.",
  };
}
