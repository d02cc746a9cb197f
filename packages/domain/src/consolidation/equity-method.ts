import { minorToDecimal } from "../money/format.ts";
import { translatedAt } from "../translation/translate.ts";
import type { Elimination, EliminationContext, EntryLine } from "./elimination-types.ts";
import type { ConsolidationInput } from "./input-schema.ts";
import { LineKind, type CompiledEntity } from "./model.ts";

type Investment = ConsolidationInput["eliminations"]["investments"][number];

/**
 * A parent that carries its investment at equity (IAS 28 as permitted in separate statements by
 * IAS 27.10(c); ASC 323-10-35) has accrued its share of the subsidiary's results (and, for a
 * foreign operation, of its translation differences) and credited dividends to the investment.
 * Consolidation replaces all of that by the subsidiary's own lines (IFRS 10 B86(a)-(b), ASC
 * 810-10-45-1), so the engine first restates the parent's books to cost — the "initial value"
 * books the rest of the engine consolidates — with one entry on parent accounts:
 * - the investment back to its cost;
 * - the period's equity-method income out of profit (it is on equityIncomeAccount);
 * - the accruals of earlier periods (the investment at the period's start − cost, less the part
 *   sitting in equityReserveAccount at that date) out of opening retained earnings;
 * - the parent's share of the subsidiary's other comprehensive income out of equityReserveAccount;
 * - what is left — the investment's fall in the period beyond the income, i.e. the dividends
 *   received from the subsidiary — to dividendIncomeAccount, where a cost-method parent has them.
 * The consolidated result is then exactly the cost method's.
 */
export function equityMethodRestatement(
  ctx: EliminationContext,
  rule: Investment,
  sub: CompiledEntity,
  path: readonly (string | number)[],
): Elimination | undefined {
  const parent = ctx.group.parent;
  const parentTr = ctx.translations.get(parent.id)!;
  const a = ctx.group.period.from - parent.start;
  const b = ctx.group.period.to - parent.start;
  const before = ctx.issues.items.length;
  const account = (field: "equityIncomeAccount" | "dividendIncomeAccount" | "equityReserveAccount", kind: LineKind, what: string) => {
    const id = rule[field];
    if (id === undefined) return undefined;
    const index = parent.accountIndex.get(id);
    if (index === undefined || parent.kinds[index] !== kind) {
      ctx.issues.add([...path, field], `"${id}" is ${index === undefined ? "not an account of the parent" : `a ${parent.accounts[index]!.classification} account of the parent`}: ${what}`);
      return undefined;
    }
    return index;
  };
  const incomeIndex = account("equityIncomeAccount", LineKind.Revenue, "it must be a parent Revenue account holding the equity-method income");
  const dividendIndex = account("dividendIncomeAccount", LineKind.Revenue, "it must be a parent Revenue account");
  const reserveIndex = account("equityReserveAccount", LineKind.OtherEquity, "it must be a parent Equity account with equityKind other");
  if (!sub.identity && sub.method === "currentRate" && rule.equityReserveAccount === undefined) {
    ctx.issues.add([...path, "equityReserveAccount"], `${sub.name} is translated at the current rate: name the parent's Equity (other) account holding its share of ${sub.name}'s translation differences under the equity method`);
  }
  if (ctx.issues.items.length > before || incomeIndex === undefined) return undefined;

  const balance = (index: number, t: number) => translatedAt(parentTr, index, t);
  const investmentIndex = parent.accountIndex.get(rule.investmentAccount)!;
  const cost = rule.cost!;
  const investmentEnd = balance(investmentIndex, b);
  const investmentStart = balance(investmentIndex, a - 1);
  let income = 0; // credit positive
  for (let t = a; t <= b; t++) income -= balance(incomeIndex, t);
  const reserveEnd = reserveIndex === undefined ? 0 : balance(reserveIndex, b);
  const reserveStart = reserveIndex === undefined ? 0 : balance(reserveIndex, a - 1);
  const accrualsBeforePeriod = investmentStart - cost + reserveStart;
  // Debit positive; the dividends line balances the entry.
  const dividendsReceived = investmentEnd - investmentStart - income + (reserveEnd - reserveStart);
  const fmt = (x: number) => `${minorToDecimal(x, ctx.group.reportingExponent)} ${ctx.group.reportingCurrency}`;
  if (dividendsReceived > 0) {
    ctx.issues.add([...path, "investmentAccount"], `${rule.investmentAccount} rose by ${fmt(investmentEnd - investmentStart)} in the period, ${fmt(dividendsReceived)} more than the equity-method income${reserveIndex === undefined ? "" : " and reserve"} explain: the engine cannot tell what else was booked on it`);
    return undefined;
  }
  if (dividendsReceived < 0 && dividendIndex === undefined) {
    ctx.issues.add([...path, "dividendIncomeAccount"], `${rule.investmentAccount} fell by ${fmt(-dividendsReceived)} in the period beyond the equity-method income (dividends received from ${sub.name}): name the parent's Revenue account on which they are income at cost`);
    return undefined;
  }

  const lines: EntryLine[] = [];
  const push = (index: number | undefined, amount: number) => {
    if (amount !== 0) lines.push({ row: ctx.parentRow(parent.accounts[index!]!.id)!, amount });
  };
  push(investmentIndex, -(investmentEnd - cost));
  push(incomeIndex, income);
  push(reserveIndex, -reserveEnd);
  if (accrualsBeforePeriod !== 0) lines.push({ row: ctx.retainedEarningsRow, amount: accrualsBeforePeriod });
  push(dividendIndex, dividendsReceived);
  return {
    id: `${rule.id}:equity-method`,
    kind: "investment",
    description: `Restate the investment in ${sub.name} from the equity method to cost`,
    lines,
    details: {
      parentMethod: "equity",
      cost,
      investmentAtPeriodStart: investmentStart,
      investmentAtPeriodEnd: investmentEnd,
      equityMethodIncomeInPeriod: income,
      accrualsBeforePeriod,
      equityReserveReversedCreditPositive: -reserveEnd,
      dividendsReceivedInPeriod: -dividendsReceived,
    },
  };
}
