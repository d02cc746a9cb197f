import { and, eq, inArray } from "drizzle-orm";
import { CLOSE_THE_BOOKS_SETTING } from "@groupledger/domain";
import { QboError } from "@groupledger/qbo";
import type { PostingSummary, RunPeriod } from "@groupledger/contract";
import type { Database, Db } from "../../db/client.ts";
import { companies, consolidationPostings, users } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { REAUTHORIZE_PARENT_MESSAGE } from "../obal/posting.ts";
import { computePeriodEntry, subsidiaryAndParent } from "./entry.ts";
import { ADJUSTMENTS_REALM, INTERCO_REALM, livePostings, postOnce, type PostingRow } from "./once.ts";

/**
 * Posting one subsidiary-period into the parent's QBO, exactly once (the protocol is in once.ts).
 *
 * - One writer per subsidiary at a time (an advisory lock across processes).
 * - Overlapping periods (March posted, then Q1) are refused: the months would be posted twice.
 */

export type PostOutcome = { outcome: "posted" | "duplicate"; posting: PostingRow };

export interface PostDeps {
  database: Database;
  provider: QboProvider;
}

export interface PostRequest {
  accountId: string;
  userId: string | null;
  realmId: string;
  period: RunPeriod;
  runId?: string | null;
  meta?: { ip?: string; requestId?: string };
}

/** What a request that waited too long for a posting lock is told is in progress (db/locks.ts). */
export const postingBusy = (what: string) => `Another posting of ${what} is in progress`;

export async function postPeriod(deps: PostDeps, req: PostRequest): Promise<PostOutcome> {
  const { database } = deps;
  const { company } = await subsidiaryAndParent(database.db, req.accountId, req.realmId);
  return database.withLock(`consolidation-post:${req.accountId}:${company.realmId}`, postingBusy(company.companyName), () => postLocked(deps, req));
}

async function postLocked(deps: PostDeps, req: PostRequest): Promise<PostOutcome> {
  const computed = await computePeriodEntry(deps.database.db, req.accountId, req.realmId, req.period);
  const { preview, period, company, parent } = computed;
  const { same, other } = await livePostings(deps.database, req.accountId, req.realmId, period);
  if (same?.status === "posted") return { outcome: "duplicate", posting: same };
  if (other) {
    throw errors.conflict(
      "period_overlaps_posting",
      `${company.companyName} already has ${other.periodLabel} posted, which overlaps ${period.label}; its months would be posted twice. Post the remaining months on their own instead.`,
    );
  }
  if (!preview.ok || !preview.entry) {
    throw new AppError(409, "posting_blocked", `${company.companyName} ${period.label} cannot be posted: ${preview.problems[0]?.message ?? "its entry does not translate."}`, {
      problems: preview.problems,
    });
  }
  if (preview.entry.lines.length === 0) {
    throw errors.conflict("nothing_to_post", `${company.companyName} has no activity in ${period.label}: there is nothing to post.`);
  }
  const posting = await postOnce(
    deps,
    {
      accountId: req.accountId,
      userId: req.userId,
      realmId: req.realmId,
      period,
      docNumber: preview.docNumber,
      txnDate: preview.txnDate,
      lines: preview.entry.lines,
      inputs: computed.inputs,
      runId: req.runId ?? null,
      parent,
      className: company.companyName,
      counterparty: company.companyName,
      privateNote: `GroupLedger: ${preview.entry.memo}, translated into ${parent.homeCurrency} with CTA.`,
      description: `${company.companyName} ${period.label}`,
      auditAction: "consolidation.posted",
      ...(req.meta ? { meta: req.meta } : {}),
    },
    same,
  );
  return { outcome: "posted", posting };
}

export async function summarize(db: Db, rows: readonly PostingRow[]): Promise<PostingSummary[]> {
  if (rows.length === 0) return [];
  const names = new Map((await db.select({ realmId: companies.realmId, name: companies.companyName }).from(companies).where(inArray(companies.realmId, [...new Set(rows.map((r) => r.realmId))]))).map((c) => [c.realmId, c.name]));
  const userIds = [...new Set(rows.map((r) => r.postedBy).filter((u): u is string => !!u))];
  const emails = new Map(userIds.length ? (await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds))).map((u) => [u.id, u.email]) : []);
  return rows
    .filter((r) => r.status !== "posting" && r.status !== "refused")
    .map((r) => ({
      id: r.id,
      realmId: r.realmId,
      companyName: r.realmId === INTERCO_REALM ? "Intercompany eliminations" : r.realmId === ADJUSTMENTS_REALM ? "Group adjustments" : (names.get(r.realmId) ?? r.realmId),
      period: { kind: r.periodKind, from: r.periodFrom, to: r.periodTo, label: r.periodLabel },
      status: r.status as "posted" | "deleted" | "replaced",
      journalEntryId: r.journalEntryId,
      journalEntryUrl: r.journalEntryUrl,
      docNumber: r.docNumber,
      postedAt: (r.postedAt ?? r.createdAt).toISOString(),
      postedBy: r.postedBy ? (emails.get(r.postedBy) ?? null) : null,
      runId: r.runId,
      stale: r.stale ?? null,
    }));
}

/**
 * Re-consolidation: replaces a posted entry whose source books changed, after the user approved
 * the changes. The old entry is deleted in QuickBooks first (already gone is fine), then the
 * period is posted again under a new generation (so a new requestid).
 */
/**
 * The first half of replacing a changed posting (runs, group adjustments): the old entry is deleted
 * in the parent's QuickBooks (gone already is fine) and the row marked replaced, audited with the
 * changes the user approved. The caller then posts the period again, under its lock.
 */
export async function retirePosting(
  deps: PostDeps,
  current: PostingRow,
  parentRealmId: string,
  req: { accountId: string; userId: string; meta?: { ip?: string; requestId?: string } },
): Promise<void> {
  const { db } = deps.database;
  const client = deps.provider.client(parentRealmId);
  try {
    if (current.journalEntryId) {
      const existing = await client.readJournalEntry(current.journalEntryId).catch((e: unknown) => {
        if (e instanceof QboError && e.kind === "not_found") return null;
        throw e;
      });
      if (existing) await client.deleteJournalEntry(existing.id, existing.syncToken);
    }
  } catch (e) {
    if (e instanceof QboError && e.kind === "reauthorize") throw new AppError(409, "qbo_reauthorization_required", REAUTHORIZE_PARENT_MESSAGE);
    if (e instanceof QboError && e.kind === "closed_period") {
      throw new AppError(
        409,
        "books_closed",
        `QuickBooks refused to delete the old entry ${current.docNumber} (${current.periodLabel}): the parent's books are closed on its date (Account Period Closed), so it cannot be replaced. Move the closing date before it in QuickBooks (${CLOSE_THE_BOOKS_SETTING}), sync the parent and replace it again. Nothing was changed.`,
      );
    }
    if (e instanceof QboError) throw new AppError(502, "qbo_unavailable", `QuickBooks could not delete the old entry ${current.journalEntryId} (${e.message}); nothing was changed.`);
    throw e;
  }
  await db.update(consolidationPostings).set({ status: "replaced", updatedAt: new Date() }).where(eq(consolidationPostings.id, current.id));
  await audit(db, {
    action: "consolidation.replaced",
    accountId: req.accountId,
    userId: req.userId,
    details: { postingId: current.id, journalEntryId: current.journalEntryId, changes: current.stale?.changes ?? [] },
    ...req.meta,
  });
}

export async function replacePosting(deps: PostDeps, req: { accountId: string; userId: string; postingId: string; meta?: { ip?: string; requestId?: string } }): Promise<PostOutcome> {
  const { db } = deps.database;
  const [row] = await db
    .select()
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.id, req.postingId), eq(consolidationPostings.accountId, req.accountId)))
    .limit(1);
  if (!row) throw errors.notFound("No such posted entry in your account.");
  const { parent, company } = await subsidiaryAndParent(db, req.accountId, row.realmId);
  return deps.database.withLock(`consolidation-post:${req.accountId}:${row.realmId}`, postingBusy(company.companyName), async () => {
    const [current] = await db.select().from(consolidationPostings).where(eq(consolidationPostings.id, row.id)).limit(1);
    if (current?.status !== "posted") throw errors.conflict("not_posted", `${company.companyName} ${row.periodLabel} is not a posted entry (it is ${current?.status ?? "gone"}).`);
    if (!current.stale) throw errors.conflict("not_changed", `${company.companyName} ${row.periodLabel} has not changed since it was posted; there is nothing to re-post.`);
    await retirePosting(deps, current, parent.realmId, req);
    const period = { kind: current.periodKind, year: Number(current.periodTo.slice(0, 4)), month: Number(current.periodTo.slice(5, 7)) };
    return postLocked(deps, { accountId: req.accountId, userId: req.userId, realmId: current.realmId, period, runId: null, meta: req.meta });
  });
}
