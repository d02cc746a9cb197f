/**
 * Creating, updating and deleting entities through the API: one home for the entity endpoints
 * (`POST .../account`, `.../journalentry?operation=delete`, ...) and for batch items, which
 * QuickBooks runs as the same operations (Intuit's batch reference: an item is "a full payload
 * for create, update, or delete operations"). Records what changed for persistence and for the
 * webhooks; the caller saves the state once its answer is complete.
 */
import type { Json } from "../entities.ts";
import { metaTime, renderAccount, renderClass, renderCompanyCurrency, renderExchangeRate, renderParty, renderTransaction } from "../entities.ts";
import { createAccount, updateAccount } from "../accounts.ts";
import { createBill, createBillPayment, deleteBill, deleteBillPayment } from "../bills.ts";
import { createCompanyCurrency, updateCompanyCurrency, updateExchangeRate } from "../currencies.ts";
import { createJournalEntry, updateJournalEntry } from "../journal.ts";
import type { CompanyLedger, JournalEntry, TransactionKind } from "../ledger.ts";
import { deleteTransaction } from "../txnFields.ts";
import { createParty, updateParty } from "../parties.ts";
import { duplicateName, unsupportedProperty } from "../qboFault.ts";
import { checkKnownProperties } from "../schema.ts";
import type { Sandbox } from "../sandbox.ts";

export type WriteOperation = "create" | "update" | "delete";

/** The entities the emulator writes, with the operations it serves for each. */
const OPERATIONS = {
  Account: ["create", "update"],
  Class: ["create"],
  Customer: ["create", "update"],
  Vendor: ["create", "update"],
  JournalEntry: ["create", "update", "delete"],
  // Intuit documents updates of both too; the sandbox creates and deletes them.
  Bill: ["create", "delete"],
  BillPayment: ["create", "delete"],
  CompanyCurrency: ["create", "update"],
  // Intuit documents only an update: it sets the rate of a currency on a date, new or not.
  ExchangeRate: ["update"],
} as const satisfies Record<string, readonly WriteOperation[]>;

export type WritableEntity = keyof typeof OPERATIONS;

export function isWritable(entity: string): entity is WritableEntity {
  return Object.hasOwn(OPERATIONS, entity);
}

export interface WriteContext {
  readonly sandbox: Sandbox;
  readonly ledger: CompanyLedger;
  readonly now: Date;
}

/** "create or update", "create, update or delete". */
function spelled(list: readonly string[]): string {
  return list.length < 2 ? (list[0] ?? "") : `${list.slice(0, -1).join(", ")} or ${list[list.length - 1]}`;
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The delete of each transaction kind (a bill with payments refuses it). */
const DELETES: Record<TransactionKind, (ledger: CompanyLedger, body: unknown, now: Date) => JournalEntry> = {
  JournalEntry: (ledger, body, now) => deleteTransaction(ledger, "JournalEntry", body, now),
  Bill: deleteBill,
  BillPayment: deleteBillPayment,
};

function isTransaction(entity: WritableEntity): entity is TransactionKind & WritableEntity {
  return Object.hasOwn(DELETES, entity);
}

/**
 * Runs one write and answers its body, `{"<Entity>": {...}}`. Without an `operation` a body with
 * an Id is an update, as at Intuit (the entity endpoints; batch items always name one).
 * Refusals are thrown as QboFaults.
 */
export function writeEntity(ctx: WriteContext, entity: WritableEntity, operation: string | undefined, body: unknown): Json {
  const allowed: readonly string[] = OPERATIONS[entity];
  if (operation !== undefined && !allowed.includes(operation)) {
    throw unsupportedProperty("operation", `value ${operation} is not supported for ${entity}; use ${spelled(allowed)}`);
  }
  const { sandbox, ledger, now } = ctx;
  const realmId = ledger.realmId;
  if (operation === "delete" && isTransaction(entity)) {
    const deleted = DELETES[entity](ledger, body, now);
    sandbox.markEntry(realmId, deleted.id);
    sandbox.changed(realmId, { name: entity, id: deleted.id, operation: "Delete", lastUpdated: metaTime(deleted.updateTime) });
    // As recorded (minimul-qbo_api/delete__invoice__1); Intuit's Bill and BillPayment examples put status first.
    return { [entity]: { domain: "QBO", status: "Deleted", Id: deleted.id } };
  }
  checkKnownProperties(entity, body);
  // As at Intuit, a body with an Id is an update (full, or sparse with "sparse": true).
  const update = operation === "update" || (operation === undefined && allowed.includes("update") && isObject(body) && body["Id"] !== undefined);
  /**
   * The webhook of a create or an update (webhooks.ts). An update that changed nothing keeps the
   * SyncToken it was sent with (and its LastUpdatedTime) and is no change to tell anyone about.
   */
  const sentSyncToken = isObject(body) ? String(body["SyncToken"] ?? "").trim() : "";
  const changed = (name: string, saved: { id: string; syncToken: number; updateTime: number }) => {
    if (update && String(saved.syncToken) === sentSyncToken) return;
    sandbox.changed(realmId, { name, id: saved.id, operation: update ? "Update" : "Create", lastUpdated: metaTime(saved.updateTime) });
  };
  const posted = (entry: JournalEntry): Json => {
    sandbox.markEntry(realmId, entry.id);
    changed(entity, entry);
    return { [entity]: renderTransaction(ledger, entry) };
  };
  switch (entity) {
    case "Account": {
      const saved = update ? updateAccount(ledger, body, now) : createAccount(ledger, body, now);
      sandbox.markAccount(realmId, saved.id);
      changed("Account", saved);
      return { Account: renderAccount(ledger, saved) };
    }
    case "Class": {
      const name = isObject(body) && typeof body["Name"] === "string" ? body["Name"].trim() : "";
      if (name === "" || name.length > 100) throw unsupportedProperty("Name", "is required (1 to 100 characters)");
      if (ledger.classes.some((c) => c.name.toLowerCase() === name.toLowerCase())) throw duplicateName();
      const ms = now.getTime();
      const created = { id: ledger.nextId(ledger.classes), name, active: true, createTime: ms, updateTime: ms, syncToken: 0 };
      ledger.addClass(created);
      sandbox.markClass(realmId, created.id);
      changed("Class", created);
      return { Class: renderClass(created) };
    }
    case "Customer":
    case "Vendor": {
      const saved = update ? updateParty(ledger, entity, body, now) : createParty(ledger, entity, body, now);
      sandbox.markParty(realmId, saved.id);
      changed(entity, saved);
      return { [entity]: renderParty(ledger, saved) };
    }
    case "JournalEntry":
      return posted(update ? updateJournalEntry(ledger, body, now, sandbox.rules) : createJournalEntry(ledger, body, now, sandbox.today(), sandbox.rules));
    case "Bill":
      return posted(createBill(ledger, body, now, sandbox.today()));
    case "BillPayment":
      return posted(createBillPayment(ledger, body, now, sandbox.today()));
    case "CompanyCurrency": {
      const saved = update ? updateCompanyCurrency(ledger, body, now) : createCompanyCurrency(ledger, body, now);
      sandbox.markCurrency(realmId, saved.id);
      // Intuit's webhooks call the CompanyCurrency entity "Currency".
      changed("Currency", saved);
      return { CompanyCurrency: renderCompanyCurrency(saved) };
    }
    case "ExchangeRate": {
      // Intuit's webhooks do not cover exchange rates.
      const saved = updateExchangeRate(ledger, body, now);
      sandbox.markExchangeRate(realmId, saved.source, saved.asOfDate);
      return { ExchangeRate: renderExchangeRate(saved) };
    }
  }
}
