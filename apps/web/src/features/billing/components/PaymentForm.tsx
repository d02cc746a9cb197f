import { Alert, Badge, Button, Group, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import type { PaymentProviderClient } from "@groupledger/contract";
import {
  checkCardNumber,
  formatCardNumber,
  normalizeExpiryMonth,
  normalizeExpiryYear,
  paymentCardProblems,
  paymentCardSchema,
  type PaymentCard,
} from "@groupledger/domain";
import { IconCreditCard, IconLock } from "@tabler/icons-react";
import { useState } from "react";
import { messageOf } from "../../../lib/forms.ts";
import { ApiError } from "../../../lib/http.ts";
import { tokenizeCard } from "../api.ts";

interface CardValues {
  name: string;
  number: string;
  expMonth: string;
  expYear: string;
  cvv: string;
}

const EMPTY: CardValues = { name: "", number: "", expMonth: "", expYear: "", cvv: "" };

interface Props {
  provider: PaymentProviderClient;
  submitLabel: string;
  /** Called with the provider's token; the card itself never reaches it. */
  onToken: (token: string) => Promise<void>;
  now?: () => Date;
}

/**
 * The card form (SPEC §5): the number is grouped with spaces as it is typed and checked for Luhn
 * and brand, the month is padded to two digits, a two-digit year gets 20 in front, and the
 * security code has the brand's length. The same rules run again at the provider.
 */
export function PaymentForm({ provider, submitLabel, onToken, now = () => new Date() }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm<CardValues>({
    initialValues: EMPTY,
    validate: (values) => Object.fromEntries(paymentCardProblems(values, now()).map((p) => [p.path, p.message])),
  });
  const card = checkCardNumber(form.values.number);

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    setError(null);
    try {
      const parsed: PaymentCard = paymentCardSchema(now()).parse(values);
      const token = await tokenizeCard(provider, parsed);
      await onToken(token.id);
      form.setValues(EMPTY);
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      if (Object.keys(fields).length > 0) form.setErrors(fields);
      else setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  });

  const padMonth = () => {
    const month = normalizeExpiryMonth(form.values.expMonth);
    if (month !== null) form.setFieldValue("expMonth", month);
  };
  const fullYear = () => {
    const year = normalizeExpiryYear(form.values.expYear, now());
    if (year !== null) form.setFieldValue("expYear", String(year));
  };
  // The card's short numeric fields, side by side; the expiry is written out in full when its field is left.
  const digitFields = [
    { field: "expMonth", label: "Expiry month", placeholder: "MM", autoComplete: "cc-exp-month", maxLength: 2, onBlur: padMonth },
    { field: "expYear", label: "Expiry year", placeholder: "YY", autoComplete: "cc-exp-year", maxLength: 4, onBlur: fullYear },
    { field: "cvv", label: "Security code", placeholder: card.cvvLength === 4 ? "4 digits" : "3 digits", autoComplete: "cc-csc", maxLength: 4, onBlur: undefined },
  ] as const;

  return (
    <form onSubmit={submit} noValidate aria-label="Payment card">
      <Stack gap="sm">
        {provider.kind === "test" ? (
          <Alert color="yellow" variant="light" radius="md" title="Test mode: no real money moves">
            <Text size="sm">
              Cards go to the built-in test payment provider.{" "}
              {provider.testCards.map((c) => (
                <Text span key={c.number} size="sm">
                  <Text span ff="monospace" size="sm">
                    {c.number}
                  </Text>{" "}
                  {c.behaviour.toLowerCase()}{" "}
                </Text>
              ))}
              Use any future expiry date and any security code.
            </Text>
          </Alert>
        ) : null}
        {error ? (
          <Alert color="red" variant="light" role="alert" title="The card was not accepted">
            {error}
          </Alert>
        ) : null}
        <TextInput label="Name on card" autoComplete="cc-name" {...form.getInputProps("name")} />
        <TextInput
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 5678 9012 3456"
          leftSection={<IconCreditCard size={18} aria-hidden />}
          rightSectionWidth={card.brandName ? 150 : undefined}
          rightSection={
            card.brandName ? (
              <Badge variant="light" data-testid="card-brand">
                {card.brandName}
              </Badge>
            ) : null
          }
          {...form.getInputProps("number")}
          onChange={(e) => form.setFieldValue("number", formatCardNumber(e.currentTarget.value))}
        />
        <SimpleGrid cols={3} spacing="sm">
          {digitFields.map(({ field, onBlur, ...input }) => (
            <TextInput key={field} inputMode="numeric" {...input} {...form.getInputProps(field)} {...(onBlur ? { onBlur } : {})} />
          ))}
        </SimpleGrid>
        <Group justify="space-between" mt="xs">
          <Text size="xs" c="dimmed">
            <IconLock size={12} style={{ verticalAlign: "-1px" }} aria-hidden /> Your card goes straight to the payment provider. GroupLedger
            never sees or stores the number.
          </Text>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
