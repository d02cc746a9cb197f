import { z } from "zod";
import { isCurrencyCode } from "../money/currency.ts";
import { isDecimalText } from "../money/rate.ts";
import { isMonthText } from "../periods/month.ts";
import type { BalanceColumns } from "./balance-columns.ts";

/**
 * The consolidation input contract (documented in docs/engine.md, JSON Schema in
 * packages/domain/schema/consolidation-input.schema.json).
 *
 * Sign convention everywhere: amounts are integer minor units of the entity's own currency
 * (or of the reporting currency where stated), DEBIT POSITIVE, CREDIT NEGATIVE.
 */

// Patterns (not only refinements) so the generated JSON Schema carries them too.
export const monthText = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: "must be a month written YYYY-MM, e.g. 2024-01" }).refine(isMonthText);
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, { message: "must be a three-letter ISO 4217 code, e.g. EUR" }).refine(isCurrencyCode);
export const rateText = z
  .string()
  .regex(/^\d+(\.\d+)?$/, { message: "must be a positive decimal written as text, e.g. \"1.0845\"" })
  .refine((t) => isDecimalText(t) && /[1-9]/.test(t), { message: "must be greater than zero" });
export const minorUnits = z
  .number()
  .refine(Number.isSafeInteger, { message: "must be a whole number of minor units (cents) within ±2^53" });
const id = z.string().min(1, { message: "must not be empty" });

export const classificationSchema = z.enum(["Asset", "Liability", "Equity", "Revenue", "Expense"]);
export type Classification = z.infer<typeof classificationSchema>;
export const equityKindSchema = z.enum(["contributedCapital", "retainedEarnings", "dividends", "other"]);
export type EquityKind = z.infer<typeof equityKindSchema>;

export const accountSchema = z
  .object({
    id,
    name: z.string(),
    classification: classificationSchema.describe("QBO's Account.Classification"),
    equityKind: equityKindSchema
      .optional()
      .describe("Required for Equity accounts: contributed capital, retained earnings, dividends or other (reserves)"),
    monetary: z
      .boolean()
      .optional()
      .describe("Temporal method only: true for cash, receivables, payables, debt (closing rate); false for non-monetary items (historical rate)"),
  })
  .superRefine((a, ctx) => {
    if (a.classification === "Equity" && !a.equityKind) ctx.addIssue({ code: "custom", path: ["equityKind"], message: "an Equity account needs an equityKind" });
    if (a.classification !== "Equity" && a.equityKind) ctx.addIssue({ code: "custom", path: ["equityKind"], message: "only Equity accounts have an equityKind" });
  });
export type AccountInput = z.infer<typeof accountSchema>;

export const balanceSeriesSchema = z.object({
  account: id,
  from: monthText.describe("Month of amounts[0]; amounts[k] belongs to from + k months"),
  amounts: z
    .array(minorUnits)
    .describe("Local minor units, debit positive: closing balance for Asset/Liability/Equity accounts, the month's activity for Revenue/Expense"),
});

export const historicalSchema = z
  .object({
    account: id,
    rate: rateText.optional().describe("Historical rate applied to the balance at the opening month (and, temporal method, to Revenue/Expense activity)"),
    amount: minorUnits.optional().describe("Translated balance at the opening month, in reporting-currency minor units, debit positive"),
  })
  .refine((h) => (h.rate === undefined) !== (h.amount === undefined), { message: "give exactly one of rate or amount" });

export const movementRateSchema = z.object({ account: id, month: monthText, rate: rateText });

export const dividendSchema = z.object({
  month: monthText.describe("Month of declaration"),
  amount: minorUnits.refine((n) => n > 0, { message: "must be positive" }).describe("Local minor units"),
  rate: rateText.optional().describe("Rate at the declaration date; defaults to the average rate of the declaration month"),
  profitOf: z
    .object({ from: monthText, to: monthText })
    .optional()
    .describe("Months whose profit is distributed (used by the profitPeriod policy)"),
});

export const entitySchema = z.object({
  id,
  name: z.string(),
  role: z.enum(["parent", "subsidiary"]),
  currency: currencyCode,
  ownership: rateText
    .refine((t) => Number(t) <= 1, { message: "must be at most 1" })
    .default("1")
    .describe("Parent's ownership share as a decimal fraction, e.g. \"0.8\""),
  fiscalYearStartMonth: z.number().int().min(1).max(12).default(1),
  method: z.enum(["currentRate", "temporal"]).default("currentRate"),
  dividendRatePolicy: z.enum(["declarationDate", "profitPeriod"]).default("declarationDate"),
  retainedEarningsAccount: id.optional().describe("Needed only when the entity has several retainedEarnings accounts"),
  accounts: z.array(accountSchema),
  opening: z.object({
    month: monthText.describe("Month-end whose balances open the roll-forward (e.g. acquisition or last audited close)"),
    retainedEarnings: minorUnits
      .optional()
      .describe("Translated retained earnings at the opening month, reporting-currency minor units, debit positive (a credit balance is negative). Required when translated"),
    cta: minorUnits.optional().describe("Cumulative translation adjustment at the opening month, debit positive. Omit to derive it as the balancing figure"),
  }),
  balances: z.array(balanceSeriesSchema),
  historical: z.array(historicalSchema).default([]),
  movementRates: z
    .array(movementRateSchema)
    .default([])
    .describe("Rates for changes in historically translated balances (share issues, temporal-method additions); default: the month's average rate"),
  dividends: z.array(dividendSchema).default([]),
});
/**
 * A parsed entity. `balanceColumns` (balance-columns.ts), for callers in the same process, holds its
 * balances instead of `balances` (then empty); JSON never carries it.
 */
export type EntityInput = z.infer<typeof entitySchema> & { balanceColumns?: BalanceColumns };

export const periodSchema = z.union([
  z.object({ month: monthText }).strict(),
  z.object({ from: monthText, to: monthText }).strict(),
  z.object({ fiscalYear: z.number().int().min(1900).max(9999) }).strict(),
  z.object({ fiscalYear: z.number().int().min(1900).max(9999), quarter: z.number().int().min(1).max(4) }).strict(),
]).describe("Fiscal years and quarters follow the parent's fiscalYearStartMonth");

export const monthRatesSchema = z.object({ average: rateText, closing: rateText });

export const accountRef = z.object({ entity: id, account: id });

export const pairSideSchema = accountRef.extend({
  portion: z
    .object({
      name: z.string().min(1).describe("Whose part it is, for the description (e.g. the customer or vendor)"),
      from: monthText.describe("Month of amounts[0]"),
      amounts: z.array(minorUnits),
    })
    .optional()
    .describe(
      "Only part of the account: the amounts booked in it against one counterparty (a QBO customer or vendor that stands for a group member), " +
        "a series like `balances` (closing balances for Asset/Liability, monthly activity for Revenue/Expense). Translated like the account itself",
    ),
});

export const intercompanySchema = z.object({
  id,
  kind: z.enum(["receivablePayable", "revenueExpense"]),
  left: pairSideSchema.describe("Receivable (or revenue) side"),
  right: pairSideSchema.describe("Payable (or expense) side"),
  differenceTo: z.enum(["fx", "cta"]).default("fx").describe("Where the translation difference between the two sides goes"),
  tolerance: minorUnits
    .refine((n) => n >= 0, { message: "must not be negative" })
    .default(0)
    .describe(
      "Reporting-currency minor units: sides differing by no more than this count as matched (details.match \"withinTolerance\"); the difference is still posted to differenceTo. 0: exact matching",
    ),
});

/**
 * A fair-value adjustment to one of the subsidiary's identifiable assets at acquisition (IFRS 3.18,
 * ASC 805-20-30-1): the uplift (or write-down) its own books do not carry. It is part of the net
 * assets acquired and is amortised straight-line month by month after the acquisition.
 */
export const fairValueAdjustmentSchema = z.object({
  id,
  description: z.string().default(""),
  kind: z.enum(["intangible", "inventory", "ppe", "other"]).describe("What the adjustment is on; inventory's life is the months over which it is sold"),
  assetAccount: id.describe("Parent Asset account on which the adjustment shows in the consolidated balance sheet"),
  amount: minorUnits
    .refine((n) => n !== 0, { message: "must not be zero (an adjustment of nothing has nothing to book)" })
    .describe("The uplift at acquisition (negative for a write-down), in the subsidiary's own currency minor units"),
  usefulLifeMonths: z
    .union([z.number().int({ message: "must be a whole number of months" }).min(1, { message: "must be at least 1 month: an adjustment is released from the month after the acquisition (or say \"indefinite\")" }), z.literal("indefinite")], {
      error: (issue) =>
        issue.input === undefined
          ? "give the months over which the adjustment is depreciated, amortised or (inventory) sold: a whole number of at least 1, or \"indefinite\" for land or an indefinite-lived intangible"
          : "must be a whole number of months of at least 1 (an adjustment is released from the month after the acquisition), or \"indefinite\"",
    })
    .describe(
      "Months after the acquisition month over which the adjustment is released straight-line (inventory: the months over which it is sold); \"indefinite\" for land or an indefinite-lived intangible, never released",
    ),
  expenseAccount: id.describe("Parent Expense account the depreciation, amortisation or release goes to (e.g. depreciation, cost of sales)"),
});

export const investmentSchema = z.object({
  id,
  subsidiary: id,
  investmentAccount: id.describe("Parent's account holding the investment"),
  acquisitionMonth: monthText.optional().describe("Defaults to the subsidiary's opening month"),
  cost: minorUnits.optional().describe("Reporting-currency minor units; defaults to the investment account's balance"),
  equityAtAcquisition: z
    .array(z.object({ account: id, amount: minorUnits }))
    .optional()
    .describe("Subsidiary equity at acquisition, translated, debit positive; when omitted it is taken from the translation at acquisitionMonth"),
  goodwillTranslation: z
    .enum(["closing", "historical"])
    .default("closing")
    .describe("closing: goodwill is an asset of the foreign operation (IAS 21.47, ASC 830-30-45-11)"),
  nciMeasurement: z
    .enum(["proportionateShare", "fairValue"])
    .default("proportionateShare")
    .describe(
      "How the NCI is measured at acquisition (IFRS 3.19): proportionateShare of the identifiable net assets (goodwill is the parent's only), " +
        "or fairValue (full goodwill, required by ASC 805-20-30-1; the NCI then bears its share of goodwill impairment and of goodwill's exchange differences)",
    ),
  nciFairValue: minorUnits
    .refine((n) => n > 0, { message: "must be positive" })
    .optional()
    .describe("Fair value of the NCI at the acquisition date, reporting-currency minor units, as a positive number. Required with nciMeasurement fairValue"),
  goodwillImpairments: z
    .array(
      z.object({
        month: monthText.describe("Month in which the impairment loss is recognised"),
        amount: minorUnits
          .refine((n) => n > 0, { message: "must be positive" })
          .describe(
            "Impairment loss in the currency the goodwill is carried in: the subsidiary's minor units when goodwillTranslation is closing and the subsidiary is translated, otherwise reporting-currency minor units",
          ),
      }),
    )
    .default([])
    .describe(
      "Goodwill impairment losses to date (IAS 36, ASC 350-20). Those before the period reduce opening retained earnings (and the NCI under fairValue); those in the period are an expense on designatedAccounts.goodwillImpairment",
    ),
  fairValueAdjustments: z
    .array(fairValueAdjustmentSchema)
    .default([])
    .describe(
      "Fair-value adjustments to the subsidiary's identifiable assets at acquisition. They are part of the net assets acquired (so of goodwill and of a proportionate NCI); " +
        "their release is an expense of each month after the acquisition, shared with the NCI; a translated subsidiary's adjustments are assets of the foreign operation (IAS 21.47, ASC 830-30-45-11)",
    ),
  parentMethod: z
    .enum(["cost", "equity"])
    .default("cost")
    .describe(
      "How the parent carries the investment in its own books: cost, or the equity method (then cost and equityIncomeAccount are required and the engine first restates the investment to cost)",
    ),
  equityIncomeAccount: id
    .optional()
    .describe("parentMethod equity: the parent's Revenue account holding only its share of this subsidiary's result"),
  dividendIncomeAccount: id
    .optional()
    .describe(
      "parentMethod equity: the parent's Revenue account on which dividends received from this subsidiary would be income at cost (the equity method credited them to the investment). Needed only when the investment fell in the period by more than the equity-method income",
    ),
  equityReserveAccount: id
    .optional()
    .describe(
      "parentMethod equity: the parent's Equity (other) account holding only its share of this subsidiary's other comprehensive income (translation differences). Required when the subsidiary is translated at the current rate",
    ),
  ownershipChanges: z
    .array(
      z.object({
        month: monthText.describe("Month-end at which the new holding takes effect (results of later months are shared at it)"),
        ownership: rateText
          .refine((t) => Number(t) <= 1, { message: "must be at most 1" })
          .describe("The parent's ownership share after the change, as a decimal fraction, e.g. \"0.9\""),
        consideration: minorUnits
          .refine((n) => n >= 0, { message: "must not be negative" })
          .describe("Paid for the shares bought, or received for the shares sold, reporting-currency minor units"),
        account: id
          .optional()
          .describe("Parent account the parent booked the consideration on (debited when buying, credited when selling). Default: the investment account"),
      }),
    )
    .default([])
    .describe(
      "Changes in the parent's ownership that keep control (IFRS 10.23 and B96, ASC 810-10-45-23): equity transactions. The subsidiary's `ownership` is then the share at acquisition",
    ),
})
  .superRefine((rule, ctx) => {
    if (rule.nciMeasurement === "fairValue" && rule.nciFairValue === undefined) {
      ctx.addIssue({ code: "custom", path: ["nciFairValue"], message: "nciMeasurement fairValue needs the NCI's fair value at acquisition" });
    }
    if (rule.nciMeasurement === "proportionateShare" && rule.nciFairValue !== undefined) {
      ctx.addIssue({ code: "custom", path: ["nciFairValue"], message: "a fair value is only used with nciMeasurement fairValue" });
    }
    if (rule.parentMethod === "equity") {
      if (rule.cost === undefined) {
        ctx.addIssue({ code: "custom", path: ["cost"], message: "parentMethod equity needs the investment's cost at acquisition: the investment account holds cost plus the equity-method accruals" });
      }
      if (rule.equityIncomeAccount === undefined) {
        ctx.addIssue({ code: "custom", path: ["equityIncomeAccount"], message: "parentMethod equity needs the parent's Revenue account holding its share of the subsidiary's result, so that it can be reversed" });
      }
    } else {
      for (const field of ["equityIncomeAccount", "dividendIncomeAccount", "equityReserveAccount"] as const) {
        if (rule[field] !== undefined) ctx.addIssue({ code: "custom", path: [field], message: "only used with parentMethod equity" });
      }
    }
  });

export const manualEntrySchema = z.object({
  id,
  description: z.string().default(""),
  lines: z.array(z.object({ account: id.describe("Parent account"), amount: minorUnits })).min(2),
  attributeTo: z
    .object({ subsidiary: id })
    .optional()
    .describe(
      "The entry adjusts this subsidiary's results: its profit-or-loss effect changes the profit the subsidiary's NCI takes its share of, " +
        "and the NCI takes its share of its equity lines (IFRS 10 B94, ASC 810-10-45-20)",
    ),
});

/** A fraction of the transfer price in [0, 1), written as text so it stays exact. */
const marginText = z
  .string()
  .regex(/^\d+(\.\d+)?$/, { message: 'must be a decimal fraction written as text, e.g. "0.25"' })
  .refine((t) => /^0(\.\d+)?$/.test(t), { message: 'must be at least 0 and below 1: the profit as a fraction of the transfer price, e.g. "0.25"' });

export const heldInventorySchema = z
  .object({
    inventory: minorUnits
      .refine((n) => n >= 0, { message: "must not be negative" })
      .describe("Inventory bought from the seller and still held by the buyer, at the transfer price, in the buyer's currency minor units"),
    margin: marginText.optional().describe("The seller's profit as a fraction of the transfer price (gross margin), e.g. \"0.25\""),
    markup: z
      .string()
      .regex(/^\d+(\.\d+)?$/, { message: 'must be a non-negative decimal written as text, e.g. "0.25"' })
      .optional()
      .describe("Instead of margin: the seller's profit as a fraction of its cost (cost plus), e.g. \"0.25\" for a 25% mark-up"),
    rate: rateText
      .optional()
      .describe(
        "Translated buyers only: the buyer's rate at the dates of the transfers (ASC 830-30-45-10). Default: the buyer's average rate of the period's " +
          "last month (closing inventory) or of the month before the period (opening inventory)",
      ),
  })
  .superRefine((h, ctx) => {
    if ((h.margin === undefined) === (h.markup === undefined)) ctx.addIssue({ code: "custom", path: ["margin"], message: "give exactly one of margin or markup" });
  });

export const unrealisedProfitSchema = z
  .object({
    id,
    description: z.string().default(""),
    seller: id.describe("Entity that sold the inventory and booked the profit"),
    buyer: id.describe("Entity that holds the inventory"),
    inventoryAccount: id.describe("Parent Asset account the buyer's inventory is mapped to"),
    cogsAccount: id.describe("Parent Expense account (cost of sales) the profit is eliminated through"),
    closing: heldInventorySchema.optional().describe("Held at the period's end: its unrealised profit is eliminated (Dr cost of sales, Cr inventory)"),
    opening: heldInventorySchema
      .optional()
      .describe("Held at the period's start and sold in it: the profit eliminated last period is realised (Dr opening retained earnings, Cr cost of sales)"),
  })
  .superRefine((rule, ctx) => {
    if (rule.seller === rule.buyer) ctx.addIssue({ code: "custom", path: ["buyer"], message: "the buyer must be another entity than the seller" });
    if (!rule.closing && !rule.opening) ctx.addIssue({ code: "custom", path: ["closing"], message: "give the inventory held at the period's end (closing), at its start (opening), or both" });
  });

export const dividendEliminationSchema = z.object({
  id,
  subsidiary: id.describe("Subsidiary whose dividends declared in the period are eliminated"),
  incomeAccount: id.describe("Parent Revenue account where the parent booked the dividend income"),
  parentAmount: minorUnits
    .refine((n) => n > 0, { message: "must be positive" })
    .optional()
    .describe(
      "What the parent booked for this subsidiary's dividends of the period, reporting-currency minor units, positive. " +
        "Default: the income account's amount for the period (required when several rules share the account)",
    ),
});

export const disposalSchema = z.object({
  id,
  subsidiary: id.describe("Subsidiary sold whole (control lost)"),
  month: monthText.describe("Disposal month: the last month whose results are consolidated (30 June → June); inside the period"),
  proceeds: minorUnits
    .refine((n) => n >= 0, { message: "must not be negative" })
    .describe("Consideration received, reporting-currency minor units"),
  gainAccount: id.describe("Parent Revenue or Expense account for the group's gain or loss on disposal (with the recycled CTA)"),
  proceedsAccount: id
    .optional()
    .describe("Parent account the parent credited the proceeds to (e.g. a disposal or suspense account, or the investment account). Default: gainAccount"),
  investmentRemovedByParent: z
    .boolean()
    .default(false)
    .describe(
      "True when the parent's own books already took the investment out at its cost (Cr investment, and only proceeds − cost on proceedsAccount), " +
        "the usual entry in its separate statements; the investment elimination's cost is then put back before the investment is eliminated",
    ),
});

export const consolidationInputSchema = z.object({
  reportingCurrency: currencyCode,
  period: periodSchema,
  entities: z.array(entitySchema).min(1),
  rates: z
    .record(z.string(), z.record(z.string(), monthRatesSchema))
    .default({})
    .describe("currency → month (YYYY-MM) → {average, closing}; reporting-currency units per one unit of that currency"),
  maps: z
    .array(z.object({ entity: id, lines: z.record(z.string(), id).describe("subsidiary account id → parent account id") }))
    .default([]),
  designatedAccounts: z.object({
    cta: id.describe("Parent's cumulative translation adjustment account (Equity, other)"),
    fxDifference: id.describe("Parent's P&L account for FX differences and remeasurement results"),
    goodwill: id.optional(),
    nci: id.optional().describe("Parent's account for non-controlling interests (Equity, other)"),
    goodwillImpairment: id
      .optional()
      .describe("Parent's Expense account for goodwill impairment losses recognised in the period; needed only when there are any"),
    bargainPurchaseGain: id
      .optional()
      .describe(
        "Parent's Revenue account for a gain on a bargain purchase (IFRS 3.34, ASC 805-30-25-2) recognised in the period; needed only when an acquisition at the period's opening date has one",
      ),
    ownershipChangeReserve: id
      .optional()
      .describe("Parent's Equity account for differences on changes in ownership without loss of control (IFRS 10 B96). Default: its retained earnings account"),
  }),
  eliminations: z
    .object({
      intercompany: z.array(intercompanySchema).default([]),
      investments: z.array(investmentSchema).default([]),
      manual: z.array(manualEntrySchema).default([]),
      unrealisedProfit: z
        .array(unrealisedProfitSchema)
        .default([])
        .describe("Unrealised profit in inventory sold within the group (IFRS 10 B86(c), ASC 810-10-45-1)"),
      dividends: z
        .array(dividendEliminationSchema)
        .default([])
        .describe("Dividends of subsidiaries received by the parent (IFRS 10 B86(c), ASC 810-10-45-1)"),
      disposals: z
        .array(disposalSchema)
        .default([])
        .describe("Subsidiaries sold whole during the period (loss of control: IFRS 10.25 and B97-B99, ASC 810-10-40-4/40-5; CTA recycling: IAS 21.48, ASC 830-30-40-1)"),
    })
    .default({ intercompany: [], investments: [], manual: [], unrealisedProfit: [], dividends: [], disposals: [] }),
});

export type ConsolidationInput = Omit<z.infer<typeof consolidationInputSchema>, "entities"> & { entities: EntityInput[] };
/**
 * What a caller may pass before defaults are filled in: the JSON file's shape, where an entity may
 * give `balanceColumns` (not JSON: a caller in the same process) with `balances: []` (or none).
 */
export type ConsolidationInputJson = Omit<z.input<typeof consolidationInputSchema>, "entities"> & { entities: EntityInputJson[] };
export type EntityInputJson = z.input<typeof entitySchema> & { balanceColumns?: BalanceColumns };
