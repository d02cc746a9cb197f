/**
 * The fields every transaction entity validates alike (JournalEntry, Bill, BillPayment): TxnDate,
 * DocNumber, PrivateNote, references to accounts, classes, departments and names, the books'
 * closing date, and Id with SyncToken on a delete. One home, so a JournalEntry and a Bill refuse
 * the same bad reference with the same Fault.
 */
import { isIsoDate } from "./calendar.ts";
import type { Json } from "./entities.ts";
import type { Account, CompanyLedger, JournalEntry, Party, TransactionKind } from "./ledger.ts";
import type { QboFault } from "./qboFault.ts";
import { accountPeriodClosed, invalidReference, objectNotFound, staleObject, unsupportedProperty, validationFault } from "./qboFault.ts";

export function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A reference's id (`{"value": "3"}`, a number accepted), or undefined when there is none. */
export function refValue(v: unknown): string | undefined {
  if (!isObject(v)) return undefined;
  const value = v["value"];
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

const REQUIRED_PARAM_MISSING = "Required param missing, need to supply the required value for the API";

/** QBO's 2020 for a required parameter left out. */
export function missingParam(name: string): QboFault {
  return validationFault("2020", REQUIRED_PARAM_MISSING, `Required parameter ${name} is missing in the request`, name);
}

/** QBO's 2020 for an update or delete without `Id` and `SyncToken`. */
export function missingIdAndSyncToken(): QboFault {
  return validationFault("2020", REQUIRED_PARAM_MISSING, "Required parameter Id and SyncToken are missing in the request");
}

export interface TxnHeader {
  readonly txnDate: string;
  readonly docNumber?: string | undefined;
  readonly privateNote?: string | undefined;
}

/** A date field (YYYY-MM-DD), `fallback` when left out. */
export function dateField(body: Json, name: string, fallback: string): string {
  const value = body[name] === undefined ? fallback : body[name];
  if (typeof value !== "string" || !isIsoDate(value)) throw unsupportedProperty(name, `value ${JSON.stringify(value)} must be a date (YYYY-MM-DD)`);
  return value;
}

/** TxnDate (default `today`, the server's date), DocNumber (at most 21 characters), PrivateNote (at most 4000). */
export function parseTxnHeader(body: Json, today: string): TxnHeader {
  const txnDate = dateField(body, "TxnDate", today);
  const docNumber = body["DocNumber"];
  if (docNumber !== undefined && (typeof docNumber !== "string" || docNumber.length > 21)) {
    throw unsupportedProperty("DocNumber", "must be a string of at most 21 characters");
  }
  const privateNote = body["PrivateNote"];
  if (privateNote !== undefined && (typeof privateNote !== "string" || privateNote.length > 4000)) {
    throw unsupportedProperty("PrivateNote", "must be a string of at most 4000 characters");
  }
  return { txnDate, docNumber: typeof docNumber === "string" ? docNumber : undefined, privateNote: typeof privateNote === "string" ? privateNote : undefined };
}

/** An AccountRef's account: unknown → 2500 "Invalid Reference Id", inactive → 610. */
export function activeAccount(ledger: CompanyLedger, accountId: string): Account {
  const account = ledger.account(accountId);
  if (account === undefined) throw invalidReference("Accounts", accountId);
  if (!account.active) throw objectNotFound("Account", accountId);
  return account;
}

/** A ClassRef's id, when there is one; an unknown or inactive class → 2500. */
export function classOf(ledger: CompanyLedger, raw: unknown): string | undefined {
  const id = refValue(raw);
  if (id !== undefined && ledger.classes.find((c) => c.id === id && c.active) === undefined) throw invalidReference("Klasses", id);
  return id;
}

/** A DepartmentRef's id (a location), when there is one; an unknown or inactive one → 2500. */
export function departmentOf(ledger: CompanyLedger, raw: unknown): string | undefined {
  const id = refValue(raw);
  if (id !== undefined && ledger.departments.find((d) => d.id === id && d.active) === undefined) throw invalidReference("Depts", id);
  return id;
}

/**
 * A name by id, of the kind the reference wants. Names share one id sequence, so an id of the
 * other kind is as unknown as a missing one (2500 "Names element id N not found"); inactive → 610.
 */
export function activeParty(ledger: CompanyLedger, id: string, kind: string | undefined): Party {
  const party = ledger.party(id);
  if (party === undefined || (kind !== undefined && party.kind !== kind)) throw invalidReference("Names", id);
  if (!party.active) throw objectNotFound(party.kind, id);
  return party;
}

/**
 * "Close the books" (Preferences AccountingInfoPrefs.BookCloseDate): QBO refuses, through the API,
 * to create, change or delete a transaction dated on or before the closing date. Intuit's error
 * list names 6200 "Account Period Closed" (6210 when a password guards the closing date); the
 * Detail is the sentence integrations quote from QBO (AutoEntry, LeanLaw, Synder support pages).
 */
export function checkOpen(ledger: CompanyLedger, txnDate: string): void {
  const closed = ledger.profile.bookCloseDate;
  if (closed !== undefined && txnDate <= closed) throw accountPeriodClosed();
}

/**
 * Deletes a transaction named by `{Id, SyncToken}` (Intuit's delete request): a deleted, unknown
 * or other-kind Id → 610, a stale SyncToken → 5010, a date in closed books → 6200. `guard` refuses
 * what the kind cannot lose (a bill with payments). Deleted transactions stay for CDC and leave
 * every report.
 */
export function deleteTransaction(ledger: CompanyLedger, kind: TransactionKind, body: unknown, now: Date, guard?: (entry: JournalEntry) => void): JournalEntry {
  if (!isObject(body)) throw unsupportedProperty(kind, "the request body must be an object with Id and SyncToken");
  const id = body["Id"];
  const syncToken = body["SyncToken"];
  if (typeof id !== "string" || typeof syncToken !== "string") throw missingIdAndSyncToken();
  const entry = ledger.liveTransaction(kind, id);
  if (entry === undefined) throw objectNotFound(kind, id);
  if (syncToken !== String(entry.syncToken)) throw staleObject();
  checkOpen(ledger, entry.txnDate);
  guard?.(entry);
  const ms = now.getTime();
  const deleted: JournalEntry = { ...entry, syncToken: entry.syncToken + 1, updateTime: ms, deletedTime: ms };
  ledger.replaceEntry(deleted);
  return deleted;
}
