import { z } from "zod";
import { GET, POST } from "./endpoint.ts";
import { statementHeader } from "./reports.ts";

/**
 * Segments (issue 23): the consolidated profit and loss, balance sheet, statement of cash flows or
 * changes in equity by QuickBooks class or location, after eliminations, with the eliminations in
 * their own column (the rules: packages/domain statements/segments.ts and segments-cash-flow.ts;
 * docs/engine.md "Segments").
 */

const month = (field: string) => z.string({ error: `${field} is required: a month like 2026-03.` }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Use a month like 2026-03.");
const amount = z.number().int();

export const SEGMENT_DIMENSIONS = ["class", "location"] as const;
export type SegmentDimension = (typeof SEGMENT_DIMENSIONS)[number];

export const SEGMENT_STATEMENTS = ["income", "balance", "cashflow", "equity"] as const;
export type SegmentStatementKind = (typeof SEGMENT_STATEMENTS)[number];

export const segmentQuerySchema = z.object({
  from: month("from"),
  to: month("to"),
  by: z.enum(SEGMENT_DIMENSIONS, { error: "by is class or location (QuickBooks' Department)." }).default("class"),
  statement: z.enum(SEGMENT_STATEMENTS, { error: "statement is income (the profit and loss), balance (the balance sheet at the period's end), cashflow (the statement of cash flows) or equity (the changes in equity)." }).default("income"),
});
export type SegmentQuery = z.infer<typeof segmentQuerySchema>;

const amountsShape = {
  segments: z.array(amount).describe("One per segment, in the order of `segments`"),
  unallocated: amount.describe("Lines with no class (location), and the rounding of the segments' translation"),
  eliminations: amount.describe("The intra-group eliminations and group entries on the line"),
  otherAdjustments: amount.describe("Anything else between the companies' lines and the consolidated one (zero when the statement is complete)"),
  total: amount.describe("The consolidated figure"),
};

const rowSchema = z.object({ account: z.string(), name: z.string(), ...amountsShape });

export const segmentStatementSchema = z.object({
  segments: z.array(
    z.object({
      name: z.string(),
      members: z.array(z.object({ entity: z.string(), entityName: z.string(), name: z.string().describe("As that company spells it") })),
    }),
  ),
  revenue: z.array(rowSchema).describe("Credit positive"),
  expenses: z.array(rowSchema).describe("Debit positive"),
  netIncome: z.object(amountsShape).describe("Credit positive"),
  hasOtherAdjustments: z.boolean(),
  reconciles: z.boolean().describe("Every row's columns add up to its consolidated figure, and the net income is the consolidated P&L's"),
  warnings: z.array(z.string()),
});

const balanceAmountsShape = {
  segments: z.array(amount).describe("One per segment, in the order of `segments`"),
  unallocated: amount.describe("Balances with no class (location), the segments' rounding, and all of equity (not split)"),
  eliminations: amount.describe("The intra-group eliminations and group entries on the line"),
  group: amount.describe("Consolidation's own amounts: the investment's elimination, goodwill, ownership changes, non-controlling interests"),
  total: amount.describe("The consolidated figure"),
};
const balanceRowSchema = z.object({ account: z.string(), name: z.string(), ...balanceAmountsShape });

export const segmentBalanceSheetSchema = z.object({
  segments: segmentStatementSchema.shape.segments,
  asAt: z.string().describe("The period's last month: balances at its end"),
  assets: z.array(balanceRowSchema).describe("Debit positive"),
  liabilities: z.array(balanceRowSchema).describe("Credit positive"),
  equity: z.array(balanceRowSchema).describe("Credit positive; non-controlling interests and the period's profit included; not split by segment"),
  totalAssets: z.object(balanceAmountsShape),
  totalLiabilities: z.object(balanceAmountsShape),
  totalEquity: z.object(balanceAmountsShape),
  totalLiabilitiesAndEquity: z.object(balanceAmountsShape),
  reconciles: z.boolean().describe("Every row's columns add up to its consolidated figure, the totals are the consolidated balance sheet's, and it balances"),
  warnings: z.array(z.string()),
});

const cashAmountsShape = {
  segments: z.array(amount).describe("One per segment, in the order of `segments`"),
  unallocated: amount.describe("What no segment carries: untagged balances, equity flows (dividends, share issues, NCI), consolidation's own amounts, and the segments' net transfers with the opposite sign"),
  eliminations: amount.describe("The consolidated figure less the companies' own: intra-group flows and entries"),
  total: amount.describe("The consolidated statement's figure"),
};
const cashAmounts = z.object(cashAmountsShape);
const cashRow = z.object({ account: z.string(), name: z.string(), ...cashAmountsShape });

export const segmentCashFlowSchema = z.object({
  segments: segmentStatementSchema.shape.segments,
  operating: z.object({ profit: cashAmounts, adjustments: z.array(cashRow), workingCapital: z.array(cashRow), total: cashAmounts }),
  investing: z.object({ lines: z.array(cashRow), total: cashAmounts }),
  financing: z.object({ lines: z.array(cashRow).describe("The segments' net transfers with the rest of the group included (account `(segment transfers)`)"), total: cashAmounts }),
  netCashFlow: cashAmounts,
  exchangeEffect: cashAmounts.describe("IAS 7.28, each segment's from its own cash at its companies' rates"),
  openingCash: cashAmounts,
  closingCash: cashAmounts,
  difference: cashAmounts.describe("Per column: closing cash − (opening cash + net cash flow + the effect); zero when it reconciles"),
  reconciles: z.boolean().describe("Every column reconciles opening to closing cash, and the total column is the consolidated statement of cash flows"),
  warnings: z.array(z.string()),
});

export const SEGMENT_EQUITY_ROWS = ["opening", "profit", "otherComprehensiveIncome", "transactionsWithOwners", "transfers", "closing"] as const;

export const segmentChangesInEquitySchema = z.object({
  segments: segmentStatementSchema.shape.segments,
  openingMonth: z.string(),
  rows: z.array(z.object({ kind: z.enum(SEGMENT_EQUITY_ROWS), label: z.string(), ...cashAmountsShape })).describe("Credit positive: a segment's net assets (assets − liabilities), the group's equity in the total"),
  balanceSheetDifference: amount.describe("The consolidated statement's own closing total equity against the balance sheet (zero when it reconciles)"),
  reconciles: z.boolean(),
});

export const segmentReportSchema = z.object({
  ...statementHeader,
  by: z.enum(SEGMENT_DIMENSIONS),
  kind: z.enum(SEGMENT_STATEMENTS).describe("The statement asked for (the query's `statement`)"),
  statement: segmentStatementSchema.nullable().describe("The profit and loss by segment (kind income)"),
  balanceSheet: segmentBalanceSheetSchema.nullable().describe("The balance sheet by segment at the period's end (kind balance)"),
  cashFlow: segmentCashFlowSchema.nullable().describe("The statement of cash flows by segment (kind cashflow)"),
  changesInEquity: segmentChangesInEquitySchema.nullable().describe("The changes in equity by segment: each segment's net assets rolled forward (kind equity)"),
});
export type SegmentReport = z.infer<typeof segmentReportSchema>;

export const getSegments = GET("/consolidation/segments", { 200: segmentReportSchema }, { query: segmentQuerySchema });

/** What turning segments on started: one sync per connected company, which reads their classes and locations. */
export const segmentsEnabledSchema = z.object({
  enabled: z.literal(true),
  syncs: z.array(z.object({ realmId: z.string(), jobId: z.string(), alreadyRunning: z.boolean() })),
});
export type SegmentsEnabled = z.infer<typeof segmentsEnabledSchema>;

export const postSegmentsEnable = POST("/consolidation/segments/enable", { 200: segmentsEnabledSchema });

/** The problem code of a segment statement asked before the group reads its classes and locations. */
export const SEGMENTS_OFF = "segments_off";

