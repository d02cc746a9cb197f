import { Alert, Anchor, Badge, Button, Group, List, Paper, Progress, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import type { RunDetail } from "@groupledger/contract";
import { IconPlayerPause, IconPlayerPlay } from "@tabler/icons-react";
import { Fragment } from "react";
import { canPause, canResume, doneCount, isActive, ITEM_STATUS, itemsByMonth, longMonth, RUN_STATUS, skippedAsDuplicate, summaryText } from "../model.ts";
import { AdminGate, useAdminOnly } from "../../team/permissions.tsx";
import { NewTab } from "../../entries/components/QuickBooksLink.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

interface Props {
  run: RunDetail | undefined;
  loading: boolean;
  error: Error | null;
  busy: "pause" | "resume" | null;
  actionError: string | null;
  onPause: () => void;
  onResume: () => void;
}

const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

/** A run as it goes: a progress bar with "n of N", every (month, subsidiary) with its outcome, pause and resume, and the result at the end. */
export function RunProgress({ run, loading, error, busy, actionError, onPause, onResume }: Props) {
  const adminOnly = useAdminOnly("pause or resume a run");
  if (loading) return <Skeleton height={200} radius="md" />;
  if (error || !run) return <Failure title="The run could not be loaded" message={error?.message ?? "No such run."} />;
  const status = RUN_STATUS[run.status];
  const done = doneCount(run.counts);
  const finished = run.finishedAt !== null && !isActive(run.status) && run.status !== "paused";
  const failures = run.items.filter((i) => i.status === "failed");
  const companies = new Set(run.items.map((i) => i.companyName)).size;
  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Run progress" data-run-id={run.id}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Title order={2} size="h4">
              {run.kind === "replace"
                ? `Replacing ${run.counts.total} changed ${run.counts.total === 1 ? "entry" : "entries"}, ${longMonth(run.from)} – ${longMonth(run.to)}`
                : `${longMonth(run.from)} – ${longMonth(run.to)}, ${companies} ${companies === 1 ? "subsidiary" : "subsidiaries"}`}
            </Title>
            <Text size="sm" c="dimmed">
              Started {when(run.createdAt)}
              {run.createdBy ? ` by ${run.createdBy}` : run.trigger === "nightly" ? " after the nightly sync, as the group's setting asks" : ""}
              {run.finishedAt ? `, ended ${when(run.finishedAt)}` : ""}.
            </Text>
          </Stack>
          <Group gap="sm" wrap="nowrap">
            <Badge color={status.color} variant="light" size="lg" data-testid="run-status">
              {status.label}
            </Badge>
            {canPause(run.status) ? (
              <AdminGate reason={adminOnly}>
                <Button variant="default" leftSection={<IconPlayerPause size={16} aria-hidden />} onClick={onPause} loading={busy === "pause"} disabled={busy !== null}>
                  Pause
                </Button>
              </AdminGate>
            ) : null}
            {canResume(run.status) ? (
              <AdminGate reason={adminOnly}>
                <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={onResume} loading={busy === "resume"} disabled={busy !== null}>
                  Resume
                </Button>
              </AdminGate>
            ) : null}
          </Group>
        </Group>

        <Stack gap={4}>
          <Progress
            value={run.progress * 100}
            size="lg"
            radius="sm"
            color={run.counts.failed > 0 ? "orange" : "teal"}
            animated={isActive(run.status)}
            aria-label={`${done} of ${run.counts.total} entries done`}
          />
          <Group justify="space-between">
            <Text size="sm" fw={600} data-testid="run-progress-text">
              {done} of {run.counts.total} done ({Math.round(run.progress * 100)}%)
            </Text>
            <Text size="sm" c="dimmed">
              {run.counts.posted} {run.kind === "replace" ? "replaced" : "posted"} · {run.counts.skipped} skipped · {run.counts.failed} failed · {run.counts.pending} waiting
            </Text>
          </Group>
          {run.message && !finished ? (
            <Text size="sm" c="dimmed" data-testid="run-message">
              {run.message}
            </Text>
          ) : null}
        </Stack>

        <Failure message={actionError} />

        {finished ? (
          <Alert
            color={run.counts.failed > 0 || run.status === "failed" ? "orange" : "teal"}
            role="status"
            title={run.status === "failed" ? "The run stopped" : run.kind === "replace" ? "The replacement is finished" : "The run is finished"}
            data-testid="run-summary"
          >
            <Stack gap={4}>
              <Text size="sm">{summaryText(run)}</Text>
              {run.status === "failed" && run.message ? <Text size="sm">{run.message}</Text> : null}
              {failures.length > 0 ? (
                <List size="sm" spacing={2}>
                  {failures.map((f) => (
                    <List.Item key={f.seq}>
                      {f.companyName} {f.label}: {f.message}
                    </List.Item>
                  ))}
                </List>
              ) : null}
            </Stack>
          </Alert>
        ) : null}

        <Table.ScrollContainer minWidth={760}>
          <HeadedTable
            withTableBorder
            fz="sm"
            verticalSpacing={4}
            aria-label="Run items"
            columns={[{ label: run.kind === "replace" ? "Entries of" : "Subsidiary", w: 260 }, { label: "Status", w: 110 }, "Entry or reason"]}
          >
            {itemsByMonth(run.items).map((group) => (
              <Fragment key={group.month}>
                <Table.Tr bg="gray.0">
                  <Table.Th colSpan={3} scope="colgroup">
                    {longMonth(group.month)}
                  </Table.Th>
                </Table.Tr>
                {group.items.map((item) => {
                  const badge = ITEM_STATUS[item.status];
                  return (
                    <Table.Tr key={item.seq} data-testid={`item-${item.month}-${item.realmId}`}>
                      <Table.Td pl="lg">
                        {item.companyName}
                        {item.label !== item.month ? (
                          <Text span c="dimmed" size="xs" ml={6}>
                            {item.label}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={badge.color} variant="light" size="sm">
                          {skippedAsDuplicate(item) ? "Duplicate" : run.kind === "replace" && item.status === "posted" ? "Replaced" : badge.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="sm" wrap="nowrap">
                          {item.message ? (
                            <Text size="sm" c={item.status === "failed" ? "red.8" : "dimmed"}>
                              {item.message}
                            </Text>
                          ) : null}
                          {item.journalEntryUrl ? (
                            <Anchor href={item.journalEntryUrl} target="_blank" rel="noopener noreferrer" size="sm" style={{ whiteSpace: "nowrap" }}>
                              Open in QuickBooks <NewTab />
                            </Anchor>
                          ) : null}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Fragment>
            ))}
          </HeadedTable>
        </Table.ScrollContainer>
      </Stack>
    </Paper>
  );
}
