import { closedBooksReason, closedBooksRefusal } from "@groupledger/domain";
import { QboError, type NamedListItem, type NewJournalEntry } from "@groupledger/qbo";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import { audit } from "../../services/audit.ts";
import type { QboProvider } from "../../services/qbo-provider.ts";
import { entryReferences, type EntryReferences, type ReferenceCache } from "../qbo/counterparties.ts";
import { homeCurrencyLines } from "./foreign-accounts.ts";
import { isRefusal, qboApiError, refusalText } from "../qbo/errors.ts";

/**
 * The one way an entry is posted into the parent's QuickBooks, exactly once: opening balances,
 * subsidiary-periods, eliminations and group adjustments. Callers hold the entry's lock.
 *
 * 1. Books closed on the entry's date (as last synced): 409 `books_closed` before anything is
 *    written or sent.
 * 2. Lines on a foreign-currency account of the parent go to its home-currency counterpart, made
 *    once (foreign-accounts.ts): QuickBooks takes only entries in a GBP account's own currency.
 * 3. Record first: the attempt is written as pending, with the requestid of its generation, before
 *    QuickBooks is called. A pending attempt left by an earlier call (a crash, a time-out, an
 *    outage) is resumed with its own requestid, so whatever QuickBooks already made under it is
 *    answered again instead of made twice.
 * 4. Class and names (looked up in one call, the missing ones created in one more; a run's
 *    `references` keeps them for its later postings), then the create call with that requestid.
 * 5. Accepted → recorded as posted, audited. Then, by what failed:
 *    - QuickBooks refused the entry itself (a 4xx refusal, `isRefusal`: validation, closed books,
 *      a 400 "Object Not Found" for a name, class or account made inactive, …): nothing was made,
 *      and QuickBooks replays a refusal to the same requestid, so the attempt is retired (refused)
 *      and the next one takes a new generation;
 *    - anything before the create call, or a re-authorization (the gateway turns the request away
 *      unread): a new attempt is forgotten (nothing was sent under its requestid); a resumed one
 *      stays pending, since its earlier try may have been accepted;
 *    - no usable answer (throttling, an outage, a dropped connection, a crash after the call):
 *      the attempt stays pending and the next one repeats its requestid.
 *    The failure is answered through the one QuickBooks error mapping (qbo/errors.ts).
 */

export type EntryLine = { account: string; name: string; debit: number; credit: number };

export interface PostingDeps {
  database: Database;
  provider: QboProvider;
  /** A run's: the class and names found for its earlier postings (qbo/counterparties.ts). */
  references?: ReferenceCache | undefined;
}

export interface Attempt {
  requestId: string;
  docNumber: string;
  lines: readonly EntryLine[];
  /** Written by this call; false when resumed from an earlier attempt whose outcome is unknown. */
  fresh: boolean;
}

/** Where an entry's attempts are recorded (postings.ts for `consolidation_postings`, opening.ts for opening balances). */
export interface AttemptRecord<A extends Attempt, Posted> {
  /** The pending attempt (its own lines), or a new one of these lines written as pending (before anything is sent). */
  begin(lines: readonly EntryLine[]): Promise<A>;
  posted(attempt: A, entry: { id: string; url: string }): Promise<Posted>;
  /** QuickBooks refused the entry: the next attempt takes a new generation. */
  refused(attempt: A): Promise<void>;
  /** Nothing was sent under this new attempt's requestid: forget it. */
  abandon(attempt: A): Promise<void>;
}

export interface EntryRequest<A extends Attempt> {
  parent: { realmId: string; homeCurrency: string; companyName: string; bookCloseDate: string | null };
  /** Debit or credit per line, minor units of the parent's currency, accounts of the parent's chart. */
  lines: readonly EntryLine[];
  txnDate: string;
  className: string;
  /** Whose receivables and payables the lines on A/R and A/P accounts carry (qbo/counterparties.ts). */
  counterparty: string;
  privateNote: string;
  description: string;
  /** The entry in words, for the closed-books advice: "entry CR202601-384023 (2026-01)". */
  what: string;
  /** The other way round closed books: "post a later period". */
  instead: string;
  audit: { action: string; accountId: string; userId: string | null; details: (attempt: A, journalEntryId: string) => Record<string, unknown>; meta?: { ip?: string; requestId?: string } };
}

export async function postEntry<A extends Attempt, Posted>(
  deps: PostingDeps,
  record: AttemptRecord<A, Posted>,
  req: EntryRequest<A>,
): Promise<Posted> {
  const { db } = deps.database;
  const lines = await preparedLines(deps, req);
  const attempt = await record.begin(lines);
  const client = deps.provider.client(req.parent.realmId);
  let sent = false;
  let entry: { id: string };
  try {
    const references = await entryReferences(
      db,
      client,
      req.parent.realmId,
      { className: req.className, accountIds: attempt.lines.map((l) => l.account), owner: req.counterparty },
      deps.references,
    );
    sent = true;
    entry = await client.createJournalEntry(entryToSend(req, attempt, references), attempt.requestId);
  } catch (e) {
    // What the cache holds may be what QuickBooks just refused (a name made inactive since).
    deps.references?.clear();
    throw postingError(req, e, await settle(record, attempt, e, sent));
  }
  return postedEntry(deps, record, req, attempt, entry);
}

/** Steps 1 and 2: closed books refused before anything is written; the lines as they go to the parent. */
export async function preparedLines(deps: PostingDeps, req: Pick<EntryRequest<Attempt>, "parent" | "txnDate" | "what" | "instead" | "lines">): Promise<readonly EntryLine[]> {
  const closed = closedBooksReason(req.parent, req.txnDate, req.what, req.instead);
  if (closed) throw new AppError(409, "books_closed", closed);
  return homeCurrencyLines(deps, req.parent, req.lines);
}

/** The entry as QuickBooks is asked to make it: the attempt's lines, under the entry's class, A/R and A/P lines named. */
export function entryToSend(
  req: Pick<EntryRequest<Attempt>, "txnDate" | "parent" | "privateNote" | "description">,
  attempt: Pick<Attempt, "docNumber" | "lines">,
  { klass, names }: EntryReferences & { klass: NamedListItem },
): NewJournalEntry {
  return {
    txnDate: req.txnDate,
    currency: req.parent.homeCurrency,
    docNumber: attempt.docNumber,
    privateNote: req.privateNote,
    lines: attempt.lines.map((l) => ({
      postingType: l.debit > 0 ? ("Debit" as const) : ("Credit" as const),
      amount: l.debit > 0 ? l.debit : l.credit,
      accountId: l.account,
      classId: klass.id,
      description: req.description,
      entity: names.get(l.account),
    })),
  };
}

/** Step 5, accepted: recorded as posted, audited. */
export async function postedEntry<A extends Attempt, Posted>(
  deps: PostingDeps,
  record: Pick<AttemptRecord<A, Posted>, "posted">,
  req: Pick<EntryRequest<A>, "parent" | "audit">,
  attempt: A,
  entry: { id: string },
): Promise<Posted> {
  const posted = await record.posted(attempt, { id: entry.id, url: deps.provider.journalEntryUrl(req.parent.realmId, entry.id) });
  await audit(deps.database.db, {
    action: req.audit.action,
    accountId: req.audit.accountId,
    userId: req.audit.userId,
    details: req.audit.details(attempt, entry.id),
    ...req.audit.meta,
  });
  return posted;
}

/** A failed posting as the caller is told it, through the one QuickBooks error mapping; `settled`: nothing of it is in QuickBooks. */
export function postingError(req: Pick<EntryRequest<Attempt>, "parent" | "txnDate" | "what">, e: unknown, settled: boolean): unknown {
  return qboApiError(e, {
    subject: "parent",
    then: "post again",
    closedBooks: () => closedBooksRefusal(req.parent.companyName, req.txnDate, req.what),
    refused: (qe) => {
      const then = settled ? "Nothing was posted." : "Post again once that is resolved: a retry never posts twice.";
      // 610: something the entry names (a customer, vendor, class or account) was made inactive since it was looked up.
      const inactive = qe.kind === "not_found" ? " Make it active again in the parent's QuickBooks, then post again." : "";
      return `QuickBooks refused the entry: ${refusalText(qe)}. ${then}${inactive}`;
    },
    unavailable: (qe) => `QuickBooks did not answer the posting (${qe.message}). Try again: a retry never posts twice.`,
  });
}

/** Records what a failure means for the attempt; true when it is settled (nothing of it is in QuickBooks). */
export async function settle<A extends Attempt>(record: Pick<AttemptRecord<A, unknown>, "refused" | "abandon">, attempt: A, e: unknown, sent: boolean): Promise<boolean> {
  const qbo = e instanceof QboError ? e : null;
  if (sent && qbo && qbo.status >= 400 && qbo.status < 500 && isRefusal(qbo)) {
    await record.refused(attempt);
    return true;
  }
  if (attempt.fresh && (!sent || qbo?.kind === "reauthorize")) {
    await record.abandon(attempt);
    return true;
  }
  return false;
}
