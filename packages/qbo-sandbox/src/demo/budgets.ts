/**
 * The demo companies' budgets (QuickBooks' Budget entity, issue 23): profit and loss budgets,
 * monthly, set the way a small business sets one in QuickBooks ("create budget from last year's
 * actuals" and a growth assumption): each month of the budget year is the same month a year
 * before, in the company's own currency, revenue up 6%, cost of sales up 5%, overheads up 3%,
 * other income and expense as they were, rounded to whole units (a contra-revenue account such as
 * sales discounts budgets a negative amount, as QuickBooks allows). Germany's goods shipped to the
 * UK are budgeted on both sides, as the group plans its intra-group trade: Germany's intra-group
 * sales (EUR) and the UK's purchases from group companies (GBP), each last year's same month of the
 * invoices grown by the same 6% (the volume both agreed; the UK's year-end stock count, which moves
 * goods between purchases and stock, is not a purchase and is left out), so a consolidated budget
 * eliminates them (issue 23); at the group's budget rates the two sides differ only by what last
 * year's EUR/GBP rates make, which the statement shows as the budgets' disagreement. The other intra-group lines (management fees and interest, which the parent books
 * on one account for every subsidiary; dividends from subsidiaries), exchange gains and losses and
 * stock adjustments are not budgeted. Read from the books, never written to them: no balance changes.
 *
 * Which companies keep one: the parent (FY2026, and last year's FY2025 made inactive), the UK (its
 * years run April to March: FY2026 is April 2025 to March 2026 and FY2027 from April 2026, so every
 * month of 2026 has one), Canada and Germany (FY2026). Northwind Retail keeps no budget in
 * QuickBooks: its budget comes by CSV import.
 */
import type { Account, BudgetDetailRow, BudgetRow, JournalEntry } from "../ledger.ts";
import { isCreditNatured } from "../accountTypes.ts";
import type { DemoCode } from "./companies.ts";

const CREATED = Date.parse("2025-11-20T15:10:00.000Z");
const NOT_BUDGETED = ["mgmtFeeIncome", "mgmtFeeExpense", "icInterestIncome", "icInterestExpense", "dividendIncome", "fxGainLoss", "inventoryAdj"];
const GROWTH: Record<string, number> = { Income: 106, "Cost of Goods Sold": 105, Expense: 103, "Other Income": 100, "Other Expense": 100 };
/** Both sides of the intra-group trade grow alike: the volume Germany and the UK agreed. */
const INTRAGROUP_TRADE = ["icSales", "icPurchases"];
const INTRAGROUP_GROWTH = 106;

interface BudgetYear {
  readonly name: string;
  readonly start: string;
  readonly active: boolean;
}

const YEARS: Partial<Record<DemoCode, readonly BudgetYear[]>> = {
  PARENT: [
    { name: "FY2025 Budget", start: "2025-01", active: false },
    { name: "FY2026 Budget", start: "2026-01", active: true },
  ],
  UK: [
    { name: "FY2026 Budget (Apr 2025 - Mar 2026)", start: "2025-04", active: true },
    { name: "FY2027 Budget (Apr 2026 - Mar 2027)", start: "2026-04", active: true },
  ],
  CA: [{ name: "FY2026 Budget", start: "2026-01", active: true }],
  DE: [{ name: "Budget 2026", start: "2026-01", active: true }],
};

function shift(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;
}

const lastDay = (month: string): string => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
};

/** growth% of cents, to whole units, half away from zero, in integers. */
function grown(cents: number, growth: number): number {
  const scaled = BigInt(cents) * BigInt(growth);
  const unit = 10_000n;
  const q = scaled / unit;
  const r = scaled % unit;
  const away = (r < 0n ? -r : r) * 2n >= unit ? (scaled < 0n ? q - 1n : q + 1n) : q;
  return Number(away) * 100;
}

export function demoBudgets(code: DemoCode, accounts: readonly Account[], entries: readonly JournalEntry[], roles: ReadonlyMap<string, string>): BudgetRow[] {
  const years = YEARS[code] ?? [];
  const skip = new Set(NOT_BUDGETED.flatMap((r) => (roles.has(r) ? [roles.get(r)!] : [])));
  const budgeted = accounts.filter((a) => a.active && GROWTH[a.type] !== undefined && !skip.has(a.id));
  const byId = new Map(budgeted.map((a) => [a.id, a]));
  const trade = new Set(INTRAGROUP_TRADE.flatMap((r) => (roles.has(r) ? [roles.get(r)!] : [])));
  const growthOf = (a: Account) => (trade.has(a.id) ? INTRAGROUP_GROWTH : GROWTH[a.type]!);
  const inventory = roles.get("inventory");
  // Natural-sign home-currency amount per account and month.
  const actual = new Map<string, number>();
  for (const e of entries) {
    if (e.deletedTime !== undefined) continue;
    const month = e.txnDate.slice(0, 7);
    const stockCount = inventory !== undefined && e.lines.some((l) => l.accountId === inventory);
    for (const l of e.lines) {
      const a = byId.get(l.accountId);
      if (!a) continue;
      if (stockCount && trade.has(a.id)) continue; // a stock count moves goods bought, it buys none
      const debit = l.posting === "Debit" ? l.homeAmount : -l.homeAmount;
      const key = `${a.id}|${month}`;
      actual.set(key, (actual.get(key) ?? 0) + (isCreditNatured(a.type) ? -debit : debit));
    }
  }
  return years.map((y, i) => {
    const details: BudgetDetailRow[] = [];
    for (const a of budgeted) {
      for (let k = 0; k < 12; k++) {
        const month = shift(y.start, k);
        const amount = grown(actual.get(`${a.id}|${shift(month, -12)}`) ?? 0, growthOf(a));
        if (amount !== 0) details.push({ budgetDate: `${month}-01`, amount, accountId: a.id });
      }
    }
    return {
      id: String(i + 1),
      name: y.name,
      startDate: `${y.start}-01`,
      endDate: lastDay(shift(y.start, 11)),
      budgetType: "ProfitAndLoss",
      entryType: "Monthly",
      active: y.active,
      details,
      createTime: CREATED + i * 86_400_000,
      updateTime: CREATED + i * 86_400_000,
      syncToken: y.active ? 0 : 1,
    };
  });
}
