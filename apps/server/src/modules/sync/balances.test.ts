import { parseReport } from "@groupledger/qbo";
import { describe, expect, it } from "vitest";
import { monthlyAmounts } from "./balances.ts";

type Column = { title: string; start?: string; end?: string; key?: string };

/** A report as QuickBooks sends it, summarized by month (one Money column per month, then maybe a Total). */
function report(name: "BalanceSheet" | "ProfitAndLoss", columns: Column[], rows: [id: string, label: string, ...values: string[]][]) {
  const meta = (c: Column) => [
    ...(c.start ? [{ Name: "StartDate", Value: c.start }] : []),
    ...(c.end ? [{ Name: "EndDate", Value: c.end }] : []),
    ...(c.key ? [{ Name: "ColKey", Value: c.key }] : []),
  ];
  return parseReport({
    Header: { ReportName: name, Currency: "GBP", SummarizeColumnsBy: "Month" },
    Columns: { Column: [{ ColTitle: "", ColType: "Account", MetaData: [{ Name: "ColKey", Value: "account" }] }, ...columns.map((c) => ({ ColTitle: c.title, ColType: "Money", MetaData: meta(c) }))] },
    Rows: {
      Row: [
        {
          type: "Section",
          Header: { ColData: [{ value: "Section" }] },
          Rows: { Row: rows.map(([id, label, ...values]) => ({ type: "Data", ColData: [{ value: label, id }, ...values.map((value) => ({ value }))] })) },
          Summary: { ColData: [{ value: "Total Section" }] },
        },
      ],
    },
  });
}

const JAN = { title: "Jan 2026", start: "2026-01-01", end: "2026-01-31", key: "Jan 2026" };
const FEB = { title: "Feb 2026", start: "2026-02-01", end: "2026-02-28", key: "Feb 2026" };

const CHART: Record<string, string> = { "35": "Asset", "33": "Liability", "3": "Equity", "79": "Revenue", "80": "Expense" };
const classification = (id: string) => CHART[id];

describe("monthlyAmounts", () => {
  it("a balance sheet gives closing balances, debit positive: liabilities and equity change sign, assets keep theirs", () => {
    const bs = report("BalanceSheet", [JAN, FEB], [
      ["35", "Checking", "1000.50", "1200.00"],
      ["33", "Loan", "5000.00", "4500.00"],
      ["3", "Opening Balance Equity", "-250.00", ""],
    ]);
    expect(monthlyAmounts(bs, classification)).toEqual({
      amounts: [
        { qboAccountId: "35", month: "2026-01", kind: "closing", amountMinor: 100_050 },
        { qboAccountId: "35", month: "2026-02", kind: "closing", amountMinor: 120_000 },
        { qboAccountId: "33", month: "2026-01", kind: "closing", amountMinor: -500_000 },
        { qboAccountId: "33", month: "2026-02", kind: "closing", amountMinor: -450_000 },
        { qboAccountId: "3", month: "2026-01", kind: "closing", amountMinor: 25_000 },
        { qboAccountId: "3", month: "2026-02", kind: "closing", amountMinor: 0 },
      ],
      unknownAccounts: [],
    });
  });

  it("a profit and loss gives each month's activity, income negative; its Total column is no month", () => {
    const pl = report("ProfitAndLoss", [JAN, FEB, { title: "Total", start: "2026-01-01", end: "2026-02-28", key: "total" }], [
      ["79", "Sales", "300.00", "200.00", "500.00"],
      ["80", "Rent", "100.00", "100.00", "200.00"],
    ]);
    expect(monthlyAmounts(pl, classification).amounts).toEqual([
      { qboAccountId: "79", month: "2026-01", kind: "activity", amountMinor: -30_000 },
      { qboAccountId: "79", month: "2026-02", kind: "activity", amountMinor: -20_000 },
      { qboAccountId: "80", month: "2026-01", kind: "activity", amountMinor: 10_000 },
      { qboAccountId: "80", month: "2026-02", kind: "activity", amountMinor: 10_000 },
    ]);
  });

  it("a one-month report's Total spans that month alone and is still not counted twice", () => {
    const pl = report("ProfitAndLoss", [JAN, { title: "Total", start: "2026-01-01", end: "2026-01-31", key: "total" }], [["80", "Rent", "100.00", "100.00"]]);
    expect(monthlyAmounts(pl, classification).amounts).toEqual([{ qboAccountId: "80", month: "2026-01", kind: "activity", amountMinor: 10_000 }]);
  });

  it("a column cut short by the report's dates is still its month; one spanning two months is none", () => {
    const pl = report("ProfitAndLoss", [{ title: "Jan 15-31, 2026", start: "2026-01-15", end: "2026-01-31" }, { title: "Odd", start: "2026-01-20", end: "2026-02-10" }], [["80", "Rent", "40.00", "70.00"]]);
    expect(monthlyAmounts(pl, classification).amounts).toEqual([{ qboAccountId: "80", month: "2026-01", kind: "activity", amountMinor: 4_000 }]);
  });

  it("a zero on a credit-natured account is 0, never -0 (stored and compared as written)", () => {
    const bs = report("BalanceSheet", [JAN], [["33", "Loan", "0.00"]]);
    const [amount] = monthlyAmounts(bs, classification).amounts;
    expect(Object.is(amount!.amountMinor, 0)).toBe(true);
  });

  it("reports back the accounts the chart does not know, and takes nothing from them", () => {
    const bs = report("BalanceSheet", [JAN], [
      ["35", "Checking", "10.00"],
      ["404", "Someone's new account", "99.00"],
    ]);
    expect(monthlyAmounts(bs, classification)).toEqual({
      amounts: [{ qboAccountId: "35", month: "2026-01", kind: "closing", amountMinor: 1_000 }],
      unknownAccounts: ["404"],
    });
  });
});
