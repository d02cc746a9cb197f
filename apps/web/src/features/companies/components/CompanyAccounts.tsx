import { Badge, Button, Group, ScrollArea, Skeleton, Table, Text } from "@mantine/core";
import type { CompanyAccount } from "@groupledger/contract";
import { formatAmount } from "@groupledger/domain";
import { useCompanyAccounts } from "../api.ts";
import { latestAmountBasis, latestAmountLabel } from "../latestAmount.ts";
import { fullLabel } from "./styles.ts";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";

/** Digits of equal width, so amounts and account numbers line up down the column. */
const tabular = { fontVariantNumeric: "tabular-nums" } as const;

/** The accounts in the order of the company's own chart: by number where it has them, then by full name. */
export function sortAccounts(accounts: readonly CompanyAccount[]): CompanyAccount[] {
  return [...accounts].sort((a, b) => {
    if (a.acctNum && b.acctNum) return a.acctNum.localeCompare(b.acctNum, undefined, { numeric: true });
    if (a.acctNum) return -1;
    if (b.acctNum) return 1;
    return a.fullyQualifiedName.localeCompare(b.fullyQualifiedName);
  });
}

/** "Bank · Checking": QuickBooks' type names are CamelCase words. */
function words(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, "$1 $2");
}

/** A company's chart of accounts as last synced (GET /api/companies/{realmId}/accounts). */
export function CompanyAccounts({ realmId, companyName, lastSyncedAt }: { realmId: string; companyName: string; lastSyncedAt: string | null }) {
  const accounts = useCompanyAccounts(realmId, lastSyncedAt);
  if (accounts.isPending) return <Skeleton height={120} radius="sm" aria-label={`Loading the accounts of ${companyName}`} />;
  if (accounts.isError) {
    return (
      <Group gap="sm" role="alert">
        <Text size="sm" c="red.8">
          The accounts of {companyName} could not be loaded: {accounts.error.message}
        </Text>
        <Button size="compact-sm" variant="light" onClick={() => void accounts.refetch()}>
          Try again
        </Button>
      </Group>
    );
  }
  if (accounts.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {lastSyncedAt ? `${companyName} has no accounts in QuickBooks.` : "The chart of accounts appears here once the first sync has finished."}
      </Text>
    );
  }
  const rows = sortAccounts(accounts.data);
  const neverABalance = rows.filter((a) => !a.everHadBalance).length;
  const inactive = rows.filter((a) => !a.active).length;
  const basis = latestAmountBasis(rows);
  return (
    <div>
      <Group gap="lg" mb="xs">
        <Text size="sm" fw={600}>
          {rows.length} accounts
        </Text>
        <Text size="sm" c="dimmed">
          {neverABalance} never had a balance · {inactive} inactive
        </Text>
        {basis ? (
          <Text size="sm" c="dimmed">
            {basis}
          </Text>
        ) : null}
      </Group>
      <ScrollArea.Autosize mah={420} type="auto" offsetScrollbars>
        <HeadedTable
          stickyHeader
          striped
          verticalSpacing={6}
          horizontalSpacing="sm"
          fz="sm"
          aria-label={`Accounts of ${companyName}`}
          data-testid={`accounts-${realmId}`}
          columns={[{ label: "Number", w: 90 }, "Name", "Type", "Classification", { label: "Currency", w: 80 }, { label: "Latest balance", ta: "right" }, { label: "Active", w: 80 }]}
        >
          {rows.map((a) => (
            <Table.Tr key={a.Id}>
              <Table.Td style={tabular}>{a.acctNum ?? "—"}</Table.Td>
              <Table.Td>
                <Group gap={6}>
                  <Text size="sm">{a.fullyQualifiedName}</Text>
                  {a.everHadBalance ? null : (
                    <Badge size="xs" variant="light" color="gray" styles={fullLabel} title="No synced month has a balance or activity on this account">
                      Never a balance
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{words(a.accountType)}</Text>
                {a.accountSubType ? (
                  <Text size="xs" c="dimmed">
                    {words(a.accountSubType)}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{a.classification}</Table.Td>
              <Table.Td>{a.currency}</Table.Td>
              <Table.Td ta="right" style={{ ...tabular, whiteSpace: "nowrap" }} title={latestAmountLabel(a) ?? undefined}>
                {a.latestAmount === null ? "—" : formatAmount(a.latestAmount, a.currency)}
              </Table.Td>
              <Table.Td>{a.active ? "Yes" : <Text size="sm" c="dimmed">No</Text>}</Table.Td>
            </Table.Tr>
          ))}
        </HeadedTable>
      </ScrollArea.Autosize>
    </div>
  );
}
