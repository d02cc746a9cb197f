/**
 * The books as a cash-basis report reads them (`accounting_method=Cash`): one transformation of the
 * ledger's postings, so every report that takes the basis computes from the same view.
 *
 * QuickBooks reports a bill's expenses on the cash basis only as the bill is paid: Intuit's glossary
 * ("Accrual basis": an accrual report shows "expenses regardless of whether you have paid all your
 * bills", so a cash report shows them as paid). So here:
 * - a Bill contributes nothing: neither its expense lines nor its A/P credit;
 * - each BillPayment keeps its credit to the bank or card, and in place of its A/P debit carries
 *   the paid bill's expense lines, on the payment's date, pro rata to what it pays: QuickBooks
 *   applies a partial payment to each line "in the proportion that the total payment bears to the
 *   pre-tax subtotal" (qbgarage.com, "How does QuickBooks apply a customer payment to an invoice
 *   with multiple line items", for invoices; the same rule for bills is an assumption);
 * - journal entries count in full, as on the accrual basis (Intuit, INF13316: "journal entries that
 *   impact a balance sheet account as well as an income/expense account will impact both cash and
 *   accrual basis reports").
 * So A/P that bills and their payments post nets to nothing, and cash differs from accrual exactly
 * by the bills still open. A bill's lines keep their class, location, description and vendor.
 *
 * Pro rata in cents: after each payment (in date order, then id order) the amount paid so far is
 * split over the bill's lines by largest remainder, and a payment carries the difference it makes;
 * so a bill paid in full has counted each line's exact amount, whatever the payments.
 */
import type { CompanyLedger, JournalEntry, JournalLine } from "./ledger.ts";
import { totalOf } from "./ledger.ts";

export function cashBasisBooks(ledger: CompanyLedger): CompanyLedger {
  const live = ledger.entries.filter((e) => e.deletedTime === undefined);
  if (live.every((e) => e.document === undefined)) return ledger;
  const entries: JournalEntry[] = [];
  for (const e of live) {
    if (e.document === undefined) entries.push(e);
    else if (e.document.type === "BillPayment") entries.push({ ...e, lines: paidExpenses(ledger, e) });
    // A bill counts only through its payments.
  }
  return ledger.withEntries(entries);
}

/** A payment's credit line(s), then what it pays of each bill's lines. */
function paidExpenses(ledger: CompanyLedger, payment: JournalEntry): JournalLine[] {
  const out = payment.lines.filter((l) => l.posting === "Credit");
  const billIds = new Set(payment.document?.type === "BillPayment" ? payment.document.links.map((l) => l.billId) : []);
  for (const billId of billIds) {
    const bill = ledger.entry(billId);
    const paid = ledger.paymentsOf(billId);
    const at = paid.findIndex((p) => p.payment.id === payment.id);
    if (bill === undefined || at < 0) continue;
    const before = paid.slice(0, at).reduce((s, p) => s + p.amount, 0);
    const after = before + (paid[at]?.amount ?? 0);
    const expenses = bill.lines.filter((l) => l.posting === "Debit");
    const total = totalOf(bill);
    const was = share(expenses, before, total);
    const now = share(expenses, after, total);
    expenses.forEach((l, k) => {
      const amount = (now[k] as number) - (was[k] as number);
      if (amount === 0) return;
      const abs = Math.abs(amount);
      out.push({ ...l, id: `${billId}.${l.id}`, posting: amount > 0 ? "Debit" : "Credit", amount: abs, homeAmount: abs });
    });
  }
  return out;
}

/** `paid` cents of a bill of `total` split over its lines in proportion to their amounts, largest remainder first. */
function share(lines: readonly JournalLine[], paid: number, total: number): number[] {
  if (total === 0 || paid === 0) return lines.map(() => 0);
  const whole = BigInt(total);
  const exact = lines.map((l) => BigInt(l.amount) * BigInt(paid));
  const out = exact.map((x) => Number(x / whole));
  let left = paid - out.reduce((s, v) => s + v, 0);
  const byRemainder = exact.map((x, k) => ({ k, r: x % whole })).sort((a, b) => (a.r === b.r ? a.k - b.k : a.r > b.r ? -1 : 1));
  for (const { k } of byRemainder) {
    if (left <= 0) break;
    out[k] = (out[k] as number) + 1;
    left -= 1;
  }
  return out;
}
