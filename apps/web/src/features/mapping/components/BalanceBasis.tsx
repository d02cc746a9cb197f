import { Text } from "@mantine/core";
import type { CompanyAccount } from "@groupledger/contract";
import { latestAmountBasis } from "../../companies/latestAmount.ts";

/** Says which months the grid's Balance column is for: a month-end balance, or a full month's activity. */
export function BalanceBasis({ accounts }: { accounts: readonly CompanyAccount[] }) {
  const basis = latestAmountBasis(accounts);
  if (!basis) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="balance-basis">
      {basis}
    </Text>
  );
}
