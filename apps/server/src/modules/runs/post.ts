import { and, eq } from "drizzle-orm";
import type { RunPeriod } from "@groupledger/contract";
import { consolidationPostings } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import { livePostings, type OnceRequest, postBatch, postingBusy, postingLock, postOnce, requestedPeriod, retirePosting, type Poster, type PostingRow } from "../posting/postings.ts";
import { loadGroup } from "../group/service.ts";
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
  return database.withLock(postingLock(req.accountId, company.realmId), postingBusy(company.companyName), () => postLocked(deps, req));
}

async function postLocked(deps: PostingDeps, req: PostRequest): Promise<PostOutcome> {
  const prepared = await preparePeriod(deps, req);
  if ("outcome" in prepared) return prepared;
  return { outcome: "posted", posting: await postOnce(deps, prepared.request, prepared.same) };
}

/** A subsidiary-period checked and computed, under its lock: a duplicate of what is posted, or the entry to post (and its pending row to resume). */
async function preparePeriod(deps: PostingDeps, req: PostRequest): Promise<PostOutcome | { request: OnceRequest; same: PostingRow | undefined }> {
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
  const request: OnceRequest = {
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
  };
  return { request, same };
}

/** What posting one subsidiary-period of `postPeriods` came to: as `postPeriod` answers, or what it would have thrown. */
export type PeriodResult = { ok: true; outcome: PostOutcome } | { ok: false; error: unknown };

/**
 * A run's subsidiary-periods of DIFFERENT subsidiaries posted together: each checked and computed
 * as `postPeriod` does, under every subsidiary's posting lock (taken in one order, so two callers
 * never wait on each other), then the new entries posted in one batch request (postings.ts
 * `postBatch`, at most 30). A period with a pending attempt is resumed on its own (`postOnce`, which
 * resends its batch if it had one); a lone new entry goes as a single post (a batch would spend one
 * of Intuit's 40 batch requests a minute for nothing). Results in the order of `periods`.
 */
export async function postPeriods(deps: PostingDeps, req: Omit<PostRequest, "realmId" | "period">, periods: readonly { realmId: string; period: RunPeriod }[]): Promise<PeriodResult[]> {
  const { database } = deps;
  const realms = periods.map((p) => p.realmId);
  if (new Set(realms).size !== realms.length) throw new RangeError("postPeriods posts one period per subsidiary");
  // A company no longer in the group fails its own period below (`preparePeriod`), not the batch.
  const group = await loadGroup(database.db, req.accountId);
  const locks = [...realms].sort().map((realmId) => ({ key: postingLock(req.accountId, realmId), busy: postingBusy(group.find(realmId)?.companyName ?? realmId) }));
  const locked = locks.reduceRight<() => Promise<PeriodResult[]>>(
    (inner, lock) => () => database.withLock(lock.key, lock.busy, inner),
    async () => {
      const results: (PeriodResult | undefined)[] = periods.map(() => undefined);
      const fresh: { i: number; request: OnceRequest }[] = [];
      for (const [i, p] of periods.entries()) {
        try {
          const prepared = await preparePeriod(deps, { ...req, ...p });
          if ("outcome" in prepared) results[i] = { ok: true, outcome: prepared };
          else if (prepared.same) results[i] = { ok: true, outcome: { outcome: "posted", posting: await postOnce(deps, prepared.request, prepared.same) } };
          else fresh.push({ i, request: prepared.request });
        } catch (error) {
          results[i] = { ok: false, error };
        }
      }
      if (fresh.length === 1) {
        const { i, request } = fresh[0]!;
        results[i] = await postOnce(deps, request).then(
          (posting): PeriodResult => ({ ok: true, outcome: { outcome: "posted", posting } }),
          (error: unknown): PeriodResult => ({ ok: false, error }),
        );
      } else if (fresh.length > 1) {
        for (const [j, result] of (await postBatch(deps, fresh.map((f) => f.request))).entries()) {
          results[fresh[j]!.i] = result.ok ? { ok: true, outcome: { outcome: "posted", posting: result.posting } } : result;
        }
      }
      return results as PeriodResult[];
    },
  );
  return locked();
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
  return deps.database.withLock(postingLock(req.accountId, row.realmId), postingBusy(company.companyName), async () => {
    const [current] = await db.select().from(consolidationPostings).where(eq(consolidationPostings.id, row.id)).limit(1);
    if (current?.status !== "posted") throw errors.conflict("not_posted", `${company.companyName} ${row.periodLabel} is not a posted entry (it is ${current?.status ?? "gone"}).`);
    if (!current.stale) throw errors.conflict("not_changed", `${company.companyName} ${row.periodLabel} has not changed since it was posted; there is nothing to re-post.`);
    await retirePosting(deps, current, parent.realmId, req);
    const period = requestedPeriod(current);
    return postLocked(deps, { accountId: req.accountId, userId: req.userId, realmId: current.realmId, period, runId: req.runId ?? null, ...(req.meta ? { meta: req.meta } : {}) });
  });
}
