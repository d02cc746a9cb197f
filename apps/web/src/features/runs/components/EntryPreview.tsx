import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import type { RunPreview } from "@groupledger/contract";
import { endSentence, formatAmount } from "@groupledger/domain";
import { IconChevronDown, IconChevronRight, IconCircleCheck, IconExternalLink } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { ProblemList } from "../../obal/components/TrialBalanceView.tsx";
import { creditText, longMonth } from "../model.ts";
import { CtaExplanation } from "./CtaExplanation.tsx";

/**
 * The journal entry a subsidiary-period would post into the parent: one line per parent account
 * (labelled by its number in the parent's chart, when it has one),
 * debits and credits in the parent's currency, the CTA line highlighted and explained, and what
 * blocks it with where to fix it.
 */
export function EntryPreview({ preview, numbers, actions }: { preview: RunPreview; numbers: ReadonlyMap<string, string>; actions?: ReactNode }) {
  const [explain, setExplain] = useState(false);
  const money = (n: number) => (n === 0 ? "" : formatAmount(n, preview.parentCurrency));
  const entry = preview.entry;
  const balanced = entry !== null && entry.totalDebit === entry.totalCredit;
  const { period } = preview;
  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Journal entry preview">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2}>
            <Title order={2} size="h4">
              {preview.companyName}: {period.kind === "month" ? longMonth(period.to) : `${period.label} (${longMonth(period.from)} – ${longMonth(period.to)})`}
            </Title>
            <Text size="sm" c="dimmed">
              Entry {preview.docNumber} dated {preview.txnDate}, in {preview.parentCurrency}
              {preview.currency !== preview.parentCurrency ? `, translated from ${preview.currency}` : ", the parent's currency (not translated)"}.
              {preview.netIncome
                ? ` Net income ${formatAmount(preview.netIncome.local, preview.currency)} (${formatAmount(preview.netIncome.translated, preview.parentCurrency)}), credit positive.`
                : ""}
            </Text>
          </Stack>
          {entry ? (
            balanced ? (
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

        {actions}
        <ProblemList problems={preview.problems} title="Posting is blocked until these are fixed" />

        {entry && entry.lines.length > 0 ? (
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover withTableBorder fz="sm" verticalSpacing={4} aria-label="Journal entry lines">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Parent account</Table.Th>
                  <Table.Th ta="right" w={200}>
                    Debit ({preview.parentCurrency})
                  </Table.Th>
                  <Table.Th ta="right" w={200}>
                    Credit ({preview.parentCurrency})
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entry.lines.map((l) => {
                  const cta = preview.cta?.account === l.account;
                  return (
                    <Table.Tr key={l.account} data-testid={cta ? "cta-line" : undefined} bg={cta ? "var(--mantine-color-yellow-1)" : undefined} fw={cta ? 600 : undefined}>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          {numbers.get(l.account) ? (
                            <Text span c="dimmed" size="xs">
                              {numbers.get(l.account)}
                            </Text>
                          ) : null}
                          <Text span size="sm" fw={cta ? 600 : undefined}>
                            {l.name}
                          </Text>
                          {cta ? (
                            <>
                              <Badge size="xs" color="yellow" variant="filled">
                                CTA
                              </Badge>
                              <Button
                                variant="subtle"
                                size="compact-xs"
                                onClick={() => setExplain((e) => !e)}
                                aria-expanded={explain}
                                leftSection={explain ? <IconChevronDown size={14} aria-hidden /> : <IconChevronRight size={14} aria-hidden />}
                              >
                                Explain CTA
                              </Button>
                            </>
                          ) : null}
                        </Group>
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {money(l.debit)}
                      </Table.Td>
                      <Table.Td ta="right" ff="monospace">
                        {money(l.credit)}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr fw={650} data-testid="entry-totals">
                  <Table.Td>Total</Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatAmount(entry.totalDebit, preview.parentCurrency)}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatAmount(entry.totalCredit, preview.parentCurrency)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        ) : entry ? (
          <Text size="sm" c="dimmed">
            {preview.companyName} has no activity in {period.label}: there is nothing to post.
          </Text>
        ) : null}

        {preview.cta && entry && !entry.lines.some((l) => l.account === preview.cta!.account) ? (
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              No CTA line: the translation adjustment did not change in this period ({creditText(preview.cta.change, preview.parentCurrency)}).
            </Text>
            <Button variant="subtle" size="compact-sm" onClick={() => setExplain((e) => !e)} aria-expanded={explain}>
              Explain CTA
            </Button>
          </Group>
        ) : null}
        {explain && preview.cta ? <CtaExplanation preview={preview} cta={preview.cta} /> : null}
        {entry ? (
          <Text size="xs" c="dimmed">
            {`Memo: ${endSentence(entry.memo)} ${endSentence(`Every line carries the class of ${preview.companyName}`)}`}
          </Text>
        ) : null}
        {preview.posted?.journalEntryUrl ? (
          <Anchor href={preview.posted.journalEntryUrl} target="_blank" rel="noopener noreferrer" size="sm">
            Open the posted entry {preview.posted.docNumber} in QuickBooks{" "}
            <IconExternalLink size={12} style={{ verticalAlign: "-1px" }} aria-label="(opens in a new tab)" />
          </Anchor>
        ) : null}
      </Stack>
    </Paper>
  );
}
