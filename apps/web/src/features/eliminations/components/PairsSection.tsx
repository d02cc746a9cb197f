import { Badge, Button, Group, Modal, Paper, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import type { Company, EliminationPair } from "@groupledger/contract";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { messageOf } from "../../../lib/forms.ts";
import { eliminationsApi, useEliminationMutation, usePairs } from "../api.ts";
import { DIFFERENCE_TO, PAIR_KINDS, sideNameText } from "../model.ts";
import { PairForm } from "./PairForm.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { TipAction } from "../../screens/components/TipAction.tsx";
import { Failure } from "../../screens/components/Failure.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

function SideCell({ role, side }: { role: string; side: EliminationPair["left"] }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {role} · {side.companyName} ({side.currency})
      </Text>
      <Text size="sm">{side.accountName}</Text>
      {side.name ? (
        <Text size="xs" c="dimmed">
          only with {sideNameText(side)}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The account's intercompany pairs: what each eliminates and where its difference goes, with add and remove. */
export function PairsSection({ parent, subsidiaries }: { parent: Company; subsidiaries: Company[] }) {
  const pairs = usePairs();
  const [adding, setAdding] = useState(0);
  const [removing, setRemoving] = useState<EliminationPair | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const remove = useEliminationMutation(eliminationsApi.remove);
  const companies = [parent, ...subsidiaries];

  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Intercompany pairs">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={2} size="h4">
              Intercompany pairs
            </Title>
            <Text size="sm" c="dimmed" maw={820}>
              Each pair is an account in one group company that mirrors an account in another. Both sides are translated into{" "}
              {parent.homeCurrency} and reversed on consolidation; whatever does not cancel is shown below and booked where the pair says.
            </Text>
          </Stack>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding((n) => n + 1)}>
            Add pair
          </Button>
        </Group>

        {pairs.isPending ? (
          <Skeleton height={80} radius="md" />
        ) : pairs.error ? (
          <Failure title="The pairs could not be loaded" message={pairs.error.message} />
        ) : pairs.data.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="no-pairs">
            No pairs yet. Add one for each intercompany balance (a loan, a current account) and each intercompany flow (management fees,
            sales between companies).
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <HeadedTable
              withTableBorder
              verticalSpacing={6}
              fz="sm"
              aria-label="Intercompany pairs"
              columns={["Pair", "Receivable or revenue side", "Payable or expense side", "Difference to", { label: <VisuallyHidden>Actions</VisuallyHidden>, w: 60 }]}
            >
              {pairs.data.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <Stack gap={2}>
                      <Text size="sm" fw={600}>
                        {p.name}
                      </Text>
                      <Badge size="xs" variant="light" color={p.kind === "receivablePayable" ? "blue" : "grape"} w="fit-content">
                        {PAIR_KINDS[p.kind].label}
                      </Badge>
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <SideCell role={PAIR_KINDS[p.kind].left} side={p.left} />
                  </Table.Td>
                  <Table.Td>
                    <SideCell role={PAIR_KINDS[p.kind].right} side={p.right} />
                  </Table.Td>
                  <Table.Td>{DIFFERENCE_TO[p.differenceTo].label}</Table.Td>
                  <Table.Td>
                    <TipAction
                      tip={`Remove ${p.name}`}
                      label={`Remove ${p.name}`}
                      color="red"
                      onClick={() => {
                        setRemoveError(null);
                        setRemoving(p);
                      }}
                    >
                      <IconTrash size={16} aria-hidden />
                    </TipAction>
                  </Table.Td>
                </Table.Tr>
              ))}
            </HeadedTable>
          </Table.ScrollContainer>
        )}
      </Stack>

      {adding > 0 ? (
        <PairForm
          key={adding}
          opened
          companies={companies}
          defaults={{ leftRealmId: parent.realmId, rightRealmId: subsidiaries[0]?.realmId ?? null }}
          onClose={() => setAdding(0)}
        />
      ) : null}

      <Modal opened={removing !== null} onClose={() => setRemoving(null)} centered title={<Text fw={700}>Remove this pair?</Text>}>
        <Stack gap="sm">
          <Text size="sm">
            “{removing?.name}” will no longer be eliminated in the periods you look at or post from now on. Elimination entries already posted
            for it stay in QuickBooks; reverse them there if they should go too.
          </Text>
          <Failure title="The pair was not removed" message={removeError} />
          <DialogActions onCancel={() => setRemoving(null)} busy={remove.isPending} autoFocus>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                removing &&
                remove.mutate(removing.id, {
                  onSuccess: () => setRemoving(null),
                  onError: (e) => setRemoveError(messageOf(e)),
                })
              }
            >
              Remove pair
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
    </Paper>
  );
}
