import { describe, it, expect } from "vitest";
import fc from "fast-check";
import {
  SUBSCRIPTION_STATUSES,
  SUBSCRIPTION_STATUS_MESSAGE,
  isSubscriptionStatus,
  parseSubscriptionStatus,
  subscriptionStatusSchema,
} from "./subscription.ts";

describe("subscription status", () => {
  it("has exactly the four statuses, in order", () => {
    expect(SUBSCRIPTION_STATUSES).toEqual(["TRIAL", "TRIALOPTIN", "SUBSCRIBED", "PAID"]);
    expect(SUBSCRIPTION_STATUS_MESSAGE).toBe("Subscription status must be one of TRIAL, TRIALOPTIN, SUBSCRIBED, PAID.");
  });

  it.each([
    ["TRIAL", "TRIAL"],
    ["trial", "TRIAL"],
    ["Trial", "TRIAL"],
    ["trialOptIn", "TRIALOPTIN"],
    ["TRIALOPTIN", "TRIALOPTIN"],
    ["subscribed", "SUBSCRIBED"],
    ["SuBsCrIbEd", "SUBSCRIBED"],
    ["paid", "PAID"],
    [" PAID\n", "PAID"],
  ])("parses %j as %j", (input, expected) => {
    expect(parseSubscriptionStatus(input)).toBe(expected);
    expect(subscriptionStatusSchema.parse(input)).toBe(expected);
  });

  it.each(["", " ", "TRIAL_OPTIN", "trial optin", "PAIDX", "PAI", "FREE", "paıd", "ſubscribed", "TRIAL\u0000", 1, null, undefined, {}, ["PAID"]])(
    "rejects %j",
    (input) => {
      expect(parseSubscriptionStatus(input)).toBeNull();
      expect(subscriptionStatusSchema.safeParse(input).error?.issues.map((i) => i.message)).toEqual([SUBSCRIPTION_STATUS_MESSAGE]);
    },
  );

  it("isSubscriptionStatus only accepts the exact upper-case values", () => {
    for (const s of SUBSCRIPTION_STATUSES) expect(isSubscriptionStatus(s)).toBe(true);
    expect(isSubscriptionStatus("paid")).toBe(false);
    expect(isSubscriptionStatus(" PAID")).toBe(false);
    expect(isSubscriptionStatus(1)).toBe(false);
  });

  it("any casing of a status parses to that status (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SUBSCRIPTION_STATUSES), fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }), (status, flips) => {
        const mixed = status
          .split("")
          .map((c, i) => (flips[i] ? c.toLowerCase() : c))
          .join("");
        return parseSubscriptionStatus(mixed) === status;
      }),
    );
  });

  it("a parsed result is always a valid status (property)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseSubscriptionStatus(s);
        return r === null || isSubscriptionStatus(r);
      }),
    );
  });
});
