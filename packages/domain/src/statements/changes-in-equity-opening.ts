import { balanceSeriesOf } from "../consolidation/balance-columns.ts";
import type { ConsolidationInput, EntityInput } from "../consolidation/input-schema.ts";
import type { ConsolidationOutput } from "../consolidation/output-schema.ts";
import { shiftMonth } from "../periods/month.ts";

/**
 * The engine's input for the consolidated balance sheet at the end of the month before a period
 * (the statement of changes in equity's opening balance, IAS 1.106(d)), on the same basis as the
 * period's consolidation: the same books, rates, acquisitions and roll-forward anchor.
 *
 * The engine consolidates only months after an entity's opening month. An entity whose roll-forward
 * opens before that month keeps its input, cut at the month. One whose roll-forward opens exactly
 * at it (a fresh start the month before the period, or a period right after the locked opening
 * month) is opened one month earlier with that month's balances held flat, no results and the
 * opening month's closing rate (unless the rates already name the earlier month): its translated
 * balances, retained earnings and CTA at the month are then exactly those the period rolls from.
 *
 * What belongs to the period is left out: its results, dividends, disposals, dividend
 * eliminations, manual entries, ownership changes and impairments after the month, subsidiaries
 * acquired at its close or after. Unrealised profit held at the period's start (`opening`) is the month's closing.
 * `cost` and `acquisitionMonth` are written out where the period's input left them to defaults that
 * depend on the period (the investment account's balance at its end; the subsidiary's opening month).
 */
export function openingBalanceInput(input: ConsolidationInput, periodFrom: string, investmentCosts: ReadonlyMap<string, number>): ConsolidationInput {
  const month = shiftMonth(periodFrom, -1);
  const before = shiftMonth(month, -1);
  const acquisitionOf = new Map(input.eliminations.investments.map((r) => [r.subsidiary, r.acquisitionMonth ?? openingOf(input, r.subsidiary)]));
  // A subsidiary acquired at the month's close (the engine's "acquired on the 1st of the next
  // month") or later is acquired in the period: its NCI at acquisition is the period's movement,
  // and a bargain purchase gain the period's profit, as the period's consolidation has them.
  const inGroup = (id: string) => {
    const acquired = acquisitionOf.get(id);
    return acquired === undefined || acquired < month;
  };
  const entities = input.entities.filter((e) => e.role === "parent" || inGroup(e.id));
  const shifted = new Set(entities.filter((e) => e.opening.month >= month).map((e) => e.id));

  const rates: ConsolidationInput["rates"] = {};
  for (const [currency, byMonth] of Object.entries(input.rates)) {
    const kept = Object.fromEntries(Object.entries(byMonth).filter(([m]) => m <= month));
    const atMonth = byMonth[month];
    if (atMonth && !kept[before] && entities.some((e) => shifted.has(e.id) && e.currency === currency)) {
      kept[before] = { average: atMonth.closing, closing: atMonth.closing };
    }
    rates[currency] = kept;
  }

  type Side = ConsolidationInput["eliminations"]["intercompany"][number]["left"];
  const openingSide = (s: Side): Side => {
    if (!s.portion) return s;
    const flow = isFlow(input.entities.find((e) => e.id === s.entity), s.account);
    return { ...s, portion: { ...s.portion, ...cutSeries(s.portion, month, shifted.has(s.entity) ? before : undefined, flow) } };
  };
  const intercompany = input.eliminations.intercompany
    .filter((p) => inGroup(p.left.entity) && inGroup(p.right.entity))
    .map((p) => ({ ...p, left: openingSide(p.left), right: openingSide(p.right) }));

  return {
    ...input,
    period: { from: month, to: month },
    entities: entities.map((e) => openingEntity(e, month, shifted.has(e.id) ? before : undefined)),
    rates,
    maps: input.maps.filter((m) => entities.some((e) => e.id === m.entity)),
    eliminations: {
      ...input.eliminations,
      intercompany,
      investments: input.eliminations.investments
        .filter((r) => inGroup(r.subsidiary))
        .map((r) => ({
          ...r,
          acquisitionMonth: acquisitionOf.get(r.subsidiary),
          cost: r.cost ?? investmentCosts.get(r.id),
          goodwillImpairments: r.goodwillImpairments.filter((g) => g.month <= month),
          ownershipChanges: r.ownershipChanges.filter((c) => c.month <= month),
        })),
      manual: [],
      unrealisedProfit: input.eliminations.unrealisedProfit
        .filter((u) => u.opening && inGroup(u.seller) && inGroup(u.buyer))
        .map((u) => ({ ...u, closing: u.opening, opening: undefined })),
      dividends: [],
      disposals: [],
    },
  };
}

function openingOf(input: ConsolidationInput, id: string): string | undefined {
  return input.entities.find((e) => e.id === id)?.opening.month;
}

function isFlow(entity: EntityInput | undefined, account: string): boolean {
  const a = entity?.accounts.find((x) => x.id === account);
  return a?.classification === "Revenue" || a?.classification === "Expense";
}

/**
 * A series cut at `month`; with `start`, restarted at `start` (the month before `month`): balances
 * held flat from `month` back to `start`, activity zero in both months (no results before the period
 * start in the opening run).
 */
function cutSeries(series: { from: string; amounts: number[] }, month: string, start: string | undefined, flow: boolean): { from: string; amounts: number[] } {
  const at = (m: string) => {
    const k = monthsBetween(series.from, m);
    return k >= 0 && k < series.amounts.length ? series.amounts[k]! : 0;
  };
  if (!start) {
    const n = Math.max(0, monthsBetween(series.from, month) + 1);
    return { from: series.from, amounts: series.amounts.slice(0, n) };
  }
  if (flow) return { from: start, amounts: [0, 0] };
  // A balance series that starts after the month is zero at it.
  const value = series.from <= month ? at(month) : 0;
  return { from: start, amounts: [value, value] };
}

function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split("-").map(Number) as [number, number];
  const [ty, tm] = to.split("-").map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm);
}

function openingEntity(e: EntityInput, month: string, start: string | undefined): EntityInput {
  const flows = new Set(e.accounts.filter((a) => a.classification === "Revenue" || a.classification === "Expense").map((a) => a.id));
  const balances = balanceSeriesOf(e).map((b) => ({ ...b, ...cutSeries(b, month, start, flows.has(b.account)) }));
  // The cut series replace the balances in whichever form they came.
  const { balanceColumns: _columns, ...entity } = e;
  if (!start) {
    return {
      ...entity,
      balances,
      movementRates: e.movementRates.filter((r) => r.month <= month),
      dividends: e.dividends.filter((d) => d.month <= month),
    };
  }
  // Opened a month earlier: the translated retained earnings are unchanged (no results between),
  // and the CTA is derived again as the balancing figure (it is the same at the month, as the
  // engine checks a given one balances there).
  return {
    ...entity,
    opening: { month: start, retainedEarnings: e.opening.retainedEarnings },
    balances,
    movementRates: [],
    dividends: [],
  };
}

/** The cost each investment elimination used (`openingBalanceInput` writes out a defaulted one). */
export function investmentCosts(output: ConsolidationOutput): Map<string, number> {
  return new Map(output.eliminations.filter((e) => e.kind === "investment").map((e) => [e.id, Number(e.details.cost)]));
}
