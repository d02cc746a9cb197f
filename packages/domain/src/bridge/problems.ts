/**
 * Why a consolidation cannot run (or cannot be posted) yet, in words an accountant can act on:
 * every message names the company, account, currency or month concerned. Codes are stable for
 * the web to group and link problems ("missing_rate" → the FX rates page, …).
 */
import { fullNameOf, type NamedAccount } from "../coa/hierarchy.ts";

export type ProblemCode =
  | "not_synced"
  | "sync_in_progress"
  | "sync_failed"
  | "months_not_synced"
  | "missing_rate"
  | "unmapped_account"
  | "invalid_map"
  | "missing_cta_account"
  | "invalid_cta_account"
  | "missing_fx_difference_account"
  | "invalid_designated_account"
  | "missing_nci_account"
  | "missing_historical_equity"
  | "no_retained_earnings_account"
  | "books_do_not_balance"
  | "retained_earnings_unexplained"
  | "negative_dividend"
  | "dividend_without_profit"
  | "engine_refused"
  | "opening_not_posted"
  | "invalid_pair"
  | "name_not_synced"
  | "missing_goodwill_account"
  | "acquired_after_period"
  | "invalid_acquisition"
  | "invalid_intragroup"
  | "books_closed";

export interface Problem {
  code: ProblemCode;
  message: string;
  realmId?: string;
  accountId?: string;
  month?: string;
  currency?: string;
}

/**
 * A problem as the API shows it: its code and message, and for a missing rate the currency and
 * month it is for, so a screen can say "26 rates missing" once per currency instead of 26 lines.
 */
export function publicProblem(p: Problem): { code: string; message: string; currency?: string; month?: string } {
  return { code: p.code, message: p.message, ...(p.currency ? { currency: p.currency } : {}), ...(p.month ? { month: p.month } : {}) };
}

/** A QBO account as people recognise it in a sentence: number and full name ("Parent:Child" for a sub-account). */
export const accountLabel = (a: NamedAccount) => `${a.acctNum ? `${a.acctNum} ` : ""}"${fullNameOf(a)}"`;
