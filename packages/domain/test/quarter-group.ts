import type { ConsolidationInputJson } from "../src/index.ts";

export interface QuarterOptions {
  currency?: "EUR" | "USD";
  ownership?: string;
  acquisitionMonth?: string;
  /** Sub dividends (local cents) by month. */
  dividends?: Record<string, number>;
  method?: "currentRate" | "temporal";
  cost?: number;
  /** P sells its whole holding in S for `proceeds` at the end of `month`, booked on "disposal-gain" in full ("gain"), against the investment ("investment"), or removing the investment at cost ("removed"). */
  sale?: { month: string; proceeds: number; booking: "gain" | "investment" | "removed" };
  /** S's other reserve ("reserve", equity other) grows by this (local cents) in the month, against cash. */
  reserve?: { month: string; amount: number };
}

/**
 * Parent P (USD) and S, opened at December 2024, consolidated for January–March 2025. S has capital
 * 1,000 (historical rate 1.10) and each month sells 300 and spends 100 (profit 200); rates $ per €:
 * closing 1.10, 1.20, 1.30, 1.40, average (Jan–Mar) 1.15, 1.25, 1.35. P sells 100 a month.
 * By default P buys 80% of S at the end of February for $1,600.
 */
export function quarter(o: QuarterOptions = {}): ConsolidationInputJson {
  const currency = o.currency ?? "EUR";
  const dividends = o.dividends ?? {};
  const months = ["2024-12", "2025-01", "2025-02", "2025-03"];
  const divByT = months.map((m) => dividends[m] ?? 0);
  let re = 0;
  let divBalance = 0;
  const reSeries: number[] = [];
  const divSeries: number[] = [];
  months.forEach((_, t) => {
    if (t > 0) re -= 200_00;
    divBalance += divByT[t]!;
    reSeries.push(re);
    divSeries.push(divBalance);
  });
  const reserveSeries = months.map((m) => (o.reserve && m >= o.reserve.month ? -o.reserve.amount : 0));
  const cash = months.map((_, t) => -(-1_000_00 + reSeries[t]! + divSeries[t]! + reserveSeries[t]!));
  const cost = o.cost ?? 1_600_00;
  const accounts = [
    { id: "cash", name: "Cash", classification: "Asset" as const, monetary: true },
    { id: "capital", name: "Capital", classification: "Equity" as const, equityKind: "contributedCapital" as const },
    { id: "re", name: "Retained earnings", classification: "Equity" as const, equityKind: "retainedEarnings" as const },
    { id: "div", name: "Dividends", classification: "Equity" as const, equityKind: "dividends" as const },
    { id: "sales", name: "Sales", classification: "Revenue" as const },
    { id: "costs", name: "Costs", classification: "Expense" as const },
  ];
  const series = (account: string, amounts: number[]) => ({ account, from: "2024-12", amounts });
  const sold = (m: string) => o.sale !== undefined && m >= o.sale.month;
  const saleMonth = (m: string) => o.sale !== undefined && m === o.sale.month;
  const booking = o.sale?.booking;
  const proceeds = o.sale?.proceeds ?? 0;
  // What P's own books credit for the sale: all the proceeds as a gain, the proceeds against the investment, or the investment at cost and the rest as a gain.
  const gainBooked = booking === "gain" ? proceeds : booking === "removed" ? proceeds - cost : 0;
  const investmentAfter = booking === "investment" ? cost - proceeds : booking === "removed" ? 0 : cost;
  const pCash = [10_000_00 - cost, 10_100_00 - cost, 10_200_00 - cost, 10_300_00 - cost].map((x, t) => x + (sold(months[t]!) ? proceeds : 0));
  const pInvestment = months.map((m) => (sold(m) ? investmentAfter : cost));
  const pRe = [0, -100_00, -200_00, -300_00].map((x, t) => x - (sold(months[t]!) ? gainBooked : 0));
  return {
    reportingCurrency: "USD",
    period: { from: "2025-01", to: "2025-03" },
    entities: [
      {
        id: "p",
        name: "P",
        role: "parent",
        currency: "USD",
        accounts: [
          ...accounts,
          { id: "investment", name: "Investment in S", classification: "Asset" },
          { id: "goodwill", name: "Goodwill", classification: "Asset" },
          { id: "cta", name: "CTA", classification: "Equity", equityKind: "other" },
          { id: "nci", name: "NCI", classification: "Equity", equityKind: "other" },
          { id: "div-income", name: "Dividend income", classification: "Revenue" },
          { id: "fx", name: "FX", classification: "Expense" },
          { id: "disposal-gain", name: "Gain on disposal", classification: "Revenue" },
          { id: "reserve", name: "Other reserve", classification: "Equity", equityKind: "other" },
        ],
        opening: { month: "2024-12" },
        balances: [
          series("cash", pCash),
          series("investment", pInvestment),
          series("capital", [-10_000_00, -10_000_00, -10_000_00, -10_000_00]),
          series("re", pRe),
          series("sales", [0, -100_00, -100_00, -100_00]),
          series("disposal-gain", months.map((m) => (saleMonth(m) ? -gainBooked : 0))),
        ],
      },
      {
        id: "s",
        name: "S",
        role: "subsidiary",
        currency,
        ownership: o.ownership ?? "0.8",
        method: o.method ?? "currentRate",
        accounts: [...accounts, { id: "reserve", name: "Other reserve", classification: "Equity" as const, equityKind: "other" as const }],
        opening: { month: "2024-12", ...(currency === "USD" ? {} : { retainedEarnings: 0 }) },
        historical: currency === "USD" ? [] : [{ account: "capital", rate: "1.10" }],
        balances: [
          series("cash", cash),
          series("capital", [-1_000_00, -1_000_00, -1_000_00, -1_000_00]),
          series("re", reSeries),
          series("div", divSeries),
          series("reserve", reserveSeries),
          series("sales", [0, -300_00, -300_00, -300_00]),
          series("costs", [0, 100_00, 100_00, 100_00]),
        ],
        dividends: months.flatMap((m, t) => (divByT[t] ? [{ month: m, amount: divByT[t]! }] : [])),
      },
    ],
    rates: {
      EUR: {
        "2024-12": { average: "1.10", closing: "1.10" },
        "2025-01": { average: "1.15", closing: "1.20" },
        "2025-02": { average: "1.25", closing: "1.30" },
        "2025-03": { average: "1.35", closing: "1.40" },
      },
    },
    maps: [{ entity: "s", lines: { ...Object.fromEntries(accounts.map((a) => [a.id, a.id])), reserve: "reserve" } }],
    designatedAccounts: { cta: "cta", fxDifference: "fx", goodwill: "goodwill", nci: "nci" },
    eliminations: {
      investments: [{ id: "inv", subsidiary: "s", investmentAccount: "investment", acquisitionMonth: o.acquisitionMonth ?? "2025-02", cost }],
    },
  };
}

