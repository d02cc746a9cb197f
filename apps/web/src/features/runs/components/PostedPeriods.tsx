import { Anchor, Badge, Button, Checkbox, Group, Modal, Paper, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import type { PostingSummary } from "@groupledger/contract";
import { IconAlertTriangle, IconExternalLink, IconRefresh } from "@tabler/icons-react";
import { Fragment, useState, type ReactNode } from "react";
import { formatAmount } from "@groupledger/domain";
import { shortMonth } from "../model.ts";
import { AdminGate, useAdminOnly } from "../../team/permissions.tsx";
import { NumberedName } from "../../entries/components/EntryLines.tsx";
import {} from "../../screens/components/AmountCell.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { DifferenceRow } from "../../screens/components/DifferenceRow.tsx";
import { Failure } from "../../screens/components/Failure.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

const STATUS: Record<PostingSummary["status"], { label: string; color: string }> = {
  posted: { label: "Posted", color: "teal" },
  replaced: { label: "Replaced", color: "gray" },
  deleted: { label: "Deleted", color: "gray" },
};

const when = (iso: string) => iso.slice(0, 16).replace("T", " ");
const nowrap = { whiteSpace: "nowrap" } as const;
/** Side by side in a narrow cell, a badge would shrink and cut its label short. */
const badge = { flexShrink: 0 } as const;

/** Posted vs now per parent account (debit positive), with the difference the new entry would make. */
export function ChangesTable({ posting, currency, numbers }: { posting: PostingSummary; currency: string; numbers: ReadonlyMap<string, string> }) {
  const money = (n: number) => formatAmount(n, currency);
  return (
    <HeadedTable
      withTableBorder
      fz="sm"
      verticalSpacing={4}
      maw={820}
      aria-label={`Changes in ${posting.period.label}`}
      columns={["Parent account", { label: "Posted", ta: "right" }, { label: "From the books now", ta: "right" }, { label: "Difference", ta: "right" }]}
    >
      {(posting.stale?.changes ?? []).map((c) => (
        <DifferenceRow key={c.account} name={<NumberedName number={numbers.get(c.account)} name={c.name} />} amounts={[money(c.posted), money(c.now)]} difference={money(c.now - c.posted)} />
      ))}
    </HeadedTable>
  );
}

/** Replacing deletes an entry in QuickBooks: the user approves it explicitly, having seen what changed. */
export function ReplaceDialog({
  posting,
  currency,
  numbers,
  busy,
  error,
  onCancel,
  onReplace,
  lead,
}: {
  /** What changed, in words; the subsidiary's books by default. */
  lead?: ReactNode;
  posting: PostingSummary | null;
  currency: string;
  numbers: ReadonlyMap<string, string>;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onReplace: () => void;
}) {
  const [approved, setApproved] = useState(false);
  return (
    <Modal opened={posting !== null} onClose={onCancel} centered size="xl" title={<Text fw={700}>Replace the {posting?.period.label} entry?</Text>}>
      {posting ? (
        <Stack gap="sm">
          <Text size="sm">
            {lead ?? (
              <>
                {posting.companyName}&apos;s books changed after entry {posting.docNumber} was posted. Replacing it deletes that entry from the
                parent&apos;s QuickBooks and posts {posting.period.label} again from the books as they are now.
              </>
            )}
          </Text>
          <ChangesTable posting={posting} currency={currency} numbers={numbers} />
          <Checkbox
            label={`I reviewed these changes and approve replacing entry ${posting.docNumber} in QuickBooks`}
            checked={approved}
            onChange={(e) => setApproved(e.currentTarget.checked)}
          />
          <Failure title="The entry was not replaced" message={error} />
          <DialogActions onCancel={onCancel} busy={busy} autoFocus mt="sm">
            <Button color="red" onClick={onReplace} disabled={!approved} loading={busy}>
              Replace entry
            </Button>
          </DialogActions>
        </Stack>
      ) : null}
    </Modal>
  );
}

interface Props {
  companyName: string;
  currency: string;
  /** The parent's account numbers by account id: the accounts' labels. */
  numbers: ReadonlyMap<string, string>;
  postings: PostingSummary[] | undefined;
  loading: boolean;
  error: Error | null;
  replacing: string | null;
  replaceError: string | null;
  onReplace: (posting: PostingSummary) => void;
  onCancelReplace: () => void;
  confirming: PostingSummary | null;
  onAskReplace: (posting: PostingSummary) => void;
  /** What the last replacement said. */
  notice: ReactNode;
}

/**
 * What is already in the parent's books for this subsidiary, newest period first. A sync that
 * finds the books changed under a posted period flags it ("Books changed") with what moved; the
 * entry is replaced only after the user approves.
 */
export function PostedPeriods({ companyName, currency, numbers, postings, loading, error, replacing, replaceError, onReplace, onCancelReplace, confirming, onAskReplace, notice }: Props) {
  const adminOnly = useAdminOnly("replace an entry in QuickBooks");
  const [open, setOpen] = useState<string | null>(null);
  const stale = (postings ?? []).filter((p) => p.status === "posted" && p.stale);
  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Posted periods">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Posted periods of {companyName}
          </Title>
          {stale.length > 0 ? (
            <Badge color="orange" variant="light" leftSection={<IconAlertTriangle size={12} aria-hidden />}>
              {stale.length} with changed books
            </Badge>
          ) : null}
        </Group>
        {notice}
        {loading ? (
          <Skeleton height={80} />
        ) : error ? (
          <Text size="sm" c="red.8" role="alert">
            The posted periods could not be loaded: {error.message}
          </Text>
        ) : !postings || postings.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing posted yet for {companyName} after its opening balance.
          </Text>
        ) : (
          <HeadedTable
            withTableBorder
            fz="sm"
            verticalSpacing={6}
            aria-label={`Posted periods of ${companyName}`}
            columns={["Period", "Entry", "Posted", "Status", null]}
          >
            {postings.map((p) => {
              const changed = p.status === "posted" && p.stale !== null;
              const expanded = open === p.id;
              return (
                <Fragment key={p.id}>
                  <Table.Tr data-testid={`posting-${p.period.label}`} c={p.status === "posted" ? undefined : "dimmed"}>
                    <Table.Td style={nowrap}>
                      <Text span fw={600} size="sm">
                        {p.period.label}
                      </Text>
                      {p.period.from !== p.period.to ? (
                        <Text span c="dimmed" size="xs" ml={6}>
                          {shortMonth(p.period.from)} – {shortMonth(p.period.to)}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td style={nowrap}>
                      {p.journalEntryUrl && p.status === "posted" ? (
                        <Anchor href={p.journalEntryUrl} target="_blank" rel="noopener noreferrer" size="sm">
                          {p.docNumber} <IconExternalLink size={12} style={{ verticalAlign: "-1px" }} aria-label="(opens in QuickBooks in a new tab)" />
                        </Anchor>
                      ) : (
                        p.docNumber
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={nowrap}>
                        {when(p.postedAt)}
                        {p.runId ? (
                          <Text span c="dimmed" size="xs" ml={6}>
                            multi-period run
                          </Text>
                        ) : null}
                      </Text>
                      {p.postedBy ? (
                        <Text size="xs" c="dimmed">
                          {p.postedBy}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Badge color={STATUS[p.status].color} variant="light" style={badge}>
                          {STATUS[p.status].label}
                        </Badge>
                        {changed ? (
                          <Badge color="orange" variant="filled" data-testid="books-changed" style={badge}>
                            Books changed
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right">
                      {changed ? (
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button size="compact-sm" variant="default" aria-expanded={expanded} onClick={() => setOpen(expanded ? null : p.id)}>
                            {expanded ? "Hide changes" : "See changes"}
                          </Button>
                          <AdminGate reason={adminOnly}>
                            <Button size="compact-sm" color="orange" leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => onAskReplace(p)} loading={replacing === p.id}>
                              Replace entry
                            </Button>
                          </AdminGate>
                        </Group>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                  {changed && expanded ? (
                    <Table.Tr>
                      <Table.Td colSpan={5} bg="orange.0">
                        <Stack gap={6} py={4}>
                          <Text size="sm">
                            The books changed after posting (found {when(p.stale!.detectedAt)}). What the entry would be now, by parent account, debit
                            positive:
                          </Text>
                          <ChangesTable posting={p} currency={currency} numbers={numbers} />
                        </Stack>
                      </Table.Td>
                    </Table.Tr>
                  ) : null}
                </Fragment>
              );
            })}
          </HeadedTable>
        )}
      </Stack>
      <ReplaceDialog
        key={confirming?.id ?? "none"}
        posting={confirming}
        currency={currency}
        numbers={numbers}
        busy={replacing !== null}
        error={replaceError}
        onCancel={onCancelReplace}
        onReplace={() => confirming && onReplace(confirming)}
      />
    </Paper>
  );
}
