import type { ChangesInEquityReport } from "@groupledger/contract";
import { EQUITY_COLUMN_LABELS, EQUITY_COLUMNS } from "@groupledger/domain";

type Row = NonNullable<ChangesInEquityReport["statement"]>["rows"][number];

const row = (kind: Row["kind"], label: string, c: { shareCapital?: number; retainedEarnings?: number; translationReserve?: number; otherReserves?: number; nci?: number }): Row => {
  const a = { shareCapital: 0, retainedEarnings: 0, translationReserve: 0, otherReserves: 0, nci: 0, ...c };
  const parent = a.shareCapital + a.retainedEarnings + a.translationReserve + a.otherReserves;
  return { kind, label, amounts: { ...a, parent, total: parent + a.nci } };
};

/** Basil / Manuel's year 20X8 as the engine states it (domain changes-in-equity.test.ts), with a share capital of $1,000. */
export function equityFixture(over: { difference?: Partial<Row["amounts"]> } = {}): ChangesInEquityReport {
  const closing = row("closing", "Balance at December 2026 month-end", { shareCapital: 1_000_00, retainedEarnings: 17_680_00, translationReserve: 6_096_00, nci: 2_664_00 });
  const diff = { shareCapital: 0, retainedEarnings: 0, translationReserve: 0, otherReserves: 0, parent: 0, nci: 0, total: 0, ...over.difference };
  const sheet = { ...closing.amounts };
  for (const k of EQUITY_COLUMNS) sheet[k] += diff[k];
  return {
    ok: true,
    problems: [],
    warnings: [],
    period: { from: "2026-01", to: "2026-12", label: "2026-01 to 2026-12" },
    parentCurrency: "USD",
    exponent: 2,
    statement: {
      openingMonth: "2025-12",
      columns: EQUITY_COLUMNS.map((id) => ({ id, label: EQUITY_COLUMN_LABELS[id] })),
      rows: [
        row("opening", "Balance at December 2025 month-end", { shareCapital: 1_000_00, retainedEarnings: 11_440_00, translationReserve: 2_522_66, nci: 1_610_67 }),
        row("profit", "Profit for the period", { retainedEarnings: 6_240_00, nci: 160_00 }),
        row("translation", "Other comprehensive income: exchange differences on translating foreign operations", { translationReserve: 3_573_34, nci: 893_33 }),
        row("comprehensiveIncome", "Total comprehensive income for the period", { retainedEarnings: 6_240_00, translationReserve: 3_573_34, nci: 1_053_33 }),
        row("dividends", "Dividends", {}),
        row("shareIssues", "Issue of share capital", {}),
        closing,
      ],
      balanceSheet: { kind: "balanceSheet", label: "Consolidated balance sheet at December 2026 month-end", amounts: sheet },
      difference: { kind: "difference", label: "Difference (balance sheet − statement)", amounts: diff },
      reconciles: EQUITY_COLUMNS.every((k) => diff[k] === 0),
    },
  };
}
