import { Anchor, Badge, Button, Group, Text } from "@mantine/core";
import type { RunPreview } from "@groupledger/contract";
import { endSentence, formatAmount } from "@groupledger/domain";
import { IconChevronDown, IconChevronRight } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { BalancedBadge, EntryLinesTable } from "../../entries/components/EntryLines.tsx";
import { NewTab } from "../../entries/components/QuickBooksLink.tsx";
import { ProblemList } from "../../obal/components/TrialBalanceView.tsx";
import { Section } from "../../screens/components/Section.tsx";
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
  const entry = preview.entry;
  const balanced = entry !== null && entry.totalDebit === entry.totalCredit;
  const { period } = preview;
  return (
    <Section
      label="Journal entry preview"
      title={`${preview.companyName}: ${period.kind === "month" ? longMonth(period.to) : `${period.label} (${longMonth(period.from)} – ${longMonth(period.to)})`}`}
      description={
        <>
          Entry {preview.docNumber} dated {preview.txnDate}, in {preview.parentCurrency}
          {preview.currency !== preview.parentCurrency ? `, translated from ${preview.currency}` : ", the parent's currency (not translated)"}.
          {preview.netIncome
            ? ` Net income ${formatAmount(preview.netIncome.local, preview.currency)} (${formatAmount(preview.netIncome.translated, preview.parentCurrency)}), credit positive.`
            : ""}
        </>
      }
      aside={entry ? <BalancedBadge balanced={balanced} /> : null}
      gap="md"
    >
      {actions}
      <ProblemList problems={preview.problems} title="Posting is blocked until these are fixed" />

      {entry && entry.lines.length > 0 ? (
        <EntryLinesTable
          label="Journal entry lines"
          lines={entry.lines}
          currency={preview.parentCurrency}
          totals={{ debit: entry.totalDebit, credit: entry.totalCredit }}
          numbers={numbers}
          highlightOnHover
          lineLook={(l) => {
            const cta = preview.cta?.account === l.account;
            return {
              highlight: cta,
              testId: cta ? "cta-line" : undefined,
              account: (
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
              ),
            };
          }}
        />
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
          Open the posted entry {preview.posted.docNumber} in QuickBooks <NewTab />
        </Anchor>
      ) : null}
    </Section>
  );
}
