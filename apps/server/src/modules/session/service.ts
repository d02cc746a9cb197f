import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { ErrorCodes, PERMISSION_LEVELS, TRIAL_DAYS } from "@groupledger/contract";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { accounts, auditLog, revokedTokens, users, verificationCodes, type CodePurpose } from "../../db/schema.ts";
import type { AfterResponse } from "../../http/after-response.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { UserRow } from "../../http/auth.ts";
import { audit, auditUser, type RequestMeta } from "../../services/audit.ts";
import { formatCode, hashCode } from "../../services/codes.ts";
import type { Mail, Mailer, PreparedMail } from "../../services/mailer.ts";
import { assertNewPassword } from "../../services/password-strength.ts";
import { hashPassword, timingDummyHash, verifyPassword } from "../../services/passwords.ts";
import { tooManyRequests, type LimitResult, type RateLimiter } from "../../services/rate-limiter.ts";
import type { TokenClaims, TokenService } from "../../services/tokens.ts";
import { burnCodes, writeCode } from "../../services/verification-codes.ts";

export const messages = {
  signupSent: "We sent a verification code to your email. Enter it to finish signing up.",
  codeInvalid: "That code is not valid or has expired. Check the latest email from us, or ask for a new code.",
  credentialsInvalid: "Incorrect email or password.",
  notVerified: "Please verify your email first: enter the code we sent you, or ask for a new one.",
  emailTaken: "An account with this email already exists. Sign in, or reset your password if you forgot it.",
  forgotSent: "If an account exists for that email, we have sent it a code to reset the password.",
  resendSent: "If that email is waiting for verification, we have sent it a new code.",
  passwordReset: "Your password has been changed. Please sign in with your new password.",
  currentPasswordWrong: "Your current password is not correct.",
  tooManyLogins: (minutes: number) => `Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  tooManyCodes: (minutes: number) => `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
  codeNeedsEmail: (minutes: number) =>
    `Too many codes were tried without an email. Enter your email together with the code, or wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
};

/** Refuses, with `message`, an email another user already signs in with. */
export async function assertEmailFree(tx: Pick<Db, "select">, email: string, message: string): Promise<void> {
  const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (taken) throw errors.conflict(ErrorCodes.emailTaken, message);
}

const tooManyLogins = (r: LimitResult) => tooManyRequests(r, messages.tooManyLogins);

/** Email-less code submissions share one budget: from any number of addresses, guessing stays bounded. */
const CODES_WITHOUT_EMAIL_KEY = "code:no-email";
/** How far back a sign-in makes an address "known" to the user (heard even while their email is under attack). */
const KNOWN_ADDRESS_MS = 90 * 86_400_000;

export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly tokens: TokenService,
    private readonly mailer: Mailer,
    private readonly limiter: RateLimiter,
  ) {}

  private async limit(key: string, limit: number, message: (m: number) => string): Promise<void> {
    await this.limiter.enforce(key, limit, this.config.rateLimits.windowMs, message);
  }

  async signup(input: { email: string; password: string }, meta: RequestMeta): Promise<{ email: string; message: string }> {
    assertNewPassword(input.password, input.email);
    await this.limit(`mail:ip:${meta.ip}`, this.config.rateLimits.mailPerIp, messages.tooManyCodes);
    // Hashed even when a pending sign-up keeps its own password, so both answers take as long.
    const passwordHash = await hashPassword(input.password);
    const mail = await this.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(users).where(eq(users.email, input.email)).limit(1);
      if (existing?.emailVerifiedAt) throw errors.conflict(ErrorCodes.emailTaken, messages.emailTaken);
      if (existing) {
        // Signed up before and not verified yet. Replacing the password would let whoever signs up
        // last own the account the mailbox owner then verifies; so the first sign-up stands and its
        // code is sent again, with a mail that says how to get in without the first password.
        await auditUser(tx, existing, meta, "user.signup_repeated");
        return this.issueCode(tx, existing, "verify_email", repeatedSignupMail);
      }
      const trialEndsAt = new Date(Date.now() + TRIAL_DAYS * 86_400_000);
      const [account] = await tx.insert(accounts).values({ name: "My group", trialEndsAt }).returning({ id: accounts.id });
      if (!account) throw new Error("account insert returned no row");
      // Whoever creates an account administers it (users, billing, posting); colleagues join by invitation.
      const [user] = (await tx
        .insert(users)
        .values({ accountId: account.id, email: input.email, passwordHash, permissionLevel: PERMISSION_LEVELS.admin })
        .returning()) as [UserRow];
      await auditUser(tx, user, meta, "user.signed_up");
      return this.issueCode(tx, user, "verify_email");
    });
    await this.mailer.deliver(mail.id, mail.mail);
    return { email: input.email, message: messages.signupSent };
  }

  async resendVerification(email: string, meta: RequestMeta, after: AfterResponse): Promise<void> {
    await this.mailCodeAfter(email, meta, after, "verification code mail", async (tx, user) => (user.emailVerifiedAt ? null : this.issueCode(tx, user, "verify_email")));
  }

  async verifyEmail(input: { validationCode: string; email?: string | undefined }, meta: RequestMeta): Promise<{ email: string }> {
    const { rateLimits } = this.config;
    await this.limit(`code:ip:${meta.ip}`, rateLimits.codePerIp, messages.tooManyCodes);
    if (!input.email) {
      // Without an email a wrong code cannot count against anyone's code, so it counts against a
      // budget every address shares; reserved before the code is looked at, so a burst cannot overrun it.
      const r = await this.limiter.hit(CODES_WITHOUT_EMAIL_KEY, rateLimits.codeGuessesWithoutEmail, rateLimits.windowMs);
      if (!r.allowed) throw tooManyRequests(r, messages.codeNeedsEmail);
    }
    const email = await this.db.transaction(async (tx) => {
      const user = await this.consumeCode(tx, "verify_email", input.validationCode, input.email, { emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: new Date() });
      if (!user) return null;
      await auditUser(tx, user, meta, "user.email_verified");
      return user.email;
    });
    if (!email) {
      if (input.email) await this.countFailedAttempt("verify_email", input.email);
      throw errors.badRequest(ErrorCodes.invalidCode, messages.codeInvalid);
    }
    if (!input.email) await this.limiter.refund(CODES_WITHOUT_EMAIL_KEY);
    return { email };
  }

  /**
   * Every try is counted before its password is checked (one atomic upsert each, so a parallel burst
   * gets no more checks than the limit) and given back when the password was right. Two counters:
   * per email and address (the attacker's address stops; the owner elsewhere is not affected), and
   * per email across addresses with a higher limit, past which only addresses the user has signed in
   * from before are heard (guesses spread over many addresses slow down; the owner at home still
   * gets in).
   */
  async login(input: { email: string; password: string }, meta: RequestMeta): Promise<{ token: string; expiresAt: Date }> {
    const { rateLimits } = this.config;
    await this.limit(`login:ip:${meta.ip}`, rateLimits.loginPerIp, messages.tooManyLogins);
    const addressKey = `login:fail:${input.email}:ip:${meta.ip}`;
    const emailKey = `login:fail:${input.email}`;
    const byAddress = await this.limiter.hit(addressKey, rateLimits.loginFailuresPerEmailIp, rateLimits.windowMs);
    if (!byAddress.allowed) throw tooManyLogins(byAddress);
    const [user] = await this.db.select().from(users).where(eq(users.email, input.email)).limit(1);
    const byEmail = await this.limiter.hit(emailKey, rateLimits.loginFailuresPerEmail, rateLimits.windowMs);
    if (!byEmail.allowed && !(user && (await this.signedInBefore(user, meta.ip)))) {
      // Not checked, so not a failure: a new address of the owner keeps its own budget for later.
      await Promise.all([this.limiter.refund(addressKey), this.limiter.refund(emailKey)]);
      throw tooManyLogins(byEmail);
    }
    const ok = await verifyPassword(user?.passwordHash ?? (await timingDummyHash()), input.password);
    if (!user || !ok) {
      await audit(this.db, {
        action: "user.login_failed",
        accountId: user?.accountId ?? null,
        userId: user?.id ?? null,
        ip: meta.ip,
        requestId: meta.requestId,
      });
      throw errors.unauthorized(ErrorCodes.invalidCredentials, messages.credentialsInvalid);
    }
    // The right password: this address's earlier typos are forgiven and this try does not count.
    await Promise.all([this.limiter.reset(addressKey), this.limiter.refund(emailKey)]);
    if (!user.emailVerifiedAt) throw errors.forbidden(ErrorCodes.emailNotVerified, messages.notVerified);
    const issued = await this.tokens.issue(user);
    await auditUser(this.db, user, meta, "user.logged_in");
    return issued;
  }

  async logout(user: UserRow, claims: TokenClaims, meta: RequestMeta): Promise<void> {
    await this.db
      .insert(revokedTokens)
      .values({ jti: claims.jti, expiresAt: new Date(claims.exp * 1000) })
      .onConflictDoNothing();
    await auditUser(this.db, user, meta, "user.logged_out");
  }

  /** Every token of the user stops working (the version in them no longer matches). */
  async logoutEverywhere(user: UserRow, meta: RequestMeta): Promise<void> {
    await this.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    await auditUser(this.db, user, meta, "user.logged_out_everywhere");
  }

  async forgotPassword(email: string, meta: RequestMeta, after: AfterResponse): Promise<void> {
    await this.mailCodeAfter(email, meta, after, "password reset mail", async (tx, user) => {
      await auditUser(tx, user, meta, "user.password_reset_requested");
      return this.issueCode(tx, user, "reset_password");
    });
  }

  /**
   * The same quick answer either way: after the response, the account of `email` is looked up and,
   * if there is one, `prepare` writes its code and the mail (`what`), or null for none.
   */
  private async mailCodeAfter(email: string, meta: RequestMeta, after: AfterResponse, what: string, prepare: (tx: Db, user: UserRow) => Promise<PreparedMail | null>): Promise<void> {
    await this.limit(`mail:ip:${meta.ip}`, this.config.rateLimits.mailPerIp, messages.tooManyCodes);
    after(() =>
      this.mailer.later(what, () =>
        this.db.transaction(async (tx) => {
          const [user] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
          return user ? prepare(tx, user) : null;
        }),
      ),
    );
  }

  async resetPassword(input: { email: string; code: string; password: string }, meta: RequestMeta): Promise<void> {
    assertNewPassword(input.password, input.email);
    await this.limit(`code:ip:${meta.ip}`, this.config.rateLimits.codePerIp, messages.tooManyCodes);
    const passwordHash = await hashPassword(input.password);
    const done = await this.db.transaction(async (tx) => {
      const user = await this.consumeCode(tx, "reset_password", input.code, input.email, {
        passwordHash,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        // Receiving the code proves the mailbox, just as sign-up verification does.
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
        updatedAt: new Date(),
      });
      if (!user) return false;
      await burnCodes(tx, user.id, "reset_password");
      await auditUser(tx, user, meta, "user.password_reset");
      return true;
    });
    if (!done) {
      await this.countFailedAttempt("reset_password", input.email);
      throw errors.badRequest(ErrorCodes.invalidCode, messages.codeInvalid);
    }
  }

  async changePassword(
    user: UserRow,
    input: { currentPassword: string; newPassword: string },
    meta: RequestMeta,
  ): Promise<{ token: string; expiresAt: Date }> {
    assertNewPassword(input.newPassword, user.email, "newPassword");
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
      throw new AppError(400, "wrong_password", messages.currentPasswordWrong, {
        fields: [{ path: "currentPassword", message: messages.currentPasswordWrong }],
      });
    }
    const [updated] = await this.db
      .update(users)
      .set({ passwordHash: await hashPassword(input.newPassword), tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    if (!updated) throw errors.notFound();
    await auditUser(this.db, user, meta, "user.password_changed");
    // Every other session ends with the version bump; this one continues with a fresh token.
    return this.tokens.issue(updated);
  }

  /** A new code replaces any earlier one of the same purpose: only the latest email works. */
  private async issueCode(
    tx: Db,
    user: UserRow,
    purpose: CodePurpose,
    compose: (to: string, code: string) => Mail = purpose === "verify_email" ? verificationMail : resetMail,
  ): Promise<PreparedMail> {
    const code = await writeCode(tx, this.config, user.id, purpose);
    const mail = compose(user.email, code);
    return { id: await this.mailer.enqueue(mail, tx), mail };
  }

  /** Whether the user has signed in from this address lately (audit log). */
  private async signedInBefore(user: UserRow, ip: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.accountId, user.accountId),
          eq(auditLog.userId, user.id),
          eq(auditLog.action, "user.logged_in"),
          eq(auditLog.ip, ip),
          gt(auditLog.createdAt, new Date(Date.now() - KNOWN_ADDRESS_MS)),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /**
   * Marks a live code used and applies `changes` to its user; the user as changed, or null when the
   * code does not count (a code whose owner's email differs from `email` does not).
   */
  private async consumeCode(tx: Db, purpose: CodePurpose, code: string, email: string | undefined, changes: PgUpdateSetSource<typeof users>): Promise<UserRow | null> {
    const codeHash = hashCode(this.config.appSecret, code);
    const [row] = await tx
      .select({ id: verificationCodes.id, userId: verificationCodes.userId, email: users.email })
      .from(verificationCodes)
      .innerJoin(users, eq(users.id, verificationCodes.userId))
      .where(
        and(
          eq(verificationCodes.purpose, purpose),
          eq(verificationCodes.codeHash, codeHash),
          isNull(verificationCodes.usedAt),
          gt(verificationCodes.expiresAt, new Date()),
          sql`${verificationCodes.attempts} < ${this.config.codeMaxAttempts}`,
        ),
      )
      .limit(1);
    if (!row || (email !== undefined && row.email !== email)) return null;
    const [used] = await tx
      .update(verificationCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.usedAt)))
      .returning({ id: verificationCodes.id });
    if (!used) return null;
    const [user] = await tx.update(users).set(changes).where(eq(users.id, row.userId)).returning();
    return user ?? null;
  }

  /** Wrong guesses against one person's code: after codeMaxAttempts the code stops working. */
  private async countFailedAttempt(purpose: CodePurpose, email: string): Promise<void> {
    await this.db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(
        and(
          eq(verificationCodes.purpose, purpose),
          isNull(verificationCodes.usedAt),
          sql`${verificationCodes.userId} = (select id from users where email = ${email})`,
        ),
      );
  }
}

function verificationMail(to: string, code: string): Mail {
  return {
    to,
    subject: "Your GroupLedger verification code",
    text: `Welcome to GroupLedger.\n\nYour verification code is ${formatCode(code)}\n\nIt expires in 15 minutes. If you did not sign up, you can ignore this email.`,
  };
}

function repeatedSignupMail(to: string, code: string): Mail {
  return {
    to,
    subject: "Your GroupLedger verification code",
    text:
      `Someone, perhaps you, asked to sign up for GroupLedger again with this email before it was verified.\n\n` +
      `Your verification code is ${formatCode(code)}\n\n` +
      `It finishes the sign-up started first, with the password chosen then: signing up again does not change it. ` +
      `If you do not remember that password, verify your email and then use "Forgot password" on the sign-in page to choose a new one.\n\n` +
      `It expires in 15 minutes. If you did not sign up, you can ignore this email.`,
  };
}

function resetMail(to: string, code: string): Mail {
  return {
    to,
    subject: "Reset your GroupLedger password",
    text: `We received a request to reset your GroupLedger password.\n\nYour reset code is ${formatCode(code)}\n\nIt expires in 15 minutes. If you did not ask for this, you can ignore this email; your password has not changed.`,
  };
}
