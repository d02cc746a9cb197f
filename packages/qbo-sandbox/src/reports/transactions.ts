/**
 * GeneralLedger (reports/GeneralLedger_2020_sandbox...: one Section per account with a Beginning
 * Balance row, one row per posting with a running balance, "Total for ...") and TransactionList
 * (one Data row per transaction): journal entries, bills and bill payments. A sub-account's
 * section sits inside its parent's, after the parent's own rows; every section header carries its
 * own account's id (the recorded GL has one sub-account, and its id on the outer header only).
 */
import { isBalanceSheet } from "../accountTypes.ts";
import { shownName } from "../deleted.ts";
import type { Json } from "../entities.ts";
import type { Account, CompanyLedger, JournalEntry, JournalLine } from "../ledger.ts";
import { dayBefore, signedHome } from "../ledger.ts";
import { formatCents } from "../money.ts";
import { balanceAt, fiscalYearOf, natural } from "./books.ts";
import type { ReportParams } from "./params.ts";
import type { Cell } from "./rows.ts";
import { dataRow, reportHeader, sectionRow } from "./rows.ts";
import { accountTree, type AccountNode } from "./tree.ts";

function splitOf(ledger: CompanyLedger, entry: JournalEntry, line: JournalLine): { value: string; id?: string } {
  const others = entry.lines.filter((l) => l.id !== line.id && l.accountId !== line.accountId);
  const ids = new Set(others.map((l) => l.accountId));
  if (ids.size !== 1) return { value: "-Split-" };
  const id = [...ids][0] as string;
  return { value: accountName(ledger, id), id };
}

/** Other accounts named in a row (Split, Account) go by FullyQualifiedName, as references do. */
function accountName(ledger: CompanyLedger, id: string): string {
  const account = ledger.account(id);
  return account === undefined ? "" : shownName(ledger.fullyQualifiedName(account), account.active);
}

/**
 * The Transaction Type column: "Journal Entry" as recorded (reports/GeneralLedger_2020...), and
 * QuickBooks' report names of bills and bill payments, "Bill", "Bill Payment (Check)" and
 * "Bill Payment (Credit Card)" (its screens' names; no recording shows them).
 */
function txnTypeName(entry: JournalEntry): string {
  const doc = entry.document;
  if (doc === undefined) return "Journal Entry";
  if (doc.type === "Bill") return "Bill";
  return doc.payType === "Check" ? "Bill Payment (Check)" : "Bill Payment (Credit Card)";
}

/** The GL's Name column: the line's customer or vendor, with its id (as in the recorded GL). */
function nameOf(ledger: CompanyLedger, line: JournalLine): { value: string; id?: string } {
  if (line.entity === undefined) return { value: "" };
  const party = ledger.party(line.entity.id);
  return { value: party === undefined ? "" : shownName(party.displayName, party.active), id: line.entity.id };
}

/**
 * GeneralLedger columns by key (ColType), with their titles: the recorded default eight first
 * (reports/GeneralLedger_2020_sandbox..., in that order), then the multicurrency columns a
 * request can add with `columns=`: the line's amount in the transaction currency, the currency and
 * the exchange rate (keys as Intuit's report reference names them; their titles are QuickBooks'
 * screen labels, no recording shows them).
 */
const GL_TITLES: Record<string, string> = {
  tx_date: "Date",
  txn_type: "Transaction Type",
  doc_num: "Num",
  name: "Name",
  memo: "Memo/Description",
  split_acc: "Split",
  subt_nat_amount: "Amount",
  rbal_nat_amount: "Balance",
  nat_foreign_amount: "Foreign Amount",
  currency: "Currency",
  exch_rate: "Exchange Rate",
};
export const GENERAL_LEDGER_COLUMNS = Object.keys(GL_TITLES);
const DEFAULT_GL_COLUMNS = GENERAL_LEDGER_COLUMNS.slice(0, 8);

type GlCells = Partial<Record<string, Cell | string>>;

export function generalLedger(ledger: CompanyLedger, params: ReportParams, now: Date): Json {
  const { start, end } = params;
  const keys = params.columnKeys ?? DEFAULT_GL_COLUMNS;
  // Each row names its cells by key; the first column carries the row's label whatever it is.
  const pick = (cells: GlCells, label?: string): (Cell | string)[] => keys.map((k, i) => (i === 0 && label !== undefined ? label : (cells[k] ?? "")));
  const postings = new Map<string, { entry: JournalEntry; line: JournalLine }[]>();
  for (const entry of ledger.liveEntriesByDate()) {
    if (entry.txnDate < start || entry.txnDate > end) continue;
    for (const line of entry.lines) {
      let list = postings.get(line.accountId);
      if (list === undefined) postings.set(line.accountId, (list = []));
      list.push({ entry, line });
    }
  }
  const home = ledger.profile.currency;
  /** An account's own rows (Beginning Balance, then its postings) and their total, or undefined when it has neither. */
  const ownRows = (a: Account): { rows: Json[]; total: number; postings: number } | undefined => {
    const opening = isBalanceSheet(a.type)
      ? natural(a, balanceAt(ledger, a, dayBefore(start)))
      : natural(a, ledger.activity(a.id, fiscalYearOf(ledger, start), dayBefore(start)));
    const list = postings.get(a.id) ?? [];
    if (list.length === 0 && opening === 0) return undefined;
    const rows: Json[] = [dataRow(pick({ rbal_nat_amount: formatCents(opening) }, "Beginning Balance"))];
    let running = opening;
    let total = 0;
    for (const { entry, line } of list) {
      // Amount and Balance are in the home currency (signedHome); Foreign Amount is the line's
      // own amount in the transaction currency, signed the same way.
      const amount = natural(a, signedHome(line));
      running += amount;
      total += amount;
      const foreign = natural(a, line.posting === "Debit" ? line.amount : -line.amount);
      rows.push(
        dataRow(
          pick({
            tx_date: entry.txnDate,
            txn_type: { value: txnTypeName(entry), id: entry.id },
            doc_num: entry.docNumber ?? "",
            name: nameOf(ledger, line),
            memo: line.description ?? "",
            split_acc: splitOf(ledger, entry, line),
            subt_nat_amount: formatCents(amount),
            rbal_nat_amount: formatCents(running),
            nat_foreign_amount: formatCents(foreign),
            currency: entry.currency,
            exch_rate: entry.currency === home || entry.exchangeRate === undefined ? "1" : String(Number(entry.exchangeRate)),
          }),
        ),
      );
    }
    return { rows, total, postings: list.length };
  };
  // One Section per account; a sub-account's inside its parent's (as minimul-qbo_api/reports__gl__0 nests "Original Cost" in "Truck").
  // `account=`: only the named accounts, each a section of its own (a sub-account named without its parent stands alone).
  const named = params.account === undefined ? ledger.accounts : ledger.accounts.filter((a) => params.account?.includes(a.id));
  const own = new Map(named.map((a) => [a.id, ownRows(a)] as const));
  const section = (node: AccountNode): { row: Json; total: number; postings: number } => {
    const a = node.account;
    const mine = own.get(a.id);
    const below = node.subAccounts.map(section);
    const total = below.reduce((s, b) => s + b.total, mine?.total ?? 0);
    const count = below.reduce((s, b) => s + b.postings, mine?.postings ?? 0);
    const row = sectionRow({
      header: pick({}, "").map((c, i) => (i === 0 ? { value: shownName(a.name, a.active), id: a.id } : c)),
      rows: [...(mine?.rows ?? []), ...below.map((b) => b.row)],
      summary: pick({ subt_nat_amount: count === 0 ? "" : formatCents(total) }, `Total for ${shownName(a.name, a.active)}`),
    });
    return { row, total, postings: count };
  };
  const sections = accountTree(ledger, named, (a) => own.get(a.id) !== undefined).map((n) => section(n).row);
  return {
    Header: reportHeader({ now, name: "GeneralLedger", params, currency: home, summarize: false, accountingStandard: false, noData: sections.length === 0 }),
    Columns: { Column: keys.map((ColType) => ({ ColTitle: GL_TITLES[ColType] ?? ColType, ColType })) },
    Rows: sections.length === 0 ? {} : { Row: sections },
  };
}

export function transactionList(ledger: CompanyLedger, params: ReportParams, now: Date): Json {
  const rows: Json[] = [];
  for (const entry of ledger.liveEntriesByDate()) {
    if (entry.txnDate < params.start || entry.txnDate > params.end) continue;
    const first = entry.lines[0];
    if (first === undefined) continue;
    const total = entry.lines.filter((l) => l.posting === "Debit").reduce((s, l) => s + l.homeAmount, 0);
    rows.push(
      dataRow([
        entry.txnDate,
        { value: txnTypeName(entry), id: entry.id },
        entry.docNumber ?? "",
        "Yes",
        // A bill or bill payment names its vendor (its first line, the A/P or bank line, carries it).
        entry.document === undefined ? "" : nameOf(ledger, first),
        entry.privateNote ?? "",
        { value: accountName(ledger, first.accountId), id: first.accountId },
        splitOf(ledger, entry, first),
        formatCents(total),
      ]),
    );
  }
  const titles: [string, string][] = [
    ["Date", "tx_date"],
    ["Transaction Type", "txn_type"],
    ["Num", "doc_num"],
    ["Posting", "is_no_post"],
    ["Name", "name"],
    ["Memo/Description", "memo"],
    ["Account", "account_name"],
    ["Split", "other_account"],
    ["Amount", "subt_nat_amount"],
  ];
  return {
    Header: reportHeader({ now, name: "TransactionList", params, currency: ledger.profile.currency, summarize: false, accountingStandard: false, noData: rows.length === 0 }),
    Columns: { Column: titles.map(([ColTitle, ColType]) => ({ ColTitle, ColType })) },
    Rows: rows.length === 0 ? {} : { Row: rows },
  };
}
