import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PaymentProviderClient } from "@groupledger/contract";
import { CARD_MESSAGES, cvvMessage, expiryYearMessage } from "@groupledger/domain";
import { describe, expect, it, vi } from "vitest";
import { Providers, createQueryClient } from "../../../app/providers.tsx";
import { render } from "@testing-library/react";
import { PaymentForm } from "./PaymentForm.tsx";

const provider: PaymentProviderClient = {
  kind: "test",
  tokenizeUrl: "http://localhost/billing-sandbox/v1/tokens",
  publishableKey: "pk_test",
  testCards: [{ number: "4242 4242 4242 4242", behaviour: "Succeeds." }],
};
const NOW = new Date("2026-06-15T12:00:00Z");

function mount(onToken = vi.fn(async () => {})) {
  render(
    <Providers client={createQueryClient()}>
      <PaymentForm provider={provider} submitLabel="Subscribe" onToken={onToken} now={() => NOW} />
    </Providers>,
  );
  return onToken;
}

const field = (label: string) => screen.getByLabelText(label);

async function fill(values: Partial<Record<"name" | "number" | "month" | "year" | "cvv", string>>) {
  const map = { name: "Name on card", number: "Card number", month: "Expiry month", year: "Expiry year", cvv: "Security code" } as const;
  for (const [key, value] of Object.entries(values)) {
    const input = field(map[key as keyof typeof map]);
    await userEvent.clear(input);
    if (value) await userEvent.type(input, value);
  }
}

describe("payment form", () => {
  it("groups the number with spaces as it is typed and names the brand", async () => {
    mount();
    await userEvent.type(field("Card number"), "4242424242424242");
    expect(field("Card number")).toHaveValue("4242 4242 4242 4242");
    expect(screen.getByTestId("card-brand")).toHaveTextContent("Visa");
    await fill({ number: "378282246310005" });
    expect(field("Card number")).toHaveValue("3782 822463 10005");
    expect(screen.getByTestId("card-brand")).toHaveTextContent("American Express");
  });

  it("pads the month to two digits and prefixes a two-digit year with 20", async () => {
    mount();
    await userEvent.type(field("Expiry month"), "4");
    await userEvent.tab();
    expect(field("Expiry month")).toHaveValue("04");
    await userEvent.type(field("Expiry year"), "28");
    await userEvent.tab();
    expect(field("Expiry year")).toHaveValue("2028");
  });

  it("shows every validation message and sends nothing", async () => {
    const fetchSpy = vi.fn();
    globalThis.fetch = fetchSpy as typeof fetch;
    const onToken = mount();
    const submit = () => userEvent.click(screen.getByRole("button", { name: "Subscribe" }));
    await submit();
    for (const message of [CARD_MESSAGES.name, CARD_MESSAGES.numberRequired, CARD_MESSAGES.expiryMonth, expiryYearMessage(NOW), cvvMessage(3)]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    const cases: [Parameters<typeof fill>[0], string][] = [
      [{ number: "4242 4242 4242 4241" }, CARD_MESSAGES.numberChecksum],
      [{ number: "4242 4242" }, CARD_MESSAGES.numberIncomplete],
      [{ number: "9999 9999 9999 9995" }, CARD_MESSAGES.numberBrand],
      [{ month: "13" }, CARD_MESSAGES.expiryMonth],
      [{ month: "05", year: "2026" }, CARD_MESSAGES.expired],
      [{ year: "2046" }, expiryYearMessage(NOW)],
      [{ number: "3782 822463 10005", cvv: "123" }, cvvMessage(4)],
    ];
    for (const [values, message] of cases) {
      await fill({ name: "Ada Lovelace", number: "4242424242424242", month: "12", year: "2030", cvv: "123", ...values });
      await submit();
      expect(await screen.findByText(message), message).toBeInTheDocument();
    }
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(onToken).not.toHaveBeenCalled();
  });

  it("sends the card to the provider only, then hands its token on", async () => {
    const calls: { url: string; body: unknown }[] = [];
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ id: "tok_test_abc123456", card: { brand: "Visa", last4: "4242", expMonth: 12, expYear: 2030 } }), { status: 200 });
    }) as typeof fetch;
    const onToken = mount();
    await fill({ name: "Ada Lovelace", number: "4242424242424242", month: "12", year: "30", cvv: "123" });
    await userEvent.click(screen.getByRole("button", { name: "Subscribe" }));
    await waitFor(() => expect(onToken).toHaveBeenCalledWith("tok_test_abc123456"));
    expect(calls).toEqual([
      { url: provider.tokenizeUrl, body: { name: "Ada Lovelace", number: "4242424242424242", expMonth: "12", expYear: 2030, cvv: "123" } },
    ]);
    // The form forgets the card once it is used.
    expect(field("Card number")).toHaveValue("");
  });

  it("puts the provider's field refusal on the field", async () => {
    globalThis.fetch = (async () =>
      new Response(JSON.stringify({ error: { code: "validation_failed", message: "x", details: { fields: [{ path: "number", message: "Refused by the provider." }] } } }), {
        status: 400,
      })) as typeof fetch;
    mount();
    await fill({ name: "Ada", number: "4242424242424242", month: "12", year: "30", cvv: "123" });
    await userEvent.click(screen.getByRole("button", { name: "Subscribe" }));
    expect(await screen.findByText("Refused by the provider.")).toBeInTheDocument();
  });
});
