import type { CardSummary, PaymentProviderClient, Plan } from "@groupledger/contract";

/**
 * A payment provider behind one interface, so the product never touches card data: the browser
 * hands the card to the provider (its hosted field or tokenize endpoint) and sends us only the
 * token; we keep what the provider reports back (brand, last four digits, expiry, its ids).
 *
 * Adapters: `TestPaymentProvider` (default, offline, in this process; see test-provider.ts) and a
 * real provider's adapter as described in docs/billing.md.
 */
export interface PaymentProvider {
  readonly kind: PaymentProviderClient["kind"];
  /** What the browser needs to tokenize a card; `origin` is this server's public origin. */
  clientConfig(origin: string): PaymentProviderClient;
  /**
   * Starts a subscription paid by the tokenized card. With `trialEnd` the first charge falls
   * then; without it the first period is charged now. Throws `PaymentProviderError`.
   */
  subscribe(request: SubscribeCall): Promise<ProviderSubscription>;
  /** Charges the next period of a subscription whose period ended (the provider's renewal). */
  renew(request: RenewCall): Promise<ProviderPayment>;
  /** Stops a subscription at once (replaced by a new one, e.g. another plan during the trial). */
  cancel(subscriptionId: string): Promise<void>;
}

export interface SubscribeCall {
  token: string;
  accountId: string;
  customerEmail: string;
  plan: Plan;
  trialEnd: Date | null;
  /** The same key never creates two subscriptions (a retried request, a double click). */
  idempotencyKey: string;
}

export interface RenewCall {
  subscriptionId: string;
  plan: Plan;
  periodStart: Date;
}

export interface ProviderPayment {
  id: string;
  amountMinor: number;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
}

export interface ProviderSubscription {
  customerId: string;
  subscriptionId: string;
  card: CardSummary;
  currentPeriodEnd: Date;
  /** The charge made now, or null when the first charge waits for the trial's end. */
  payment: ProviderPayment | null;
}

export type PaymentErrorCode = "card_declined" | "token_invalid" | "provider_unavailable";

export class PaymentProviderError extends Error {
  override name = "PaymentProviderError";
  constructor(
    readonly code: PaymentErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** One month later on the same day, clamped to the month's last day (31 January → 28/29 February). */
export function addMonth(date: Date): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return new Date(Date.UTC(y, m, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
}
