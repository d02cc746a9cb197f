import { Alert, Anchor, List, Paper, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import type { AdjustmentsView } from "@groupledger/contract";
import { Link } from "react-router";
import { formatAmount } from "@groupledger/domain";
import { EliminationEntry } from "../../eliminations/components/EliminationEntry.tsx";
import { PeriodPicker } from "../../eliminations/components/PeriodPicker.tsx";
import { entryTotals } from "../../eliminations/model.ts";
import { ProblemList } from "../../obal/components/TrialBalanceView.tsx";
import { usePeriodChoice } from "../../eliminations/usePeriodChoice.ts";
import { usePostNotices } from "../../eliminations/usePostNotices.tsx";
import { ChangedEntry } from "../../entries/components/ChangedEntry.tsx";
import { useAdjustmentPostings, useAdjustmentsView, usePostAdjustments, useReplaceAdjustments } from "../api.ts";
import { NumberedName } from "../../entries/components/EntryLines.tsx";
import { AmountCell } from "../../screens/components/AmountCell.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

/** Why Post is not offered for this period, in words; null when it may be posted. */
export function adjustmentsBlockReason(view: AdjustmentsView): string | null {
  const p = view.posted;
  if (p) return `Already posted: ${p.docNumber} on ${p.postedAt.slice(0, 10)}${p.postedBy ? ` by ${p.postedBy}` : ""}.`;
  if (!view.ok) return "Fix the problems listed above first; nothing can be posted while they stand.";
  if (view.adjustments.length === 0) return "Confirm the subsidiaries' acquisitions on Setup → Acquisitions first: there is nothing to adjust.";
  if (!view.entry) return `Nothing changes in ${view.period.label}: there is no group adjustment entry to post.`;
  if (!entryTotals(view.entry.lines).balanced) return "The entry does not balance; it cannot be posted.";
  return null;
}

/**
 * Group adjustments (issue 16): the consolidation's own entries for a period — each subsidiary's
 * investment against its equity at acquisition, goodwill, the NCI at acquisition — with every line
 * explained, and the one entry that brings them into the parent's QuickBooks, posted once.
 */
export function GroupAdjustments({
  parent,
  openingMonth,
  numbers,
  adminOnly,
}: {
  parent: { fiscalYearStartMonth: number };
  openingMonth: string;
  numbers: ReadonlyMap<string, string>;
  adminOnly: string | null;
}) {
  const { outcome, setOutcome, clear, callbacks, notice } = usePostNotices("group adjustments");
  const postings = useAdjustmentPostings();
  const { period, shown, postChosen, picker } = usePeriodChoice({ openingMonth, fiscalYearStartMonth: parent.fiscalYearStartMonth, postings, onChange: () => clear() });
  const view = useAdjustmentsView(period);
  const post = usePostAdjustments();
  const replace = useReplaceAdjustments();
  const onPost = () => postChosen((p) => post.mutate(p, callbacks));
  const showing = shown(view.data);
  const money = (n: number) => (n === 0 ? "" : formatAmount(Math.abs(n), showing?.parentCurrency ?? "USD"));

  return (
    <Stack gap="lg" component="section" aria-label="Group adjustments">
      <Stack gap={2}>
        <Title order={2} size="h3">
          Group adjustments
        </Title>
        <Text size="sm" c="dimmed" maw={900}>
          What no company books: each subsidiary&apos;s investment eliminated against its equity at acquisition, the goodwill (or bargain
          purchase gain) and the non-controlling interests at acquisition, as recorded on{" "}
          <Anchor component={Link} to="/setup/acquisitions" size="sm">
            Acquisitions
          </Anchor>
          . Posted under the class &quot;Group adjustments&quot;, apart from the intercompany eliminations.
        </Text>
      </Stack>
      <PeriodPicker label="Period of the group adjustments" {...picker} />
      {view.error ? (
        <Failure title="The group adjustments could not be computed" message={view.error.message} />
      ) : period && !showing ? (
        <Skeleton height={220} radius="md" />
      ) : showing ? (
        <>
          <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Adjustments of the period">
            <Stack gap="md">
              <ProblemList problems={showing.problems} title="These stop the group adjustments from being computed" />
              {showing.warnings.length ? (
                <Alert color="yellow" title="Read with the adjustments" data-testid="adjustment-warnings">
                  <List size="sm" spacing={4}>
                    {showing.warnings.map((w) => (
                      <List.Item key={w}>{w}</List.Item>
                    ))}
                  </List>
                </Alert>
              ) : null}
              {showing.adjustments.length === 0 && showing.problems.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No adjustment for this period.
                </Text>
              ) : null}
              {showing.adjustments.map((a) => (
                <Stack gap={6} key={a.id}>
                  <Text fw={600}>{a.description}</Text>
                  <Table.ScrollContainer minWidth={720}>
                    <HeadedTable
                      withTableBorder
                      fz="sm"
                      verticalSpacing={4}
                      aria-label={a.description}
                      columns={["Parent account", { label: `Debit (${showing.parentCurrency})`, ta: "right", w: 150 }, { label: `Credit (${showing.parentCurrency})`, ta: "right", w: 150 }, "Why"]}
                    >
                      {a.lines.map((l, i) => (
                        <Table.Tr key={`${l.account}-${i}`}>
                          <Table.Td>
                            <NumberedName number={numbers.get(l.account)} name={l.name} />
                          </Table.Td>
                          <AmountCell>{l.amount > 0 ? money(l.amount) : ""}</AmountCell>
                          <AmountCell>{l.amount < 0 ? money(l.amount) : ""}</AmountCell>
                          <Table.Td>
                            <Text size="xs">{l.explanation}</Text>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </HeadedTable>
                  </Table.ScrollContainer>
                </Stack>
              ))}
            </Stack>
          </Paper>
          <ChangedEntry
            posted={showing.posted}
            title="The inputs changed after this period was posted"
            text={`Entry ${showing.posted?.docNumber ?? ""} no longer matches what the books, the acquisitions and the intra-group trade give now. Review the changes and replace it: the old entry is deleted in QuickBooks and the period posted again.`}
            lead={`What the books, the acquisitions or the intra-group trade give for ${showing.period.label} changed after entry ${showing.posted?.docNumber ?? ""} was posted. Replacing it deletes that entry from the parent's QuickBooks and posts the period's group adjustments again as they are now.`}
            currency={showing.parentCurrency}
            numbers={numbers}
            adminOnly={adminOnly}
            testId="adjustments-changed"
            replace={replace}
            onReplaced={setOutcome}
          />
          <EliminationEntry
            view={showing}
            title="Group adjustment entry"
            about={`${showing.entry ? `Entry ${showing.entry.docNumber} dated ${showing.entry.txnDate}, in ${showing.parentCurrency}, every line under the class "Group adjustments". ` : ""}Balances by what moved since the last posted group adjustment entry (all of it the first time); profit or loss for the period.`}
            blocked={adjustmentsBlockReason(showing)}
            adminOnly={adminOnly}
            posting={post.isPending}
            onPost={onPost}
            numbers={numbers}
            showPostedLink={outcome === null}
            notice={notice}
          />
        </>
      ) : null}
    </Stack>
  );
}
