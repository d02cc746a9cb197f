import { Badge, Group, Paper, Text } from "@mantine/core";
import type { FxRatesResponse } from "@groupledger/contract";
import { IconArrowsExchange } from "@tabler/icons-react";
import { monthLabel } from "../model.ts";

/** The latest end-of-period rate saved for a currency in the months shown, as the example of what a rate means. */
function latestEnd(grid: FxRatesResponse, currency: string): { rate: string; month: string } | null {
  const found = grid.rates.filter((r) => r.currency === currency && r.endfx !== "").sort((a, b) => b.month.localeCompare(a.month))[0];
  return found ? { rate: found.endfx, month: found.month } : null;
}

/**
 * Which way a rate goes, said where it is typed: an inverted rate (GBP per USD instead of USD per
 * GBP) passes every format check and is off by the square of the rate.
 */
export function RateSemantics({ parentCurrency, parentName, currencies, grid }: { parentCurrency: string; parentName: string | null; currencies: readonly string[]; grid: FxRatesResponse }) {
  return (
    <Paper withBorder radius="md" p="sm" bg="ledger.0" data-testid="rate-semantics">
      <Group gap="md" wrap="wrap">
        <Group gap={8} wrap="nowrap">
          <IconArrowsExchange size={20} color="var(--mantine-color-ledger-8)" aria-hidden />
          <Text size="sm">
            Parent currency <b>{parentCurrency}</b>
            {parentName ? ` (${parentName})` : ""}. Every rate is how many {parentCurrency} one unit of the foreign currency is worth.
          </Text>
        </Group>
        <Group gap={6}>
          {currencies.map((c) => {
            const latest = latestEnd(grid, c);
            return (
              <Badge key={c} variant="white" color="dark" size="lg" tt="none" fw={500} title={latest ? `End of ${monthLabel(latest.month)}` : "No rate saved in the months shown"}>
                1 {c} = {latest ? latest.rate : "x"} {parentCurrency}
              </Badge>
            );
          })}
        </Group>
      </Group>
    </Paper>
  );
}
