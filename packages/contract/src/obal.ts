import { z } from "zod";

const year = z.number({ error: "Year must be a number such as 2025." }).int().min(2000, "Year must be 2000 or later.").max(2100, "Year must be 2100 or earlier.");
const month = z.number({ error: "Month must be a number from 1 to 12." }).int().min(1, "Month must be from 1 to 12.").max(12, "Month must be from 1 to 12.");

/**
 * SPEC §3 OBAL state. year/month are the fiscal period whose month-end balances open the
 * consolidation; naturalYear/naturalMonth the same month-end on the calendar (they differ only in
 * how a non-January fiscal year numbers it). Maps are keyed by the subsidiary's realmId.
 */
export const obalStateSchema = z.object({
  year: z.number().int().nullable(),
  month: z.number().int().nullable(),
  naturalYear: z.number().int().nullable(),
  naturalMonth: z.number().int().nullable(),
  reviewed: z.record(z.string(), z.boolean()),
  confirmed: z.record(z.string(), z.boolean()),
  posted: z.record(z.string(), z.boolean()),
  trialBalanceJournalEntryUrl: z.string(),
});
export type ObalState = z.infer<typeof obalStateSchema>;

export const obalLockRequestSchema = z.object({ year, month, naturalYear: year, naturalMonth: month });
export type ObalLockRequest = z.infer<typeof obalLockRequestSchema>;

/** SPEC §3/§2: the opening balance counts as configured when both year and month are set. */
export const obalConfigured = (s: Pick<ObalState, "year" | "month">): boolean => s.year !== null && s.month !== null;
