import { randomBytes } from "node:crypto";
import type { FastifyPluginAsync } from "fastify";
import { checkCardNumber, paymentCardProblems, paymentCardSchema } from "@groupledger/domain";
import type { CardSummary, CardToken, PaymentProviderClient } from "@groupledger/contract";
import { AppError } from "../../http/errors.ts";
import { addMonth, PaymentProviderError, type PaymentProvider, type ProviderSubscription, type RenewCall, type SubscribeCall } from "./provider.ts";

export const TEST_PROVIDER_PREFIX = "/billing-sandbox";
const TOKEN_TTL_MS = 10 * 60_000;

/** Cards with a known outcome, as real providers publish for their test mode. */
export const TEST_CARDS = {
  success: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
} as const;

interface VaultEntry {
  card: CardSummary;
  declines: boolean;
  expiresAt: number;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/**
 * The default provider: a stand-in for a real one that runs offline inside this server. Its
 * tokenize endpoint (mounted at /billing-sandbox, outside our API, the way a real provider's
 * lives on its own domain) takes the card, checks it with the same rules as the web form, and
 * keeps only the display fields in memory against a single-use token for ten minutes. The
 * number and the security code are dropped when the request ends. Single-process and not
 * durable: for development, tests and demos, never for real money (production refuses it).
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly kind = "test" as const;
  private readonly vault = new Map<string, VaultEntry>();
  private readonly byIdempotencyKey = new Map<string, ProviderSubscription>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  clientConfig(origin: string): PaymentProviderClient {
    return {
      kind: "test",
      tokenizeUrl: `${origin}${TEST_PROVIDER_PREFIX}/v1/tokens`,
      publishableKey: "pk_test_groupledger_local",
      testCards: [
        { number: TEST_CARDS.success, behaviour: "Succeeds." },
        { number: TEST_CARDS.declined, behaviour: "Is declined when the subscription starts." },
      ],
    };
  }

  /** The provider side of the token flow: validate, keep display fields, hand back a token. */
  tokenize(input: Record<string, unknown>): CardToken {
    const now = this.now();
    const problems = paymentCardProblems(input, now);
    if (problems.length > 0) {
      throw new AppError(400, "validation_failed", problems[0]!.message, { fields: problems });
    }
    const card = paymentCardSchema(now).parse(input);
    const { digits, brandName } = checkCardNumber(card.number);
    const summary: CardSummary = { brand: brandName ?? "Card", last4: digits.slice(-4), expMonth: Number(card.expMonth), expYear: card.expYear };
    const token = id("tok_test");
    this.sweep(now.getTime());
    this.vault.set(token, { card: summary, declines: digits === TEST_CARDS.declined.replace(/ /g, ""), expiresAt: now.getTime() + TOKEN_TTL_MS });
    return { id: token, card: summary };
  }

  async subscribe(request: SubscribeCall): Promise<ProviderSubscription> {
    const replay = this.byIdempotencyKey.get(request.idempotencyKey);
    if (replay) return replay;
    const now = this.now();
    const entry = this.vault.get(request.token);
    // Tokens are single use, like a real provider's.
    this.vault.delete(request.token);
    if (!entry || entry.expiresAt <= now.getTime()) {
      throw new PaymentProviderError("token_invalid", "The card details expired before they were used. Enter the card again.");
    }
    if (entry.declines) throw new PaymentProviderError("card_declined", "Your card was declined. Use another card or contact your bank.");
    const periodStart = request.trialEnd ?? now;
    const periodEnd = addMonth(periodStart);
    const subscription: ProviderSubscription = {
      customerId: id("cus_test"),
      subscriptionId: id("sub_test"),
      card: entry.card,
      currentPeriodEnd: request.trialEnd ?? periodEnd,
      payment: request.trialEnd
        ? null
        : { id: id("pay_test"), amountMinor: request.plan.priceMinor, currency: request.plan.currency, periodStart, periodEnd },
    };
    this.byIdempotencyKey.set(request.idempotencyKey, subscription);
    return subscription;
  }

  async renew(request: RenewCall) {
    return {
      id: id("pay_test"),
      amountMinor: request.plan.priceMinor,
      currency: request.plan.currency,
      periodStart: request.periodStart,
      periodEnd: addMonth(request.periodStart),
    };
  }

  async cancel(): Promise<void> {}

  private sweep(now: number): void {
    for (const [token, entry] of this.vault) if (entry.expiresAt <= now) this.vault.delete(token);
  }
}

/** The test provider's own HTTP face: POST /billing-sandbox/v1/tokens with the card fields. */
export function testProviderPlugin(provider: TestPaymentProvider): FastifyPluginAsync {
  return async (app) => {
    app.post("/v1/tokens", async (req) => {
      const body = req.body && typeof req.body === "object" && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
      return provider.tokenize(body);
    });
  };
}
