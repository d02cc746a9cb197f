import { and, desc, eq, gte, inArray, lte } from "drizzle-orm";
import { closedBooksReason, closedBooksRefusal } from "@groupledger/domain";
import { QboError } from "@groupledger/qbo";
import type { Database } from "../../db/client.ts";
import { consolidationPostings } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { loadGroup } from "../group/service.ts";
import { REAUTHORIZE_PARENT_MESSAGE } from "../obal/posting.ts";
import { classFor } from "../qbo/classes.ts";
import { counterpartiesFor } from "../qbo/counterparties.ts";
import { consolidationRequestId } from "./entry.ts";

/**
 * Posting an entry into the parent's QBO exactly once, for a subsidiary-period (runs) or the
 * group's eliminations of a period (realm "interco"). Callers hold the per-realm lock.
 *
 * - A row in state 'posting' is written BEFORE QuickBooks is called, with the requestid derived
 *   from (account, realm, period, generation). If the process dies or the call times out after
 *   QuickBooks created the entry, the next attempt finds that row and sends the same requestid,
 *   and QuickBooks answers with the entry it already made instead of a second one.
 * - A definite refusal (validation, 3200) deletes the row: nothing was posted, state unchanged.
 * - Throttling, 5xx or a dropped connection keep the row: the outcome is unknown until retried.
 */

export type PostingRow = typeof consolidationPostings.$inferSelect;

/** Eliminations post under this "realm" in the postings table (they belong to no one company). */
export const INTERCO_REALM = "interco";
/** Group adjustments (modules/adjustments) likewise. */
export const ADJUSTMENTS_REALM = "adjustments";
type Period = { kind: PostingRow["periodKind"]; from: string; to: string; label: string };
type Line = { account: string; name: string; debit: number; credit: number };

/** Live (posting or posted) entries of a realm that overlap the period; `same` covers exactly it. */
export async function livePostings(database: Database, accountId: string, realmId: string, period: Period) {
  const live = await database.db
    .select()
    .from(consolidationPostings)
    .where(
      and(
        eq(consolidationPostings.accountId, accountId),
        eq(consolidationPostings.realmId, realmId),
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
  lines: Line[];
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

export async function postOnce(deps: { database: Database; provider: QboProvider }, req: OnceRequest, same?: PostingRow): Promise<PostingRow> {
  const { db } = deps.database;
  const what = `entry ${req.docNumber} (${req.period.label})`;
  // Refused before anything is written or sent: QuickBooks would refuse it anyway (6200).
  const closed = closedBooksReason(req.parent, req.txnDate, what, "post a later period");
  if (closed) throw new AppError(409, "books_closed", closed);
  let row = same;
  if (!row) {
    const [last] = await db
      .select({ generation: consolidationPostings.generation })
      .from(consolidationPostings)
      .where(
        and(
          eq(consolidationPostings.accountId, req.accountId),
          eq(consolidationPostings.realmId, req.realmId),
          eq(consolidationPostings.periodFrom, req.period.from),
          eq(consolidationPostings.periodTo, req.period.to),
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
        periodKind: req.period.kind,
        periodFrom: req.period.from,
        periodTo: req.period.to,
        periodLabel: req.period.label,
        status: "posting",
        generation,
        docNumber: req.docNumber,
        requestId: consolidationRequestId(req.accountId, req.realmId, req.period, generation),
        lines: req.lines,
        inputs: req.inputs,
        runId: req.runId ?? null,
        postedBy: req.userId,
      })
      .returning()) as [PostingRow];
  }

  const client = deps.provider.client(req.parent.realmId);
  try {
    const klass = await classFor(client, req.className);
    const names = await counterpartiesFor(db, client, req.parent.realmId, row.lines.map((l) => l.account), req.counterparty);
    const entry = await client.createJournalEntry(
      {
        txnDate: req.txnDate,
        currency: req.parent.homeCurrency,
        docNumber: row.docNumber,
        privateNote: req.privateNote,
        lines: row.lines.map((l) => ({
          postingType: l.debit > 0 ? ("Debit" as const) : ("Credit" as const),
          amount: l.debit > 0 ? l.debit : l.credit,
          accountId: l.account,
          classId: klass.id,
          description: req.description,
          entity: names.get(l.account),
        })),
      },
      row.requestId,
    );
    const [posted] = (await db
      .update(consolidationPostings)
      .set({ status: "posted", journalEntryId: entry.id, journalEntryUrl: deps.provider.journalEntryUrl(req.parent.realmId, entry.id), postedAt: new Date(), updatedAt: new Date() })
      .where(eq(consolidationPostings.id, row.id))
      .returning()) as [PostingRow];
    await audit(db, {
      action: req.auditAction,
      accountId: req.accountId,
      userId: req.userId,
      details: { realmId: req.realmId, period: req.period.label, journalEntryId: entry.id, postingId: row.id, runId: req.runId ?? null },
      ...req.meta,
    });
    return posted;
  } catch (e) {
    if (e instanceof QboError && (e.kind === "reauthorize" || e.kind === "validation" || e.kind === "closed_period" || e.kind === "other")) {
      if (e.status >= 400 && e.status < 500) {
        // QuickBooks answered and refused: nothing was created. The row stays, marked refused, so the
        // next attempt takes a new generation and requestid (QuickBooks would replay this refusal).
        await db.update(consolidationPostings).set({ status: "refused", updatedAt: new Date() }).where(eq(consolidationPostings.id, row.id));
      } else {
        // An answer we could not read (a 2xx without the entry): the same requestid next time, so a
        // created entry is replayed rather than posted twice.
        await db.delete(consolidationPostings).where(eq(consolidationPostings.id, row.id));
      }
      if (e.kind === "closed_period") throw new AppError(409, "books_closed", closedBooksRefusal(req.parent.companyName, req.txnDate, what));
      if (e.kind === "reauthorize") {
        throw new AppError(409, "qbo_reauthorization_required", REAUTHORIZE_PARENT_MESSAGE);
      }
      throw new AppError(502, "qbo_refused", `QuickBooks refused the entry: ${e.message}${e.detail ? ` (${e.detail})` : ""}. Nothing was posted.`);
    }
    if (e instanceof QboError) {
      throw new AppError(502, "qbo_unavailable", `QuickBooks did not answer the posting (${e.message}). Try again: a retry never posts twice.`);
    }
    throw e;
  }
}

/**
 * A group entry of a period (intercompany eliminations, group adjustments), posted once: the same
 * period already posted is a duplicate; an overlapping one, problems or nothing to post are 409s in
 * words; otherwise postOnce under the entry's class. Callers hold the realm's lock.
 */
export async function postGroupEntry(
  deps: { database: Database; provider: QboProvider },
  req: {
    accountId: string;
    userId: string;
    realmId: string;
    /** Plural, lower case: "eliminations", "group adjustments". */
    what: string;
    view: { period: Period; ok: boolean; problems: { code: string; message: string }[]; entry: { docNumber: string; txnDate: string; lines: Line[] } | null };
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
