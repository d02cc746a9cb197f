import { and, desc, eq, gte, inArray, lte } from "drizzle-orm";
import { QboError } from "@groupledger/qbo";
import type { PostingSummary, RunPeriod } from "@groupledger/contract";
import type { Database, Db } from "../../db/client.ts";
import { companies, consolidationPostings, users } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { REAUTHORIZE_PARENT_MESSAGE } from "../obal/posting.ts";
import { classFor } from "../qbo/classes.ts";
import { computePeriodEntry, consolidationRequestId, subsidiaryAndParent } from "./entry.ts";

/**
 * Posting one subsidiary-period into the parent's QBO, exactly once.
 *
 * - One writer per subsidiary at a time (an advisory lock across processes).
 * - A row in state 'posting' is written BEFORE QuickBooks is called, with the requestid derived
 *   from (account, subsidiary, period, generation). If the process dies or the call times out
 *   after QuickBooks created the entry, the next attempt finds that row and sends the same
 *   requestid, and QuickBooks answers with the entry it already made instead of a second one.
 * - A definite refusal (validation, 3200) deletes the row: nothing was posted, state unchanged.
 * - Overlapping periods (March posted, then Q1) are refused: the months would be posted twice.
 */

type PostingRow = typeof consolidationPostings.$inferSelect;
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

export async function postPeriod(deps: PostDeps, req: PostRequest): Promise<PostOutcome> {
  const { database } = deps;
  const { company } = await subsidiaryAndParent(database.db, req.accountId, req.realmId);
  return database.withLock(`consolidation-post:${req.accountId}:${company.realmId}`, () => postLocked(deps, req));
}

async function postLocked(deps: PostDeps, req: PostRequest): Promise<PostOutcome> {
  const { db } = deps.database;
  const computed = await computePeriodEntry(db, req.accountId, req.realmId, req.period);
  const { preview, period, company, parent } = computed;

  const live = await db
    .select()
    .from(consolidationPostings)
    .where(
      and(
        eq(consolidationPostings.accountId, req.accountId),
        eq(consolidationPostings.realmId, req.realmId),
        inArray(consolidationPostings.status, ["posting", "posted"]),
        lte(consolidationPostings.periodFrom, period.to),
        gte(consolidationPostings.periodTo, period.from),
      ),
    );
  const same = live.find((p) => p.periodFrom === period.from && p.periodTo === period.to);
  if (same?.status === "posted") return { outcome: "duplicate", posting: same };
  const other = live.find((p) => p !== same);
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

  let row: PostingRow;
  if (same) {
    row = same; // an earlier attempt's outcome is unknown: retry with its requestid
  } else {
    const [last] = await db
      .select({ generation: consolidationPostings.generation })
      .from(consolidationPostings)
      .where(
        and(
          eq(consolidationPostings.accountId, req.accountId),
          eq(consolidationPostings.realmId, req.realmId),
          eq(consolidationPostings.periodFrom, period.from),
          eq(consolidationPostings.periodTo, period.to),
        ),
      )
      .orderBy(desc(consolidationPostings.generation))
      .limit(1);
    const generation = last ? last.generation + 1 : 0;
    [row] = (await db
      .insert(consolidationPostings)
      .values({
        accountId: req.accountId,
        realmId: req.realmId,
        periodKind: period.kind,
        periodFrom: period.from,
        periodTo: period.to,
        periodLabel: period.label,
        status: "posting",
        generation,
        docNumber: preview.docNumber,
        requestId: consolidationRequestId(req.accountId, req.realmId, period, generation),
        lines: preview.entry.lines,
        inputs: computed.inputs,
        runId: req.runId ?? null,
        postedBy: req.userId,
      })
      .returning()) as [PostingRow];
  }

  const client = deps.provider.client(parent.realmId);
  try {
    const klass = await classFor(client, company.companyName);
    const entry = await client.createJournalEntry(
      {
        txnDate: preview.txnDate,
        currency: parent.homeCurrency,
        docNumber: row.docNumber,
        privateNote: `GroupLedger: ${preview.entry.memo}, translated into ${parent.homeCurrency} with CTA.`,
        lines: row.lines.map((l) => ({
          postingType: l.debit > 0 ? ("Debit" as const) : ("Credit" as const),
          amount: l.debit > 0 ? l.debit : l.credit,
          accountId: l.account,
          classId: klass.id,
          description: `${company.companyName} ${period.label}`,
        })),
      },
      row.requestId,
    );
    const [posted] = (await db
      .update(consolidationPostings)
      .set({ status: "posted", journalEntryId: entry.id, journalEntryUrl: deps.provider.journalEntryUrl(entry.id), postedAt: new Date(), updatedAt: new Date() })
      .where(eq(consolidationPostings.id, row.id))
      .returning()) as [PostingRow];
    await audit(db, {
      action: "consolidation.posted",
      accountId: req.accountId,
      userId: req.userId,
      details: { realmId: req.realmId, period: period.label, journalEntryId: entry.id, postingId: row.id, runId: req.runId ?? null },
      ...req.meta,
    });
    return { outcome: "posted", posting: posted };
  } catch (e) {
    if (e instanceof QboError && (e.kind === "reauthorize" || e.kind === "validation" || e.kind === "other")) {
      // QuickBooks answered and refused: nothing was created, so nothing is kept.
      await db.delete(consolidationPostings).where(eq(consolidationPostings.id, row.id));
      if (e.kind === "reauthorize") {
        await db.update(companies).set({ connection: "needs_reauthorization", updatedAt: new Date() }).where(eq(companies.realmId, parent.realmId));
        throw new AppError(409, "qbo_reauthorization_required", REAUTHORIZE_PARENT_MESSAGE);
      }
      throw new AppError(502, "qbo_refused", `QuickBooks refused the entry: ${e.message}${e.detail ? ` (${e.detail})` : ""}. Nothing was posted.`);
    }
    // Throttling, 5xx, a dropped connection: the entry may exist. The row stays 'posting' and the
    // next attempt repeats the same requestid.
    if (e instanceof QboError) {
      throw new AppError(502, "qbo_unavailable", `QuickBooks did not answer the posting (${e.message}). Try again: a retry never posts twice.`);
    }
    throw e;
  }
}

export async function summarize(db: Db, rows: readonly PostingRow[]): Promise<PostingSummary[]> {
  if (rows.length === 0) return [];
  const names = new Map((await db.select({ realmId: companies.realmId, name: companies.companyName }).from(companies).where(inArray(companies.realmId, [...new Set(rows.map((r) => r.realmId))]))).map((c) => [c.realmId, c.name]));
  const userIds = [...new Set(rows.map((r) => r.postedBy).filter((u): u is string => !!u))];
  const emails = new Map(userIds.length ? (await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds))).map((u) => [u.id, u.email]) : []);
  return rows
    .filter((r) => r.status !== "posting")
    .map((r) => ({
      id: r.id,
      realmId: r.realmId,
      companyName: names.get(r.realmId) ?? r.realmId,
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
export async function replacePosting(deps: PostDeps, req: { accountId: string; userId: string; postingId: string; meta?: { ip?: string; requestId?: string } }): Promise<PostOutcome> {
  const { db } = deps.database;
  const [row] = await db
    .select()
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.id, req.postingId), eq(consolidationPostings.accountId, req.accountId)))
    .limit(1);
  if (!row) throw errors.notFound("No such posted entry in your account.");
  const { parent, company } = await subsidiaryAndParent(db, req.accountId, row.realmId);
  return deps.database.withLock(`consolidation-post:${req.accountId}:${row.realmId}`, async () => {
    const [current] = await db.select().from(consolidationPostings).where(eq(consolidationPostings.id, row.id)).limit(1);
    if (current?.status !== "posted") throw errors.conflict("not_posted", `${company.companyName} ${row.periodLabel} is not a posted entry (it is ${current?.status ?? "gone"}).`);
    if (!current.stale) throw errors.conflict("not_changed", `${company.companyName} ${row.periodLabel} has not changed since it was posted; there is nothing to re-post.`);
    const client = deps.provider.client(parent.realmId);
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
      if (e instanceof QboError) throw new AppError(502, "qbo_unavailable", `QuickBooks could not delete the old entry ${current.journalEntryId} (${e.message}); nothing was changed.`);
      throw e;
    }
    await db.update(consolidationPostings).set({ status: "replaced", updatedAt: new Date() }).where(eq(consolidationPostings.id, current.id));
    await audit(db, {
      action: "consolidation.replaced",
      accountId: req.accountId,
      userId: req.userId,
      details: { postingId: current.id, journalEntryId: current.journalEntryId, changes: current.stale.changes },
      ...req.meta,
    });
    const period = { kind: current.periodKind, year: Number(current.periodTo.slice(0, 4)), month: Number(current.periodTo.slice(5, 7)) };
    return postLocked(deps, { accountId: req.accountId, userId: req.userId, realmId: current.realmId, period, runId: null, meta: req.meta });
  });
}
