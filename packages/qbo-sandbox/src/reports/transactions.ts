/**
 * GeneralLedger (reports/GeneralLedger_2020_sandbox...: one Section per account with a Beginning
 * Balance row, one row per posting with a running balance, "Total for ...") and TransactionList
 * (one Data row per transaction). Every transaction here is a journal entry.
 */
import { isBalanceSheet } from "../accountTypes.ts";
import type { Json } from "../entities.ts";
import type { CompanyLedger, JournalEntry, JournalLine } from "../ledger.ts";
import { dayBefore, signedHome } from "../ledger.ts";
import { formatCents } from "../money.ts";
import { balanceAt, chartOrder, fiscalYearOf, natural } from "./books.ts";
import type { ReportParams } from "./params.ts";
import { dataRow, reportHeader, sectionRow } from "./rows.ts";

function splitOf(ledger: CompanyLedger, entry: JournalEntry, line: JournalLine): { value: string; id?: string } {
  const others = entry.lines.filter((l) => l.id !== line.id && l.accountId !== line.accountId);
  const ids = new Set(others.map((l) => l.accountId));
  if (ids.size !== 1) return { value: "-Split-" };
  const id = [...ids][0] as string;
  return { value: ledger.account(id)?.name ?? "", id };
}

/** The GL's Name column: the line's customer or vendor, with its id (as in the recorded GL). */
function nameOf(ledger: CompanyLedger, line: JournalLine): { value: string; id?: string } {
  if (line.entity === undefined) return { value: "" };
  return { value: ledger.party(line.entity.id)?.displayName ?? "", id: line.entity.id };
}

export function generalLedger(ledger: CompanyLedger, params: ReportParams, now: Date): Json {
  const { start, end } = params;
  const postings = new Map<string, { entry: JournalEntry; line: JournalLine }[]>();
  for (const entry of ledger.liveEntriesByDate()) {
    if (entry.txnDate < start || entry.txnDate > end) continue;
    for (const line of entry.lines) {
      let list = postings.get(line.accountId);
      if (list === undefined) postings.set(line.accountId, (list = []));
      list.push({ entry, line });
    }
  }
  const sections: Json[] = [];
  for (const a of [...ledger.accounts].sort(chartOrder)) {
    const opening = isBalanceSheet(a.type)
      ? natural(a, balanceAt(ledger, a, dayBefore(start)))
      : natural(a, ledger.activity(a.id, fiscalYearOf(ledger, start), dayBefore(start)));
    const list = postings.get(a.id) ?? [];
    if (list.length === 0 && opening === 0) continue;
    const empty = ["", "", "", "", "", ""];
    const rows: Json[] = [dataRow(["Beginning Balance", ...empty, formatCents(opening)])];
    let running = opening;
    let total = 0;
    for (const { entry, line } of list) {
      const amount = natural(a, signedHome(line));
      running += amount;
      total += amount;
      rows.push(
        dataRow([
          entry.txnDate,
          { value: "Journal Entry", id: entry.id },
          entry.docNumber ?? "",
          nameOf(ledger, line),
          line.description ?? "",
          splitOf(ledger, entry, line),
          formatCents(amount),
          formatCents(running),
        ]),
      );
    }
    sections.push(
      sectionRow({
        header: [{ value: a.name, id: a.id }, "", "", "", "", "", "", ""],
        rows,
        summary: [`Total for ${a.name}`, "", "", "", "", "", list.length === 0 ? "" : formatCents(total), ""],
      }),
    );
  }
  const titles: [string, string][] = [
    ["Date", "tx_date"],
    ["Transaction Type", "txn_type"],
    ["Num", "doc_num"],
    ["Name", "name"],
    ["Memo/Description", "memo"],
    ["Split", "split_acc"],
    ["Amount", "subt_nat_amount"],
    ["Balance", "rbal_nat_amount"],
  ];
  return {
    Header: reportHeader({ now, name: "GeneralLedger", params, currency: ledger.profile.currency, summarize: false, accountingStandard: false, noData: sections.length === 0 }),
    Columns: { Column: titles.map(([ColTitle, ColType]) => ({ ColTitle, ColType })) },
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
        { value: "Journal Entry", id: entry.id },
        entry.docNumber ?? "",
        "Yes",
        "",
        entry.privateNote ?? "",
        { value: ledger.account(first.accountId)?.name ?? "", id: first.accountId },
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
