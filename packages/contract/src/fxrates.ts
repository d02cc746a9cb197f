import { z } from "zod";
import { GET, POST, PUT } from "./endpoint.ts";

/**
 * Rates from 2000-01 to 2100-12, the years the rest of the app accepts (opening balances, runs):
 * a month far outside is a typo (9999-01), and would otherwise sit in the grid's range queries.
 */
const FX_MONTH_RANGE = { from: "2000-01", to: "2100-12" } as const;
const month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "Use a month like 2026-10.", abort: true })
  .refine((m) => m >= FX_MONTH_RANGE.from && m <= FX_MONTH_RANGE.to, {
    error: (issue) => `Use a month from ${FX_MONTH_RANGE.from} to ${FX_MONTH_RANGE.to} (${String(issue.input)} is outside).`,
  });
const currency = z.string().regex(/^[A-Z]{3}$/, "Use a three-letter currency code such as GBP.");
/** SPEC §3: rates default to empty strings; "" clears a rate. */
const rateText = z.string().max(40, "A rate is at most 40 characters.");

export const fxRateSchema = z.object({ currency, month, avgfx: rateText, endfx: rateText });
export type FxRate = z.infer<typeof fxRateSchema>;

export const fxRatesQuerySchema = z.object({ from: month.optional(), to: month.optional() });
export const fxRatesResponseSchema = z.object({
  /** Rates are parent-currency units per one unit of `currency`. */
  parentCurrency: z.string().nullable(),
  currencies: z.array(z.string()),
  months: z.array(z.string()),
  rates: z.array(fxRateSchema),
});
export type FxRatesResponse = z.infer<typeof fxRatesResponseSchema>;

export const fxRatesUpdateSchema = z.object({
  rates: z.array(fxRateSchema).min(1, "Send at least one rate.").max(5000, "At most 5,000 rates at once."),
});
export const fxRatesUpdatedSchema = z.object({ updated: z.number().int(), unchanged: z.number().int() });

export const FX_CSV_HEADER = ["currency", "month", "avgfx", "endfx"] as const;

export const fxRatesFetchSchema = z.object({
  from: month,
  to: month,
  /** Replace rates already entered; by default only empty cells are filled. */
  overwrite: z.boolean().default(false),
});
export const fxRatesFetchedSchema = fxRatesUpdatedSchema.extend({ months: z.number().int(), currencies: z.array(z.string()) });

/** The CSV import's body: the file's text, sent as text/csv (FX_CSV_HEADER first). */
export const fxRatesCsvSchema = z.string({ error: "Send the file as text/csv." });

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getFxRates = GET("/fxrates", { 200: fxRatesResponseSchema }, { query: fxRatesQuerySchema });
export const putFxRates = PUT("/fxrates", { 200: fxRatesUpdatedSchema }, { body: fxRatesUpdateSchema });
export const postFxRatesImport = POST("/fxrates/import", { 200: fxRatesUpdatedSchema }, { body: fxRatesCsvSchema, bodyType: "text/csv" });
export const postFxRatesFetch = POST("/fxrates/fetch", { 200: fxRatesFetchedSchema }, { body: fxRatesFetchSchema });
export const getFxRatesTemplate = GET("/fxrates/template.csv", { 200: "file" });
