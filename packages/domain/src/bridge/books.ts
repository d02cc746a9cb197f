import { qboEquityKind, type ChartAccount } from "../coa/mapping-rules.ts";
import type { EquityKind } from "../consolidation/input-schema.ts";
import { formatAmount } from "../money/format.ts";
import { fiscalYearStart, formatMonth, monthList, parseMonth } from "../periods/month.ts";
import { accountLabel, type Problem } from "./problems.ts";

/**
 * The bridge's pure rules (issue 16: reads in the server, rules here, tested without a database).
 * A company's synced books turned into the local books the consolidation engine accepts
 * (docs/engine.md, "Local books the engine accepts").
 *
 * What sync stores (modules/sync/handler.ts): debit-positive minor units, month-end closings of
 * balance-sheet accounts and the month's activity of P&L accounts, exactly as QBO reports them.
 * QBO has no closing entry: its Retained Earnings account holds the profit of earlier fiscal
 * years only (the report's "Net Income" line, which is not an account, carries the current one),
 * so a synced month balances as closings + fiscal-year-to-date P&L = 0.
 *
 * The engine wants retained earnings that include the year's profit and move month by month by
 * exactly the month's result plus the dividends declared. The conversion:
 *
 *   RE_engine(m) = RE_qbo(m) + P&L activity from the start of the company's own fiscal year
 *                  (its QBO fiscal year, which is when QBO rolls profit into Retained Earnings)
 *                  through m, debit positive.
 *
 * At a fiscal-year boundary QBO moves last year's profit into RE_qbo and the year-to-date restarts,
 * so RE_engine moves by the month's P&L only: the roll-forward holds by construction.
 *
 * Dividends are the month-to-month movement of the company's dividends equity accounts
 * (equityKind "dividends": DividendDisbursed, PartnerDistributions): a debit movement is a
 * dividend declared that month, in local minor units. A movement of the dividends accounts that
 * is exactly offset by retained earnings (a year-end transfer of dividends into retained earnings)
 * is not a dividend. Anything else that moves retained earnings (opening balances, prior-period
 * adjustments posted straight to equity) is a Problem naming the month: the engine would refuse
 * it, because the CTA would otherwise silently absorb it.
 */

/** The domain's view of an account (one definition, packages/domain/src/coa). */
export type ChartRow = ChartAccount;

export interface CompanyBooksInfo {
  realmId: string;
  companyName: string;
  homeCurrency: string;
  fiscalYearStartMonth: number;
}

export const BALANCE_SHEET = new Set(["Asset", "Liability", "Equity"]);
export const PROFIT_AND_LOSS = new Set(["Revenue", "Expense"]);

/** AccountTypes whose balances are monetary items (closing rate under the temporal method, ASC 830-10-45-18). */
const MONETARY_TYPES = new Set(["Bank", "Accounts Receivable", "Accounts Payable", "Credit Card", "Other Current Liability", "Long Term Liability"]);

/** A balance-sheet account remeasured at its historical rate under the temporal method (inventory, fixed assets, prepaid, intangibles). */
export const isNonMonetary = (a: Pick<ChartRow, "classification" | "accountType">) =>
  (a.classification === "Asset" || a.classification === "Liability") && !MONETARY_TYPES.has(a.accountType);

export function equityKindOf(a: Pick<ChartRow, "classification" | "accountSubType">): EquityKind | undefined {
  return a.classification === "Equity" ? qboEquityKind(a.accountSubType) : undefined;
}

const rolledForward = (k: EquityKind | undefined) => k === "retainedEarnings" || k === "dividends";

/**
 * The account QBO rolls profit into: the one with subtype RetainedEarnings (QBO keeps exactly one).
 * Other retained-earnings-like accounts (Opening Balance Equity, owner's equity) stay accounts of
 * their own that the engine combines into retained earnings.
 */
export function retainedEarningsAccountOf(chart: readonly ChartRow[]): ChartRow | undefined {
  const candidates = chart.filter((a) => a.classification === "Equity" && a.accountSubType === "RetainedEarnings");
  return candidates.find((a) => a.active) ?? candidates[0];
}

export interface LocalBooks {
  /** Opening month … period end. */
  months: string[];
  /** Engine amounts per account, one per month of `months`. */
  series: Map<string, number[]>;
  dividends: { month: string; amount: number }[];
  retainedEarningsAccount: string | undefined;
  problems: Problem[];
}

/** At most this many months are named per company and kind of problem; the rest are counted. */
const MONTHS_NAMED = 3;

/**
 * `amount(accountId, month)` returns the synced amount (0 when none). `checkFrom`/`checkThrough`
 * bound the months whose balance is checked (months outside the synced range are reported
 * separately by the caller and not checked again here).
 */
export interface EngineBooksArgs {
  company: CompanyBooksInfo;
  chart: readonly ChartRow[];
  opening: string;
  to: string;
  amount: (accountId: string, month: string) => number;
  checkThrough: string;
  firstSyncedMonth: string | undefined;
}

export function engineBooks(args: EngineBooksArgs): LocalBooks {
  const { company, chart, opening, to, amount } = args;
  const months = monthList(opening, to);
  const problems: Problem[] = [];
  const who = company.companyName;
  const money = (n: number) => formatAmount(n, company.homeCurrency, { currency: "code", negative: "minus", locale: "en-US" });

  const fyStartOf = (m: string) => formatMonth(fiscalYearStart(parseMonth(m), company.fiscalYearStartMonth));
  const plAccounts = chart.filter((a) => PROFIT_AND_LOSS.has(a.classification));
  const plOf = (m: string) => plAccounts.reduce((s, a) => s + amount(a.id, m), 0);
  const fytd = new Map<string, number>();
  {
    let running = 0;
    for (const m of monthList(fyStartOf(opening), to)) {
      if (m === fyStartOf(m)) running = 0;
      running += plOf(m);
      fytd.set(m, running);
    }
  }

  const re = retainedEarningsAccountOf(chart);
  if (!re) {
    problems.push({
      code: "no_retained_earnings_account",
      realmId: company.realmId,
      message: `${who} has no Retained Earnings account in QuickBooks (an equity account of detail type Retained Earnings); the year's profit has nowhere to go.`,
    });
  }

  const series = new Map<string, number[]>();
  for (const a of chart) {
    const pl = PROFIT_AND_LOSS.has(a.classification);
    series.set(
      a.id,
      months.map((m) => amount(a.id, m) + (!pl && a.id === re?.id ? fytd.get(m)! : 0)),
    );
  }

  // Per month: balance of the balance sheet, movement of retained earnings beyond the result, and
  // movement of the dividends accounts.
  const T = months.length;
  const balance = new Array<number>(T).fill(0);
  const result = new Array<number>(T).fill(0);
  const retained = new Array<number>(T).fill(0);
  const dividendAccounts = new Array<number>(T).fill(0);
  for (const a of chart) {
    const s = series.get(a.id)!;
    const kind = equityKindOf(a);
    for (let t = 0; t < T; t++) {
      if (PROFIT_AND_LOSS.has(a.classification)) result[t]! += s[t]!;
      else {
        balance[t]! += s[t]!;
        if (kind === "dividends") dividendAccounts[t]! += s[t]!;
        else if (rolledForward(kind)) retained[t]! += s[t]!;
      }
    }
  }

  const named = { balance: 0, retained: 0, negative: 0 };
  const more = { balance: 0, retained: 0, negative: 0 };
  const report = (key: keyof typeof named, problem: Problem) => {
    if (named[key] < MONTHS_NAMED) {
      problems.push(problem);
      named[key]++;
    } else more[key]++;
  };
  const dividends: { month: string; amount: number }[] = [];
  for (let t = 0; t < T; t++) {
    const month = months[t]!;
    if (month > args.checkThrough) break;
    if (balance[t] !== 0) {
      report("balance", {
        code: "books_do_not_balance",
        realmId: company.realmId,
        month,
        message: `${who}'s books do not balance at the end of ${month}: debits exceed credits by ${money(balance[t]!)} after adding the fiscal year's profit to retained earnings. Sync the company again; if it persists, check its Balance Sheet in QuickBooks for that month.`,
      });
      continue;
    }
    if (t === 0) continue;
    const div = dividendAccounts[t]! - dividendAccounts[t - 1]!;
    const other = retained[t]! - retained[t - 1]! - result[t]!;
    if (other === 0 || div + other === 0) {
      // A plain month, or a transfer between the dividends accounts and retained earnings.
      if (other === 0 && div > 0) dividends.push({ month, amount: div });
      if (other === 0 && div < 0) {
        report("negative", {
          code: "negative_dividend",
          realmId: company.realmId,
          month,
          message: `${who}'s dividends accounts decreased by ${money(-div)} in ${month} (a reversed or refunded dividend). A consolidation takes only dividends declared; correct the entry in QuickBooks or start the consolidation after ${month}.`,
        });
      }
      continue;
    }
    if (div > 0) dividends.push({ month, amount: div });
    const first = args.firstSyncedMonth !== undefined && month === args.firstSyncedMonth;
    report("retained", {
      code: "retained_earnings_unexplained",
      realmId: company.realmId,
      month,
      message: `${who}'s retained earnings moved by ${money(other)} (debit positive) in ${month} beyond that month's profit and dividends${
        first
          ? `: that is where its books start in QuickBooks (opening balances). Open the consolidation in ${month} or later.`
          : ", for example an entry posted straight to Retained Earnings or Opening Balance Equity. Move it to a profit and loss or dividends account in QuickBooks, or open the consolidation after that month."
      }`,
    });
  }
  for (const [key, count] of Object.entries(more) as [keyof typeof more, number][]) {
    if (count > 0) {
      problems.push({
        code: key === "balance" ? "books_do_not_balance" : key === "retained" ? "retained_earnings_unexplained" : "negative_dividend",
        realmId: company.realmId,
        message: `${who}: the same problem in ${count} more month(s).`,
      });
    }
  }
  return { months, series, dividends, retainedEarningsAccount: re?.id, problems };
}

/** Accounts with any amount in the months consolidated (P&L from `from`, balance sheet from the opening month). */
export function accountsWithAmounts(chart: readonly ChartRow[], books: LocalBooks, from: string): ChartRow[] {
  const firstPl = books.months.indexOf(from);
  return chart.filter((a) => {
    const s = books.series.get(a.id)!;
    const start = PROFIT_AND_LOSS.has(a.classification) ? Math.max(firstPl, 0) : 0;
    for (let t = start; t < s.length; t++) if (s[t] !== 0) return true;
    return false;
  });
}

export { accountLabel };
