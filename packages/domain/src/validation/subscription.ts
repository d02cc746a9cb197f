import { z } from "zod";

export const SUBSCRIPTION_STATUSES = ["TRIAL", "TRIALOPTIN", "SUBSCRIBED", "PAID"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_STATUS_MESSAGE = "Subscription status must be one of TRIAL, TRIALOPTIN, SUBSCRIBED, PAID.";

/** Exactly one of the upper-case values. */
export function isSubscriptionStatus(value: unknown): value is SubscriptionStatus {
  return typeof value === "string" && (SUBSCRIPTION_STATUSES as readonly string[]).includes(value);
}

/**
 * Case-insensitive parse (surrounding whitespace ignored) returning the upper-case value, or null.
 * Only ASCII letters are accepted before upper-casing, because `toUpperCase` maps a few non-ASCII
 * letters onto ASCII ones ("ı" to "I", "ſ" to "S"), which would let "paıd" through as PAID.
 */
export function parseSubscriptionStatus(value: unknown): SubscriptionStatus | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (!/^[A-Za-z]+$/.test(text)) return null;
  const upper = text.toUpperCase();
  return isSubscriptionStatus(upper) ? upper : null;
}

/** Case-insensitive; the output is the upper-case value. */
export const subscriptionStatusSchema = z.unknown().transform((v, ctx): SubscriptionStatus => {
  const status = parseSubscriptionStatus(v);
  if (status === null) {
    ctx.addIssue({ code: "custom", message: SUBSCRIPTION_STATUS_MESSAGE });
    return z.NEVER;
  }
  return status;
});
