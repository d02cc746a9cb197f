import { monthCount } from "@groupledger/domain";
import { errors } from "../../http/errors.ts";

/** The longest period a report covers, in months. */
export const MAX_REPORT_MONTHS = 60;

/**
 * A report's period as asked: 400 when it ends before it starts or is longer than a report covers.
 * (report.ts states the same two refusals for the consolidated report, in the same words.)
 */
export function checkReportPeriod(query: { from: string; to: string }): void {
  if (query.to < query.from) throw errors.badRequest("invalid_period", `The report ends (${query.to}) before it starts (${query.from}).`);
  const months = monthCount(query.from, query.to);
  if (months > MAX_REPORT_MONTHS) throw errors.badRequest("period_too_long", `A report covers at most ${MAX_REPORT_MONTHS} months; ${query.from} to ${query.to} is ${months}.`);
}
