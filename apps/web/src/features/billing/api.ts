import { cardTokenSchema, errorBodySchema, getBilling, postBillingSubscribe, type CardToken, type PaymentProviderClient, type PlanId } from "@groupledger/contract";
import type { PaymentCard } from "@groupledger/domain";
import { useQuery } from "@tanstack/react-query";
import { ApiError, call } from "../../lib/http.ts";

export const billingKeys = { billing: ["billing"] as const };

export const billingApi = {
  billing: () => call(getBilling),
  subscribe: (plan: PlanId, token: string) => call(postBillingSubscribe, { body: { plan, token } }),
};

export function useBilling() {
  return useQuery({ queryKey: billingKeys.billing, queryFn: billingApi.billing });
}

/**
 * Hands the card to the payment provider and returns its token. This is the only place the card
 * number leaves the form, and it goes to the provider's endpoint, never to our API.
 */
export async function tokenizeCard(provider: PaymentProviderClient, card: PaymentCard): Promise<CardToken> {
  const res = await fetch(provider.tokenizeUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${provider.publishableKey}` },
    body: JSON.stringify({ ...card, number: card.number.replace(/ /g, "") }),
  });
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) return cardTokenSchema.parse(body);
  const error = errorBodySchema.safeParse(body);
  throw error.success
    ? new ApiError(res.status, error.data.error.code, error.data.error.message, error.data.error.details)
    : new ApiError(res.status, "provider_error", "The payment provider did not answer. Please try again.");
}
