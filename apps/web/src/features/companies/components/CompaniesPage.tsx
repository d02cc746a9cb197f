import { Anchor, Badge, Button, Group, List, Paper, Skeleton, Stack, Table, Text, ThemeIcon, Title, Tooltip } from "@mantine/core";
import type { Company, CompanyStatus } from "@groupledger/contract";
import { IconBuildingSkyscraper, IconExternalLink, IconPlugConnected } from "@tabler/icons-react";
import { ONBOARDING_SUPPORT_LINKS } from "../../onboarding/supportLinks.ts";
import { ScreenHeader } from "../../screens/components/ScreenHeader.tsx";
import { useCompanies, useCompanyStatus } from "../api.ts";

const CONNECTION_LABEL: Record<CompanyStatus["connection"], { label: string; color: string }> = {
  connected: { label: "Connected", color: "teal" },
  needs_reauthorization: { label: "Needs re-authorization", color: "orange" },
  disconnected: { label: "Disconnected", color: "gray" },
};

function CompanyTable({ companies, status }: { companies: Company[]; status: Record<string, CompanyStatus> | undefined }) {
  // The parent first, then subsidiaries by name: the order an accountant reads a group in.
  const rows = [...companies].sort((a, b) => Number(b.parent) - Number(a.parent) || a.companyName.localeCompare(b.companyName));
  return (
    <Paper withBorder radius="md" bg="white">
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Company</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Country</Table.Th>
            <Table.Th>Currency</Table.Th>
            <Table.Th>Ownership</Table.Th>
            <Table.Th>Connection</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((c) => {
            const conn = status?.[c.realmId]?.connection;
            return (
              <Table.Tr key={c.realmId}>
                <Table.Td fw={500}>{c.companyName}</Table.Td>
                <Table.Td>
                  <Badge variant={c.parent ? "filled" : "light"} color={c.parent ? "ledger" : "gray"}>
                    {c.parent ? "Parent" : "Subsidiary"}
                  </Badge>
                </Table.Td>
                <Table.Td>{c.country}</Table.Td>
                <Table.Td>{c.homeCurrency}</Table.Td>
                <Table.Td>{c.parent ? "—" : `${c.ownershipPercent}%`}</Table.Td>
                <Table.Td>
                  {conn ? (
                    <Badge variant="dot" color={CONNECTION_LABEL[conn].color}>
                      {CONNECTION_LABEL[conn].label}
                    </Badge>
                  ) : (
                    <Text size="sm" c="dimmed">
                      Checking…
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function NoCompanies() {
  return (
    <Paper withBorder radius="md" p="xl" bg="white" data-testid="empty-state">
      <Group align="flex-start" wrap="nowrap" gap="lg">
        <ThemeIcon size={48} radius="md" variant="light">
          <IconBuildingSkyscraper size={26} aria-hidden />
        </ThemeIcon>
        <Stack gap="sm" style={{ flex: 1 }}>
          <Title order={2} size="h4">
            No companies connected yet
          </Title>
          <Text size="sm" c="dimmed" maw={640}>
            A consolidation needs a parent company and at least one subsidiary, each a QuickBooks Online company you can sign in to.
          </Text>
          <List type="ordered" size="sm" spacing={6}>
            <List.Item>Connect your parent company: the one that owns the others and receives the consolidation entries.</List.Item>
            <List.Item>Connect each subsidiary. Its currency and country are read from QuickBooks.</List.Item>
            <List.Item>Check that the parent is marked as the parent; you can change it later.</List.Item>
          </List>
          <Group gap="md" mt="xs">
            <Tooltip label="Connecting to QuickBooks Online is not available in this release yet" withArrow>
              <span>
                <Button leftSection={<IconPlugConnected size={18} />} disabled>
                  Connect to QuickBooks
                </Button>
              </span>
            </Tooltip>
            <Anchor href={ONBOARDING_SUPPORT_LINKS[1]} target="_blank" rel="noopener noreferrer" size="sm">
              How connecting works <IconExternalLink size={12} style={{ verticalAlign: "-1px" }} aria-label="(opens in a new tab)" />
            </Anchor>
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

/** /setup/companies: the group's connected companies (SPEC §2 'Connected Companies'). */
export function CompaniesPage() {
  const companies = useCompanies();
  const status = useCompanyStatus();
  return (
    <Stack gap="lg" maw={1100}>
      <ScreenHeader
        title="Connected Companies"
        description="The QuickBooks Online companies in your group: one parent and its subsidiaries."
      />
      {companies.isPending ? (
        <Skeleton height={160} radius="md" />
      ) : companies.data && companies.data.length > 0 ? (
        <CompanyTable companies={companies.data} status={status.data} />
      ) : companies.isError ? (
        <Paper withBorder radius="md" p="lg" bg="white" role="alert">
          <Text fw={600}>Your companies could not be loaded.</Text>
          <Text size="sm" c="dimmed">
            {companies.error.message}
          </Text>
          <Button mt="sm" variant="light" onClick={() => void companies.refetch()}>
            Try again
          </Button>
        </Paper>
      ) : (
        <NoCompanies />
      )}
    </Stack>
  );
}
