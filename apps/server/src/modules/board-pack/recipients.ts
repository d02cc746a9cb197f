import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, ne, notInArray, sql } from "drizzle-orm";
import { BOARD_PACK_CONFIRMATION_TTL_DAYS, BOARD_PACK_PENDING_MAX, type BoardPackInvitation, type BoardPackRecipientStatus, type BoardPackSchedule, type BoardPackSubscription } from "@groupledger/contract";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { accounts, boardPackRecipients, boardPackSchedules, users } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { Mail, Mailer } from "../../services/mailer.ts";
import { audit, type RequestMeta } from "../../services/audit.ts";
import type { RateLimiter } from "../../services/rate-limiter.ts";
import { messages } from "../session/service.ts";
import { exportLabels } from "../reports/labels.ts";

/**
 * Board pack recipients outside the team: double opt-in (issue 23). An address that is not one of
 * the team's verified addresses is kept `pending` in `board_pack_recipients` and mailed a link
 * (32 random bytes; only their keyed hash is stored) that works for 7 days; the person confirms it
 * (or declines) on a public page whose button POSTs the token: opening the link changes nothing,
 * so a mail scanner's prefetch confirms nobody. Every pack mail carries an unsubscribe link signed
 * with the app secret (the account and the address; no row needed, team addresses have none).
 */

const DAY_MS = 86_400_000;
/** The same link answered twice within this time (a double click, two tabs racing) is the one confirmation, answered alike. */
const SAME_ANSWER_MS = 10 * 60_000;
const newToken = () => randomBytes(32).toString("base64url");
const longDate = (d: Date) => d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
const listOf = (items: readonly string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);

export const recipientMessages = {
  invalid:
    "This confirmation link is not valid: a newer one may have been sent, or the address was taken off the board pack. Open the latest confirmation email, or ask the group's admin to send a new one.",
  expired: `This confirmation link has expired (links work for ${BOARD_PACK_CONFIRMATION_TTL_DAYS} days) and nothing is sent to the address. Ask the group's admin to send a new one (Board pack → Resend confirmation).`,
  confirmedAlready: (email: string, at: Date) => `This link was already used: ${email} was confirmed on ${longDate(at)}. Nothing more to do; each board pack email has a link to unsubscribe.`,
  declinedAlready: (email: string, at: Date) => `This link was already used: ${email} declined the board pack on ${longDate(at)}, and nothing is sent to it.`,
  unsubscribeInvalid: "This unsubscribe link is not valid. Open it again from the latest board pack email (copy the whole address if it was split over two lines).",
  declined: (emails: string[]) =>
    `${listOf(emails)} asked not to receive this group's board pack, so ${emails.length === 1 ? "it" : "they"} cannot be added again from here. Nothing is sent there.`,
  tooManyPending: (max: number, n: number) =>
    `At most ${max} recipients outside your team can await their confirmation at once; this would make ${n}. Remove some, or wait until they confirm.`,
  tooManyConfirmations: (limit: number, window: string, minutes: number) =>
    `Your account has mailed ${limit} board pack confirmations in the last ${window}, the most allowed. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}; nothing was saved.`,
  notRecipient: (email: string) => `${email} is not a recipient of the board pack. Add it to the recipients and save the schedule first.`,
  teamAddress: (email: string) => `${email} is a verified address of your team: it receives the board pack without a confirmation.`,
  confirmedRecipient: (email: string) => `${email} has already confirmed: it receives the board pack.`,
};

export type RecipientRow = typeof boardPackRecipients.$inferSelect;

/** The account's outside recipients by address (pending, confirmed and declined). */
export async function recipientRows(db: Db, accountId: string): Promise<Map<string, RecipientRow>> {
  const rows = await db.select().from(boardPackRecipients).where(eq(boardPackRecipients.accountId, accountId));
  return new Map(rows.map((r) => [r.email, r]));
}

/** Each recipient's state (team addresses first of all: a member's verified address needs no confirmation). */
export function statusOf(recipients: readonly string[], verified: ReadonlySet<string>, rows: ReadonlyMap<string, RecipientRow>): BoardPackSchedule["recipientStatus"] {
  return recipients.map((email) => {
    const row = rows.get(email);
    const state: BoardPackRecipientStatus = verified.has(email) ? "team" : row?.state === "confirmed" ? "confirmed" : row?.state === "pending" ? "pending" : "unverified";
    return {
      email,
      state,
      since: state === "pending" ? row!.requestedAt.toISOString() : state === "confirmed" ? (row!.confirmedAt?.toISOString() ?? null) : null,
      expiresAt: state === "pending" ? (row!.expiresAt?.toISOString() ?? null) : null,
    };
  });
}

/** Whether a recipient in `state` may be mailed the pack. */
export const mailable = (state: BoardPackRecipientStatus) => state === "team" || state === "confirmed";

export class BoardPackRecipients {
  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, "appSecret" | "rateLimits">,
    private readonly mailer: Mailer,
    private readonly limiter: RateLimiter,
  ) {}

  private hash(token: string): string {
    return createHmac("sha256", this.config.appSecret).update(`board-pack-confirmation:${token}`).digest("hex");
  }

  private signature(accountId: string, email: string): string {
    return createHmac("sha256", this.config.appSecret).update(`board-pack-unsubscribe:${accountId} ${email}`).digest("base64url");
  }

  /** The unsubscribe link of a pack mail: the account and address, signed; it works as long as the app secret does. */
  unsubscribeLink(origin: string, accountId: string, email: string): string {
    const token = `${Buffer.from(`${accountId} ${email}`).toString("base64url")}.${this.signature(accountId, email)}`;
    return `${origin}/board-pack/unsubscribe#token=${token}`;
  }

  private unsubscribeTarget(token: string): { accountId: string; email: string } {
    const [payload, sig] = token.split(".");
    const [accountId, email] = Buffer.from(payload ?? "", "base64url").toString("utf8").split(" ");
    if (!sig || !accountId || !email) throw errors.notFound(recipientMessages.unsubscribeInvalid);
    const expected = Buffer.from(this.signature(accountId, email));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw errors.notFound(recipientMessages.unsubscribeInvalid);
    return { accountId, email };
  }

  /** Every link looked up or answered is a guess at a token: limited per IP like the session's codes. */
  private async limitIp(ip: string): Promise<void> {
    const { windowMs, codePerIp } = this.config.rateLimits;
    await this.limiter.enforce(`board-pack-link:ip:${ip}`, codePerIp, windowMs, messages.tooManyCodes);
  }

  /**
   * Reserves `n` confirmation mails of the account's budget (429 when it would be spent, with every
   * hit of this call given back: nothing is saved then); answers how to give them back if the save fails.
   */
  async reserve(accountId: string, n: number): Promise<(count?: number) => Promise<void>> {
    const key = `board-pack-confirmation:account:${accountId}`;
    const { boardPackConfirmationsPerAccount: limit, reportMailWindowMs: windowMs } = this.config.rateLimits;
    const refund = async (count = n) => {
      for (let i = 0; i < count; i++) await this.limiter.refund(key);
    };
    for (let i = 0; i < n; i++) {
      const r = await this.limiter.hit(key, limit, windowMs);
      if (!r.allowed) {
        await refund(i + 1);
        const minutes = Math.max(1, Math.ceil(r.retryAfterMs / 60_000));
        const window = windowMs === 3_600_000 ? "hour" : `${Math.round(windowMs / 60_000)} minutes`;
        throw errors.tooManyRequests(recipientMessages.tooManyConfirmations(limit, window, minutes), r.retryAfterMs);
      }
    }
    return refund;
  }

  /**
   * A pending row for `email` with a new link (replacing any earlier link of it), and its mail in the
   * outbox, in the caller's transaction. Null when another request wrote the row first (`fresh` only).
   */
  async writePending(tx: Db, input: { accountId: string; email: string; by: { id: string; email: string; name: string | null }; origin: string; dayOfMonth: number; fresh: boolean }): Promise<{ id: string; mail: Mail } | null> {
    const token = newToken();
    const values = { tokenHash: this.hash(token), expiresAt: new Date(Date.now() + BOARD_PACK_CONFIRMATION_TTL_DAYS * DAY_MS), requestedBy: input.by.id, requestedAt: new Date() };
    const written = input.fresh
      ? await tx.insert(boardPackRecipients).values({ accountId: input.accountId, email: input.email, state: "pending", ...values }).onConflictDoNothing().returning({ id: boardPackRecipients.id })
      : await tx
          .insert(boardPackRecipients)
          .values({ accountId: input.accountId, email: input.email, state: "pending", ...values })
          .onConflictDoUpdate({
            target: [boardPackRecipients.accountId, boardPackRecipients.email],
            set: { ...values, state: "pending", sendCount: sql`${boardPackRecipients.sendCount} + 1` },
            setWhere: eq(boardPackRecipients.state, "pending"),
          })
          .returning({ id: boardPackRecipients.id });
    if (written.length === 0) return null;
    const groupName = await groupNameOf(tx, input.accountId);
    const who = input.by.name ? `${input.by.name} (${input.by.email})` : input.by.email;
    const link = `${input.origin}/board-pack/confirm#token=${token}`;
    const mail: Mail = {
      to: input.email,
      subject: `Confirm your address for ${groupName}'s board pack`,
      text:
        `${who}, an admin of ${groupName} on GroupLedger, chose ${input.email} to receive the group's monthly board pack: a PDF of the consolidated balance sheet, income statement, cash flow, changes in equity, key figures, the exchange rates used and the translation reserve, mailed on day ${input.dayOfMonth} of each month.\n\n` +
        `Nothing is sent to this address unless you confirm it here (or choose "No, thanks" on the same page):\n${link}\n\n` +
        `The link works for ${BOARD_PACK_CONFIRMATION_TTL_DAYS} days. If you did not expect this email, ignore it: nothing will be sent to you.`,
    };
    return { id: await this.mailer.enqueue(mail, tx), mail };
  }

  /** "Resend confirmation" (admins): a new link to a recipient awaiting confirmation or no longer verified; the old link stops working. */
  async resend(user: { id: string; accountId: string; email: string; name: string | null }, email: string, origin: string, verified: ReadonlySet<string>): Promise<void> {
    const [schedule] = await this.db.select().from(boardPackSchedules).where(eq(boardPackSchedules.accountId, user.accountId)).limit(1);
    if (!schedule?.recipients.includes(email)) throw errors.notFound(recipientMessages.notRecipient(email));
    if (verified.has(email)) throw errors.conflict("recipient_team", recipientMessages.teamAddress(email));
    const [row] = await this.db.select().from(boardPackRecipients).where(and(eq(boardPackRecipients.accountId, user.accountId), eq(boardPackRecipients.email, email))).limit(1);
    if (row?.state === "confirmed") throw errors.conflict("recipient_confirmed", recipientMessages.confirmedRecipient(email));
    if (row?.state === "declined") throw errors.conflict("recipient_declined", recipientMessages.declined([email]));
    if (!row) {
      const rows = await recipientRows(this.db, user.accountId);
      const pending = [...rows.values()].filter((r) => r.state === "pending" && !verified.has(r.email)).length + 1;
      if (pending > BOARD_PACK_PENDING_MAX) throw new AppError(422, "too_many_pending", recipientMessages.tooManyPending(BOARD_PACK_PENDING_MAX, pending), { max: BOARD_PACK_PENDING_MAX });
    }
    const refund = await this.reserve(user.accountId, 1);
    let prepared: { id: string; mail: Mail } | null = null;
    try {
      prepared = await this.db.transaction((tx) => this.writePending(tx, { accountId: user.accountId, email, by: user, origin, dayOfMonth: schedule.dayOfMonth, fresh: false }));
    } catch (err) {
      await refund();
      throw err;
    }
    // Confirmed or declined between the read and the write: nothing to send.
    if (!prepared) {
      await refund();
      throw errors.conflict("recipient_answered", `${email} has just answered the confirmation; reload the page to see it.`);
    }
    await this.mailer.deliver(prepared.id, prepared.mail);
  }

  private async found(tokenHash: string) {
    const [found] = await this.db
      .select({ row: boardPackRecipients, requestedBy: users.email, dayOfMonth: boardPackSchedules.dayOfMonth })
      .from(boardPackRecipients)
      .leftJoin(users, eq(users.id, boardPackRecipients.requestedBy))
      .leftJoin(boardPackSchedules, eq(boardPackSchedules.accountId, boardPackRecipients.accountId))
      .where(eq(boardPackRecipients.tokenHash, tokenHash))
      .limit(1);
    return found;
  }

  private async invitation(found: NonNullable<Awaited<ReturnType<BoardPackRecipients["found"]>>>, row: RecipientRow): Promise<BoardPackInvitation> {
    return {
      email: row.email,
      groupName: await groupNameOf(this.db, row.accountId),
      requestedBy: found.requestedBy,
      dayOfMonth: found.dayOfMonth ?? 1,
      state: row.state,
      expiresAt: row.state === "pending" ? (row.expiresAt?.toISOString() ?? null) : null,
    };
  }

  /** Why a link's row cannot be answered (unknown, expired, used), unless it was answered `state` a moment ago by this same link. */
  private refusal(row: RecipientRow | undefined, now: Date, sameAnswer?: "confirmed" | "declined"): AppError | null {
    if (!row) return errors.notFound(recipientMessages.invalid);
    if (row.state === "pending") return row.expiresAt && row.expiresAt > now ? null : new AppError(410, "confirmation_expired", recipientMessages.expired);
    const at = (row.state === "confirmed" ? row.confirmedAt : row.declinedAt) ?? now;
    if (sameAnswer === row.state && now.getTime() - at.getTime() < SAME_ANSWER_MS) return null;
    return errors.conflict("confirmation_used", row.state === "confirmed" ? recipientMessages.confirmedAlready(row.email, at) : recipientMessages.declinedAlready(row.email, at));
  }

  /** What the confirmation page shows: the group, the address, who chose it, the day. Changes nothing. */
  async lookup(token: string, meta: RequestMeta, now = new Date()): Promise<BoardPackInvitation> {
    await this.limitIp(meta.ip);
    const found = await this.found(this.hash(token));
    const refused = this.refusal(found?.row, now);
    if (refused) throw refused;
    return this.invitation(found!, found!.row);
  }

  /**
   * The page's Confirm button: one conditional update of a pending, unexpired row, so of two
   * confirmations racing one writes and the other, finding it confirmed a moment ago by the same
   * link, answers the same. Later, the link is used (409); expired 410; unknown 404.
   */
  async confirm(token: string, meta: RequestMeta): Promise<BoardPackInvitation> {
    await this.limitIp(meta.ip);
    const tokenHash = this.hash(token);
    const now = new Date();
    await this.db.transaction(async (tx) => {
      const [won] = await tx
        .update(boardPackRecipients)
        .set({ state: "confirmed", confirmedAt: now })
        .where(and(eq(boardPackRecipients.tokenHash, tokenHash), eq(boardPackRecipients.state, "pending"), gt(boardPackRecipients.expiresAt, now)))
        .returning({ accountId: boardPackRecipients.accountId, email: boardPackRecipients.email });
      if (won) await audit(tx, { action: "board_pack.recipient_confirmed", accountId: won.accountId, details: { email: won.email }, ...meta });
    });
    const found = await this.found(tokenHash);
    const refused = this.refusal(found?.row, new Date(), "confirmed");
    if (refused) throw refused;
    return this.invitation(found!, found!.row);
  }

  /** "No, thanks": the address is declined (kept, so an admin cannot add it back) and taken off the schedule. An expired link may still decline. */
  async decline(token: string, meta: RequestMeta): Promise<BoardPackInvitation> {
    await this.limitIp(meta.ip);
    const tokenHash = this.hash(token);
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(boardPackRecipients)
        .set({ state: "declined", declinedAt: new Date() })
        .where(and(eq(boardPackRecipients.tokenHash, tokenHash), eq(boardPackRecipients.state, "pending")))
        .returning();
      if (!row) return;
      await dropRecipient(tx, row.accountId, row.email);
      await audit(tx, { action: "board_pack.recipient_declined", accountId: row.accountId, details: { email: row.email }, ...meta });
    });
    const found = await this.found(tokenHash);
    const row = found?.row;
    // An expired pending link was declined above; anything else answered a moment ago by this link is the same answer.
    const refused = row?.state === "pending" ? errors.notFound(recipientMessages.invalid) : this.refusal(row, new Date(), "declined");
    if (refused) throw refused;
    return this.invitation(found!, row!);
  }

  /** What the unsubscribe page shows. Changes nothing. */
  async subscription(token: string, meta: RequestMeta): Promise<BoardPackSubscription> {
    await this.limitIp(meta.ip);
    const { accountId, email } = this.unsubscribeTarget(token);
    const [schedule] = await this.db.select({ recipients: boardPackSchedules.recipients }).from(boardPackSchedules).where(eq(boardPackSchedules.accountId, accountId)).limit(1);
    return { email, groupName: await groupNameOf(this.db, accountId), subscribed: schedule?.recipients.includes(email) ?? false };
  }

  /**
   * The Unsubscribe button of the page a pack mail links to: the address leaves the schedule; an
   * address outside the team is kept as declined (an admin cannot add it back). Answering twice is harmless.
   */
  async unsubscribe(token: string, meta: RequestMeta, verified: (accountId: string) => Promise<ReadonlySet<string>>): Promise<BoardPackSubscription> {
    await this.limitIp(meta.ip);
    const { accountId, email } = this.unsubscribeTarget(token);
    const team = await verified(accountId);
    await this.db.transaction(async (tx) => {
      const [account] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
      if (!account) throw errors.notFound(recipientMessages.unsubscribeInvalid);
      if (await dropRecipient(tx, accountId, email)) await audit(tx, { action: "board_pack.recipient_unsubscribed", accountId, details: { email }, ...meta });
      if (team.has(email)) return;
      const declined = { state: "declined" as const, declinedAt: new Date(), tokenHash: null, expiresAt: null };
      await tx
        .insert(boardPackRecipients)
        .values({ accountId, email, ...declined })
        .onConflictDoUpdate({ target: [boardPackRecipients.accountId, boardPackRecipients.email], set: declined, setWhere: ne(boardPackRecipients.state, "declined") });
    });
    return { email, groupName: await groupNameOf(this.db, accountId), subscribed: false };
  }
}

/** Takes `email` off the account's schedule; whether it was on it (the row locked: a save at the same time keeps its own list or this one's, never half). */
async function dropRecipient(tx: Db, accountId: string, email: string): Promise<boolean> {
  const [schedule] = await tx.select({ recipients: boardPackSchedules.recipients }).from(boardPackSchedules).where(eq(boardPackSchedules.accountId, accountId)).for("update");
  if (!schedule?.recipients.includes(email)) return false;
  const recipients = schedule.recipients.filter((r) => r !== email);
  await tx
    .update(boardPackSchedules)
    .set({ recipients, ...(recipients.length === 0 ? { enabled: false } : {}), updatedAt: new Date() })
    .where(eq(boardPackSchedules.accountId, accountId));
  return true;
}

/** Forgets the account's outside recipients that are no longer chosen (their links stop working); declined ones are kept. */
export async function forgetUnchosen(tx: Db, accountId: string, recipients: readonly string[]): Promise<void> {
  const chosen = [...recipients];
  await tx
    .delete(boardPackRecipients)
    .where(and(eq(boardPackRecipients.accountId, accountId), ne(boardPackRecipients.state, "declined"), ...(chosen.length > 0 ? [notInArray(boardPackRecipients.email, chosen)] : [])));
}

/** The group's name as the pack calls it: the parent company's, else the account's. */
async function groupNameOf(db: Db, accountId: string): Promise<string> {
  const { parentName } = await exportLabels(db, accountId);
  const [account] = parentName ? [] : await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  // A QuickBooks company name goes into a mail's subject: no control characters (no header injection).
  // eslint-disable-next-line no-control-regex
  return (parentName ?? account?.name ?? "Your group").replace(/[\u0000-\u001f\u007f]+/g, " ").trim() || "Your group";
}
