import type { RateLimits } from "../../config.ts";
import type { UserRow } from "../../http/auth.ts";
import { AppError, errors } from "../../http/errors.ts";
import type { RateLimiter } from "../../services/rate-limiter.ts";
import { reportAddressVerified } from "../settings/service.ts";

/**
 * Where a user's report workbook may be mailed: their sign-in email, or a report address they
 * verified with the code mailed to it. An unverified address is refused in words that say how to
 * verify it: the workbook carries the whole group's figures.
 */
export function reportRecipient(user: UserRow): string {
  if (!reportAddressVerified(user)) {
    throw new AppError(
      409,
      "report_email_unverified",
      `${user.reportEmail} is not verified yet, so no report is sent to it. Enter the code we mailed to it under Account settings → Report delivery (or send a new code from there).`,
      { reportEmail: user.reportEmail },
    );
  }
  return user.reportEmail ?? user.email;
}

/** Counts one mailed workbook against the account's budget; a clear 429 with when to retry once it is spent. */
export async function countReportMail(limiter: RateLimiter, limits: RateLimits, accountId: string): Promise<void> {
  const r = await limiter.hit(`report-mail:account:${accountId}`, limits.reportMailsPerAccount, limits.reportMailWindowMs);
  if (r.allowed) return;
  const minutes = Math.max(1, Math.ceil(r.retryAfterMs / 60_000));
  const at = new Date(Date.now() + r.retryAfterMs).toISOString().slice(11, 16);
  const window = limits.reportMailWindowMs === 3_600_000 ? "hour" : `${Math.round(limits.reportMailWindowMs / 60_000)} minutes`;
  throw errors.tooManyRequests(
    `Your account has mailed ${limits.reportMailsPerAccount} reports in the last ${window}, the most allowed. Try again in ${minutes} minute${minutes === 1 ? "" : "s"} (after ${at} UTC), or download the workbook instead.`,
    r.retryAfterMs,
  );
}
