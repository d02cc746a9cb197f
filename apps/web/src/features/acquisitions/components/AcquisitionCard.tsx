import { Alert, Badge, Button, Group, List, Modal, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import type { AcquisitionBody, AcquisitionSubsidiary } from "@groupledger/contract";
import { IconCircleCheck, IconSparkles } from "@tabler/icons-react";
import { useState } from "react";
import { formatAmount, lastDayOfMonth, monthOf } from "@groupledger/domain";
import { formatDate } from "../../companies/format.ts";
import { useRemoveAcquisition } from "../api.ts";
import { accountLabel, currentHolding, FAIR_VALUE_KINDS, formOf, NCI_MEASUREMENTS, type AccountOption } from "../model.ts";
import { AcquisitionForm } from "./AcquisitionForm.tsx";
import { FiguresTable } from "./FiguresTable.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { Notice } from "../../screens/components/Notice.tsx";
import { DialogActions } from "../../screens/components/DialogActions.tsx";

interface Props {
  sub: AcquisitionSubsidiary;
  parentName: string;
  parentCurrency: string;
  /** The company's recorded ownership, for a form GroupLedger could not propose. */
  ownershipPercent: string;
  assetAccounts: readonly AccountOption[];
  expenseAccounts: readonly AccountOption[];
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** The share held just before the change dated `effectiveOn`. */
const previousShare = (saved: AcquisitionBody, effectiveOn: string) => saved.ownershipChanges.filter((c) => c.effectiveOn < effectiveOn).at(-1)?.ownershipPercent ?? saved.ownershipPercent;

/** The acquisition as saved, read-only. */
function SavedSummary({ sub, saved, parentCurrency, assetAccounts, expenseAccounts }: { sub: AcquisitionSubsidiary; saved: AcquisitionBody; parentCurrency: string; assetAccounts: readonly AccountOption[]; expenseAccounts: readonly AccountOption[] }) {
  const nameOf = (accounts: readonly AccountOption[], id: string) => {
    const a = accounts.find((x) => x.accountId === id);
    return a ? accountLabel(a) : `Account ${id}`;
  };
  const wholly = Number(saved.ownershipPercent) === 100;
  return (
    <Stack gap="md" data-testid="saved-summary">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <Fact label="Acquisition date">
          {formatDate(saved.acquiredOn)}
          <Text size="xs" c="dimmed">
            Effective at the month-end, {formatDate(lastDayOfMonth(monthOf(saved.acquiredOn)))}
          </Text>
        </Fact>
        <Fact label="% acquired">
          {saved.ownershipPercent}%
          {saved.ownershipChanges.length > 0 ? (
            <Text size="xs" c="dimmed">
              {currentHolding(saved)}% held after {saved.ownershipChanges.length === 1 ? "one change" : `${saved.ownershipChanges.length} changes`}
            </Text>
          ) : null}
        </Fact>
        <Fact label="Consideration paid">{formatAmount(saved.consideration, parentCurrency)}</Fact>
        <Fact label="Investment account">{nameOf(assetAccounts, saved.investmentAccountId)}</Fact>
        {wholly ? null : (
          <Fact label="NCI measured at">
            {NCI_MEASUREMENTS.find((m) => m.value === saved.nciMeasurement)?.label}
            {saved.nciFairValue !== null ? ` (${formatAmount(saved.nciFairValue, parentCurrency)})` : ""}
          </Fact>
        )}
      </SimpleGrid>
      <HeadedTable
        verticalSpacing={4}
        aria-label={`Equity of ${sub.companyName} at acquisition`}
        maw={720}
        columns={["Equity at acquisition", { label: sub.currency, ta: "right" }]}
      >
        {saved.equityAtAcquisition.map((l) => (
          <Table.Tr key={l.accountId}>
            <Table.Td>{accountLabel(l)}</Table.Td>
            {/* Credit positive, as the user entered it. */}
            <Table.Td ta="right" style={{ fontVariantNumeric: "tabular-nums" }}>
              {formatAmount(-l.localAmount, sub.currency)}
            </Table.Td>
          </Table.Tr>
        ))}
      </HeadedTable>
      {saved.ownershipChanges.length > 0 ? (
        <HeadedTable
          verticalSpacing={4}
          aria-label={`Changes in ownership of ${sub.companyName}`}
          maw={900}
          columns={["Change in ownership", { label: "% held after", ta: "right" }, { label: "Paid or received", ta: "right" }, "Booked on"]}
        >
          {saved.ownershipChanges.map((c) => (
            <Table.Tr key={c.effectiveOn}>
              <Table.Td>
                {formatDate(c.effectiveOn)}
                <Text size="xs" c="dimmed">
                  {Number(c.ownershipPercent) > Number(previousShare(saved, c.effectiveOn)) ? "Bought" : "Sold"} shares: {previousShare(saved, c.effectiveOn)}% to {c.ownershipPercent}%, effective{" "}
                  {formatDate(lastDayOfMonth(monthOf(c.effectiveOn)))}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{c.ownershipPercent}%</Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: "tabular-nums" }}>
                {formatAmount(c.consideration, parentCurrency)}
              </Table.Td>
              <Table.Td>{nameOf(assetAccounts, c.accountId ?? saved.investmentAccountId)}</Table.Td>
            </Table.Tr>
          ))}
        </HeadedTable>
      ) : null}
      {saved.fairValueAdjustments.length > 0 ? (
        <HeadedTable
          verticalSpacing={4}
          aria-label={`Fair-value adjustments of ${sub.companyName}`}
          columns={["Fair-value adjustment", "Kind", "Asset account", { label: sub.currency, ta: "right" }, { label: "Useful life", ta: "right" }, "Expense account"]}
        >
          {saved.fairValueAdjustments.map((f, i) => (
            <Table.Tr key={`${i}-${f.description}`}>
              <Table.Td>{f.description}</Table.Td>
              <Table.Td>{FAIR_VALUE_KINDS.find((k) => k.value === f.kind)?.label}</Table.Td>
              <Table.Td>{nameOf(assetAccounts, f.assetAccountId)}</Table.Td>
              <Table.Td ta="right" style={{ fontVariantNumeric: "tabular-nums" }}>
                {formatAmount(f.amount, sub.currency)}
              </Table.Td>
              <Table.Td ta="right">{f.usefulLifeMonths} months</Table.Td>
              <Table.Td>{nameOf(expenseAccounts, f.expenseAccountId)}</Table.Td>
            </Table.Tr>
          ))}
        </HeadedTable>
      ) : null}
    </Stack>
  );
}

/** One subsidiary: its acquisition as proposed (to confirm or edit) or as saved (to edit or remove). */
export function AcquisitionCard({ sub, parentName, parentCurrency, ownershipPercent, assetAccounts, expenseAccounts }: Props) {
  const [editing, setEditing] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = useRemoveAcquisition();
  const saved = sub.saved;
  const showForm = saved === null || editing;
  const proposed = saved === null && sub.proposal !== null;

  const status =
    saved !== null ? (
      <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={12} aria-hidden />}>
        Saved
      </Badge>
    ) : proposed ? (
      <Badge color="blue" variant="light" leftSection={<IconSparkles size={12} aria-hidden />}>
        Proposed from the books
      </Badge>
    ) : (
      <Badge color="orange" variant="light">
        Not recorded
      </Badge>
    );

  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label={`${sub.companyName} acquisition`}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Group gap="sm">
              <Title order={2} size="h4">
                {sub.companyName}
              </Title>
              {status}
            </Group>
            <Text size="sm" c="dimmed">
              Keeps its books in {sub.currency}
              {sub.translated ? `; translated into ${parentCurrency}` : ""}.
            </Text>
          </Stack>
          {saved !== null && !editing ? (
            <Group gap="sm" wrap="nowrap">
              <Button
                variant="default"
                onClick={() => {
                  setNotice(null);
                  setEditing(true);
                }}
              >
                Edit
              </Button>
              <Button variant="light" color="red" onClick={() => setConfirmRemove(true)}>
                Remove
              </Button>
            </Group>
          ) : null}
        </Group>

        <Notice message={notice} onDismiss={() => setNotice(null)} />

        {sub.problems.length > 0 ? (
          <Alert color="yellow" title="Needs your attention">
            <List size="sm" spacing={4}>
              {sub.problems.map((p) => (
                <List.Item key={p}>{p}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}

        {proposed && sub.reasons.length > 0 && showForm ? (
          <Stack gap={4} component="section" aria-label="How this was proposed">
            <Text size="sm" fw={600}>
              How GroupLedger read it from the books
            </Text>
            <List size="sm" spacing={4} c="dimmed">
              {sub.reasons.map((r) => (
                <List.Item key={r}>{r}</List.Item>
              ))}
            </List>
          </Stack>
        ) : null}

        {showForm ? (
          <AcquisitionForm
            // A new basis (saved, removed, edit started) starts a new form; a refetch of the same one keeps what is typed.
            key={saved === null ? "unsaved" : "editing"}
            sub={sub}
            parentName={parentName}
            parentCurrency={parentCurrency}
            assetAccounts={assetAccounts}
            expenseAccounts={expenseAccounts}
            initial={formOf(saved ?? sub.proposal, sub.equityAccounts, sub.currency, parentCurrency, ownershipPercent)}
            figures={saved !== null ? sub.savedFigures : sub.proposalFigures}
            figuresCaption={saved !== null ? "Figures as saved" : "Figures of the proposal"}
            figuresStaleNote={
              saved !== null
                ? "These are the figures of the saved acquisition; save your changes to see them recomputed."
                : "These are the figures of the proposal; confirm the acquisition to see them with your changes."
            }
            submitLabel={saved !== null ? "Save changes" : "Confirm acquisition"}
            onSaved={(fresh) => {
              setEditing(false);
              setNotice(`Saved. ${fresh.companyName}'s investment is eliminated from the acquisition month on.`);
            }}
            {...(saved !== null ? { onCancel: () => setEditing(false) } : {})}
          />
        ) : saved !== null ? (
          <>
            <SavedSummary sub={sub} saved={saved} parentCurrency={parentCurrency} assetAccounts={assetAccounts} expenseAccounts={expenseAccounts} />
            {sub.savedFigures ? <FiguresTable companyName={sub.companyName} figures={sub.savedFigures} currency={sub.currency} parentCurrency={parentCurrency} caption="Figures" /> : null}
          </>
        ) : null}
      </Stack>

      <Modal
        opened={confirmRemove}
        onClose={() => {
          if (remove.isPending) return;
          setConfirmRemove(false);
          remove.reset();
        }}
        title={`Remove ${sub.companyName}'s acquisition?`}
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            Consolidations will stop eliminating {parentName}&apos;s investment in {sub.companyName} against its equity at acquisition, so no
            goodwill or NCI at acquisition is computed until an acquisition is confirmed again. Nothing changes in QuickBooks.
          </Text>
          {remove.error ? (
            <Alert color="red" title="The acquisition was not removed">
              {remove.error.message}
            </Alert>
          ) : null}
          <DialogActions onCancel={() => setConfirmRemove(false)} busy={remove.isPending} cancelLabel="Keep it">
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(sub.realmId, {
                  onSuccess: () => {
                    setConfirmRemove(false);
                    setEditing(false);
                    remove.reset();
                    setNotice(`${sub.companyName}'s acquisition was removed.`);
                  },
                })
              }
            >
              Remove acquisition
            </Button>
          </DialogActions>
        </Stack>
      </Modal>
    </Paper>
  );
}
