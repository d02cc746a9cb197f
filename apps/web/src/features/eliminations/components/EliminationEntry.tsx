import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import type { EliminationView } from "@groupledger/contract";
import { IconCircleCheck, IconExternalLink, IconSend } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { formatAmount } from "@groupledger/domain";
import { AdminGate } from "../../team/permissions.tsx";
import type { EliminationPostOutcome } from "../api.ts";
import { entryTotals } from "../model.ts";

export const NewTab = () => <IconExternalLink size={12} style={{ verticalAlign: "-1px" }} aria-label="(opens in a new tab)" />;

/**
 * The entry that brings the period's eliminations into the parent's books: one line per parent
 * account, balanced, under the Interco class; Post with the reason when it cannot be posted.
 */
export function EliminationEntry({
  view,
  title = "Elimination entry",
  about,
  blocked,
  adminOnly,
  posting,
  onPost,
  notice,
  numbers,
  showPostedLink = true,
}: {
  view: Pick<EliminationView, "entry" | "parentCurrency" | "posted">;
  title?: string;
  /** What the entry holds and how it moves, after its number and date; the eliminations' own words by default. */
  about?: ReactNode;
  /** Why it cannot be posted now, or null. */
  blocked: string | null;
  /** Why this user may not post (a member), or null. */
  adminOnly: string | null;
  posting: boolean;
  onPost: () => void;
  notice: ReactNode;
  /** The parent's account numbers by account id, to label the lines as its chart does. */
  numbers: ReadonlyMap<string, string>;
  /** Off while the notice of the post just made carries the same link. */
  showPostedLink?: boolean;
}) {
  const money = (n: number) => (n === 0 ? "" : formatAmount(n, view.parentCurrency));
  const entry = view.entry;
  const totals = entry ? entryTotals(entry.lines) : null;
  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label={title}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Title order={2} size="h4">
              {title}
            </Title>
            <Text size="sm" c="dimmed" maw={820}>
              {about ?? (
                <>
                  {entry ? `Entry ${entry.docNumber} dated ${entry.txnDate}, in ${view.parentCurrency}, every line under the Interco class. ` : ""}
                  Flows are eliminated for the period; balances by what moved since the last posted elimination entry (all of the balance the first
                  time), so the parent&apos;s books hold the whole elimination at each period end.
                </>
              )}
            </Text>
          </Stack>
          {totals ? (
            totals.balanced ? (
              <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={14} aria-hidden />} data-testid="balanced">
                Balanced
              </Badge>
            ) : (
              <Badge color="red" variant="filled" data-testid="balanced">
                Does not balance
              </Badge>
            )
          ) : null}
        </Group>

        {entry && totals ? (
          <Table.ScrollContainer minWidth={640}>
            <Table striped withTableBorder fz="sm" verticalSpacing={4} aria-label={`${title} lines`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Parent account</Table.Th>
                  <Table.Th ta="right" w={200}>
                    Debit ({view.parentCurrency})
                  </Table.Th>
                  <Table.Th ta="right" w={200}>
                    Credit ({view.parentCurrency})
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entry.lines.map((l) => (
                  <Table.Tr key={l.account}>
                    <Table.Td>
                      {numbers.get(l.account) ? (
                        <Text span c="dimmed" size="xs" mr={6}>
                          {numbers.get(l.account)}
                        </Text>
                      ) : null}
                      {l.name}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {money(l.debit)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace">
                      {money(l.credit)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr fw={650} data-testid="entry-totals">
                  <Table.Td>Total</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatAmount(totals.debit, view.parentCurrency)}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatAmount(totals.credit, view.parentCurrency)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        ) : null}

        <Group gap="md" align="center">
          <AdminGate reason={adminOnly}>
            <Button leftSection={<IconSend size={16} aria-hidden />} disabled={blocked !== null} loading={posting} onClick={onPost}>
              Post to QuickBooks
            </Button>
          </AdminGate>
          {blocked ? (
            <Text size="sm" c="dimmed" data-testid="post-blocked">
              {blocked}
            </Text>
          ) : null}
        </Group>
        {showPostedLink && view.posted?.journalEntryUrl ? (
          <Anchor href={view.posted.journalEntryUrl} target="_blank" rel="noopener noreferrer" size="sm" data-testid="posted-link">
            Open the posted entry {view.posted.docNumber} in QuickBooks <NewTab />
          </Anchor>
        ) : null}
        {notice}
      </Stack>
    </Paper>
  );
}

/** After a post: the new entry with its QuickBooks link, or the one that was already there (nothing new posted). */
export function PostOutcomeNotice({ outcome, onClose, what = "eliminations" }: { outcome: EliminationPostOutcome; onClose: () => void; what?: string }) {
  const p = outcome.posting;
  const link = p.journalEntryUrl ? (
    <Anchor href={p.journalEntryUrl} target="_blank" rel="noopener noreferrer" size="sm" fw={600}>
      Open entry {p.docNumber} in QuickBooks <NewTab />
    </Anchor>
  ) : null;
  const posted = outcome.outcome === "posted";
  return (
    <Alert
      color={posted ? "teal" : "blue"}
      role="status"
      title={posted ? "Posted" : "Already posted"}
      withCloseButton
      closeButtonLabel="Dismiss message"
      onClose={onClose}
      data-testid="post-outcome"
    >
      <Stack gap={4}>
        <Text size="sm">
          {posted
            ? `The ${what} of ${p.period.label} are posted to the parent's QuickBooks as entry ${p.docNumber}.`
            : `The ${what} of ${p.period.label} were already posted as entry ${p.docNumber}; nothing new was posted.`}
        </Text>
        {link}
      </Stack>
    </Alert>
  );
}
