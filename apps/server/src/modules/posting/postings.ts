import { and, asc, desc, eq, gte, inArray, lte, type SQL } from "drizzle-orm";
import { CLOSE_THE_BOOKS_SETTING, monthParts } from "@groupledger/domain";
import type { PostingSummary, PostOutcome, RunPeriod } from "@groupledger/contract";
import type { Database, Db } from "../../db/client.ts";
import { companies, consolidationPostings, users } from "../../db/schema.ts";
import { AppError, errors } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import { loadGroup } from "../group/service.ts";
import { askQbo, nullIfNotFound } from "../qbo/errors.ts";
import { MAX_BATCH_ITEMS, type BatchOutcome, type JournalEntry } from "@groupledger/qbo";
import { entriesReferences } from "../qbo/counterparties.ts";
import { ADJUSTMENTS_REALM, batchRequestId, consolidationRequestId, INTERCO_REALM } from "./names.ts";
import {
  type Attempt,
  type AttemptRecord,
  type EntryLine,
  type EntryRequest,
  entryToSend,
  postedEntry,
  postEntry,
  type PostingDeps,
  postingError,
  preparedLines,
  settle,
} from "./protocol.ts";

/**
 * The postings of `consolidation_postings`: a subsidiary-period (runs), the group's eliminations
 * of a period (realm "interco") and its group adjustments (realm "adjustments"), each posted
 * through the protocol (protocol.ts) with one row per attempt: `posting` (pending) → `posted`, or
 * `refused`; later `replaced` or `deleted`. Callers hold the realm's lock (`postingBusy`).
 */

export type PostingRow = typeof consolidationPostings.$inferSelect;
type Period = { kind: PostingRow["periodKind"]; from: string; to: string; label: string };
type Deps = PostingDeps;

/**
 * Who posts or replaces an entry: a user (with the request's address and id, for the audit log), or
 * nobody when a setting approved it in advance (the nightly replacement, modules/reconsolidation);
 * `runId` ties the entry to the run that posted it.
 */
export interface Poster {
  accountId: string;
  userId: string | null;
  runId?: string | null;
  meta?: { ip?: string; requestId?: string };
}

/** The period a posting covers as it is asked for again (re-posting, re-computing): its kind and last month. */
export function requestedPeriod(row: Pick<PostingRow, "periodKind" | "periodTo">): RunPeriod {
  const { year, month } = monthParts(row.periodTo);
  return { kind: row.periodKind, year, month };
}

/** What a request that waited too long for a posting lock is told is in progress (db/locks.ts). */
export const postingBusy = (what: string) => `Another posting of ${what} is in progress`;
/** The lock every posting of a realm's entries holds (a subsidiary's, the eliminations', the group adjustments'). */
export const postingLock = (accountId: string, realmId: string) => `consolidation-post:${accountId}:${realmId}`;

/** The conditions that pick a realm's postings: all of them, or those over exactly `period`. */
export function realmPostings(accountId: string, realmId: string, period?: { from: string; to: string }): SQL[] {
  return [
    eq(consolidationPostings.accountId, accountId),
    eq(consolidationPostings.realmId, realmId),
    ...(period ? [eq(consolidationPostings.periodFrom, period.from), eq(consolidationPostings.periodTo, period.to)] : []),
  ];
}

/** Live (posting or posted) entries of a realm that overlap the period; `same` covers exactly it. */
export async function livePostings(database: Database, accountId: string, realmId: string, period: Period) {
  const live = await database.db
    .select()
    .from(consolidationPostings)
    .where(
      and(
        ...realmPostings(accountId, realmId),
        inArray(consolidationPostings.status, ["posting", "posted"]),
        lte(consolidationPostings.periodFrom, period.to),
        gte(consolidationPostings.periodTo, period.from),
      ),
    );
  const same = live.find((p) => p.periodFrom === period.from && p.periodTo === period.to);
  return { same, other: live.find((p) => p !== same) };
}

export interface OnceRequest {
  accountId: string;
  userId: string | null;
  realmId: string;
  period: Period;
  docNumber: string;
  txnDate: string;
  lines: EntryLine[];
  /** The audit trail kept with the posting. */
  inputs: Record<string, unknown>;
  runId?: string | null;
  parent: { realmId: string; homeCurrency: string; companyName: string; bookCloseDate: string | null };
  className: string;
  /** Whose receivables and payables the lines on A/R and A/P accounts carry (qbo/counterparties.ts). */
  counterparty: string;
  privateNote: string;
  description: string;
  auditAction: string;
  meta?: { ip?: string; requestId?: string };
}

type RowAttempt = Attempt & { row: PostingRow };

/** A new attempt of `req` as its row is written, pending, before anything is sent: its generation's requestid. */
const pendingRow = (req: OnceRequest, lines: readonly EntryLine[], generation: number) => ({
  accountId: req.accountId,
  realmId: req.realmId,
  periodKind: req.period.kind,
  periodFrom: req.period.from,
  periodTo: req.period.to,
  periodLabel: req.period.label,
  status: "posting" as const,
  generation,
  docNumber: req.docNumber,
  requestId: consolidationRequestId(req.accountId, req.realmId, req.period, generation),
  lines: [...lines],
  inputs: req.inputs,
  runId: req.runId ?? null,
  postedBy: req.userId,
});

/** The attempts of one realm-period as rows; `same`: its pending row from an earlier attempt, resumed. */
function postingRows(database: Database, req: OnceRequest, same: PostingRow | undefined): AttemptRecord<RowAttempt, PostingRow> {
  const { db } = database;
  const attemptOf = (row: PostingRow, fresh: boolean): RowAttempt => ({ row, requestId: row.requestId, docNumber: row.docNumber, lines: row.lines, fresh });
  return {
    async begin(lines) {
      if (same) return attemptOf(same, false);
      const [last] = await db
        .select({ generation: consolidationPostings.generation })
        .from(consolidationPostings)
        .where(and(...realmPostings(req.accountId, req.realmId, req.period)))
        .orderBy(desc(consolidationPostings.generation))
        .limit(1);
      const generation = last ? last.generation + 1 : 0;
      const [row] = (await db.insert(consolidationPostings).values(pendingRow(req, lines, generation)).returning()) as [PostingRow];
      return attemptOf(row, true);
    },
    async posted({ row }, entry) {
      const [posted] = (await db
        .update(consolidationPostings)
        .set({ status: "posted", journalEntryId: entry.id, journalEntryUrl: entry.url, postedAt: new Date(), updatedAt: new Date() })
        .where(eq(consolidationPostings.id, row.id))
        .returning()) as [PostingRow];
      return posted;
    },
    async refused({ row }) {
      // The row stays, marked refused, so the next attempt takes a new generation and requestid.
      await db.update(consolidationPostings).set({ status: "refused", updatedAt: new Date() }).where(eq(consolidationPostings.id, row.id));
    },
    async abandon({ row }) {
      await db.delete(consolidationPostings).where(eq(consolidationPostings.id, row.id));
    },
  };
}

/**
 * Posts a realm-period's entry exactly once (protocol.ts); `same` is its live row, if any (`livePostings`).
 * A pending `same` that was sent in a batch request is resumed by sending that batch again (`resumeBatch`),
 * never by a create of its own: QuickBooks may hold it already, under the batch's requestid only.
 */
export function postOnce(deps: Deps, req: OnceRequest, same?: PostingRow): Promise<PostingRow> {
  if (same?.status === "posting" && same.batchRequestId !== null) return resumeBatch(deps, same);
  return postEntry(deps, postingRows(deps.database, req, same), entryRequest(req));
}

/** A posting as the protocol takes it: its words (closed books, refusals) and its audit. */
function entryRequest(req: OnceRequest): EntryRequest<RowAttempt> {
  return {
    parent: req.parent,
    lines: req.lines,
    txnDate: req.txnDate,
    className: req.className,
    counterparty: req.counterparty,
    privateNote: req.privateNote,
    description: req.description,
    what: `entry ${req.docNumber} (${req.period.label})`,
    instead: "post a later period",
    audit: {
      action: req.auditAction,
      accountId: req.accountId,
      userId: req.userId,
      details: ({ row }, journalEntryId) => ({ realmId: req.realmId, period: req.period.label, journalEntryId, postingId: row.id, runId: req.runId ?? null }),
      ...(req.meta ? { meta: req.meta } : {}),
    },
  };
}

/** What posting one entry of a batch came to: its posted row, or the error a single post would have thrown. */
export type BatchResult = { ok: true; posting: PostingRow } | { ok: false; error: unknown };

/**
 * A run's entries of several realms posted in ONE of QuickBooks' batch requests (at most 30), with
 * the same exactly-once guarantee as a single post (protocol.ts), so a run of 588 entries needs 20
 * requests into the parent instead of 588 (Intuit's 500 a minute; ARCHITECTURE.md, "Batch posting"):
 *
 * 1. Each entry as a single post prepares it: closed books refused, lines onto home-currency
 *    accounts; the class and names of all of them looked up together (and created when missing).
 *    An entry failing here fails alone; nothing of it is written or sent.
 * 2. Record first: every attempt is written as pending (a new generation each) in ONE insert, with
 *    the batch's requestid, its place in the batch (the bId) and the entry exactly as it is sent.
 * 3. One batch request under that requestid. Each entry's answer is recorded by its bId: made →
 *    posted and audited; a Fault → refused (QuickBooks made nothing of that entry and replays the
 *    Fault to the requestid, so the next attempt is a new generation), failed with the words of a
 *    single post. No usable answer (throttled, an outage, a crash) leaves every row pending.
 * 4. A pending row of a batch is only ever resumed by sending the whole batch again from its rows
 *    (`resumeBatch`, through `postOnce`, whoever resumes it): same entries, same bIds, same requestid.
 *
 * Callers hold every realm's lock (the run's `postPeriods`); the realm-periods are distinct and none
 * has a live row. Results are in the order of `reqs`.
 */
export async function postBatch(deps: Deps, reqs: readonly OnceRequest[]): Promise<BatchResult[]> {
  if (reqs.length > MAX_BATCH_ITEMS) throw new RangeError(`a batch posts at most ${MAX_BATCH_ITEMS} entries (got ${reqs.length})`);
  const { db } = deps.database;
  const results: (BatchResult | undefined)[] = reqs.map(() => undefined);
  const ready: { i: number; req: OnceRequest; lines: readonly EntryLine[] }[] = [];
  for (const [i, req] of reqs.entries()) {
    try {
      ready.push({ i, req, lines: await preparedLines(deps, entryRequest(req)) });
    } catch (error) {
      results[i] = { ok: false, error };
    }
  }
  if (ready.length > 0) {
    const parentRealmId = ready[0]!.req.parent.realmId;
    const client = deps.provider.client(parentRealmId);
    let references;
    try {
      references = await entriesReferences(
        db,
        client,
        parentRealmId,
        ready.map(({ req, lines }) => ({ className: req.className, accountIds: lines.map((l) => l.account), owner: req.counterparty })),
        deps.references,
      );
    } catch (e) {
      deps.references?.clear();
      for (const { i, req } of ready) results[i] = { ok: false, error: postingError(entryRequest(req), e, true) };
      return results as BatchResult[];
    }
    const generations = await nextGenerations(deps.database, ready.map(({ req }) => req));
    const batchId = batchRequestId(ready.map(({ req }, j) => consolidationRequestId(req.accountId, req.realmId, req.period, generations[j]!)));
    const rows = (await db
      .insert(consolidationPostings)
      .values(
        ready.map(({ req, lines }, j) => ({
          ...pendingRow(req, lines, generations[j]!),
          batchRequestId: batchId,
          batchIndex: j,
          batchEntry: entryToSend(req, { docNumber: req.docNumber, lines }, references[j]!),
        })),
      )
      .returning()) as PostingRow[];
    rows.sort((a, b) => a.batchIndex! - b.batchIndex!);
    const byRow = await sendBatch(deps, ready[0]!.req.parent, rows, true, ready[0]!.req.meta);
    for (const [j, { i }] of ready.entries()) results[i] = byRow.get(rows[j]!.id)!;
  }
  return results as BatchResult[];
}

/** The next generation of each realm-period (one query for all of them). */
async function nextGenerations(database: Database, reqs: readonly OnceRequest[]): Promise<number[]> {
  const accountId = reqs[0]!.accountId;
  const rows = await database.db
    .select({ realmId: consolidationPostings.realmId, from: consolidationPostings.periodFrom, to: consolidationPostings.periodTo, generation: consolidationPostings.generation })
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.accountId, accountId), inArray(consolidationPostings.realmId, [...new Set(reqs.map((r) => r.realmId))])));
  return reqs.map((req) => {
    const own = rows.filter((r) => r.realmId === req.realmId && r.from === req.period.from && r.to === req.period.to);
    return own.length ? Math.max(...own.map((r) => r.generation)) + 1 : 0;
  });
}

/**
 * Sends a pending row's batch again, every row of it in bId order under its requestid, so
 * QuickBooks answers what it answered the first time (or, if the batch never reached it, makes
 * the entries now); records the answers of the rows still pending. The row's own result.
 */
async function resumeBatch(deps: Deps, row: PostingRow): Promise<PostingRow> {
  const { db } = deps.database;
  const rows = await db
    .select()
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.accountId, row.accountId), eq(consolidationPostings.batchRequestId, row.batchRequestId!)))
    .orderBy(asc(consolidationPostings.batchIndex));
  // Another resumption of the batch may have recorded this row since the caller read it.
  const current = rows.find((r) => r.id === row.id);
  if (current?.status === "posted") return current;
  if (current?.status !== "posting") throw errors.conflict("posting_settled", `Entry ${row.docNumber} (${row.periodLabel}) was ${current?.status ?? "removed"} meanwhile; post it again.`);
  const parent = (await loadGroup(db, row.accountId)).requireParent();
  const result = (await sendBatch(deps, parent, rows, false)).get(row.id)!;
  if (!result.ok) throw result.error;
  return result.posting;
}

/** Each row's words for errors and its audit, from the row alone (a resumed batch has nothing else). */
function rowEntry(row: PostingRow, parent: OnceRequest["parent"], meta?: OnceRequest["meta"]) {
  return {
    parent,
    txnDate: row.batchEntry!.txnDate,
    what: `entry ${row.docNumber} (${row.periodLabel})`,
    audit: {
      action: "consolidation.posted",
      accountId: row.accountId,
      userId: row.postedBy,
      details: (_: RowAttempt, journalEntryId: string) => ({ realmId: row.realmId, period: row.periodLabel, journalEntryId, postingId: row.id, runId: row.runId }),
      ...(meta ? { meta } : {}),
    },
  };
}

/**
 * Steps 3 and 5 for a batch's rows (all of them, in bId order): one batch request under their
 * requestid, each answer recorded on its row while the row is still pending (a row recorded before a
 * crash keeps what it has, and has no result here). `fresh`: the rows were written for this request,
 * never sent before.
 */
async function sendBatch(deps: Deps, parent: OnceRequest["parent"], rows: readonly PostingRow[], fresh: boolean, meta?: OnceRequest["meta"]): Promise<Map<string, BatchResult>> {
  const { db } = deps.database;
  const record = batchRowRecord(db);
  const attemptOf = (row: PostingRow): RowAttempt => ({ row, requestId: row.batchRequestId!, docNumber: row.docNumber, lines: row.lines, fresh });
  const results = new Map<string, BatchResult>();
  const pending = rows.filter((row) => row.status === "posting");
  let answers: BatchOutcome<JournalEntry>[];
  try {
    answers = await deps.provider.client(parent.realmId).createJournalEntries(
      rows.map((row) => row.batchEntry!),
      rows[0]!.batchRequestId!,
    );
  } catch (e) {
    // The whole request failed: refused (nothing made), turned away unread, or no usable answer.
    deps.references?.clear();
    for (const row of pending) results.set(row.id, { ok: false, error: postingError(rowEntry(row, parent), e, await settle(record, attemptOf(row), e, true)) });
    return results;
  }
  for (const [j, row] of rows.entries()) {
    const answer = answers[j]!;
    if (row.status !== "posting") continue;
    if (answer.ok) {
      results.set(row.id, { ok: true, posting: await postedEntry(deps, record, rowEntry(row, parent, meta), attemptOf(row), answer.value) });
    } else {
      // QuickBooks made nothing of this entry and answers its bId with the same Fault for ever.
      deps.references?.clear();
      await record.refused(attemptOf(row));
      results.set(row.id, { ok: false, error: postingError(rowEntry(row, parent), answer.error, true) });
    }
  }
  return results;
}

/** A batch row's outcomes; each only while the row is still pending, so recording twice changes nothing. */
function batchRowRecord(db: Db): Pick<AttemptRecord<RowAttempt, PostingRow>, "posted" | "refused" | "abandon"> {
  const pending = (row: PostingRow) => and(eq(consolidationPostings.id, row.id), eq(consolidationPostings.status, "posting"));
  return {
    async posted({ row }, entry) {
      const [posted] = await db
        .update(consolidationPostings)
        .set({ status: "posted", journalEntryId: entry.id, journalEntryUrl: entry.url, postedAt: new Date(), updatedAt: new Date() })
        .where(pending(row))
        .returning();
      return posted ?? (await db.select().from(consolidationPostings).where(eq(consolidationPostings.id, row.id)))[0]!;
    },
    async refused({ row }) {
      await db.update(consolidationPostings).set({ status: "refused", updatedAt: new Date() }).where(pending(row));
    },
    async abandon({ row }) {
      await db.delete(consolidationPostings).where(pending(row));
    },
  };
}

/**
 * A group entry of a period (intercompany eliminations, group adjustments), posted once: the same
 * period already posted is a duplicate; an overlapping one, problems or nothing to post are 409s in
 * words; otherwise postOnce under the entry's class. Callers hold the realm's lock.
 */
export async function postGroupEntry(
  deps: Deps,
  req: {
    accountId: string;
    userId: string | null;
    runId?: string | null;
    realmId: string;
    /** Plural, lower case: "eliminations", "group adjustments". */
    what: string;
    view: { period: Period; ok: boolean; problems: { code: string; message: string }[]; entry: { docNumber: string; txnDate: string; lines: EntryLine[] } | null };
    /** Why there is no entry at all (nothing defined yet), as opposed to nothing changed. */
    nothingDefined: string | null;
    post: Pick<OnceRequest, "inputs" | "className" | "counterparty" | "privateNote" | "description" | "auditAction" | "meta">;
  },
): Promise<{ outcome: "posted" | "duplicate"; posting: PostingRow }> {
  const { view, what } = req;
  const p = view.period;
  const { same, other } = await livePostings(deps.database, req.accountId, req.realmId, p);
  if (same?.status === "posted") return { outcome: "duplicate", posting: same };
  const What = `${what.charAt(0).toUpperCase()}${what.slice(1)}`;
  if (other) throw new AppError(409, "period_overlaps_posting", `${What} for ${other.periodLabel} are already posted, which overlaps ${p.label}; post the remaining months on their own instead.`);
  if (!view.ok) throw new AppError(409, "posting_blocked", `The ${what} for ${p.label} cannot be posted: ${view.problems[0]?.message ?? "they do not compute."}`, { problems: view.problems });
  if (!view.entry) throw new AppError(409, "nothing_to_post", req.nothingDefined ?? `Nothing changes in ${p.label}: there is no ${what.replace(/s$/, "")} entry to post.`);
  const parent = (await loadGroup(deps.database.db, req.accountId)).requireParent();
  const posting = await postOnce(
    deps,
    {
      accountId: req.accountId,
      userId: req.userId,
      runId: req.runId ?? null,
      realmId: req.realmId,
      period: p,
      docNumber: view.entry.docNumber,
      txnDate: view.entry.txnDate,
      lines: view.entry.lines,
      parent,
      ...req.post,
    },
    same,
  );
  return { outcome: "posted", posting };
}

/**
 * The first half of replacing a changed posting (runs, group adjustments): the old entry is deleted
 * in the parent's QuickBooks (gone already is fine) and the row marked replaced, audited with the
 * changes the user approved. The caller then posts the period again (a new generation, so a new
 * requestid), under its lock.
 */
export async function retirePosting(
  deps: Deps,
  current: PostingRow,
  parentRealmId: string,
  req: Poster,
): Promise<void> {
  const { db } = deps.database;
  const client = deps.provider.client(parentRealmId);
  if (current.journalEntryId) {
    const journalEntryId = current.journalEntryId;
    // Marked before the call: QuickBooks may tell the parent's webhook of the Delete before the row
    // below is marked replaced, and the handler must know it as GroupLedger's (webhooks/own-entries.ts).
    await db.update(consolidationPostings).set({ retiringAt: new Date() }).where(eq(consolidationPostings.id, current.id));
    try {
      await askQbo(
        {
          subject: "parent",
          then: "post again",
          closedBooks: () =>
            `QuickBooks refused to delete the old entry ${current.docNumber} (${current.periodLabel}): the parent's books are closed on its date (Account Period Closed), so it cannot be replaced. Move the closing date before it in QuickBooks (${CLOSE_THE_BOOKS_SETTING}), sync the parent and replace it again. Nothing was changed.`,
          unavailable: (e) => `QuickBooks could not delete the old entry ${journalEntryId} (${e.message}); nothing was changed.`,
        },
        async () => {
          const existing = await client.readJournalEntry(journalEntryId).catch(nullIfNotFound);
          if (existing) await client.deleteJournalEntry(existing.id, existing.syncToken);
        },
      );
    } catch (e) {
      // Refused, or not known to have happened: the entry is still GroupLedger's live one, and a
      // Delete of it from now on is a user's to tell of.
      await db.update(consolidationPostings).set({ retiringAt: null }).where(eq(consolidationPostings.id, current.id));
      throw e;
    }
  }
  await db.update(consolidationPostings).set({ status: "replaced", updatedAt: new Date() }).where(eq(consolidationPostings.id, current.id));
  await audit(db, {
    action: "consolidation.replaced",
    accountId: req.accountId,
    userId: req.userId,
    details: { postingId: current.id, journalEntryId: current.journalEntryId, changes: current.stale?.changes ?? [], runId: req.runId ?? null },
    ...req.meta,
  });
}

/**
 * Replacing a group entry (eliminations, group adjustments) whose inputs changed, after the user
 * approved the differences: under the entry's lock the row must still be posted and flagged; the
 * old entry is retired (retirePosting), then `postAgain` posts the period from what it gives now.
 * Later posted periods may then differ too; they are flagged in turn.
 */
export async function replaceGroupEntry(
  deps: Deps,
  caller: Poster,
  req: {
    realmId: string;
    postingId: string;
    /** Capitalised and plural: "Eliminations", "Group adjustments". */
    what: string;
    lock: string;
    busy: string;
    postAgain: (period: RunPeriod) => Promise<{ outcome: "posted" | "duplicate"; posting: PostingRow }>;
  },
): Promise<{ outcome: "posted" | "duplicate"; posting: PostingRow }> {
  const { db } = deps.database;
  const [row] = await db
    .select()
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.id, req.postingId), eq(consolidationPostings.accountId, caller.accountId), eq(consolidationPostings.realmId, req.realmId)))
    .limit(1);
  if (!row) throw errors.notFound(`No such ${req.what.toLowerCase()} entry in your account.`);
  const parent = (await loadGroup(db, caller.accountId)).requireParent();
  return deps.database.withLock(req.lock, req.busy, async () => {
    const [current] = await db.select().from(consolidationPostings).where(eq(consolidationPostings.id, row.id)).limit(1);
    if (current?.status !== "posted") throw errors.conflict("not_posted", `${req.what} ${row.periodLabel} are not a posted entry (it is ${current?.status ?? "gone"}).`);
    if (!current.stale) throw errors.conflict("not_changed", `${req.what} ${row.periodLabel} have not changed since they were posted; there is nothing to re-post.`);
    await retirePosting(deps, current, parent.realmId, caller);
    return req.postAgain(requestedPeriod(current));
  });
}

/** Whose entries a realm's postings are, in words: the company's name, or the group entries'. */
export const realmName = (companyNames: ReadonlyMap<string, string>, realmId: string): string =>
  realmId === INTERCO_REALM ? "Intercompany eliminations" : realmId === ADJUSTMENTS_REALM ? "Group adjustments" : (companyNames.get(realmId) ?? realmId);

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
      companyName: realmName(names, r.realmId),
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

/** The entry posted for a realm over exactly this period, as the API shows it, or null. */
export async function postedFor(db: Db, accountId: string, realmId: string, period: { from: string; to: string }): Promise<PostingSummary | null> {
  const [live] = await db
    .select()
    .from(consolidationPostings)
    .where(and(...realmPostings(accountId, realmId, period), eq(consolidationPostings.status, "posted")))
    .limit(1);
  return live ? ((await summarize(db, [live]))[0] ?? null) : null;
}

/** The answer to a post or a re-post: its outcome and the entry, as the API shows it. */
export async function outcomeOf(db: Db, result: { outcome: "posted" | "duplicate"; posting: PostingRow }): Promise<PostOutcome> {
  const [posting] = await summarize(db, [result.posting]);
  return { outcome: result.outcome, posting: posting! };
}
