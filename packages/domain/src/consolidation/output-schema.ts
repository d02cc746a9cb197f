import { z } from "zod";

/**
 * The consolidation result contract (JSON Schema in packages/domain/schema/consolidation-output.schema.json).
 * Amounts are integer minor units of the reporting currency unless named "local".
 * Trial-balance style amounts are debit positive; statement and summary amounts say
 * "credit positive" where they are (equity, revenue, CTA, NCI).
 */
const amount = z.number().int();

export const translatedLineSchema = z.object({
  account: z.string().nullable().describe("Entity's account id; null for the CTA and remeasurement lines"),
  special: z.enum(["cta", "remeasurement"]).nullable(),
  name: z.string(),
  classification: z.string(),
  local: amount.describe("Local minor units, debit positive"),
  translated: amount.describe("Reporting-currency minor units, debit positive"),
  basis: z.enum(["unchanged", "closing", "average", "historical", "retainedEarningsRollForward", "dividends", "combinedIntoRetainedEarnings", "cta", "remeasurement"]),
  rate: z.string().nullable().describe("The rate used when one rate applies"),
  parentAccount: z.string().describe("Worksheet row the line lands on"),
});

export const ctaExplanationSchema = z.object({
  month: z.string(),
  openingNetAssetsLocal: amount,
  previousClosingRate: z.string(),
  closingRate: z.string(),
  averageRate: z.string(),
  openingNetAssets: amount,
  netIncome: amount,
  dividends: amount,
  equityMovements: amount,
  rounding: amount,
  change: amount.describe("Credit positive; equals the sum of the five parts"),
});

const ctaPartsSchema = z.object({
  openingNetAssets: amount,
  netIncome: amount,
  dividends: amount,
  equityMovements: amount,
  rounding: amount,
  change: amount,
});

export const entityResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(["parent", "subsidiary"]),
  currency: z.string(),
  method: z.enum(["currentRate", "temporal", "none"]),
  ownership: z.string(),
  lines: z.array(translatedLineSchema),
  netIncome: z.object({ local: amount, translated: amount }).describe("Credit positive"),
  retainedEarnings: z.object({ opening: amount, netIncome: amount, dividends: amount, closing: amount }).describe("Translated, credit positive"),
  cta: z.object({ opening: amount, change: amount, closing: amount }).describe("Credit positive"),
  remeasurement: amount.describe("Temporal method result in profit, debit positive (a loss)"),
  ctaExplanation: z.object({ months: z.array(ctaExplanationSchema), total: ctaPartsSchema }),
});

export const entryLineSchema = z.object({ account: z.string(), name: z.string(), amount: amount.describe("Debit positive") });

export const eliminationSchema = z.object({
  id: z.string(),
  kind: z.enum(["receivablePayable", "revenueExpense", "investment", "manual", "unrealisedProfit", "dividend", "preAcquisition", "disposal", "ownershipChange"]),
  description: z.string(),
  lines: z.array(entryLineSchema),
  details: z.record(z.string(), z.union([z.number(), z.string()])),
});

export const nciResultSchema = z.object({
  entity: z.string(),
  share: z.string(),
  atAcquisition: amount,
  retainedEarningsSinceAcquisition: amount,
  capitalSinceAcquisition: amount,
  netIncome: amount.describe("Share of the period's profit, after its share of the period's goodwill impairment (fair-value measurement) and of the fair-value adjustments released in the period"),
  dividends: amount,
  cta: amount,
  goodwillImpairmentBeforePeriod: amount.describe("Share of goodwill impairment recognised before the period (fair-value measurement), deducted"),
  goodwillCta: amount.describe("Share of the exchange differences on goodwill (fair-value measurement), credit positive"),
  // Optional in the contract only so results stored before they existed still parse; the engine always gives them.
  fairValueReleasedBeforePeriod: amount.optional().describe("Share of the fair-value adjustments released (depreciated, amortised, sold) before the period, deducted"),
  fairValueCta: amount.optional().describe("Share of the exchange differences on a foreign operation's fair-value adjustments, credit positive"),
  closing: amount.describe(
    "Credit positive: the NCI this subsidiary contributes to the balance sheet = atAcquisition + capital + retained earnings − dividends + cta + netIncome − goodwillImpairmentBeforePeriod + goodwillCta − fairValueReleasedBeforePeriod + fairValueCta − unrealisedProfitBeforePeriod + attributedManualEquity",
  ),
  // Optional in the contract only so results stored before they existed still parse; the engine always gives them.
  adjustedProfit: amount
    .optional()
    .describe(
      "Credit positive: the subsidiary's profit the NCI's share (netIncome) is taken of — its translated net income less the period's goodwill impairment " +
        "(fair-value NCI), plus unrealisedProfitInPeriod and attributedManualProfit",
    ),
  unrealisedProfitInPeriod: amount
    .optional()
    .describe("Credit positive: unrealised profit in inventory this subsidiary sold within the group, realised in the period less that eliminated at its end (in adjustedProfit)"),
  attributedManualProfit: amount.optional().describe("Credit positive: profit-or-loss effect of manual entries attributed to this subsidiary (in adjustedProfit)"),
  unrealisedProfitBeforePeriod: amount
    .optional()
    .describe("Share of the unrealised profit eliminated at the period's start (inventory this subsidiary sold within the group), deducted"),
  attributedManualEquity: amount.optional().describe("Share of the equity lines of manual entries attributed to this subsidiary, credit positive"),
  ownershipChanges: amount
    .optional()
    .describe("Only for a subsidiary whose ownership changed without a loss of control: the NCI's adjustments at the changes, credit positive (added)"),
  derecognisedOnDisposal: amount
    .optional()
    .describe("Only for a subsidiary disposed of in the period: the NCI at the disposal date, derecognised (deducted, so closing is 0)"),
});

export const worksheetSchema = z.object({
  columns: z.array(z.object({ id: z.string(), label: z.string() })),
  rows: z.array(
    z.object({
      account: z.string(),
      name: z.string(),
      classification: z.string(),
      role: z.enum(["account", "unmapped", "nciShareOfProfit"]),
      amounts: z.array(amount).describe("One per column, debit positive"),
    }),
  ),
});

const statementLineSchema = z.object({ account: z.string(), name: z.string(), amount });

export const consolidationOutputSchema = z.object({
  reportingCurrency: z.string(),
  exponent: z.number().int(),
  period: z.object({ from: z.string(), to: z.string(), months: z.number().int() }),
  entities: z.array(entityResultSchema),
  unmapped: z.array(z.object({ entity: z.string(), account: z.string(), name: z.string(), local: amount, translated: amount })),
  eliminations: z.array(eliminationSchema),
  nci: z.array(nciResultSchema),
  worksheet: worksheetSchema,
  trialBalance: z.array(statementLineSchema.extend({ classification: z.string() })),
  balanceSheet: z.object({
    assets: z.array(statementLineSchema).describe("Debit positive"),
    liabilities: z.array(statementLineSchema).describe("Credit positive"),
    equity: z.array(statementLineSchema).describe("Credit positive, including the period's profit attributable to the parent"),
    totalAssets: amount,
    totalLiabilities: amount,
    totalEquity: amount,
    nonControllingInterests: amount,
    balanced: z.boolean(),
  }),
  incomeStatement: z.object({
    revenue: z.array(statementLineSchema).describe("Credit positive"),
    expenses: z.array(statementLineSchema).describe("Debit positive"),
    netIncome: amount,
    attributableToNci: amount,
    attributableToParent: amount,
  }),
  journalEntries: z.array(
    z.object({
      entity: z.string(),
      class: z.string().describe("QBO Class the lines are tagged with"),
      period: z.string(),
      memo: z.string(),
      postable: z.boolean().describe("False while a line sits on an unmapped account"),
      lines: z.array(z.object({ account: z.string(), name: z.string(), debit: amount, credit: amount })),
    }),
  ),
  warnings: z.array(z.string()),
});

export type ConsolidationOutput = z.infer<typeof consolidationOutputSchema>;
export type EntityResult = z.infer<typeof entityResultSchema>;
export type EliminationResult = z.infer<typeof eliminationSchema>;
export type NciResult = z.infer<typeof nciResultSchema>;
export type Worksheet = z.infer<typeof worksheetSchema>;
