import { and, desc, eq } from "drizzle-orm";
import type { ObalLockRequest, ObalState, ObalTransition } from "@groupledger/contract";
import { calendarMonthOfFiscal, lastDayOfMonth } from "@groupledger/domain";
import type { Database } from "../../db/client.ts";
import { obalCompanies, obalPeriods } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit, type Actor } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { loadGroup } from "../group/service.ts";
import { postOpeningEntry } from "../posting/opening.ts";
import { nullIfNotFound, askQbo } from "../qbo/errors.ts";
import { lockedPeriod, monthText, subsidiary, trialBalance } from "./trial-balance.ts";

/**
 * Opening balances (SPEC §4, ARCHITECTURE.md "Opening balances"): the locked period and each
 * subsidiary's way unreviewed → reviewed → confirmed → posted. Every change answers the new state.
 */
export class ObalService {
  constructor(
    private readonly database: Database,
    private readonly provider: QboProvider,
  ) {}

  private get db() {
    return this.database.db;
  }

  async state(accountId: string): Promise<ObalState> {
    const [period] = await this.db.select().from(obalPeriods).where(eq(obalPeriods.accountId, accountId)).limit(1);
    const rows = await this.db.select().from(obalCompanies).where(eq(obalCompanies.accountId, accountId)).orderBy(desc(obalCompanies.postedAt));
    const flag = (pick: (r: (typeof rows)[number]) => Date | null) => Object.fromEntries(rows.filter((r) => pick(r) !== null).map((r) => [r.realmId, true]));
    return {
      year: period?.year ?? null,
      month: period?.month ?? null,
      naturalYear: period?.naturalYear ?? null,
      naturalMonth: period?.naturalMonth ?? null,
      reviewed: flag((r) => r.reviewedAt),
      confirmed: flag((r) => r.confirmedAt),
      posted: flag((r) => r.postedAt),
      // The spec keeps one link: the most recently posted entry.
      trialBalanceJournalEntryUrl: rows.find((r) => r.journalEntryUrl)?.journalEntryUrl ?? "",
    };
  }

  /** Locks the opening period once; the calendar month must be the fiscal month's under the parent's fiscal year. */
  async lock(actor: Actor, body: ObalLockRequest): Promise<ObalState> {
    const { parent } = await loadGroup(this.db, actor.accountId);
    if (!parent) throw errors.conflict("parent_required", "Connect and choose a parent company before locking the opening period.");
    const { year, month, naturalYear, naturalMonth } = body;
    const natural = calendarMonthOfFiscal(year, month, parent.fiscalYearStartMonth);
    if (natural.year !== naturalYear || natural.month !== naturalMonth) {
      throw errors.badRequest(
        "period_mismatch",
        `Fiscal month ${month} of ${year} is ${natural.month}/${natural.year} on the calendar for ${parent.companyName} ` +
          `(fiscal year starts in month ${parent.fiscalYearStartMonth}), not ${naturalMonth}/${naturalYear}.`,
      );
    }
    const inserted = await this.db
      .insert(obalPeriods)
      .values({ accountId: actor.accountId, year, month, naturalYear, naturalMonth, lockedBy: actor.userId })
      .onConflictDoNothing()
      .returning({ accountId: obalPeriods.accountId });
    if (inserted.length === 0) {
      const current = await this.state(actor.accountId);
      throw errors.conflict("period_locked", `The opening period is already locked to ${current.naturalMonth}/${current.naturalYear}. Reset it before choosing another.`);
    }
    await audit(this.db, { action: "obal.locked", ...actor, details: body });
    return this.state(actor.accountId);
  }

  /** Clears the period and every subsidiary's marks; entries posted into QuickBooks stay there, the audit log keeps what was cleared. */
  async reset(actor: Actor): Promise<ObalState> {
    const before = await this.state(actor.accountId);
    await this.db.transaction(async (tx) => {
      await tx.delete(obalCompanies).where(eq(obalCompanies.accountId, actor.accountId));
      await tx.delete(obalPeriods).where(eq(obalPeriods.accountId, actor.accountId));
    });
    await audit(this.db, { action: "obal.reset", ...actor, details: { before } });
    return this.state(actor.accountId);
  }

  private async row(accountId: string, realmId: string) {
    const [row] = await this.db.select().from(obalCompanies).where(and(eq(obalCompanies.accountId, accountId), eq(obalCompanies.realmId, realmId))).limit(1);
    return row;
  }

  /** Refuses a transition with the reason in words; otherwise records it. */
  async transition(actor: Actor, realmId: string, action: ObalTransition): Promise<ObalState> {
    const { db } = this;
    const { accountId } = actor;
    await lockedPeriod(db, accountId);
    const { company } = await subsidiary(db, accountId, realmId);
    const row = await this.row(accountId, realmId);
    const state = row?.postedAt ? "posted" : row?.confirmedAt ? "confirmed" : row?.reviewedAt ? "reviewed" : "unreviewed";
    const name = company.companyName;
    const refuse = (message: string) => errors.conflict("illegal_transition", message);
    const now = new Date();
    let set: Partial<typeof obalCompanies.$inferInsert>;
    switch (action) {
      case "review": {
        if (state !== "unreviewed") throw refuse(`${name} is already ${state}.`);
        const tb = await trialBalance(db, accountId, realmId);
        if (!tb.eligible) throw refuse(tb.reason!);
        if (!tb.ok) throw new AppError(409, "review_blocked", `${name} cannot be reviewed yet: ${tb.problems[0]?.message ?? "its trial balance does not translate."}`, { problems: tb.problems });
        set = { reviewedAt: now };
        break;
      }
      case "unreview":
        if (state !== "reviewed") throw refuse(state === "unreviewed" ? `${name} has not been reviewed.` : `${name} is ${state}; unconfirm it first.`);
        set = { reviewedAt: null };
        break;
      case "confirm":
        if (state !== "reviewed") throw refuse(state === "unreviewed" ? `Review ${name} before confirming it.` : `${name} is already ${state}.`);
        set = { confirmedAt: now };
        break;
      case "unconfirm":
        if (state !== "confirmed") throw refuse(state === "posted" ? `${name} is already posted; it cannot be unconfirmed. If its entry was deleted in QuickBooks, mark it deleted first.` : `${name} is not confirmed.`);
        set = { confirmedAt: null };
        break;
    }
    await db
      .insert(obalCompanies)
      .values({ accountId, realmId, ...set, updatedAt: now })
      .onConflictDoUpdate({ target: [obalCompanies.accountId, obalCompanies.realmId], set: { ...set, updatedAt: now } });
    await audit(db, { action: `obal.${action}`, ...actor, details: { realmId } });
    return this.state(accountId);
  }

  /**
   * Posts a confirmed subsidiary's translated trial balance into the parent's QuickBooks, once:
   * one posting per subsidiary at a time, across processes, so a second click waits, then sees it posted.
   */
  async post(actor: Actor, realmId: string): Promise<ObalState> {
    const { company } = await subsidiary(this.db, actor.accountId, realmId);
    await this.database.withLock(`obal-post:${actor.accountId}:${realmId}`, `Another posting of ${company.companyName}'s opening balance is in progress`, () =>
      this.postLocked(actor, realmId),
    );
    return this.state(actor.accountId);
  }

  private async postLocked(actor: Actor, realmId: string): Promise<void> {
    const { db } = this;
    const { accountId, userId, ip, requestId } = actor;
    const period = await lockedPeriod(db, accountId);
    const { company, parent } = await subsidiary(db, accountId, realmId);
    const row = await this.row(accountId, realmId);
    if (row?.postedAt) return; // a second click or tab: already done, same answer
    if (!row?.confirmedAt) throw errors.conflict("illegal_transition", `Confirm ${company.companyName} before posting it.`);
    const month = monthText(period);
    const tb = await trialBalance(db, accountId, realmId);
    if (!tb.ok || !tb.view) {
      throw new AppError(409, "posting_blocked", `${company.companyName} cannot be posted: ${tb.problems[0]?.message ?? tb.reason ?? "its trial balance does not translate."}`, { problems: tb.problems });
    }
    await postOpeningEntry(
      { database: this.database, provider: this.provider },
      { accountId, userId, row, company, parent, month, txnDate: lastDayOfMonth(month), lines: tb.view.byParentAccount, meta: { ip, requestId } },
    );
  }

  /** Records that a posted opening entry was deleted in QuickBooks (asked first), so it can be posted again under a new request id. */
  async markDeleted(actor: Actor, realmId: string): Promise<ObalState> {
    const { db } = this;
    const { accountId } = actor;
    const { company, parent } = await subsidiary(db, accountId, realmId);
    const row = await this.row(accountId, company.realmId);
    if (!row?.postedAt || !row.journalEntryId) throw errors.conflict("not_posted", `${company.companyName} has no posted opening entry.`);
    const journalEntryId = row.journalEntryId;
    const stillThere = await askQbo({ subject: "parent", then: "mark it deleted again", unavailable: (e) => `QuickBooks could not be asked whether entry ${journalEntryId} is still there (${e.message}); try again.` }, async () =>
      (await this.provider.client(parent.realmId).readJournalEntry(journalEntryId).catch(nullIfNotFound)) !== null,
    );
    if (stillThere) throw errors.conflict("entry_still_exists", `Entry ${row.journalEntryId} is still in QuickBooks. Delete it there first.`);
    await db
      .update(obalCompanies)
      .set({ postedAt: null, journalEntryId: null, journalEntryUrl: null, postGeneration: row.postGeneration + 1, updatedAt: new Date() })
      .where(and(eq(obalCompanies.accountId, accountId), eq(obalCompanies.realmId, company.realmId)));
    await audit(db, { action: "obal.entry_deleted", ...actor, details: { realmId: company.realmId, journalEntryId: row.journalEntryId } });
    return this.state(accountId);
  }
}
