/**
 * Creating, updating and deleting journal entries through the API, validated the way QBO validates
 * them: lines must balance in the entry's currency, every AccountRef must name an active account,
 * ClassRef/DepartmentRef must exist, an Entity (the line's Name) must name an active customer or
 * vendor, and a foreign-currency entry needs a rate (given or stored). With the rule
 * `requireNamesOnReceivablesAndPayables` (on unless a test switches it off), a line on an Accounts Receivable
 * account needs a customer and one on Accounts Payable a vendor, as QBO requires.
 */
import { renderJournalEntry } from "./entities.ts";
import type { CompanyLedger, JournalEntry, JournalLine, LineEntity, PostingType } from "./ledger.ts";
import { convert, formatCents, formatRate, parseAmount, parseRate } from "./money.ts";
import { businessValidation, objectNotFound, staleObject, unsupportedProperty, validationFault } from "./qboFault.ts";
import {
  activeAccount,
  activeParty,
  checkOpen,
  classOf,
  departmentOf,
  isObject,
  missingIdAndSyncToken,
  missingParam,
  parseTxnHeader,
  refValue,
} from "./txnFields.ts";

/** Validation rules that can be switched on per sandbox (see SandboxRules). */
export interface JournalRules {
  /** QBO's "you must choose a customer/supplier in the Name field" on A/R and A/P lines. */
  readonly requireNamesOnReceivablesAndPayables: boolean;
}

const AS_QBO: JournalRules = { requireNamesOnReceivablesAndPayables: true };

/** `JournalEntryLineDetail.Entity`: `{ "Type": "Customer", "EntityRef": { "value": "3" } }`. */
function entityOf(ledger: CompanyLedger, raw: unknown): LineEntity | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw unsupportedProperty("Entity", "must be an object with Type and EntityRef");
  const type = raw["Type"];
  if (type !== undefined && type !== "Customer" && type !== "Vendor" && type !== "Employee") {
    throw unsupportedProperty("Type", `value ${JSON.stringify(type)} must be Customer, Vendor or Employee`);
  }
  const id = refValue(raw["EntityRef"]);
  if (id === undefined) throw unsupportedProperty("EntityRef", "is required in Entity (the id of a customer or vendor)");
  return { type: activeParty(ledger, id, type).kind, id };
}

/** QBO's rule for A/R and A/P lines (the Detail sentences integrations report from QBO). */
function checkNames(ledger: CompanyLedger, lines: readonly JournalLine[]): void {
  for (const l of lines) {
    const type = ledger.account(l.accountId)?.type;
    if (type === "Accounts Receivable" && l.entity?.type !== "Customer") {
      throw businessValidation("When you use Accounts Receivable, you must choose a customer in the Name field.");
    }
    if (type === "Accounts Payable" && l.entity?.type !== "Vendor") {
      throw businessValidation("When you use Accounts Payable, you must choose a supplier in the Name field.");
    }
  }
}

function rateFor(ledger: CompanyLedger, currency: string, date: string, given: unknown): bigint {
  if (given !== undefined) {
    const rate = typeof given === "number" || typeof given === "string" ? parseRate(String(given)) : undefined;
    if (rate === undefined || rate <= 0n) throw unsupportedProperty("ExchangeRate", `value ${JSON.stringify(given)} must be a positive number with at most six decimals`);
    return rate;
  }
  const stored = ledger.exchangeRateAsOf(currency, date);
  if (stored === undefined) throw businessValidation(`No exchange rate for ${currency} on or before ${date}. Provide ExchangeRate.`);
  return parseRate(stored.rate) as bigint;
}

/** Moves any rounding residual of the home-currency amounts onto the largest line of the short side. */
function balanceHome(lines: JournalLine[]): JournalLine[] {
  const side = (p: PostingType): number => lines.filter((l) => l.posting === p).reduce((s, l) => s + l.homeAmount, 0);
  const diff = side("Debit") - side("Credit");
  if (diff === 0) return lines;
  const short: PostingType = diff > 0 ? "Credit" : "Debit";
  let target = -1;
  lines.forEach((l, i) => {
    if (l.posting === short && (target < 0 || l.homeAmount > (lines[target] as JournalLine).homeAmount)) target = i;
  });
  return lines.map((l, i) => (i === target ? { ...l, homeAmount: l.homeAmount + Math.abs(diff) } : l));
}

type EntryFields = Pick<JournalEntry, "docNumber" | "txnDate" | "privateNote" | "currency" | "exchangeRate" | "lines">;

/** Validates a JournalEntry body into the entry's fields; `today` is the TxnDate when none is sent. */
function parseEntry(ledger: CompanyLedger, body: unknown, today: string, rules: JournalRules): EntryFields {
  if (!isObject(body)) throw unsupportedProperty("JournalEntry", "the request body must be a JournalEntry object");
  const rawLines = body["Line"];
  if (!Array.isArray(rawLines) || rawLines.length === 0) throw missingParam("Line");
  const header = parseTxnHeader(body, today);
  const txnDate = header.txnDate;

  const home = ledger.profile.currency;
  const currency = refValue(body["CurrencyRef"]) ?? home;
  let rate: bigint | undefined;
  if (currency !== home) {
    if (!ledger.profile.multiCurrency) throw businessValidation(`Multicurrency is not enabled for this company; the transaction currency must be ${home}.`);
    rate = rateFor(ledger, currency, txnDate, body["ExchangeRate"]);
  }

  const lines: JournalLine[] = rawLines.map((raw: unknown, i: number) => {
    if (!isObject(raw)) throw unsupportedProperty("Line", "each line must be an object");
    if (raw["DetailType"] !== "JournalEntryLineDetail") {
      throw unsupportedProperty("DetailType", `value ${JSON.stringify(raw["DetailType"])} is not supported on a JournalEntry line; use JournalEntryLineDetail`);
    }
    const amount = parseAmount(raw["Amount"]);
    if (amount === undefined) throw unsupportedProperty("Amount", `value ${JSON.stringify(raw["Amount"])} must be a number with at most two decimals`);
    if (amount < 0) throw businessValidation("Journal entry line amounts cannot be negative. Use the other posting type instead.");
    const detail = raw["JournalEntryLineDetail"];
    if (!isObject(detail)) throw businessValidation("You must select an account for each split line with an amount.");
    const posting = detail["PostingType"];
    if (posting !== "Debit" && posting !== "Credit") throw unsupportedProperty("PostingType", `value ${JSON.stringify(posting)} must be Debit or Credit`);
    const accountId = refValue(detail["AccountRef"]);
    if (accountId === undefined) throw businessValidation("You must select an account for each split line with an amount.");
    const account = activeAccount(ledger, accountId);
    // A foreign-currency account takes only transactions in its currency, at the entry's
    // ExchangeRate (Intuit: CurrencyRef is "the currency in which all amounts on the associated
    // transaction are expressed"); the wording of this refusal is ours.
    if (ledger.isForeign(account) && account.currency !== currency) {
      throw businessValidation(`The account ${account.name} holds ${account.currency}; a journal entry posting to it must be in ${account.currency} (CurrencyRef), not ${currency}.`);
    }
    const classId = classOf(ledger, detail["ClassRef"]);
    const departmentId = departmentOf(ledger, detail["DepartmentRef"]);
    const entity = entityOf(ledger, detail["Entity"]);
    const description = raw["Description"];
    return {
      id: String(i),
      accountId,
      posting,
      amount,
      homeAmount: rate === undefined ? amount : convert(amount, rate),
      description: typeof description === "string" ? description : undefined,
      classId,
      departmentId,
      ...(entity === undefined ? {} : { entity }),
    };
  });

  const debits = lines.filter((l) => l.posting === "Debit").reduce((s, l) => s + l.amount, 0);
  const credits = lines.filter((l) => l.posting === "Credit").reduce((s, l) => s + l.amount, 0);
  if (debits !== credits) {
    throw businessValidation(`Transaction must balance. The total debits (${formatCents(debits)}) do not equal the total credits (${formatCents(credits)}).`);
  }
  if (rules.requireNamesOnReceivablesAndPayables) checkNames(ledger, lines);

  return {
    ...header,
    currency,
    exchangeRate: rate === undefined ? undefined : formatRate(rate),
    lines: balanceHome(lines),
  };
}

export function createJournalEntry(ledger: CompanyLedger, body: unknown, now: Date, today: string, rules: JournalRules = AS_QBO): JournalEntry {
  const fields = parseEntry(ledger, body, today, rules);
  checkOpen(ledger, fields.txnDate);
  const ms = now.getTime();
  const entry: JournalEntry = { id: ledger.nextId(ledger.entries), syncToken: 0, ...fields, createTime: ms, updateTime: ms };
  ledger.addEntry(entry);
  return entry;
}

/**
 * Replaces an entry's content, named by Id with its current SyncToken (else the recorded 5010;
 * an unknown or deleted Id is 610). Full (`sparse` false or absent): the body is the whole entry,
 * validated like a create (DocNumber and PrivateNote left out are removed; TxnDate left out keeps
 * the entry's date). Sparse (`"sparse": true`): the top-level fields sent replace the entry's,
 * `Line` replacing every line. Lines get fresh Ids; the SyncToken goes up by one.
 */
export function updateJournalEntry(ledger: CompanyLedger, body: unknown, now: Date, rules: JournalRules = AS_QBO): JournalEntry {
  if (!isObject(body)) throw unsupportedProperty("JournalEntry", "the request body must be a JournalEntry object");
  const id = typeof body["Id"] === "number" ? String(body["Id"]) : body["Id"];
  const syncToken = typeof body["SyncToken"] === "number" ? String(body["SyncToken"]) : body["SyncToken"];
  if (typeof id !== "string" || typeof syncToken !== "string") throw missingIdAndSyncToken();
  if (!/^\d+$/.test(id)) throw validationFault("2030", "Invalid ID", `Id should be a valid number. Supplied value:${id}`, "Id");
  const current = ledger.liveTransaction("JournalEntry", id);
  if (current === undefined) throw objectNotFound("JournalEntry", id);
  if (syncToken !== String(current.syncToken)) throw staleObject();
  const sparse = body["sparse"] ?? false;
  if (typeof sparse !== "boolean") throw unsupportedProperty("sparse", `value ${JSON.stringify(sparse)} must be true or false`);
  const effective = sparse ? { ...renderJournalEntry(ledger, current), ...body } : body;
  const fields = parseEntry(ledger, effective, current.txnDate, rules);
  checkOpen(ledger, current.txnDate);
  checkOpen(ledger, fields.txnDate);
  const updated: JournalEntry = { ...fields, id, syncToken: current.syncToken + 1, createTime: current.createTime, updateTime: now.getTime() };
  ledger.replaceEntry(updated);
  return updated;
}
