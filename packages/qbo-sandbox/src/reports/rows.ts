/** The building blocks of Intuit's report JSON, keys in the recorded order. */
import type { Json } from "../entities.ts";
import { intuitTime } from "../faults.ts";
import type { ReportParams } from "./params.ts";

export interface Cell {
  readonly value: string;
  readonly id?: string | undefined;
}

export function cell(value: string, id?: string): Json {
  return id === undefined ? { value } : { value, id };
}

export function cells(list: readonly (Cell | string)[]): Json[] {
  return list.map((c) => (typeof c === "string" ? cell(c) : cell(c.value, c.id)));
}

export function dataRow(colData: readonly (Cell | string)[], extra: Json = {}): Json {
  return { ColData: cells(colData), type: "Data", ...extra };
}

export function sectionRow(input: {
  header?: readonly (Cell | string)[] | undefined;
  rows: readonly Json[];
  summary: readonly (Cell | string)[];
  group?: string | undefined;
}): Json {
  return {
    ...(input.header === undefined ? {} : { Header: { ColData: cells(input.header) } }),
    ...(input.rows.length === 0 ? {} : { Rows: { Row: input.rows } }),
    Summary: { ColData: cells(input.summary) },
    type: "Section",
    ...(input.group === undefined ? {} : { group: input.group }),
  };
}

/** Report `Time` has no milliseconds: "2020-09-29T08:14:02-07:00". */
export function reportTime(now: Date): string {
  return intuitTime(now).replace(/\.\d{3}(?=[+-])/, "");
}

export function reportHeader(input: {
  now: Date;
  name: string;
  params: ReportParams;
  currency: string;
  summarize: boolean;
  accountingStandard: boolean;
  noData: boolean;
}): Json {
  const p = input.params;
  return {
    Time: reportTime(input.now),
    ReportName: input.name,
    ...(p.dateMacro === undefined ? {} : { DateMacro: p.dateMacro }),
    ReportBasis: p.basis,
    StartPeriod: p.start,
    EndPeriod: p.end,
    ...(input.summarize ? { SummarizeColumnsBy: p.summarize } : {}),
    Currency: input.currency,
    // The name filters, echoed as Intuit's ReportHeader does: ids, comma-separated.
    ...(p.customer === undefined ? {} : { Customer: p.customer.join(",") }),
    ...(p.vendor === undefined ? {} : { Vendor: p.vendor.join(",") }),
    ...(p.class === undefined ? {} : { Class: p.class.join(",") }),
    ...(p.department === undefined ? {} : { Department: p.department.join(",") }),
    Option: [
      ...(input.accountingStandard ? [{ Name: "AccountingStandard", Value: "GAAP" }] : []),
      { Name: "NoReportData", Value: input.noData ? "true" : "false" },
    ],
  };
}

/** Account column plus one Money column per period (and a Total after several periods). */
export function moneyColumns(params: ReportParams, withTotal: boolean): Json[] {
  const out: Json[] = [{ ColTitle: "", ColType: "Account", MetaData: [{ Name: "ColKey", Value: "account" }] }];
  if (params.summarize === "Total") {
    out.push({ ColTitle: "Total", ColType: "Money", MetaData: [{ Name: "ColKey", Value: "total" }] });
    return out;
  }
  for (const c of params.columns) {
    out.push({
      ColTitle: c.title,
      ColType: "Money",
      MetaData: [
        { Name: "StartDate", Value: c.start },
        { Name: "EndDate", Value: c.end },
        { Name: "ColKey", Value: c.title },
      ],
    });
  }
  if (withTotal) out.push({ ColTitle: "Total", ColType: "Money", MetaData: [{ Name: "ColKey", Value: "total" }] });
  return out;
}
