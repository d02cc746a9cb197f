import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { proposalPairRequest, type PairProposalView, type PairProposalsView } from "@groupledger/contract";
import { IconChecks, IconX } from "@tabler/icons-react";
import { useState } from "react";
import { messageOf } from "../../../lib/forms.ts";
import { eliminationsApi, useEliminationMutation, usePairProposals } from "../api.ts";
import { acceptedText, offeredProposals, PAIR_KINDS, proposedSideText } from "../model.ts";
import { Failure } from "../../screens/components/Failure.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { TipAction } from "../../screens/components/TipAction.tsx";

/** Dismissed proposals are kept on this browser, by the proposal's key (its two sides), so a dismissed one stays dismissed. */
const DISMISSED_KEY = "groupledger.dismissedPairProposals";
function readDismissed(): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? "[]");
    return new Set(Array.isArray(stored) ? stored.filter((k): k is string => typeof k === "string") : []);
  } catch {
    return new Set();
  }
}
function useDismissed() {
  const [dismissed, setDismissed] = useState(readDismissed);
  const dismiss = (key: string) => {
    const next = new Set(dismissed).add(key);
    setDismissed(next);
    try {
      localStorage.setItem(DISMISSED_KEY, JSON.stringify([...next]));
    } catch {
      // Storage full or refused: the dismissal lasts while the screen is open.
    }
  };
  return { dismissed, dismiss };
}

function SideCell({ role, side }: { role: string; side: PairProposalView["left"] }) {
  const t = proposedSideText(side);
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {role} · {t.company}
      </Text>
      <Text size="sm">{t.account}</Text>
      {t.only ? (
        <Text size="xs" c="dimmed">
          only with {t.only}
        </Text>
      ) : null}
    </Stack>
  );
}

function ProposalRow({ p, busy, onAccept, onDismiss }: { p: PairProposalView; busy: boolean; onAccept: () => void; onDismiss?: () => void }) {
  const kind = PAIR_KINDS[p.kind];
  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {p.name}
          </Text>
          <Badge size="xs" variant="light" color={p.kind === "receivablePayable" ? "blue" : "grape"} w="fit-content">
            {kind.label}
          </Badge>
        </Stack>
      </Table.Td>
      <Table.Td>
        <SideCell role={kind.left} side={p.left} />
      </Table.Td>
      <Table.Td>
        <SideCell role={kind.right} side={p.right} />
      </Table.Td>
      <Table.Td maw={360}>
        <Text size="xs" c="dimmed">
          {p.reason}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button size="xs" variant="light" disabled={busy} onClick={onAccept} aria-label={`Accept ${p.name}`}>
            Accept
          </Button>
          {onDismiss ? (
            <TipAction tip="Dismiss: don't propose this pair again" label={`Dismiss ${p.name}`} color="gray" onClick={onDismiss}>
              <IconX size={16} aria-hidden />
            </TipAction>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

const COLUMNS = ["Pair", "Receivable or revenue side", "Payable or expense side", "Why", { label: <VisuallyHidden>Actions</VisuallyHidden>, w: 130 }];

/**
 * "Proposed pairs": the pairs the group's charts propose (GET /eliminations/pairs/proposals), each
 * with the reason, accepted one by one or all at once (POST /eliminations/pairs/accept, one
 * transaction) or dismissed; the accounts with two equally good counterparts as a choice; and the
 * intercompany accounts nothing is proposed for, with why. Nothing to say: no section.
 */
export function ProposedPairs() {
  const proposals = usePairProposals();
  const accept = useEliminationMutation(eliminationsApi.accept);
  const { dismissed, dismiss } = useDismissed();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (proposals.error) return <Failure title="The proposed pairs could not be loaded" message={proposals.error.message} />;
  const data: PairProposalsView | undefined = proposals.data;
  if (!data) return null;
  const offered = offeredProposals(data.proposals, dismissed);
  if (offered.length === 0 && data.choices.length === 0 && data.unmatched.length === 0 && !notice) return null;

  const send = (list: readonly PairProposalView[]) => {
    setNotice(null);
    setError(null);
    accept.mutate(list.map(proposalPairRequest), { onSuccess: (r) => setNotice(acceptedText(r)), onError: (e) => setError(messageOf(e)) });
  };

  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Proposed pairs">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={2} size="h4">
              Proposed pairs
            </Title>
            <Text size="sm" c="dimmed" maw={820}>
              Read from the group's charts: each account names the company the other belongs to (or says it is with the group), and both are of
              the same nature, a balance against a balance, income against an expense. Accept those that mirror each other.
            </Text>
          </Stack>
          {offered.length > 0 ? (
            <Button leftSection={<IconChecks size={16} aria-hidden />} loading={accept.isPending} onClick={() => send(offered)}>
              Accept all ({offered.length})
            </Button>
          ) : null}
        </Group>
        {notice ? (
          <Alert color="green" data-testid="proposals-accepted" withCloseButton onClose={() => setNotice(null)}>
            {notice}
          </Alert>
        ) : null}
        <Failure title="Nothing was accepted" message={error} />

        {offered.length > 0 ? (
          <Table.ScrollContainer minWidth={900}>
            <HeadedTable withTableBorder verticalSpacing={6} fz="sm" aria-label="Proposed pairs" columns={COLUMNS}>
              {offered.map((p) => (
                <ProposalRow key={p.key} p={p} busy={accept.isPending} onAccept={() => send([p])} onDismiss={() => dismiss(p.key)} />
              ))}
            </HeadedTable>
          </Table.ScrollContainer>
        ) : data.proposals.length > 0 ? (
          <Text size="sm" c="dimmed">
            Every proposed pair was dismissed on this browser.
          </Text>
        ) : null}

        {data.choices.map((c) => (
          <Stack key={`${c.side.realmId}:${c.side.accountId}`} gap={4} data-testid="proposal-choice">
            <Text size="sm" fw={600}>
              Needs your choice
            </Text>
            <Text size="sm">{c.reason}</Text>
            <Table.ScrollContainer minWidth={900}>
              <HeadedTable withTableBorder verticalSpacing={6} fz="sm" aria-label={`Choices for ${c.side.account}`} columns={COLUMNS}>
                {c.candidates.map((p) => (
                  <ProposalRow key={p.key} p={p} busy={accept.isPending} onAccept={() => send([p])} />
                ))}
              </HeadedTable>
            </Table.ScrollContainer>
          </Stack>
        ))}

        {data.unmatched.length > 0 ? (
          <Stack gap={4} data-testid="proposals-unmatched">
            <Text size="sm" fw={600}>
              Not proposed
            </Text>
            {data.unmatched.map((u) => (
              <Text key={`${u.side.realmId}:${u.side.accountId}`} size="sm">
                <Text span fw={500}>
                  {u.side.companyName} · {u.side.account}
                </Text>
                : {u.reason}
              </Text>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
