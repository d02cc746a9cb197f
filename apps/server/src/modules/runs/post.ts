import { and, eq } from "drizzle-orm";
import type { RunPeriod } from "@groupledger/contract";
import { consolidationPostings } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import { livePostings, postingBusy, postOnce, requestedPeriod, retirePosting, type Poster, type PostingRow } from "../posting/postings.ts";
import type { PostingDeps } from "../posting/protocol.ts";
import { computePeriodEntry, subsidiaryAndParent } from "./entry.ts";

/**
 * Posting one subsidiary-period into the parent's QBO, exactly once (the protocol is modules/posting).
 *
 * - One writer per subsidiary at a time (an advisory lock across processes).
 * - Overlapping periods (March posted, then Q1) are refused: the months would be posted twice.
 */

export type PostOutcome = { outcome: "posted" | "duplicate"; posting: PostingRow };

export interface PostRequest {
  accountId: string;
  userId: string | null;
  realmId: string;
  period: RunPeriod;
  runId?: string | null;
  meta?: { ip?: string; requestId?: string };
}

export async function postPeriod(deps: PostingDeps, req: PostRequest): Promise<PostOutcome> {
  const { database } = deps;
  const { company } = await subsidiaryAndParent(database.db, req.accountId, req.realmId);
  return database.withLock(`consolidation-post:${req.accountId}:${company.realmId}`, postingBusy(company.companyName), () => postLocked(deps, req));
}

async function postLocked(deps: PostingDeps, req: PostRequest): Promise<PostOutcome> {
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

/**
 * Re-consolidation: replaces a posted entry whose source books changed, after the user approved
 * the changes. The old entry is deleted in QuickBooks first (already gone is fine), then the
 * period is posted again under a new generation (so a new requestid).
 */
export async function replacePosting(deps: PostingDeps, req: Poster & { postingId: string }): Promise<PostOutcome> {
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
    const period = requestedPeriod(current);
    return postLocked(deps, { accountId: req.accountId, userId: req.userId, realmId: current.realmId, period, runId: req.runId ?? null, ...(req.meta ? { meta: req.meta } : {}) });
  });
}
