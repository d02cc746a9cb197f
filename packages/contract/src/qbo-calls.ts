import { z } from "zod";
import { lastDayOfMonth, monthOf } from "@groupledger/domain";
import { GET } from "./endpoint.ts";

/**
 * Intuit's monthly allowance of read calls ("CorePlus" API calls: reads, queries, reports, CDC) on
 * the free Builder tier of the Intuit App Partner Program: "If your application exceeds the monthly
 * threshold of 500,000 CorePlus API calls, all further CorePlus API calls will be blocked until the
 * following month", and QuickBooks flags the app "Offline" to its customers (Intuit developer blog,
 * 2026-01-08, "Understanding Builder tier API limits for you and your customers"). Writes (creates,
 * updates, deletes) are not metered. Intuit counts the application's calls, every customer's
 * together: a group's share of them is what one group can see and change.
 */
export const QBO_MONTHLY_READ_ALLOWANCE = 500_000;

/** The Companies screen warns when a group's reads, projected to the end of the month, pass this share of the allowance. */
export const QBO_READ_WARNING_SHARE = 0.8;

const DAY_MS = 24 * 3600 * 1000;

export interface ReadOutlook {
  /** The month's reads at its end at the pace so far: the reads so far over the days gone, times the month's days. */
  readonly projectedReads: number;
  /** projectedReads over the allowance (1 = all of it). */
  readonly share: number;
  /** The projection passes QBO_READ_WARNING_SHARE of the allowance. */
  readonly warn: boolean;
}

/**
 * Where a month's reads are heading: `reads` made since the start of `now`'s UTC month, at the same
 * pace for the rest of it. The days gone are counted from the first of the month to `now`, but as at
 * least one, so the first hours of a month (a nightly sync just run) do not project a year's worth.
 */
export function readOutlook(reads: number, now: Date, allowance: number = QBO_MONTHLY_READ_ALLOWANCE): ReadOutlook {
  const month = monthOf(now);
  const start = Date.parse(`${month}-01T00:00:00Z`);
  const days = Number(lastDayOfMonth(month).slice(8));
  const gone = Math.min(days, Math.max(1, (now.getTime() - start) / DAY_MS));
  const projectedReads = Math.max(reads, Math.round((reads * days) / gone));
  return { projectedReads, share: projectedReads / allowance, warn: projectedReads > QBO_READ_WARNING_SHARE * allowance };
}

export const callCountsSchema = z.object({ reads: z.number().int(), writes: z.number().int() });
export type CallCounts = z.infer<typeof callCountsSchema>;

/** GET /api/companies/calls: requests made to QuickBooks for the caller's group, counted per UTC day. */
export const qboCallsSchema = z.object({
  /** The UTC day and month counted ("YYYY-MM-DD", "YYYY-MM"). */
  day: z.string(),
  month: z.string(),
  /** Each company of the group, keyed by realmId: its calls today and this month. */
  companies: z.record(z.string(), z.object({ today: callCountsSchema, month: callCountsSchema })),
  /** The group's calls this month, its reads projected to the month's end (readOutlook), and Intuit's allowance. */
  group: z.object({
    month: callCountsSchema,
    projectedReads: z.number().int(),
    allowance: z.number().int(),
    /** projectedReads passes QBO_READ_WARNING_SHARE of the allowance. */
    warn: z.boolean(),
  }),
});
export type QboCalls = z.infer<typeof qboCallsSchema>;

// ---- Endpoints (endpoint.ts): registered by the server, called by the web.

export const getQboCalls = GET("/companies/calls", { 200: qboCallsSchema });
