import { and, desc, eq, gt } from "drizzle-orm";
import type { RunPeriod } from "@groupledger/contract";
import { consolidationPostings } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";
import { AdjustmentService } from "../adjustments/service.ts";
import { postEliminations, replaceEliminations } from "../eliminations/service.ts";
import { ADJUSTMENTS_REALM, INTERCO_REALM } from "../posting/names.ts";
import { realmPostings, requestedPeriod, type Poster, type PostingRow } from "../posting/postings.ts";
import type { PostingDeps } from "../posting/protocol.ts";
import { postPeriod, replacePosting } from "../runs/post.ts";

type Posted = { outcome: "posted" | "duplicate"; posting: { id: string; docNumber: string; runId: string | null } };

/** How a realm's entries are replaced and posted: a subsidiary's periods, the eliminations, the group adjustments. */
interface Replacer {
  /** Deletes the changed entry in QuickBooks and posts its period again (under the realm's lock). */
  replace(poster: Poster, postingId: string): Promise<Posted>;
  /** Posts the period (a pending attempt is resumed; one already posted is a duplicate). */
  post(poster: Poster, period: RunPeriod): Promise<Posted>;
}

function replacerFor(deps: PostingDeps, realmId: string): Replacer {
  if (realmId === INTERCO_REALM) {
    return { replace: (p, id) => replaceEliminations(deps, p, id), post: (p, period) => postEliminations(deps, p, period) };
  }
  if (realmId === ADJUSTMENTS_REALM) {
    const adjustments = new AdjustmentService(deps);
    return { replace: (p, id) => adjustments.replace(p, id), post: (p, period) => adjustments.post(p, period) };
  }
  return {
    replace: (p, id) => replacePosting(deps, { ...p, postingId: id }),
    post: (p, period) => postPeriod(deps, { ...p, realmId, period }),
  };
}

/** What an item of a run did, as the item records it. */
export type ReplaceOutcome = { status: "posted" | "skipped"; postingId: string | null; message: string | null };

/**
 * One item of a replace run (runs/job.ts): the approved changed posting `postingId` is replaced,
 * and however often the item is started again (a restart, a retry after an outage) the period
 * ends posted once:
 *
 * - still posted and still changed → replaced (its realm's replace: delete, then post again);
 * - still posted but no longer changed (the books came back) → skipped, left as posted;
 * - already retired → this run retired it and was cut off before (or while) posting again: the
 *   period is posted, resuming a pending attempt; an entry this run already posted is the
 *   duplicate it finds. If someone else posted the period since, that is their entry: skipped.
 */
export async function replaceItem(deps: PostingDeps, poster: Poster & { runId: string }, postingId: string): Promise<ReplaceOutcome> {
  const { db } = deps.database;
  const read = async () =>
    (await db.select().from(consolidationPostings).where(and(eq(consolidationPostings.id, postingId), eq(consolidationPostings.accountId, poster.accountId))).limit(1))[0];
  let row = await read();
  if (!row) return { status: "skipped", postingId: null, message: "The entry is no longer in the account." };
  const replacer = replacerFor(deps, row.realmId);
  if (row.status === "posted") {
    if (!row.stale) return { status: "skipped", postingId: row.id, message: `No longer differs from the books: entry ${row.docNumber} is left as posted.` };
    try {
      return replaced(row, await replacer.replace(poster, row.id), poster.runId);
    } catch (e) {
      // Replaced or unflagged under the lock between our read and the replace: look again below.
      if (!(e instanceof AppError && (e.code === "not_posted" || e.code === "not_changed"))) throw e;
      row = (await read())!;
      if (row.status === "posted") return { status: "skipped", postingId: row.id, message: `No longer differs from the books: entry ${row.docNumber} is left as posted.` };
    }
  }
  if (row.status !== "replaced") return { status: "skipped", postingId: row.id, message: `Entry ${row.docNumber} was ${row.status} meanwhile; nothing to replace.` };
  const later = await latestAfter(deps, row);
  if (later && later.runId !== poster.runId && later.status !== "refused") {
    return { status: "skipped", postingId: later.id, message: `Already replaced outside this run (entry ${later.docNumber}, ${later.status}).` };
  }
  return replaced(row, await replacer.post(poster, requestedPeriod(row)), poster.runId);
}

/** The newest attempt of the same realm-period after `row` (a later generation), if any. */
async function latestAfter(deps: PostingDeps, row: PostingRow): Promise<PostingRow | undefined> {
  const [latest] = await deps.database.db
    .select()
    .from(consolidationPostings)
    .where(and(...realmPostings(row.accountId, row.realmId, { from: row.periodFrom, to: row.periodTo }), gt(consolidationPostings.generation, row.generation)))
    .orderBy(desc(consolidationPostings.generation))
    .limit(1);
  return latest;
}

function replaced(old: PostingRow, result: Posted, runId: string): ReplaceOutcome {
  const mine = result.outcome === "posted" || result.posting.runId === runId;
  return mine
    ? { status: "posted", postingId: result.posting.id, message: `Entry ${old.docNumber} replaced by ${result.posting.docNumber}.` }
    : { status: "skipped", postingId: result.posting.id, message: `Already replaced outside this run (entry ${result.posting.docNumber}).` };
}
