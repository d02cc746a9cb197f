import { Badge, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { formatPrice, type PlanView } from "@groupledger/contract";
import type { ReactNode } from "react";

export const FEATURED_PLAN = "group";

/** The plans side by side; `action` renders each card's button (sign up, choose, current plan). */
export function PlanCards({ plans, selected, action }: { plans: readonly PlanView[]; selected?: string | null; action: (plan: PlanView) => ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: plans.length }} spacing="lg">
      {plans.map((p) => {
        const highlight = selected ? selected === p.id : p.id === FEATURED_PLAN;
        return (
          <Paper
            key={p.id}
            withBorder
            radius="md"
            p="lg"
            bg="white"
            shadow={highlight ? "md" : undefined}
            style={highlight ? { borderColor: "var(--mantine-color-ledger-6)" } : undefined}
            data-testid={`plan-${p.id}`}
          >
            <Stack gap="xs" h="100%">
              <Title order={3} size="h4">
                {p.name} {!selected && p.id === FEATURED_PLAN ? <Badge ml={6} component="span">Most chosen</Badge> : null}
              </Title>
              <Text>
                <Text span fz={30} fw={700}>
                  {formatPrice(p)}
                </Text>{" "}
                <Text span c="dimmed" size="sm">
                  per group / month
                </Text>
              </Text>
              <Text size="sm" c="dimmed" style={{ flex: 1 }}>
                {p.summary}
              </Text>
              {action(p)}
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
