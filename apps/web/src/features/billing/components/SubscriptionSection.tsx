import { Alert, Badge, Button, Group, Paper, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { formatPrice, TRIAL_DAYS, type Billing, type PlanId } from "@groupledger/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { messageOf } from "../../../lib/forms.ts";
import { billingApi, billingKeys, useBilling } from "../api.ts";
import { PaymentForm } from "./PaymentForm.tsx";
import { PlanCards } from "./PlanCards.tsx";
import { Saved } from "../../settings/components/Saved.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";

const STATUS_TEXT: Record<Billing["status"], { label: string; color: string }> = {
  TRIAL: { label: "Free trial", color: "blue" },
  TRIALOPTIN: { label: "Trial, plan chosen", color: "teal" },
  SUBSCRIBED: { label: "Subscribed", color: "teal" },
  PAID: { label: "Paid", color: "teal" },
};

const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

function statusLine(b: Billing): string {
  if (b.readOnly) return `Your ${TRIAL_DAYS}-day trial ended on ${day(b.trialEndsAt)}. The app is read-only until an admin chooses a plan; nothing was deleted.`;
  if (b.status === "TRIAL") {
    return `${b.trialDaysLeft} ${b.trialDaysLeft === 1 ? "day" : "days"} left of your ${TRIAL_DAYS}-day trial (ends ${day(b.trialEndsAt)}). Choose a plan any time; the first charge falls when the trial ends.`;
  }
  if (b.status === "TRIALOPTIN") {
    return `${b.trialDaysLeft} ${b.trialDaysLeft === 1 ? "day" : "days"} left of your trial. ${b.plan?.name ?? "Your plan"} starts on ${day(b.trialEndsAt)}, when the card is first charged.`;
  }
  if (b.status === "PAID") return "Your subscription is paid by invoice. Contact support to change it.";
  return `${b.plan?.name ?? "Your plan"} renews on ${b.currentPeriodEnd ? day(b.currentPeriodEnd) : "its next billing date"}.`;
}

/** Account Settings → Subscription: status (SPEC §3), days left, plan, card, payments, and subscribing. */
export function SubscriptionSection() {
  const billing = useBilling();
  const client = useQueryClient();
  const [plan, setPlan] = useState<PlanId | null>(null);
  const [done, setDone] = useState<string | null>(null);
  if (billing.isPending) return <Skeleton height={200} radius="md" />;
  if (billing.isError) return <Alert color="red">{messageOf(billing.error)}</Alert>;
  const b = billing.data;
  const canSubscribe = b.canManage && b.provider !== null && (b.status === "TRIAL" || (b.status === "TRIALOPTIN" && b.inTrial));
  const chosen = plan;

  const subscribe = async (token: string) => {
    if (!chosen) return;
    const next = await billingApi.subscribe(chosen, token);
    client.setQueryData(billingKeys.billing, next);
    setPlan(null);
    setDone(
      `Subscribed to ${next.plan?.name ?? "your plan"}. ` +
        (next.status === "TRIALOPTIN" ? `Your card is charged when the trial ends on ${day(next.trialEndsAt)}.` : "Thank you: the receipt is listed below."),
    );
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="lg" bg="white">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={3} size="h4">
              Your subscription
            </Title>
            <Badge size="lg" color={b.readOnly ? "red" : STATUS_TEXT[b.status].color} variant="light" data-testid="subscription-status">
              {b.readOnly ? "Trial ended" : STATUS_TEXT[b.status].label}
            </Badge>
          </Group>
          <Text size="sm" data-testid="subscription-summary">
            {statusLine(b)}
          </Text>
          <Saved>{done}</Saved>
          <Group gap="xl">
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                Plan
              </Text>
              <Text size="sm" fw={600}>
                {b.plan ? `${b.plan.name}, ${formatPrice(b.plan)} / month` : "None chosen yet"}
              </Text>
            </Stack>
            {b.trialDaysLeft !== null ? (
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  Trial days left
                </Text>
                <Text size="sm" fw={600} data-testid="trial-days-left">
                  {b.trialDaysLeft}
                </Text>
              </Stack>
            ) : null}
            {b.card ? (
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  Card
                </Text>
                <Text size="sm" fw={600}>
                  {b.card.brand} ending {b.card.last4}, expires {String(b.card.expMonth).padStart(2, "0")}/{b.card.expYear}
                </Text>
              </Stack>
            ) : null}
          </Group>
          {!b.canManage ? (
            <Text size="sm" c="dimmed">
              Only an admin of your account can choose or change the plan.
            </Text>
          ) : null}
          {b.canManage && b.provider === null ? (
            <Alert color="gray">Card payments are not set up on this server. Contact support to subscribe.</Alert>
          ) : null}
        </Stack>
      </Paper>

      {canSubscribe ? (
        <Stack gap="md">
          <Title order={3} size="h4">
            {b.status === "TRIALOPTIN" ? "Change your plan or card" : "Choose a plan"}
          </Title>
          <PlanCards
            plans={b.plans}
            selected={chosen ?? b.plan?.id ?? null}
            action={(p) => {
              const current = b.status === "TRIALOPTIN" && b.plan?.id === p.id;
              const label = chosen === p.id ? "Selected" : current ? "Use another card" : `Choose ${p.name}`;
              return (
                <Button variant={chosen === p.id ? "filled" : "default"} onClick={() => setPlan(p.id as PlanId)} aria-pressed={chosen === p.id}>
                  {label}
                </Button>
              );
            }}
          />
          {chosen && b.provider ? (
            <Paper withBorder radius="md" p="lg" bg="white" maw={620}>
              <Title order={4} size="h5" mb="sm">
                Pay for {b.plans.find((p) => p.id === chosen)?.name}
              </Title>
              <PaymentForm
                provider={b.provider}
                submitLabel={b.inTrial ? "Subscribe (charged when the trial ends)" : "Subscribe and pay now"}
                onToken={subscribe}
              />
            </Paper>
          ) : null}
        </Stack>
      ) : null}

      {b.payments.length > 0 ? (
        <Paper withBorder radius="md" bg="white">
          <HeadedTable verticalSpacing="xs" horizontalSpacing="md" aria-label="Payments" columns={["Date", "Plan", "Period", { label: "Amount", ta: "right" }]}>
            {b.payments.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{day(p.createdAt)}</Table.Td>
                <Table.Td>{b.plans.find((x) => x.id === p.plan)?.name ?? p.plan}</Table.Td>
                <Table.Td>
                  {day(p.periodStart)} to {day(p.periodEnd)}
                </Table.Td>
                <Table.Td ta="right">{formatPrice({ priceMinor: p.amountMinor, currency: p.currency })}</Table.Td>
              </Table.Tr>
            ))}
          </HeadedTable>
        </Paper>
      ) : null}
    </Stack>
  );
}
