import type { IntragroupInventoryRequest } from "@groupledger/contract";
import { intragroupInventoryRequestSchema } from "@groupledger/contract";
import { currencyExponent } from "@groupledger/domain";
import { zodFieldErrors } from "../../lib/forms.ts";
import { parseAmount } from "../cta/model.ts";

/** The stock form as typed: amounts and the margin as the user writes them. */
export interface StockForm {
  sellerRealmId: string | null;
  buyerRealmId: string | null;
  month: string;
  amount: string;
  marginPercent: string;
  inventoryAccountId: string | null;
  cogsAccountId: string | null;
}

/**
 * "25" (percent) → "0.25", "12.5" → "0.125", exactly (no floating point). Null when it is not a
 * percentage of at least 0 and below 100 with at most six decimals.
 */
export function marginFromPercent(text: string): string | null {
  const m = /^(\d{1,2})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m) return null;
  const digits = `${m[1]!.padStart(2, "0")}${m[2] ?? ""}`; // "25" → "25", "5.5" → "055"
  const fraction = digits.replace(/0+$/, "");
  return fraction === "" ? "0" : `0.${fraction}`;
}

/** "0.125" → "12.5": how a saved margin reads as a percentage. */
export function percentOfMargin(margin: string): string {
  const [, fraction = ""] = margin.split(".");
  const padded = fraction.padEnd(2, "0");
  const whole = String(Number(padded.slice(0, 2)));
  const rest = padded.slice(2).replace(/0+$/, "");
  return rest ? `${whole}.${rest}` : whole;
}

/** The request the form makes, or the message per field (the server's own schema, then the amount's decimals). */
export function stockRequestOf(form: StockForm, buyerCurrency: string | null): { request: IntragroupInventoryRequest } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const exponent = buyerCurrency ? currencyExponent(buyerCurrency) : 2;
  const inventory = parseAmount(form.amount, exponent);
  if (inventory === null) errors["inventory"] = `Enter the stock held at the transfer price in ${buyerCurrency ?? "the buyer's currency"}, with at most ${exponent} decimals.`;
  const margin = marginFromPercent(form.marginPercent);
  if (margin === null) errors["margin"] = "Enter the seller's margin as a percentage of the transfer price, at least 0 and below 100, e.g. 25.";
  const parsed = intragroupInventoryRequestSchema.safeParse({
    sellerRealmId: form.sellerRealmId ?? "",
    buyerRealmId: form.buyerRealmId ?? "",
    month: form.month.trim(),
    inventory: inventory ?? 0,
    margin: margin ?? "0",
    inventoryAccountId: form.inventoryAccountId ?? "",
    cogsAccountId: form.cogsAccountId ?? "",
  });
  if (!parsed.success) for (const [k, v] of Object.entries(zodFieldErrors(parsed.error))) errors[k] ??= v;
  return Object.keys(errors).length || !parsed.success ? { errors } : { request: parsed.data };
}
