import type { Company, FxRate, FxRatesResponse } from "@groupledger/contract";
import { PARENT_CO, UK_CO } from "../../../test/fixtures.ts";

export const DE_CO: Company = { ...UK_CO, realmId: "9341453172384049", companyName: "Northwind Deutschland GmbH", country: "DE", homeCurrency: "EUR" };
export const RETAIL_CO: Company = { ...UK_CO, realmId: "9341453172384056", companyName: "Northwind Retail LLC", country: "US", homeCurrency: "USD" };
export const GROUP = [PARENT_CO, UK_CO, DE_CO];

export const MONTHS = ["2026-08", "2026-09", "2026-10"];

/** EUR and GBP against USD over Aug–Oct 2026: EUR Oct and GBP Sep end missing, the rest filled. */
export function fxGrid(): FxRatesResponse {
  const rate = (currency: string, month: string, avgfx: string, endfx: string): FxRate => ({ currency, month, avgfx, endfx });
  return {
    parentCurrency: "USD",
    currencies: ["EUR", "GBP"],
    months: [...MONTHS],
    rates: [
      rate("EUR", "2026-08", "1.0812", "1.085"),
      rate("EUR", "2026-09", "1.0901", "1.0925"),
      rate("EUR", "2026-10", "", ""),
      rate("GBP", "2026-08", "1.2701", "1.2755"),
      rate("GBP", "2026-09", "1.273", ""),
      rate("GBP", "2026-10", "1.2745", "1.281"),
    ],
  };
}

/** The server's side of a PUT that succeeds: the rows replace what was stored. */
export function applyRates(grid: FxRatesResponse, rows: readonly FxRate[]): FxRatesResponse {
  const byKey = new Map(rows.map((r) => [`${r.currency}:${r.month}`, r]));
  return { ...grid, rates: grid.rates.map((r) => byKey.get(`${r.currency}:${r.month}`) ?? r) };
}
