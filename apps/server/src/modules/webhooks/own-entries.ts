import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, gt, inArray, isNotNull } from "drizzle-orm";
import type { QboWebhookPayload } from "@groupledger/contract";
import type { Database } from "../../db/client.ts";
import { consolidationPostings, obalCompanies } from "../../db/schema.ts";

type Entity = NonNullable<QboWebhookPayload["eventNotifications"][number]["dataChangeEvent"]>["entities"][number];

/** How long a notification waits for postings under way to record their entry's id (Intuit wants its answer within 3 s). */
export const OWN_ENTRY_WAIT_MS = 2500;
const RECHECK_MS = 50;
/** A pending posting (written before its create call) older than this is not the one under way now. */
const IN_FLIGHT_MS = 120_000;

/**
 * Whether a parent's notification tells only of GroupLedger's own doing, which its sync need not
 * read: every entity a JournalEntry Create of an entry GroupLedger posted (a run's, an elimination's
 * or a group adjustment's in `consolidation_postings`, an opening entry in `obal_companies`), or a
 * JournalEntry Delete of one it retired (replaced or deleted). Those are already accounted for: the
 * parent's sync subtracts what GroupLedger's classes hold (sync/own-books.ts), and the postings
 * themselves are GroupLedger's records. Anything else (a user's Update or Delete of one of them, a
 * Delete of an entry still posted, any other entity, an entry not known as GroupLedger's) says the
 * parent's own books may have moved: false, and its sync is queued as for any change.
 *
 * Matching is by the entry's id, the only thing the notification names (Intuit sends the name, id,
 * operation and time; its DocNumber or the requestid it was made with would take a read of every
 * entry named, a call per notification, to learn). The id is what QuickBooks answered the create
 * call with, recorded on the posting row once that answer is in (posting/protocol.ts writes the
 * row first, as pending, then calls). QuickBooks sends the notification only after it has made the
 * entry, so a Create of an id not known yet while one of this group's postings is under way (a
 * pending row written in the last two minutes) is most likely that posting's answer not recorded
 * yet: it is looked up again every 50 ms for up to 2.5 s, and the entry counts as GroupLedger's only
 * once a row carries its id. A pending row is never taken as the match by itself: a user's entry
 * made meanwhile must still sync. Past the wait (a posting that crashed after QuickBooks accepted it
 * stays pending until it is retried) the sync is queued: one sync too many, never one missed.
 * A replacement's Delete may also come before the row is marked replaced: the row carries
 * `retiring_at` from just before the delete call (cleared if QuickBooks refuses), and a Delete of an
 * entry retiring in the last two minutes is GroupLedger's.
 *
 * Postings do not record which realm they went into; like Verify, this takes them as entries of the
 * group's current parent, where every posting goes.
 */
export async function onlyOwnEntries(database: Database, company: { accountId: string; isParent: boolean }, entities: readonly Entity[]): Promise<boolean> {
  if (!company.isParent || entities.length === 0) return false;
  return ownDoingOnly(entities, {
    known: (ids) => ownEntries(database, company.accountId, ids),
    underWay: () => postingUnderWay(database, company.accountId),
  });
}

/** What `ownDoingOnly` reads: the entries among `ids` GroupLedger knows, and whether a posting is under way. */
export interface OwnEntryReads {
  known(ids: readonly string[]): Promise<Map<string, Standing>>;
  underWay(): Promise<boolean>;
}

/**
 * The decision of `onlyOwnEntries` over its two reads. A posting records its entry's id and stops
 * being pending in one write, which may land between the two reads: ids unknown, then no posting
 * under way. So when none is under way the ids are read once more before the answer is no: that
 * posting's id is recorded by then (its row was pending before QuickBooks made the entry it tells of).
 */
export async function ownDoingOnly(entities: readonly Entity[], reads: OwnEntryReads, waitMs = OWN_ENTRY_WAIT_MS): Promise<boolean> {
  if (!entities.every((e) => e.name === "JournalEntry" && (e.operation === "Create" || e.operation === "Delete"))) return false;
  const ids = [...new Set(entities.map((e) => e.id))];
  const deadline = Date.now() + waitMs;
  let lastLook = false;
  for (;;) {
    const known = await reads.known(ids);
    const ours = (e: Entity) => (e.operation === "Create" ? known.has(e.id) : known.get(e.id) === "retired" || known.get(e.id) === "retiring");
    if (entities.every((e) => ours(e) || e.operation !== "Create")) return entities.every(ours);
    if (lastLook || Date.now() >= deadline) return false;
    if (await reads.underWay()) await sleep(RECHECK_MS);
    else lastLook = true;
  }
}

export type Standing = "live" | "retiring" | "retired";

/** The entries among `ids` that GroupLedger posted for the account: live, being deleted by it, or retired by it. */
async function ownEntries(database: Database, accountId: string, ids: readonly string[]): Promise<Map<string, Standing>> {
  const { db } = database;
  const since = Date.now() - IN_FLIGHT_MS;
  const [postings, openings] = await Promise.all([
    db
      .select({ id: consolidationPostings.journalEntryId, status: consolidationPostings.status, retiringAt: consolidationPostings.retiringAt })
      .from(consolidationPostings)
      .where(and(eq(consolidationPostings.accountId, accountId), inArray(consolidationPostings.journalEntryId, [...ids]))),
    db
      .select({ id: obalCompanies.journalEntryId })
      .from(obalCompanies)
      .where(and(eq(obalCompanies.accountId, accountId), inArray(obalCompanies.journalEntryId, [...ids]))),
  ]);
  const known = new Map<string, Standing>();
  const standing = (p: (typeof postings)[number]): Standing =>
    p.status === "replaced" || p.status === "deleted" ? "retired" : p.retiringAt && p.retiringAt.getTime() > since ? "retiring" : "live";
  for (const o of openings) if (o.id) known.set(o.id, "live");
  for (const p of postings) if (p.id) known.set(p.id, standing(p));
  return known;
}

/** A posting of the account written as pending recently: its create call may be under way. */
async function postingUnderWay(database: Database, accountId: string): Promise<boolean> {
  const { db } = database;
  const since = new Date(Date.now() - IN_FLIGHT_MS);
  const [posting] = await db
    .select({ id: consolidationPostings.id })
    .from(consolidationPostings)
    .where(and(eq(consolidationPostings.accountId, accountId), eq(consolidationPostings.status, "posting"), gt(consolidationPostings.createdAt, since)))
    .limit(1);
  if (posting) return true;
  const [opening] = await db
    .select({ realmId: obalCompanies.realmId })
    .from(obalCompanies)
    .where(and(eq(obalCompanies.accountId, accountId), isNotNull(obalCompanies.postingRequestId), gt(obalCompanies.postingStartedAt, since)))
    .limit(1);
  return opening !== undefined;
}
