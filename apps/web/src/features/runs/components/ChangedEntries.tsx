import { Badge, Button, Checkbox, Group, Modal, ScrollArea, Stack, Table, Text, Title } from "@mantine/core";
import type { PostingSummary, RunDetail } from "@groupledger/contract";
import { IconAlertTriangle, IconRefresh } from "@tabler/icons-react";
import { useState } from "react";
import { AdminGate, useAdminOnly } from "../../team/permissions.tsx";
import { Failure } from "../../screens/components/Failure.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { Section } from "../../screens/components/Section.tsx";
import { changedEntries } from "../model.ts";
import { ChangesTable } from "./PostedPeriods.tsx";

const when = (iso: string) => iso.slice(0, 16).replace("T", " ");
const entries = (n: number) => `${n} ${n === 1 ? "entry" : "entries"}`;

interface Props {
  postings: readonly PostingSummary[];
  currency: string;
  numbers: ReadonlyMap<string, string>;
  /** Why replacing cannot start now (a run is going), or null. */
  busyReason: string | null;
  starting: boolean;
  error: string | null;
  /** Starts the replacement of exactly these entries, as reviewed. */
  onReplaceAll: (entries: PostingSummary[], done: (run: RunDetail) => void) => void;
}

/**
 * Every posted entry whose books changed since (subsidiaries' periods, eliminations, group
 * adjustments), in the order they are replaced, and "Replace all changed": one approval after
 * reviewing each entry's differences, then a background run replaces them in order, once each.
 */
export function ChangedEntries({ postings, currency, numbers, busyReason, starting, error, onReplaceAll }: Props) {
  const adminOnly = useAdminOnly("replace entries in QuickBooks");
  const [reviewing, setReviewing] = useState<PostingSummary[] | null>(null);
  const [approved, setApproved] = useState(false);
  const changed = changedEntries(postings);
  if (changed.length === 0) return null;
  const close = () => {
    setReviewing(null);
    setApproved(false);
  };
  return (
    <Section label="Changed entries">
      <Stack gap="sm" data-testid="changed-entries">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={2} size="h4">
              <IconAlertTriangle size={18} color="var(--mantine-color-orange-7)" aria-hidden style={{ verticalAlign: "-3px", marginRight: 6 }} />
              {changed.length} posted {changed.length === 1 ? "entry differs" : "entries differ"} from the books now
            </Title>
            <Text size="sm" c="dimmed">
              A sync found the books changed under these entries. Replacing deletes each entry in the parent&apos;s QuickBooks and posts its period again from
              the books as they are now, in period order.
            </Text>
          </Stack>
          <AdminGate reason={adminOnly ?? busyReason}>
            <Button color="orange" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => setReviewing(changed)} disabled={busyReason !== null}>
              Replace all changed ({changed.length})
            </Button>
          </AdminGate>
        </Group>
        <HeadedTable withTableBorder fz="sm" verticalSpacing={4} aria-label="Changed entries" columns={["Period", "Entries of", "Entry", "Found", { label: "Accounts that moved", ta: "right" }]}>
          {changed.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>{p.period.label}</Table.Td>
              <Table.Td>{p.companyName}</Table.Td>
              <Table.Td>{p.docNumber}</Table.Td>
              <Table.Td>{when(p.stale!.detectedAt)}</Table.Td>
              <Table.Td ta="right">{p.stale!.changes.length}</Table.Td>
            </Table.Tr>
          ))}
        </HeadedTable>
      </Stack>
      <Modal opened={reviewing !== null} onClose={close} centered size="xl" title={<Text fw={700}>Replace {reviewing?.length === 1 ? "1 changed entry" : `${reviewing?.length ?? 0} changed entries`}?</Text>}>
        {reviewing ? (
          <Stack gap="sm">
            <Text size="sm">
              Each entry below is deleted from the parent&apos;s QuickBooks and its period posted again from the books as they are now, earliest period first. It
              runs in the background; you can follow, pause and resume it here. An entry whose books change again before its turn is left for you to review.
            </Text>
            <ScrollArea.Autosize mah={420} type="auto">
              <Stack gap="md">
                {reviewing.map((p) => (
                  <Stack key={p.id} gap={4}>
                    <Group gap="xs">
                      <Text size="sm" fw={600}>
                        {p.companyName} {p.period.label}
                      </Text>
                      <Badge variant="light" color="gray" size="sm">
                        entry {p.docNumber}
                      </Badge>
                    </Group>
                    <ChangesTable posting={p} currency={currency} numbers={numbers} />
                  </Stack>
                ))}
              </Stack>
            </ScrollArea.Autosize>
            <Checkbox
              label={`I reviewed these changes and approve replacing ${reviewing.length === 1 ? "this entry" : `these ${entries(reviewing.length)}`} in QuickBooks`}
              checked={approved}
              onChange={(e) => setApproved(e.currentTarget.checked)}
            />
            <Failure title="The replacement did not start" message={error} />
            <DialogActions onCancel={close} busy={starting} autoFocus mt="sm">
              <Button color="red" disabled={!approved} loading={starting} onClick={() => onReplaceAll(reviewing, close)}>
                Replace {entries(reviewing.length)}
              </Button>
            </DialogActions>
          </Stack>
        ) : null}
      </Modal>
    </Section>
  );
}
