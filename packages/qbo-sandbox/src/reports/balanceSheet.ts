/**
 * BalanceSheet: cumulative balances at each column's end date, grouped like Intuit's
 * (reports/BalanceSheet_2019_sandbox...): TotalAssets > CurrentAssets > BankAccounts/AR/
 * OtherCurrentAssets, FixedAssets, OtherAssets; TotalLiabilitiesAndEquity > Liabilities >
 * CurrentLiabilities > AP/CreditCards/OtherCurrentLiabilities, LongTermLiabilities; Equity with
 * Retained Earnings (earlier years closed in) and the year-to-date Net Income row. A parent
 * account with sub-accounts is a section of its own (reports/tree.ts).
 */
import type { AccountType } from "../accountTypes.ts";
import type { Json } from "../entities.ts";
import type { Account, CompanyLedger } from "../ledger.ts";
import { formatCents } from "../money.ts";
import { balanceAt, fiscalYearOf, natural, profitBetween, showsOnBalanceSheet } from "./books.ts";
import { reportColumns } from "./columns.ts";
import type { ReportParams } from "./params.ts";
import { dataRow, reportHeader, sectionRow } from "./rows.ts";
import { accountTree, nestedRows, type OwnRow } from "./tree.ts";

interface Block {
  readonly rows: Json[];
  /** Per column, natural sign, cents. */
  readonly totals: number[];
}

const LEAVES: readonly { type: AccountType; group: string; title: string }[] = [
  { type: "Bank", group: "BankAccounts", title: "Bank Accounts" },
  { type: "Accounts Receivable", group: "AR", title: "Accounts Receivable" },
  { type: "Other Current Asset", group: "OtherCurrentAssets", title: "Other Current Assets" },
  { type: "Fixed Asset", group: "FixedAssets", title: "Fixed Assets" },
  { type: "Other Asset", group: "OtherAssets", title: "Other Assets" },
  { type: "Accounts Payable", group: "AP", title: "Accounts Payable" },
  { type: "Credit Card", group: "CreditCards", title: "Credit Cards" },
  { type: "Other Current Liability", group: "OtherCurrentLiabilities", title: "Other Current Liabilities" },
  { type: "Long Term Liability", group: "LongTermLiabilities", title: "Long-Term Liabilities" },
  { type: "Equity", group: "Equity", title: "Equity" },
];

export function balanceSheet(ledger: CompanyLedger, params: ReportParams, now: Date): Json {
  const layout = reportColumns(ledger, params, "BalanceSheet");
  const ends = layout.columns.map((c) => c.end);
  const books = layout.columns.map((c) => c.ledger);
  const at = (i: number): CompanyLedger => books[i] as CompanyLedger;
  const blank = (): string[] => ends.map(() => "");
  const money = (values: readonly number[]): string[] => values.map(formatCents);
  const zero = (): number[] => ends.map(() => 0);
  const lastEnd = params.end;

  const ownRow = (a: Account): OwnRow | undefined => {
    if (!showsOnBalanceSheet(ledger, a, lastEnd)) return undefined;
    const values = ends.map((d, i) => natural(a, balanceAt(at(i), a, d)));
    return { cells: ends.map((d, i) => (showsOnBalanceSheet(at(i), a, d) ? formatCents(values[i] as number) : "")), values };
  };

  // Sub-accounts nest under their parent account (reports/tree.ts).
  const leaf = (type: AccountType): Block => {
    const accounts = ledger.accounts.filter((a) => a.type === type);
    return nestedRows(accountTree(ledger, accounts, (a) => showsOnBalanceSheet(ledger, a, lastEnd)), ends.length, ownRow);
  };

  const wrap = (group: string, title: string, block: Block, always = false): Block => {
    if (block.rows.length === 0 && !always) return block;
    return {
      rows: [sectionRow({ header: [title, ...blank()], rows: block.rows, summary: [`Total ${title}`, ...money(block.totals)], group })],
      totals: block.totals,
    };
  };

  const merge = (...blocks: Block[]): Block => {
    const totals = zero();
    for (const b of blocks) b.totals.forEach((v, i) => (totals[i] = (totals[i] as number) + v));
    return { rows: blocks.flatMap((b) => b.rows), totals };
  };

  const leafSection = (type: AccountType): Block => {
    const spec = LEAVES.find((l) => l.type === type);
    if (spec === undefined) throw new Error(type);
    return wrap(spec.group, spec.title, leaf(type));
  };

  const current = wrap("CurrentAssets", "Current Assets", merge(leafSection("Bank"), leafSection("Accounts Receivable"), leafSection("Other Current Asset")));
  const assets = merge(current, leafSection("Fixed Asset"), leafSection("Other Asset"));
  const currentLiabilities = wrap(
    "CurrentLiabilities",
    "Current Liabilities",
    merge(leafSection("Accounts Payable"), leafSection("Credit Card"), leafSection("Other Current Liability")),
  );
  const liabilities = wrap("Liabilities", "Liabilities", merge(currentLiabilities, leafSection("Long Term Liability")));

  const equityAccounts = leaf("Equity");
  const netIncome = ends.map((d, i) => profitBetween(at(i), fiscalYearOf(ledger, d), d));
  const equity = wrap(
    "Equity",
    "Equity",
    {
      rows: [...equityAccounts.rows, dataRow(["Net Income", ...money(netIncome)], { group: "NetIncome" })],
      totals: equityAccounts.totals.map((v, i) => v + (netIncome[i] as number)),
    },
    true,
  );
  const liabilitiesAndEquity = merge(liabilities, equity);

  const noData = ledger.accounts.every((a) => !ledger.hasPostings(a.id, "0000-01-01", lastEnd));
  const totalCells = (b: Block): string[] => (noData ? blank() : money(b.totals));
  return {
    Header: reportHeader({ now, name: "BalanceSheet", params, currency: ledger.profile.currency, summarize: true, accountingStandard: true, noData }),
    Columns: { Column: layout.json },
    Rows: {
      Row: [
        sectionRow({ header: ["ASSETS", ...blank()], rows: noData ? [] : assets.rows, summary: ["TOTAL ASSETS", ...totalCells(assets)], group: "TotalAssets" }),
        sectionRow({
          header: ["LIABILITIES AND EQUITY", ...blank()],
          rows: noData ? [] : liabilitiesAndEquity.rows,
          summary: ["TOTAL LIABILITIES AND EQUITY", ...totalCells(liabilitiesAndEquity)],
          group: "TotalLiabilitiesAndEquity",
        }),
      ],
    },
  };
}
