import { z } from "zod";
import { DELETE, GET, PUT, noContent } from "./endpoint.ts";
import { realmParamsSchema } from "./companies.ts";

/**
 * Intra-group trade the consolidation adjusts for (issue 16): inventory one group company bought
 * from another and still holds at a month-end (its unrealised profit is eliminated), and where the
 * parent books each subsidiary's dividends (eliminated against the subsidiary's dividends declared).
 */

const realm = (what: string) => z.string({ error: `Choose ${what}.` }).trim().min(1, `Choose ${what}.`).max(32);
const accountId = (what: string) => z.string({ error: `Choose ${what}.` }).trim().min(1, `Choose ${what}.`).max(64);

/** The seller's profit as a fraction of the transfer price: at least 0 and below 1, exact text. */
export const marginSchema = z
  .string({ error: "Give the seller's margin as a fraction of the transfer price, e.g. 0.25 for 25%." })
  .trim()
  .regex(/^0(\.\d{1,8})?$/, "Give the seller's margin as a fraction of the transfer price, at least 0 and below 1, e.g. 0.25 for 25%.");

export const intragroupInventoryRequestSchema = z
  .strictObject({
    sellerRealmId: realm("the company that sold the goods"),
    buyerRealmId: realm("the company that holds them"),
    /** YYYY-MM: held at this month's end. */
    month: z.string({ error: "Give the month-end the goods are held at, e.g. 2025-12." }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Give the month-end the goods are held at, e.g. 2025-12."),
    /** Buyer's currency, minor units, at the transfer price. */
    inventory: z.number({ error: "Give the inventory held, in the buyer's currency." }).int("Give the inventory in whole minor units (cents).").safe().min(0, "The inventory held cannot be negative."),
    margin: marginSchema,
    inventoryAccountId: accountId("the parent's inventory account"),
    cogsAccountId: accountId("the parent's cost of sales account"),
  })
  .refine((v) => v.sellerRealmId !== v.buyerRealmId, { path: ["buyerRealmId"], message: "The buyer must be another company than the seller." });
export type IntragroupInventoryRequest = z.infer<typeof intragroupInventoryRequestSchema>;

export const intragroupInventorySchema = z.object({
  id: z.string(),
  sellerRealmId: z.string(),
  sellerName: z.string(),
  buyerRealmId: z.string(),
  buyerName: z.string(),
  /** The buyer's currency. */
  currency: z.string(),
  month: z.string(),
  inventory: z.number().int(),
  margin: z.string(),
  /** inventory × margin, rounded half away from zero, buyer's currency. */
  unrealisedProfit: z.number().int(),
  inventoryAccountId: z.string(),
  cogsAccountId: z.string(),
});
export type IntragroupInventory = z.infer<typeof intragroupInventorySchema>;

export const dividendEliminationRequestSchema = z.strictObject({
  incomeAccountId: accountId("the parent's account where it books the subsidiary's dividends"),
  /** The parent's customer standing for the subsidiary, when the account holds several subsidiaries' dividends; null: the whole account. */
  nameId: z.string().trim().min(1).max(64).nullable().default(null),
});
export type DividendEliminationRequest = z.infer<typeof dividendEliminationRequestSchema>;

const option = z.object({ accountId: z.string(), name: z.string(), acctNum: z.string().nullable() });

export const dividendEliminationSchema = z.object({
  realmId: z.string(),
  companyName: z.string(),
  /** As saved; null until confirmed. */
  saved: z.object({ incomeAccountId: z.string(), nameId: z.string().nullable() }).nullable(),
  /** What GroupLedger reads from the parent's books; null when it finds nothing. */
  proposal: z.object({ incomeAccountId: z.string(), nameId: z.string().nullable() }).nullable(),
  reasons: z.array(z.string()),
});

export const intragroupSchema = z.object({
  /** The parent's accounts offered: inventory (assets), cost of sales (expenses), income (revenue). */
  assetAccounts: z.array(option),
  expenseAccounts: z.array(option),
  revenueAccounts: z.array(option),
  /** The parent's customers, for the one standing for a subsidiary. */
  parentCustomers: z.array(z.object({ id: z.string(), displayName: z.string() })),
  /** Proposed accounts for a new stock line: the parent's inventory and cost of sales accounts. */
  proposedInventoryAccountId: z.string().nullable(),
  proposedCogsAccountId: z.string().nullable(),
  inventory: z.array(intragroupInventorySchema),
  dividends: z.array(dividendEliminationSchema),
});
export type Intragroup = z.infer<typeof intragroupSchema>;

export const intragroupInventoryParamsSchema = z.object({ id: z.uuid({ error: "Not a stock line id." }) });

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getIntragroup = GET("/intragroup", { 200: intragroupSchema });
export const putIntragroupInventory = PUT("/intragroup/inventory", { 200: intragroupInventorySchema }, { body: intragroupInventoryRequestSchema });
export const deleteIntragroupInventory = DELETE("/intragroup/inventory/:id", noContent, { params: intragroupInventoryParamsSchema });
export const putIntragroupDividends = PUT("/intragroup/dividends/:realmId", { 200: dividendEliminationSchema }, { params: realmParamsSchema, body: dividendEliminationRequestSchema });
export const deleteIntragroupDividends = DELETE("/intragroup/dividends/:realmId", noContent, { params: realmParamsSchema });
