import type { CashFlowReport } from "@groupledger/contract";
import { formatAmount } from "@groupledger/domain";

type Statement = NonNullable<CashFlowReport["statement"]>;

/** One row of the statement as shown: a section heading, an account line, a subtotal or a total. */
export interface CashFlowRow {
  key: string;
  label: string;
  amount: number | null;
  kind: "heading" | "line" | "subtotal" | "total";
}

/**
 * The statement of cash flows, indirect method, in the order IAS 7 presents it: operating (profit,
 * non-cash items, working capital), investing, financing, the net change, the effect of exchange
 * rate changes on cash (IAS 7.28, its own line), then opening and closing cash.
 */
export function cashFlowRows(s: Statement): CashFlowRow[] {
  const rows: CashFlowRow[] = [];
  const heading = (key: string, label: string) => rows.push({ key, label, amount: null, kind: "heading" });
  const lines = (prefix: string, list: Statement["investing"]["lines"]) => {
    for (const l of list) rows.push({ key: `${prefix}:${l.account}`, label: l.name, amount: l.amount, kind: "line" });
  };
  heading("operating", "Cash flows from operating activities");
  rows.push({ key: "profit", label: "Profit for the period", amount: s.operating.profit, kind: "line" });
  if (s.operating.adjustments.length) heading("adjustments", "Adjustments for non-cash items");
  lines("adjustment", s.operating.adjustments);
  if (s.operating.workingCapital.length) heading("working-capital", "Changes in working capital");
  lines("working", s.operating.workingCapital);
  rows.push({ key: "operating-total", label: "Net cash from operating activities", amount: s.operating.total, kind: "subtotal" });
  heading("investing", "Cash flows from investing activities");
  lines("investing", s.investing.lines);
  rows.push({ key: "investing-total", label: "Net cash from investing activities", amount: s.investing.total, kind: "subtotal" });
  heading("financing", "Cash flows from financing activities");
  lines("financing", s.financing.lines);
  rows.push({ key: "financing-total", label: "Net cash from financing activities", amount: s.financing.total, kind: "subtotal" });
  rows.push({ key: "net", label: "Net increase (decrease) in cash and cash equivalents", amount: s.netCashFlow, kind: "total" });
  rows.push({ key: "fx", label: "Effect of exchange rate changes on cash and cash equivalents", amount: s.exchangeEffect.total, kind: "line" });
  rows.push({ key: "opening", label: "Cash and cash equivalents at the beginning of the period", amount: s.openingCash, kind: "line" });
  rows.push({ key: "closing", label: "Cash and cash equivalents at the end of the period", amount: s.closingCash, kind: "total" });
  return rows;
}

/** The reconciliation line: opening cash + the net change (with the exchange effect) against the closing cash, to the cent. */
export function reconciliationText(s: Statement): { ok: boolean; text: string } {
  const money = (n: number) => formatAmount(n, s.currency);
  const sum = `${money(s.openingCash)} + ${money(s.netCashFlow)} + ${money(s.exchangeEffect.total)} = ${money(s.reconciliation.computedClosingCash)}`;
  if (s.reconciliation.reconciles) return { ok: true, text: `Opening cash + net change + exchange effect = closing cash: ${sum}. Reconciles to the cent.` };
  return {
    ok: false,
    text: `Opening cash + net change + exchange effect = ${money(s.reconciliation.computedClosingCash)}, but the closing cash is ${money(s.closingCash)}: does not reconcile, a difference of ${money(s.reconciliation.difference)}.`,
  };
}
