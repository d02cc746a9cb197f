import { parseReport } from "@groupledger/qbo";
import { describe, expect, it } from "vitest";
import { FOREIGN_GL_COLUMNS, foreignLedgerParams, foreignMonthEnds } from "./foreign.ts";

/** A GeneralLedger as the emulator and Intuit's report reference shape it, with the columns foreign.ts asks for. */
function ledger(sections: { id: string; name: string; beginning: string; lines: [date: string, foreign: string, currency: string][] }[]) {
  const cols = FOREIGN_GL_COLUMNS;
  const cell = (v: string) => ({ value: v });
  return parseReport({
    Header: { ReportName: "GeneralLedger", Currency: "USD", StartPeriod: "2023-01-01", EndPeriod: "2023-04-30" },
    Columns: { Column: cols.map((c) => ({ ColTitle: c, ColType: c })) },
    Rows: {
      Row: sections.map((s) => ({
        Header: { ColData: [{ value: s.name, id: s.id }, cell(""), cell(""), cell("")] },
        Rows: {
          Row: [
            { type: "Data", ColData: [cell("Beginning Balance"), cell(s.beginning), cell(""), cell("")] },
            ...s.lines.map(([d, f, c]) => ({ type: "Data", ColData: [cell(d), cell("0.00"), cell(f), cell(c)] })),
          ],
        },
        Summary: { ColData: [cell(`Total for ${s.name}`), cell(""), cell(""), cell("")] },
        type: "Section",
      })),
    },
  });
}

describe("foreign-currency balances from the GeneralLedger's Foreign Amount", () => {
  it("sums each account's lines by month into month-end balances through `to`, debit positive", () => {
    const report = ledger([
      { id: "16", name: "Loan GBP", beginning: "0.00", lines: [["2023-02-10", "1500000.00", "GBP"], ["2023-04-12", "-500000.00", "GBP"]] },
      // A liability shows credits as positive: turned debit positive.
      { id: "30", name: "Payable EUR", beginning: "0.00", lines: [["2023-03-31", "250.50", "EUR"]] },
    ]);
    const { balances, unknown } = foreignMonthEnds(report, [{ id: "16", currency: "GBP", creditNatured: false }, { id: "30", currency: "EUR", creditNatured: true }], "2023-05");
    expect(unknown).toEqual([]);
    expect(balances).toEqual([
      { qboAccountId: "16", month: "2023-02", currency: "GBP", amountMinor: 150_000_000 },
      { qboAccountId: "16", month: "2023-03", currency: "GBP", amountMinor: 150_000_000 },
      { qboAccountId: "16", month: "2023-04", currency: "GBP", amountMinor: 100_000_000 },
      { qboAccountId: "16", month: "2023-05", currency: "GBP", amountMinor: 100_000_000 },
      { qboAccountId: "30", month: "2023-03", currency: "EUR", amountMinor: -25_050 },
      { qboAccountId: "30", month: "2023-04", currency: "EUR", amountMinor: -25_050 },
      { qboAccountId: "30", month: "2023-05", currency: "EUR", amountMinor: -25_050 },
    ]);
  });

  it("leaves out an account whose history starts before what was read (a Beginning Balance), rather than guess", () => {
    const report = ledger([{ id: "16", name: "Loan GBP", beginning: "1270000.00", lines: [["2023-02-10", "10.00", "GBP"]] }]);
    expect(foreignMonthEnds(report, [{ id: "16", currency: "GBP", creditNatured: false }], "2023-03")).toEqual({ balances: [], unknown: ["16"] });
  });

  it("reads foreign amounts in the account currency's own decimals, and refuses a line in another currency", () => {
    const yen = ledger([{ id: "5", name: "Bank JPY", beginning: "0.00", lines: [["2023-01-05", "12345", "JPY"]] }]);
    expect(foreignMonthEnds(yen, [{ id: "5", currency: "JPY", creditNatured: false }], "2023-01").balances).toEqual([{ qboAccountId: "5", month: "2023-01", currency: "JPY", amountMinor: 12_345 }]);
    const mixed = ledger([{ id: "5", name: "Bank JPY", beginning: "0.00", lines: [["2023-01-05", "10.00", "EUR"]] }]);
    expect(() => foreignMonthEnds(mixed, [{ id: "5", currency: "JPY", creditNatured: false }], "2023-01")).toThrow(/is in EUR/);
  });

  it("asks for those accounts alone, from the first month, with the columns it reads", () => {
    expect(foreignLedgerParams([{ id: "16", currency: "GBP", creditNatured: false }, { id: "17", currency: "CAD", creditNatured: false }], "2023-01", "2026-10")).toEqual({
      start_date: "2023-01-01",
      end_date: "2026-10-31",
      account: "16,17",
      columns: "tx_date,rbal_nat_amount,nat_foreign_amount,currency",
      accounting_method: "Accrual",
    });
  });
});
