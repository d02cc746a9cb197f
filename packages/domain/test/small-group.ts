import type { ConsolidationInputJson } from "../src/index.ts";

/**
 * A parent (USD) and one subsidiary acquired at the opening month-end (December 2023) at book
 * value, consolidated for January 2024, small enough to check every figure by hand.
 * Subsidiary S (local): December cash 10,000, capital 10,000; January sales 5,000, cost of sales
 * 3,000 (profit 2,000), inventory 1,000 held, a dividend `subDividend` declared in January.
 * Parent P: December cash 50,000 and the investment; January sales 8,000, cost of sales 5,000,
 * dividend income `parentBooked` (profit 3,000 + parentBooked).
 */
export interface SmallGroupOptions {
  subCurrency?: "USD" | "EUR";
  ownership?: string;
  /** EUR rates: at acquisition (December), January's average and closing. */
  open?: string;
  average?: string;
  closing?: string;
  subDividend?: number;
  /** Rate of the dividend at declaration (default: January's average). */
  dividendRate?: string;
  parentBooked?: number;
}

const cents = (x: number) => Math.round(x * 100);

export function smallGroup(o: SmallGroupOptions = {}): ConsolidationInputJson {
  const currency = o.subCurrency ?? "EUR";
  const ownership = o.ownership ?? "0.8";
  const open = o.open ?? "1.1";
  const average = o.average ?? "1.2";
  const closing = o.closing ?? "1.25";
  const d = o.subDividend ?? 0;
  const booked = o.parentBooked ?? 0;
  const openRate = currency === "USD" ? 1 : Number(open);
  const investment = Math.round(cents(10_000) * openRate * Number(ownership));
  const subAccounts = [
    { id: "cash", name: "Cash", classification: "Asset" as const },
    { id: "stock", name: "Inventory", classification: "Asset" as const },
    { id: "capital", name: "Capital", classification: "Equity" as const, equityKind: "contributedCapital" as const },
    { id: "re", name: "Retained earnings", classification: "Equity" as const, equityKind: "retainedEarnings" as const },
    { id: "div", name: "Dividends", classification: "Equity" as const, equityKind: "dividends" as const },
    { id: "sales", name: "Sales", classification: "Revenue" as const },
    { id: "cogs", name: "Cost of sales", classification: "Expense" as const },
  ];
  const series = (account: string, amounts: number[], from = "2023-12") => ({ account, from, amounts });
  return {
    reportingCurrency: "USD",
    period: { month: "2024-01" },
    entities: [
      {
        id: "p",
        name: "Parent",
        role: "parent",
        currency: "USD",
        accounts: [
          ...subAccounts,
          { id: "investment", name: "Investment in S", classification: "Asset" },
          { id: "goodwill", name: "Goodwill", classification: "Asset" },
          { id: "provision", name: "Provision", classification: "Liability" },
          { id: "cta", name: "CTA", classification: "Equity", equityKind: "other" },
          { id: "nci", name: "NCI", classification: "Equity", equityKind: "other" },
          { id: "div-income", name: "Dividend income", classification: "Revenue" },
          { id: "other-exp", name: "Other expenses", classification: "Expense" },
          { id: "fx", name: "FX differences", classification: "Expense" },
        ],
        opening: { month: "2023-12" },
        balances: [
          series("cash", [cents(50_000), cents(53_000) + booked]),
          series("investment", [investment, investment]),
          series("capital", [-(cents(50_000) + investment), -(cents(50_000) + investment)]),
          series("re", [0, -(cents(3_000) + booked)]),
          series("sales", [-cents(8_000)], "2024-01"),
          series("cogs", [cents(5_000)], "2024-01"),
          series("div-income", [-booked], "2024-01"),
        ],
      },
      {
        id: "s",
        name: "Sub",
        role: "subsidiary",
        currency,
        ownership,
        accounts: subAccounts,
        opening: { month: "2023-12", ...(currency === "USD" ? {} : { retainedEarnings: 0 }) },
        ...(currency === "USD" ? {} : { historical: [{ account: "capital", rate: open }] }),
        balances: [
          series("cash", [cents(10_000), cents(11_000) - d]),
          series("stock", [0, cents(1_000)]),
          series("capital", [-cents(10_000), -cents(10_000)]),
          series("re", [0, -cents(2_000)]),
          series("div", [0, d]),
          series("sales", [-cents(5_000)], "2024-01"),
          series("cogs", [cents(3_000)], "2024-01"),
        ],
        dividends: d ? [{ month: "2024-01", amount: d, ...(o.dividendRate ? { rate: o.dividendRate } : {}) }] : [],
      },
    ],
    rates: { EUR: { "2023-12": { average: open, closing: open }, "2024-01": { average, closing } } },
    maps: [{ entity: "s", lines: Object.fromEntries(subAccounts.map((a) => [a.id, a.id])) }],
    designatedAccounts: { cta: "cta", fxDifference: "fx", goodwill: "goodwill", nci: "nci" },
    eliminations: { investments: [{ id: "inv", subsidiary: "s", investmentAccount: "investment" }] },
  };
}
