import { QboError } from "@groupledger/qbo";
import { ErrorCodes } from "@groupledger/contract";
import { AppError } from "../../http/errors.ts";

/**
 * The one place a QuickBooks failure becomes an API error (the client classifies it: `QboError.kind`).
 *
 * - reauthorize (3200, `invalid_grant`) → 409 `qbo_reauthorization_required`, naming whose
 *   QuickBooks must be reconnected and what to do then;
 * - closed_period (6200/6210), when the caller words it → 409 `books_closed`;
 * - a refusal (`isRefusal`), when the caller words it → 502 `qbo_refused`;
 * - anything else (throttled, an outage, no answer, a 404, or a refusal the caller did not word)
 *   → 502 `qbo_unavailable`, in the caller's words.
 *
 * Anything that is not a QboError is handed back as it is, so `throw qboApiError(e, words)` fits
 * any catch.
 */

/** Whose QuickBooks answered: the parent ("the parent company" in the advice), or a company by name. */
export type QboSubject = "parent" | { companyName: string; isParent: boolean };

/** "QuickBooks Online asked for <whom> to be re-authorized (errorCode 003200). Reconnect it on Connected Companies[, then <then>]." */
export function reauthorizeMessage(subject: QboSubject, then?: string): string {
  const whom = subject === "parent" || subject.isParent ? "the parent company" : subject.companyName;
  return `QuickBooks Online asked for ${whom} to be re-authorized (errorCode 003200). Reconnect it on Connected Companies${then ? `, then ${then}` : ""}.`;
}

/** Posting into the parent (and the reads around it) when the parent's grant is gone. */
export const REAUTHORIZE_PARENT_MESSAGE = reauthorizeMessage("parent", "post again");

export interface QboFailureWords {
  subject: QboSubject;
  /** What to do after reconnecting ("post again"); omitted, the advice ends at reconnecting. */
  then?: string;
  /** 502 qbo_unavailable: QuickBooks gave no usable answer. */
  unavailable: (e: QboError) => string;
  /** 409 books_closed: QuickBooks refused because its books are closed on the date. */
  closedBooks?: (e: QboError) => string;
  /** 502 qbo_refused: QuickBooks answered and refused. */
  refused?: (e: QboError) => string;
}

/**
 * QuickBooks answered and refused the request itself: a validation fault, closed books, another
 * refusal it gave (kind `other`: 403 3100, an answer without what was asked for), or a 400 "Object
 * Not Found" (610: something the request names, an account, class, customer or vendor, is inactive
 * or deleted). Nothing was made, and the same request would be refused again. A 404 is left out:
 * it answers the address (a gateway, a wrong path), not what the request asked for.
 */
export function isRefusal(e: QboError): boolean {
  return e.kind === "validation" || e.kind === "closed_period" || e.kind === "other" || (e.kind === "not_found" && e.status === 400);
}

export function qboApiError(e: unknown, words: QboFailureWords): unknown {
  if (!(e instanceof QboError)) return e;
  if (e.kind === "reauthorize") return new AppError(409, ErrorCodes.qboReauthorizationRequired, reauthorizeMessage(words.subject, words.then));
  if (e.kind === "closed_period" && words.closedBooks) return new AppError(409, "books_closed", words.closedBooks(e));
  if (words.refused && isRefusal(e)) return new AppError(502, "qbo_refused", words.refused(e));
  return new AppError(502, "qbo_unavailable", words.unavailable(e));
}

/** Runs one QuickBooks call, its failure turned into the API error (`qboApiError`). */
export async function askQbo<T>(words: QboFailureWords, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw qboApiError(e, words);
  }
}

/** QuickBooks' words for a refusal: its message, and its detail when it gave one. */
export const refusalText = (e: QboError) => `${e.message}${e.detail ? ` (${e.detail})` : ""}`;

/** For reads where "not there" is an answer: `client.readJournalEntry(id).catch(nullIfNotFound)`. */
export function nullIfNotFound(e: unknown): null {
  if (e instanceof QboError && e.kind === "not_found") return null;
  throw e;
}
