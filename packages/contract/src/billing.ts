import { z } from "zod";
import { parseSubscriptionStatus, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "@groupledger/domain";
import { GET, POST } from "./endpoint.ts";

/** Length of the free trial a new account starts with (the pricing page promises it). */
export const TRIAL_DAYS = 30;
const DAY_MS = 86_400_000;

export interface Plan {
  id: "group" | "group_plus";
  name: string;
  /** Monthly price in minor units (cents) of `currency`, before tax. */
  priceMinor: number;
  currency: "USD";
  maxSubsidiaries: number;
  summary: string;
  multiPeriodRuns: boolean;
  prioritySupport: boolean;
}

/** The one list of plans: the pricing page, the settings screen and the server all read it. */
export const PLANS: readonly Plan[] = [
  {
    id: "group",
    name: "Group",
    priceMinor: 14_900,
    currency: "USD",
    maxSubsidiaries: 5,
    summary: "A parent and up to 5 subsidiaries, for a company closing its own books.",
    multiPeriodRuns: false,
    prioritySupport: false,
  },
  {
    id: "group_plus",
    name: "Group Plus",
    priceMinor: 29_900,
    currency: "USD",
    maxSubsidiaries: 25,
    summary: "Up to 25 subsidiaries, multi-period runs and priority support.",
    multiPeriodRuns: true,
    prioritySupport: true,
  },
];
export type PlanId = Plan["id"];
export const PLAN_IDS = PLANS.map((p) => p.id) as [PlanId, ...PlanId[]];
export const planById = (id: string): Plan | undefined => PLANS.find((p) => p.id === id);

/**
 * What an account may do, from its status and trial end:
 * - TRIAL: everything until the trial ends; then read-only (lapsed) until someone subscribes.
 * - TRIALOPTIN: subscribed during the trial (card on file, first charge when the trial ends): everything.
 * - SUBSCRIBED (card, renewing monthly) and PAID (paid by invoice, set by us): everything.
 * Read-only means: sign in, view every screen and report, export, manage your profile, password,
 * sessions, the team and the subscription; nothing that changes the books, the mappings, rates,
 * companies or QuickBooks. The server enforces it (apps/server/src/http/permissions.ts).
 */
export interface SubscriptionAccess {
  status: SubscriptionStatus;
  inTrial: boolean;
  /** Whole days left in the trial, rounded up (0 once it has ended); null when not on a trial. */
  trialDaysLeft: number | null;
  readOnly: boolean;
}

export function subscriptionAccess(status: string, trialEndsAt: Date, now: Date): SubscriptionAccess {
  // An unknown stored value is treated as a plain trial: never more access than a trial gives.
  const parsed = parseSubscriptionStatus(status) ?? "TRIAL";
  const trialLeftMs = trialEndsAt.getTime() - now.getTime();
  const onTrial = parsed === "TRIAL" || parsed === "TRIALOPTIN";
  const inTrial = onTrial && trialLeftMs > 0;
  return {
    status: parsed,
    inTrial,
    trialDaysLeft: onTrial ? Math.max(0, Math.ceil(trialLeftMs / DAY_MS)) : null,
    readOnly: parsed === "TRIAL" && trialLeftMs <= 0,
  };
}

export const SUBSCRIPTION_REQUIRED_MESSAGE = (trialEndedOn: string) =>
  `Your free trial ended on ${trialEndedOn}. Your data is kept and you can still view and export it; ` +
  "an admin can choose a plan in Account Settings to make changes again.";

export const cardSummarySchema = z.object({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
export type CardSummary = z.infer<typeof cardSummarySchema>;

export const planSchema = z.object({
  id: z.string(),
  name: z.string(),
  priceMinor: z.number().int(),
  currency: z.string(),
  maxSubsidiaries: z.number().int(),
  summary: z.string(),
  multiPeriodRuns: z.boolean(),
  prioritySupport: z.boolean(),
});

/** What the browser needs to hand the card to the payment provider (never to us). */
export const paymentProviderClientSchema = z.object({
  kind: z.enum(["test", "stripe"]),
  /** Where the browser posts the card to get a token (the provider's endpoint). */
  tokenizeUrl: z.string(),
  publishableKey: z.string(),
  /** Cards that behave in a known way with this provider (the test provider only). */
  testCards: z.array(z.object({ number: z.string(), behaviour: z.string() })),
});
export type PaymentProviderClient = z.infer<typeof paymentProviderClientSchema>;

export const paymentSchema = z.object({
  id: z.string(),
  plan: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  periodStart: z.string(),
  periodEnd: z.string(),
  createdAt: z.string(),
});

export const billingSchema = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  trialDays: z.number().int(),
  trialEndsAt: z.string(),
  trialDaysLeft: z.number().int().nullable(),
  inTrial: z.boolean(),
  readOnly: z.boolean(),
  plan: planSchema.nullable(),
  card: cardSummarySchema.nullable(),
  /** End of the paid (or opted-in trial) period; the next charge falls then. */
  currentPeriodEnd: z.string().nullable(),
  plans: z.array(planSchema),
  provider: paymentProviderClientSchema.nullable(),
  payments: z.array(paymentSchema),
  canManage: z.boolean(),
});
export type Billing = z.infer<typeof billingSchema>;
export type PlanView = Billing["plans"][number];

/**
 * Subscribing sends the plan and the provider's token, never card details: unknown fields (a
 * card number sent by mistake) are refused without being echoed.
 */
export const subscribeRequestSchema = z.strictObject(
  {
    plan: z.enum(PLAN_IDS, { error: `Choose a plan: ${PLANS.map((p) => p.id).join(" or ")}.` }),
    token: z
      .string({ error: "The card was not tokenized by the payment provider. Enter the card again." })
      .trim()
      .regex(/^[A-Za-z0-9_]{8,200}$/, "The card was not tokenized by the payment provider. Enter the card again."),
  },
  {
    error: (iss) =>
      iss.code === "unrecognized_keys"
        ? "Send only plan and token: card details go to the payment provider, never to this API."
        : undefined,
  },
);
export type SubscribeRequest = z.input<typeof subscribeRequestSchema>;

export const getBilling = GET("/billing", { 200: billingSchema });
export const postBillingSubscribe = POST("/billing/subscribe", { 200: billingSchema }, { body: subscribeRequestSchema });

/** The test provider's tokenize answer (a real provider answers in its own shape; its adapter maps it). */
export const cardTokenSchema = z.object({ id: z.string(), card: cardSummarySchema });
export type CardToken = z.infer<typeof cardTokenSchema>;

export function formatPrice(plan: { priceMinor: number; currency: string }): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: plan.currency, minimumFractionDigits: 0 }).format(
    plan.priceMinor / 100,
  );
}
