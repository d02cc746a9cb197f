import { planById, type Plan } from "@groupledger/contract";
import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.ts";
import { PaymentProviderError, type SubscribeCall } from "./provider.ts";
import { TEST_CARDS, TestPaymentProvider } from "./test-provider.ts";

const PLAN = planById("group") as Plan;
const card = (number: string = TEST_CARDS.success) => ({ name: "Ada Lovelace", number, expMonth: "4", expYear: "28", cvv: "123" });

/** A provider on a clock the test moves. */
function provider(start = "2026-03-15T10:00:00.000Z") {
  let now = new Date(start);
  const p = new TestPaymentProvider(() => now);
  return { p, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

const call = (token: string, over: Partial<SubscribeCall> = {}): SubscribeCall => ({
  token,
  accountId: "account-1",
  customerEmail: "ada@example.com",
  plan: PLAN,
  trialEnd: null,
  idempotencyKey: `key-${token}`,
  ...over,
});

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const e = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PaymentProviderError);
  const { code, message } = e as PaymentProviderError;
  return { code, message };
}

describe("TestPaymentProvider", () => {
  it("tells the browser where to tokenize and which test cards do what", () => {
    expect(provider().p.clientConfig("https://ledger.example")).toEqual({
      kind: "test",
      tokenizeUrl: "https://ledger.example/billing-sandbox/v1/tokens",
      publishableKey: "pk_test_groupledger_local",
      testCards: [
        { number: "4242 4242 4242 4242", behaviour: "Succeeds." },
        { number: "4000 0000 0000 0002", behaviour: "Is declined when the subscription starts." },
      ],
    });
  });

  it("tokenizes a valid card into a token and the display fields only", () => {
    const token = provider().p.tokenize(card());
    expect(token.id).toMatch(/^tok_test_[0-9a-f]{24}$/);
    expect(token.card).toEqual({ brand: "Visa", last4: "4242", expMonth: 4, expYear: 2028 });
    expect(JSON.stringify(token)).not.toContain("123");
  });

  it("refuses a card with the form's rules, every field named", () => {
    let refused: unknown;
    try {
      provider().p.tokenize({ name: "", number: "4242 4242 4242 4241", expMonth: "13", expYear: "28", cvv: "1" });
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, code: "validation_failed", message: "Please enter the name on the card." });
    expect((refused as AppError).details?.["fields"]).toEqual([
      { path: "name", message: "Please enter the name on the card." },
      { path: "number", message: "This card number is not valid. Check the digits and try again." },
      { path: "expMonth", message: "Please enter a valid expiry month (01-12)." },
      { path: "cvv", message: "Please enter the 3-digit security code." },
    ]);
  });

  it("subscribing without a trial charges the first month now", async () => {
    const { p } = provider();
    const { id, card: summary } = p.tokenize(card());
    const sub = await p.subscribe(call(id));
    expect(sub.subscriptionId).toMatch(/^sub_test_/);
    expect(sub.customerId).toMatch(/^cus_test_/);
    expect(sub.card).toEqual(summary);
    expect(sub.currentPeriodEnd.toISOString()).toBe("2026-04-15T10:00:00.000Z");
    expect(sub.payment).toMatchObject({ amountMinor: PLAN.priceMinor, currency: "USD" });
    expect(sub.payment!.id).toMatch(/^pay_test_/);
    expect([sub.payment!.periodStart.toISOString(), sub.payment!.periodEnd.toISOString()]).toEqual(["2026-03-15T10:00:00.000Z", "2026-04-15T10:00:00.000Z"]);
  });

  it("subscribing during a trial charges nothing until the trial ends", async () => {
    const { p } = provider();
    const trialEnd = new Date("2026-04-01T00:00:00.000Z");
    const sub = await p.subscribe(call(p.tokenize(card()).id, { trialEnd }));
    expect(sub.payment).toBeNull();
    expect(sub.currentPeriodEnd).toEqual(trialEnd);
  });

  it("declines the declined test card when the subscription starts", async () => {
    const { p } = provider();
    const declined = p.tokenize(card(TEST_CARDS.declined));
    expect(await refusal(p.subscribe(call(declined.id)))).toEqual({ code: "card_declined", message: "Your card was declined. Use another card or contact your bank." });
  });

  it("a token is single use; the same idempotency key answers with the same subscription (a double click)", async () => {
    const { p } = provider();
    const { id } = p.tokenize(card());
    const first = await p.subscribe(call(id));
    expect(await p.subscribe(call(id))).toBe(first);
    expect(await refusal(p.subscribe(call(id, { idempotencyKey: "another" })))).toEqual({
      code: "token_invalid",
      message: "The card details expired before they were used. Enter the card again.",
    });
    expect((await refusal(p.subscribe(call("tok_test_unknown")))).code).toBe("token_invalid");
  });

  it("a token lasts ten minutes", async () => {
    const { p, advance } = provider();
    const fresh = p.tokenize(card()).id;
    const stale = p.tokenize(card()).id;
    advance(10 * 60_000 - 1);
    await expect(p.subscribe(call(fresh))).resolves.toMatchObject({ payment: { amountMinor: PLAN.priceMinor } });
    advance(1);
    expect((await refusal(p.subscribe(call(stale)))).code).toBe("token_invalid");
  });

  it("renews a period for the plan's price, one month from the period's start", async () => {
    const payment = await provider().p.renew({ subscriptionId: "sub_test_1", plan: PLAN, periodStart: new Date("2026-01-31T00:00:00.000Z") });
    expect(payment).toMatchObject({ amountMinor: PLAN.priceMinor, currency: "USD" });
    expect(payment.id).toMatch(/^pay_test_/);
    expect(payment.periodEnd.toISOString()).toBe("2026-02-28T00:00:00.000Z");
  });
});
