/**
 * QBO reports: the nested Rows/Section/ColData structure flattened into typed rows.
 *
 * What real reports contain, and this parser accepts: Sections with only a Header or only a
 * Summary (empty groups, GrossProfit lines), Data rows without `type` (TrialBalance), rows with
 * their own `group` (the Net Income line of a BalanceSheet), section headers that are accounts
 * (a parent account with sub-accounts), empty strings in any cell, missing `Rows`, and
 * `NoReportData=true` (no rows at all). Money cells become exact minor units of the report's
 * currency; a money cell that is not a decimal is an error, never a silent zero.
 */
import { z } from "zod";
import { unexpectedResponse } from "./failures.ts";
import { AmountError, parseAmount, wireExponent } from "./money.ts";

export type ReportName = "TrialBalance" | "BalanceSheet" | "ProfitAndLoss" | "GeneralLedger" | "TransactionList";

export interface ReportColumn {
  readonly index: number;
  readonly title: string;
  /** `ColType`: 'Account', 'Money', 'tx_date', 'subt_nat_amount', ... */
  readonly type: string;
  /** MetaData `ColKey` ('account', 'total', 'Jan 2024', ...), when the report sends one. */
  readonly key: string | undefined;
  readonly startDate: string | undefined;
  readonly endDate: string | undefined;
  /** Cells of this column are amounts (parsed into `amounts`). */
  readonly money: boolean;
}

export type ReportRowKind = "data" | "summary" | "header";

export interface ReportCell {
  readonly value: string;
  readonly id: string | undefined;
}

export interface ReportRow {
  readonly kind: ReportRowKind;
  /** `ColData[0].id`: the account of a data row, or the parent account of a section header. */
  readonly accountId: string | undefined;
  /** `ColData[0].value`: account name, "Total Bank Accounts", "Beginning Balance", a date (GL)... */
  readonly accountName: string;
  /** The row's own `group`, else that of the nearest enclosing Section that has one. */
  readonly group: string | undefined;
  /** Sections enclosing the row (a section's header and summary sit at the section's own depth). */
  readonly depth: number;
  /** Header titles of the enclosing sections, outermost first. */
  readonly path: readonly string[];
  /** Nearest enclosing section whose header is an account (the account of a GeneralLedger line). */
  readonly sectionAccountId: string | undefined;
  /** One entry per column: minor units for money columns, null for empty cells and other columns. */
  readonly amounts: readonly (number | null)[];
  readonly cells: readonly ReportCell[];
}

export interface Report {
  readonly name: string;
  readonly basis: string | undefined;
  readonly startPeriod: string | undefined;
  readonly endPeriod: string | undefined;
  readonly currency: string | undefined;
  readonly summarizeColumnsBy: string | undefined;
  /** The Header's echo of a `customer` filter: the ids, comma-separated ("1" or "1,2"); absent when unfiltered. */
  readonly customer?: string | undefined;
  /** The Header's echo of a `vendor` filter. */
  readonly vendor?: string | undefined;
  readonly options: Readonly<Record<string, string>>;
  readonly noReportData: boolean;
  readonly columns: readonly ReportColumn[];
  readonly rows: readonly ReportRow[];
}

const nameValue = z.object({ Name: z.string(), Value: z.string().optional() });
const colData = z.object({ value: z.string().optional(), id: z.string().optional() });
const cells = z.object({ ColData: z.array(colData).optional() });

interface WireRow {
  type?: string | undefined;
  group?: string | undefined;
  ColData?: { value?: string | undefined; id?: string | undefined }[] | undefined;
  Header?: { ColData?: { value?: string | undefined; id?: string | undefined }[] | undefined } | undefined;
  Summary?: { ColData?: { value?: string | undefined; id?: string | undefined }[] | undefined } | undefined;
  Rows?: { Row?: WireRow[] | undefined } | undefined;
}

const rowSchema: z.ZodType<WireRow> = z.lazy(() =>
  z.object({
    type: z.string().optional(),
    group: z.string().optional(),
    ColData: z.array(colData).optional(),
    Header: cells.optional(),
    Summary: cells.optional(),
    Rows: z.object({ Row: z.array(rowSchema).optional() }).optional(),
  }),
);

const reportSchema = z.object({
  Header: z.object({
    ReportName: z.string(),
    ReportBasis: z.string().optional(),
    StartPeriod: z.string().optional(),
    EndPeriod: z.string().optional(),
    Currency: z.string().optional(),
    SummarizeColumnsBy: z.string().optional(),
    Customer: z.string().optional(),
    Vendor: z.string().optional(),
    Option: z.array(nameValue).optional(),
  }),
  Columns: z
    .object({
      Column: z
        .array(z.object({ ColTitle: z.string().optional(), ColType: z.string().optional(), MetaData: z.array(nameValue).optional() }))
        .optional(),
    })
    .optional(),
  Rows: z.object({ Row: z.array(rowSchema).optional() }).optional(),
});

/** ColTypes whose cells are amounts: 'Money' in summary reports; GL/TransactionList say e.g. 'subt_nat_amount'. */
function isMoneyType(type: string): boolean {
  return type === "Money" || /amount|(^|_)amt$/i.test(type);
}

export function parseReport(json: unknown): Report {
  const parsed = reportSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw unexpectedResponse("the report did not have the expected shape", issues.join("; "));
  }
  const { Header: header, Columns: wireColumns, Rows: wireRows } = parsed.data;
  const options: Record<string, string> = {};
  for (const o of header.Option ?? []) options[o.Name] = o.Value ?? "";
  const noReportData = options["NoReportData"]?.toLowerCase() === "true";
  const exponent = wireExponent(header.Currency);

  const columns: ReportColumn[] = (wireColumns?.Column ?? []).map((c, index) => {
    const meta: Record<string, string> = {};
    for (const m of c.MetaData ?? []) meta[m.Name] = m.Value ?? "";
    const type = c.ColType ?? "";
    return {
      index,
      title: c.ColTitle ?? "",
      type,
      key: meta["ColKey"],
      startDate: meta["StartDate"],
      endDate: meta["EndDate"],
      money: isMoneyType(type),
    };
  });

  const rows: ReportRow[] = [];
  if (!noReportData) {
    const toRow = (kind: ReportRowKind, data: WireRow["ColData"], ctx: Context, group: string | undefined): ReportRow => {
      const list = data ?? [];
      const cellList = list.map((c) => ({ value: c.value ?? "", id: c.id === "" ? undefined : c.id }));
      const amounts = columns.map((col) => {
        const raw = cellList[col.index]?.value.trim() ?? "";
        if (!col.money || raw === "") return null;
        try {
          return parseAmount(raw, exponent);
        } catch (e) {
          if (e instanceof AmountError) {
            throw unexpectedResponse(`a ${header.ReportName} cell in column "${col.title || col.type}" is not an amount`, e.message);
          }
          throw e;
        }
      });
      return {
        kind,
        accountId: cellList[0]?.id,
        accountName: cellList[0]?.value ?? "",
        group,
        depth: ctx.path.length,
        path: ctx.path,
        sectionAccountId: ctx.sectionAccountId,
        amounts,
        cells: cellList,
      };
    };

    const walk = (list: readonly WireRow[], ctx: Context): void => {
      for (const row of list) {
        const isSection = row.type === "Section" || row.Header !== undefined || row.Rows !== undefined || row.Summary !== undefined;
        if (!isSection) {
          // TrialBalance data rows carry no `type`; anything with ColData is a data row.
          if (row.ColData !== undefined) rows.push(toRow("data", row.ColData, ctx, row.group ?? ctx.group));
          continue;
        }
        const group = row.group ?? ctx.group;
        if (row.Header !== undefined) rows.push(toRow("header", row.Header.ColData, ctx, group));
        const headerCell = row.Header?.ColData?.[0];
        const title = headerCell?.value ?? "";
        const headerAccount = headerCell?.id === "" ? undefined : headerCell?.id;
        walk(row.Rows?.Row ?? [], {
          path: [...ctx.path, title],
          group,
          sectionAccountId: headerAccount ?? ctx.sectionAccountId,
        });
        if (row.Summary !== undefined) rows.push(toRow("summary", row.Summary.ColData, ctx, group));
      }
    };
    walk(wireRows?.Row ?? [], { path: [], group: undefined, sectionAccountId: undefined });
  }

  return {
    name: header.ReportName,
    basis: header.ReportBasis,
    startPeriod: header.StartPeriod,
    endPeriod: header.EndPeriod,
    currency: header.Currency,
    summarizeColumnsBy: header.SummarizeColumnsBy,
    ...(header.Customer === undefined ? {} : { customer: header.Customer }),
    ...(header.Vendor === undefined ? {} : { vendor: header.Vendor }),
    options,
    noReportData,
    columns,
    rows,
  };
}

interface Context {
  readonly path: readonly string[];
  readonly group: string | undefined;
  readonly sectionAccountId: string | undefined;
}

/** The money columns, in order (per-period columns, then any 'total'). */
export function moneyColumns(report: Report): ReportColumn[] {
  return report.columns.filter((c) => c.money);
}

/**
 * Amounts per account from the data rows that name an account (`ColData[0].id`), one entry per
 * money column (empty cells are 0). For a TrialBalance the Debit and Credit columns become one
 * signed number, debit − credit. Section headers and summaries are skipped: a parent account's
 * own balance is a data row of its own, and its summary includes the sub-accounts.
 */
export function balancesByAccount(report: Report): Map<string, number[]> {
  const money = moneyColumns(report);
  const trialBalance = report.name === "TrialBalance";
  const debit = trialBalance ? findColumn(money, /^debit$/i) : undefined;
  const credit = trialBalance ? findColumn(money, /^credit$/i) : undefined;
  if (trialBalance && (debit === undefined || credit === undefined)) {
    throw unexpectedResponse("the TrialBalance has no Debit and Credit columns", money.map((c) => c.title).join(", "));
  }
  const result = new Map<string, number[]>();
  for (const row of report.rows) {
    if (row.kind !== "data" || row.accountId === undefined) continue;
    const values =
      debit !== undefined && credit !== undefined
        ? [(row.amounts[debit.index] ?? 0) - (row.amounts[credit.index] ?? 0)]
        : money.map((c) => row.amounts[c.index] ?? 0);
    const previous = result.get(row.accountId);
    // QBO lists an account once; should it ever repeat one, adding keeps the report's totals.
    result.set(row.accountId, previous === undefined ? values : previous.map((v, i) => v + (values[i] ?? 0)));
  }
  return result;
}

function findColumn(columns: readonly ReportColumn[], title: RegExp): ReportColumn | undefined {
  return columns.find((c) => title.test(c.title.trim()) || title.test(c.key ?? ""));
}
