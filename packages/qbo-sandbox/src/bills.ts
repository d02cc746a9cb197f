/**
 * Bills and bill payments through the API (create and delete; read, query and CDC render them),
 * as Intuit's API reference documents the Bill and BillPayment entities: a Bill needs `VendorRef`
 * and `Line` (here AccountBasedExpenseLineDetail lines, the sandbox keeping no items); `TotalAmt`
 * is computed ("any value you supply is over-written"); `APAccountRef` is optional. A BillPayment
 * needs `VendorRef`, `TotalAmt`, `PayType` (Check or CreditCard), `CheckPayment.BankAccountRef` or
 * `CreditCardPayment.CCAccountRef`, and `Line`s whose `LinkedTxn` names the bills paid.
 *
 * In the books a bill credits A/P and debits each line's account; a payment debits A/P and credits
 * the bank or card. Every line names the vendor, so the vendor's Balance is its open bills. Cash
 * basis reports read the same transactions by paid status (cashBasis.ts).
 *
 * Home currency only: a foreign CurrencyRef, or an account in another currency, is refused (6000,
 * wording ours). Refusals whose QuickBooks wording is not recorded use the documented 6000
 * envelope with our Detail.
 */
import type { Json } from "./entities.ts";
import type { Account, BillDocument, BillLink, BillPaymentDocument, CompanyLedger, JournalEntry, JournalLine, Party } from "./ledger.ts";
import { formatCents, parseAmount } from "./money.ts";
import { businessValidation, objectNotFound, unsupportedProperty } from "./qboFault.ts";
import type { TxnHeader } from "./txnFields.ts";
import {
  activeAccount,
  activeParty,
  checkOpen,
  classOf,
  dateField,
  deleteTransaction,
  departmentOf,
  isObject,
  missingParam,
  parseTxnHeader,
  refValue,
} from "./txnFields.ts";

/** CheckPayment.PrintStatus values (Intuit: "Valid values: NotSet, NeedToPrint, PrintComplete"; default NeedToPrint). */
const PRINT_STATUSES = ["NotSet", "NeedToPrint", "PrintComplete"];

/** The message QuickBooks gives for a split line without an account (as for journal entries). */
const ACCOUNT_REQUIRED = "You must select an account for each split line with an amount.";

/**
 * The A/P account a bill credits when it names none. Intuit: "If the company has a single AP
 * account, the account is implied"; with several, QuickBooks uses its default A/P account, the one
 * the company started with, and when that one is gone the oldest active one (Bill.com's help
 * "QuickBooks Online Sync: Multiple or Default Accounts Payable/Accounts Receivable accounts"). The
 * emulator keeps no "default" flag, so: the oldest active home-currency A/P account, by creation
 * then Id.
 */
export function defaultPayablesAccount(ledger: CompanyLedger): Account | undefined {
  return ledger.accounts
    .filter((a) => a.type === "Accounts Payable" && a.active && !ledger.isForeign(a))
    .sort((a, b) => a.createTime - b.createTime || Number(a.id) - Number(b.id))[0];
}

function notUpdated(body: Json, entity: string): void {
  if (body["Id"] !== undefined) throw unsupportedProperty("Id", `the sandbox creates and deletes ${entity} objects but does not update them; delete it and create it again`);
}

function homeCurrencyOnly(ledger: CompanyLedger, body: Json, entity: string): void {
  const currency = refValue(body["CurrencyRef"]);
  const home = ledger.profile.currency;
  if (currency !== undefined && currency !== home) {
    throw businessValidation(`The sandbox keeps a ${entity} in the home currency only: CurrencyRef must be ${home}, not ${currency}.`);
  }
}

function homeAccount(ledger: CompanyLedger, account: Account, entity: string): Account {
  if (ledger.isForeign(account)) {
    throw businessValidation(`The account ${account.name} holds ${account.currency}; the sandbox keeps a ${entity} in the home currency (${ledger.profile.currency}) only.`);
  }
  return account;
}

function vendorOf(ledger: CompanyLedger, body: Json): Party {
  const id = refValue(body["VendorRef"]);
  if (id === undefined) throw missingParam("VendorRef");
  return activeParty(ledger, id, "Vendor");
}

/** One journal line of a bill or bill payment: every one names the vendor, as QuickBooks' registers show it. */
function posting(id: string, account: Account, side: JournalLine["posting"], amount: number, vendor: Party, extra: Partial<JournalLine> = {}): JournalLine {
  return { id, accountId: account.id, posting: side, amount, homeAmount: amount, entity: { type: "Vendor", id: vendor.id }, ...extra };
}

function addTransaction(ledger: CompanyLedger, header: TxnHeader, lines: JournalLine[], document: BillDocument | BillPaymentDocument, now: Date): JournalEntry {
  checkOpen(ledger, header.txnDate);
  const ms = now.getTime();
  const entry: JournalEntry = { id: ledger.nextId(ledger.entries), syncToken: 0, ...header, currency: ledger.profile.currency, lines, document, createTime: ms, updateTime: ms };
  ledger.addEntry(entry);
  return entry;
}

/** `APAccountRef` (Intuit: "must have ... AccountSubType set to AccountsPayable"), else the default A/P account. */
function payablesAccount(ledger: CompanyLedger, raw: unknown): Account {
  const id = refValue(raw);
  if (id === undefined) {
    const found = defaultPayablesAccount(ledger);
    if (found === undefined) throw businessValidation("The company has no active Accounts Payable account for this bill; create one or send APAccountRef.");
    return found;
  }
  const account = activeAccount(ledger, id);
  if (account.type !== "Accounts Payable") throw businessValidation(`APAccountRef ${id} (${account.name}) is not an Accounts Payable account.`);
  return homeAccount(ledger, account, "Bill");
}

/** A Bill line (AccountBasedExpenseLineDetail) as its debit, Id "1", "2", ... in the order sent. */
function expenseLine(ledger: CompanyLedger, raw: unknown, i: number, vendor: Party, departmentId: string | undefined): JournalLine {
  if (!isObject(raw)) throw unsupportedProperty("Line", "each line must be an object");
  if (raw["DetailType"] !== "AccountBasedExpenseLineDetail") {
    throw unsupportedProperty("DetailType", `value ${JSON.stringify(raw["DetailType"])} is not supported by the sandbox on a Bill line; use AccountBasedExpenseLineDetail (the sandbox keeps no items)`);
  }
  const amount = parseAmount(raw["Amount"]);
  if (amount === undefined) throw unsupportedProperty("Amount", `value ${JSON.stringify(raw["Amount"])} must be a number with at most two decimals`);
  if (amount < 0) throw businessValidation("Bill line amounts cannot be negative in the sandbox.");
  const detail = raw["AccountBasedExpenseLineDetail"];
  const accountId = isObject(detail) ? refValue(detail["AccountRef"]) : undefined;
  if (!isObject(detail) || accountId === undefined) throw businessValidation(ACCOUNT_REQUIRED);
  const account = homeAccount(ledger, activeAccount(ledger, accountId), "Bill");
  // QuickBooks offers neither in a bill's category list (an assumption); a bill's own A/P line is the payable.
  if (account.type === "Accounts Payable" || account.type === "Accounts Receivable") {
    throw businessValidation(`A bill line cannot post to the ${account.type} account ${account.name}; choose an expense or other account.`);
  }
  if (detail["CustomerRef"] !== undefined) throw unsupportedProperty("CustomerRef", "is not supported by the sandbox on bill lines (billable expenses are not kept)");
  const classId = classOf(ledger, detail["ClassRef"]);
  const description = raw["Description"];
  return posting(String(i + 1), account, "Debit", amount, vendor, {
    description: typeof description === "string" ? description : undefined,
    classId,
    departmentId,
  });
}

export function createBill(ledger: CompanyLedger, body: unknown, now: Date, today: string): JournalEntry {
  if (!isObject(body)) throw unsupportedProperty("Bill", "the request body must be a Bill object");
  notUpdated(body, "Bill");
  const vendor = vendorOf(ledger, body);
  const rawLines = body["Line"];
  if (!Array.isArray(rawLines) || rawLines.length === 0) throw missingParam("Line");
  const header = parseTxnHeader(body, today);
  homeCurrencyOnly(ledger, body, "Bill");
  // Intuit: without DueDate, TxnDate plus the days of SalesTermRef; the sandbox keeps no terms.
  const dueDate = dateField(body, "DueDate", header.txnDate);
  const departmentId = departmentOf(ledger, body["DepartmentRef"]);
  const payables = payablesAccount(ledger, body["APAccountRef"]);
  const expenses = rawLines.map((raw: unknown, i: number) => expenseLine(ledger, raw, i, vendor, departmentId));
  const total = expenses.reduce((s, l) => s + l.amount, 0);
  const payable = posting("0", payables, "Credit", total, vendor, { departmentId });
  return addTransaction(ledger, header, [payable, ...expenses], { type: "Bill", vendorId: vendor.id, dueDate }, now);
}

/** A BillPayment line: its Amount and the one Bill its LinkedTxn names. */
function linkOf(raw: unknown): BillLink {
  if (!isObject(raw)) throw unsupportedProperty("Line", "each line must be an object");
  const amount = parseAmount(raw["Amount"]);
  if (amount === undefined) throw unsupportedProperty("Amount", `value ${JSON.stringify(raw["Amount"])} must be a number with at most two decimals`);
  if (amount <= 0) throw businessValidation("A bill payment line must pay a positive amount.");
  const linked = raw["LinkedTxn"];
  if (!Array.isArray(linked) || linked.length === 0) throw missingParam("LinkedTxn");
  const txn: unknown = linked[0];
  if (linked.length > 1 || !isObject(txn)) throw unsupportedProperty("LinkedTxn", "the sandbox takes one linked bill on each bill payment line");
  if (txn["TxnType"] !== "Bill") {
    throw unsupportedProperty("TxnType", `value ${JSON.stringify(txn["TxnType"])} is not supported by the sandbox; a bill payment line links a Bill (VendorCredit and JournalEntry links are not kept)`);
  }
  const id = typeof txn["TxnId"] === "number" ? String(txn["TxnId"]) : txn["TxnId"];
  if (typeof id !== "string" || id.trim() === "") throw missingParam("TxnId");
  return { billId: id.trim(), amount };
}

/** The account a payment comes from: `CheckPayment.BankAccountRef` (a Bank account) or `CreditCardPayment.CCAccountRef` (a Credit Card account). */
function payingAccount(ledger: CompanyLedger, body: Json, payType: BillPaymentDocument["payType"]): { account: Account; printStatus?: string } {
  const [key, refKey, type] = payType === "Check" ? (["CheckPayment", "BankAccountRef", "Bank"] as const) : (["CreditCardPayment", "CCAccountRef", "Credit Card"] as const);
  const detail = body[key];
  const id = isObject(detail) ? refValue(detail[refKey]) : undefined;
  if (!isObject(detail) || id === undefined) throw missingParam(`${key}.${refKey}`);
  const account = homeAccount(ledger, activeAccount(ledger, id), "BillPayment");
  if (account.type !== type) throw businessValidation(`${refKey} ${id} (${account.name}) is not a ${type} account, which PayType ${payType} pays from.`);
  if (payType === "CreditCard") return { account };
  const printStatus = detail["PrintStatus"] ?? "NeedToPrint";
  if (typeof printStatus !== "string" || !PRINT_STATUSES.includes(printStatus)) {
    throw unsupportedProperty("PrintStatus", `value ${JSON.stringify(printStatus)} must be one of ${PRINT_STATUSES.join(", ")}`);
  }
  return { account, printStatus };
}

/**
 * The bills a payment pays, checked: each a live bill of the payment's vendor, paid at most its
 * open balance, on the A/P account `APAccountRef` names when it names one. Returns each bill's A/P account.
 */
function billsPaid(ledger: CompanyLedger, links: readonly BillLink[], vendor: Party, apRaw: unknown): Map<string, Account> {
  const apId = refValue(apRaw);
  if (apId !== undefined && activeAccount(ledger, apId).type !== "Accounts Payable") throw businessValidation(`APAccountRef ${apId} is not an Accounts Payable account.`);
  const perBill = new Map<string, number>();
  for (const l of links) perBill.set(l.billId, (perBill.get(l.billId) ?? 0) + l.amount);
  const payables = new Map<string, Account>();
  for (const [billId, amount] of perBill) {
    const bill = ledger.liveTransaction("Bill", billId);
    if (bill?.document?.type !== "Bill") throw objectNotFound("Bill", billId);
    if (bill.document.vendorId !== vendor.id) throw businessValidation(`Bill ${billId} is another vendor's; a bill payment pays the bills of its own vendor (${vendor.displayName}).`);
    const open = ledger.openBalance(bill);
    if (amount > open) throw businessValidation(`The payment of ${formatCents(amount)} on bill ${billId} is more than its open balance of ${formatCents(open)}.`);
    const ap = ledger.account((bill.lines[0] as JournalLine).accountId) as Account;
    if (apId !== undefined && apId !== ap.id) throw businessValidation(`Bill ${billId} is payable on account ${ap.name}, not on APAccountRef ${apId}.`);
    payables.set(billId, ap);
  }
  return payables;
}

export function createBillPayment(ledger: CompanyLedger, body: unknown, now: Date, today: string): JournalEntry {
  if (!isObject(body)) throw unsupportedProperty("BillPayment", "the request body must be a BillPayment object");
  notUpdated(body, "BillPayment");
  const vendor = vendorOf(ledger, body);
  const payType = body["PayType"];
  if (payType === undefined) throw missingParam("PayType");
  if (payType !== "Check" && payType !== "CreditCard") throw unsupportedProperty("PayType", `value ${JSON.stringify(payType)} must be Check or CreditCard`);
  const { account, printStatus } = payingAccount(ledger, body, payType);
  const rawLines = body["Line"];
  if (!Array.isArray(rawLines) || rawLines.length === 0) throw missingParam("Line");
  if (body["TotalAmt"] === undefined) throw missingParam("TotalAmt");
  const total = parseAmount(body["TotalAmt"]);
  if (total === undefined) throw unsupportedProperty("TotalAmt", `value ${JSON.stringify(body["TotalAmt"])} must be a number with at most two decimals`);
  const header = parseTxnHeader(body, today);
  homeCurrencyOnly(ledger, body, "BillPayment");
  const departmentId = departmentOf(ledger, body["DepartmentRef"]);
  const links = rawLines.map(linkOf);
  const payables = billsPaid(ledger, links, vendor, body["APAccountRef"]);
  const applied = links.reduce((s, l) => s + l.amount, 0);
  // Intuit: "If TotalAmt is greater than the total on the lines being paid, the overpayment is
  // treated as a credit"; the sandbox keeps no vendor credits, so the lines must account for it all.
  if (total !== applied) {
    throw businessValidation(`TotalAmt (${formatCents(total)}) must equal the sum of the lines (${formatCents(applied)}): the sandbox applies a bill payment in full to its bills and keeps no vendor credit.`);
  }
  const lines = [
    posting("0", account, "Credit", total, vendor, { departmentId }),
    ...links.map((l, i) => posting(String(i + 1), payables.get(l.billId) as Account, "Debit", l.amount, vendor, { departmentId })),
  ];
  return addTransaction(ledger, header, lines, { type: "BillPayment", vendorId: vendor.id, payType, printStatus, links }, now);
}

/** Intuit: "You must unlink any linked transactions associated with the bill object before deleting it." */
export function deleteBill(ledger: CompanyLedger, body: unknown, now: Date): JournalEntry {
  return deleteTransaction(ledger, "Bill", body, now, (bill) => {
    const paid = ledger.paymentsOf(bill.id);
    if (paid.length > 0) {
      throw businessValidation(`Bill ${bill.id} has bill payments linked to it (${paid.map((p) => p.payment.id).join(", ")}); delete them before deleting the bill.`);
    }
  });
}

/** Deleting a payment reopens what it paid on its bills. */
export function deleteBillPayment(ledger: CompanyLedger, body: unknown, now: Date): JournalEntry {
  return deleteTransaction(ledger, "BillPayment", body, now);
}
