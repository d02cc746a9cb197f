import { ActionIcon, Badge, Button, Group, Menu, Paper, Stack, Table, Text, Tooltip, VisuallyHidden } from "@mantine/core";
import type { Company, CompanyStatus, QboCalls } from "@groupledger/contract";
import {
  IconArchive,
  IconArchiveOff,
  IconChevronDown,
  IconChevronRight,
  IconCrown,
  IconDots,
  IconPlugConnected,
  IconPlugConnectedX,
  IconRefresh,
  IconTrash,
} from "@tabler/icons-react";
import { Fragment } from "react";
import type { StatusMap } from "../api.ts";
import { countryName, formatDate } from "../format.ts";
import { rowActions } from "../rules.ts";
import { CompanyAccounts } from "./CompanyAccounts.tsx";
import { fullLabel } from "./styles.ts";
import { AdminGate } from "../../team/permissions.tsx";
import { SyncCell } from "./SyncCell.tsx";
import { CallsCell } from "./CallBudget.tsx";

const CONNECTION_LABEL: Record<CompanyStatus["connection"], { label: string; color: string }> = {
  connected: { label: "Connected", color: "teal" },
  needs_reauthorization: { label: "Needs re-authorization", color: "orange" },
  disconnected: { label: "Disconnected", color: "gray" },
};

export type RowCommand = "setParent" | "reconnect" | "sync" | "disconnect" | "archive" | "unarchive" | "remove";

interface Props {
  companies: Company[];
  status: StatusMap | undefined;
  expanded: ReadonlySet<string>;
  watched: ReadonlySet<string>;
  /** The company whose action is under way: its controls wait. */
  busyRealm: string | null;
  onToggle: (realmId: string) => void;
  onCommand: (command: RowCommand, company: Company) => void;
  /** Why the company actions are off for this user (members), or null. */
  adminOnly?: string | null;
  /** Each company's requests to QuickBooks today and this month (GET /api/companies/calls); absent while loading. */
  calls?: QboCalls["companies"] | undefined;
}

const COLUMNS = 9;

/** The parent first, then subsidiaries by name: the order an accountant reads a group in. */
export function orderCompanies(companies: readonly Company[]): Company[] {
  return [...companies].sort((a, b) => Number(b.parent) - Number(a.parent) || a.companyName.localeCompare(b.companyName));
}

function RowMenu({ company, status, busy, onCommand, adminOnly }: { company: Company; status: CompanyStatus | undefined; busy: boolean; onCommand: Props["onCommand"]; adminOnly: string | null }) {
  const can = rowActions(company, status);
  if (adminOnly) {
    return (
      <AdminGate reason={adminOnly}>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${company.companyName}`}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </AdminGate>
    );
  }
  return (
    <Menu position="bottom-end" withinPortal shadow="md" width={220}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${company.companyName}`} loading={busy}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconRefresh size={16} aria-hidden />} disabled={!can.sync} onClick={() => onCommand("sync", company)}>
          Sync now
        </Menu.Item>
        {can.setParent ? (
          <Menu.Item leftSection={<IconCrown size={16} aria-hidden />} onClick={() => onCommand("setParent", company)}>
            Set as parent
          </Menu.Item>
        ) : null}
        {can.reconnect ? (
          <Menu.Item leftSection={<IconPlugConnected size={16} aria-hidden />} onClick={() => onCommand("reconnect", company)}>
            Reconnect
          </Menu.Item>
        ) : null}
        {can.unarchive ? (
          <Menu.Item leftSection={<IconArchiveOff size={16} aria-hidden />} onClick={() => onCommand("unarchive", company)}>
            Unarchive
          </Menu.Item>
        ) : (
          <Menu.Item leftSection={<IconArchive size={16} aria-hidden />} disabled={!can.archive} onClick={() => onCommand("archive", company)}>
            {company.parent ? "Archive… (not the parent)" : "Archive…"}
          </Menu.Item>
        )}
        <Menu.Divider />
        {can.disconnect ? (
          <Menu.Item leftSection={<IconPlugConnectedX size={16} aria-hidden />} color="orange.8" onClick={() => onCommand("disconnect", company)}>
            Disconnect…
          </Menu.Item>
        ) : null}
        <Menu.Item leftSection={<IconTrash size={16} aria-hidden />} color="red" onClick={() => onCommand("remove", company)}>
          Remove…
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The group's companies, each expandable to its synced chart of accounts. */
export function CompanyTable({ companies, status, expanded, watched, busyRealm, onToggle, onCommand, adminOnly = null, calls }: Props) {
  return (
    <Paper withBorder radius="md" bg="white" style={{ overflow: "hidden" }}>
      <Table.ScrollContainer minWidth={1060}>
        <Table verticalSpacing="sm" horizontalSpacing="sm" aria-label="Connected companies">
          <Table.Thead bg="gray.0">
            <Table.Tr>
              <Table.Th w={44}>
                <VisuallyHidden>Accounts</VisuallyHidden>
              </Table.Th>
              <Table.Th>Company</Table.Th>
              <Table.Th>Country</Table.Th>
              <Table.Th>Currency</Table.Th>
              <Table.Th>Ownership</Table.Th>
              <Table.Th>Connection</Table.Th>
              <Table.Th w={190}>Sync</Table.Th>
              <Table.Th w={120}>QuickBooks calls</Table.Th>
              <Table.Th w={96} ta="right">
                Actions
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orderCompanies(companies).map((c) => {
              const hasParent = companies.some((x) => x.parent);
              const st = status?.[c.realmId];
              const conn = st?.connection;
              const open = expanded.has(c.realmId);
              const panelId = `accounts-panel-${c.realmId}`;
              const archived = c.archivedAt !== null;
              const can = rowActions(c, st);
              return (
                <Fragment key={c.realmId}>
                  <Table.Tr data-testid={`company-${c.realmId}`} style={archived ? { opacity: 0.75 } : undefined}>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        onClick={() => onToggle(c.realmId)}
                        aria-expanded={open}
                        aria-controls={open ? panelId : undefined}
                        aria-label={`${open ? "Hide" : "Show"} accounts of ${c.companyName}`}
                      >
                        {open ? <IconChevronDown size={18} aria-hidden /> : <IconChevronRight size={18} aria-hidden />}
                      </ActionIcon>
                    </Table.Td>
                    <Table.Td miw={220}>
                      <Stack gap={4}>
                        <Text size="sm" fw={600}>
                          {c.companyName}
                        </Text>
                        <Group gap={6} wrap="nowrap">
                          {/* Before a parent is chosen no company is a subsidiary yet: say so rather than guess. */}
                          <Badge size="sm" variant={c.parent ? "filled" : hasParent ? "light" : "outline"} color={c.parent ? "ledger" : "gray"} styles={fullLabel}>
                            {c.parent ? "Parent" : hasParent ? "Subsidiary" : "Role not set"}
                          </Badge>
                          <Text size="xs" c="dimmed" style={{ whiteSpace: "nowrap" }}>
                            ID {c.realmId}
                          </Text>
                        </Group>
                        {c.bookCloseDate ? (
                          <Text size="xs" c="dimmed" data-testid="book-close-date" title="QuickBooks: Settings → Account and settings → Advanced → Close the books">
                            Books closed through {formatDate(c.bookCloseDate)}
                          </Text>
                        ) : null}
                        {archived && c.archivedAt ? (
                          <Badge size="sm" variant="outline" color="gray" styles={fullLabel} tt="none">
                            Archived from {formatDate(c.archivedAt)}
                          </Badge>
                        ) : null}
                      </Stack>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" title={c.country}>
                        {countryName(c.country)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{c.homeCurrency}</Table.Td>
                    <Table.Td>{c.parent ? <span aria-label="Not applicable">—</span> : `${c.ownershipPercent}%`}</Table.Td>
                    <Table.Td>
                      {conn ? (
                        <Badge variant="dot" size="md" tt="none" color={CONNECTION_LABEL[conn].color} styles={fullLabel}>
                          {CONNECTION_LABEL[conn].label}
                        </Badge>
                      ) : (
                        <Text size="sm" c="dimmed">
                          Checking…
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <SyncCell companyName={c.companyName} sync={st?.sync} watched={watched.has(c.realmId)} />
                    </Table.Td>
                    <Table.Td>
                      <CallsCell calls={calls?.[c.realmId]} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} justify="flex-end" wrap="nowrap">
                        {can.reconnect ? (
                          <AdminGate reason={adminOnly}>
                            <Button size="compact-sm" variant="light" color="orange" onClick={() => onCommand("reconnect", c)}>
                              Reconnect
                            </Button>
                          </AdminGate>
                        ) : can.sync && adminOnly ? (
                          <AdminGate reason={adminOnly}>
                            <ActionIcon variant="subtle" color="gray" aria-label={`Sync ${c.companyName} now`}>
                              <IconRefresh size={18} aria-hidden />
                            </ActionIcon>
                          </AdminGate>
                        ) : can.sync ? (
                          <Tooltip label={`Sync ${c.companyName} now`} withArrow>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              aria-label={`Sync ${c.companyName} now`}
                              onClick={() => onCommand("sync", c)}
                              disabled={busyRealm === c.realmId}
                            >
                              <IconRefresh size={18} aria-hidden />
                            </ActionIcon>
                          </Tooltip>
                        ) : null}
                        <RowMenu company={c} status={st} busy={busyRealm === c.realmId} onCommand={onCommand} adminOnly={adminOnly} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                  {open ? (
                    <Table.Tr id={panelId} bg="gray.0">
                      <Table.Td colSpan={COLUMNS} px="lg" py="md">
                        <CompanyAccounts realmId={c.realmId} companyName={c.companyName} lastSyncedAt={st?.sync.lastSyncedAt ?? null} />
                      </Table.Td>
                    </Table.Tr>
                  ) : null}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
