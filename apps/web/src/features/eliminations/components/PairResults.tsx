import { Alert, Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck } from "@tabler/icons-react";
import { formatAmount } from "@groupledger/domain";
import {
  BOOK_PART_IN_CURRENCY_TEXT,
  BOOK_PART_TEXT,
  differenceAccountText,
  differenceTone,
  EXCHANGE_PART_TEXT,
  PAIR_KINDS,
  rateText,
  sideNameText,
  TRANSLATION_PART_TEXT,
  type PairView,
} from "../model.ts";
import { AmountCell } from "../../screens/components/AmountCell.tsx";

/**
 * One pair in a period: both sides in their own currency and in the parent's, the difference
 * that is left when both are reversed, and that difference split into what the translation rates
 * make and what the books themselves disagree on. An unmatched difference is always said; one
 * within the group's tolerance counts as matched and is still said, with where it is posted.
 */
export function PairResult({ view, parentCurrency, tolerance }: { view: PairView; parentCurrency: string; tolerance: number }) {
  const { pair } = view;
  const info = PAIR_KINDS[pair.kind];
  const tone = differenceTone(view);
  const money = (n: number) => formatAmount(n, parentCurrency);
  const postedTo = differenceAccountText(view);
  const rows = [
    { role: info.left, side: view.left, meta: pair.left },
    { role: info.right, side: view.right, meta: pair.right },
  ];
  return (
    <Paper withBorder radius="md" p="md" component="article" aria-label={pair.name} data-testid="pair-result">
      <Stack gap="sm">
        <Group justify="space-between" align="center">
          <Group gap="xs">
            <Title order={3} size="h5">
              {pair.name}
            </Title>
            <Badge size="sm" variant="light" color={pair.kind === "receivablePayable" ? "blue" : "grape"}>
              {info.label}
            </Badge>
          </Group>
          {tone === "matched" ? (
            <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={14} aria-hidden />} data-testid="pair-status">
              Matched
            </Badge>
          ) : tone === "withinTolerance" ? (
            <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={14} aria-hidden />} data-testid="pair-status">
              Matched within tolerance
            </Badge>
          ) : (
            <Badge color={tone === "book" ? "red" : "orange"} variant="filled" leftSection={<IconAlertTriangle size={14} aria-hidden />} data-testid="pair-status">
              Unmatched difference
            </Badge>
          )}
        </Group>

        <Table.ScrollContainer minWidth={720}>
          <Table withTableBorder fz="sm" verticalSpacing={4} aria-label={`${pair.name}: both sides`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Side</Table.Th>
                <Table.Th>Company and account</Table.Th>
                <Table.Th ta="right">Local amount</Table.Th>
                <Table.Th ta="right">Rate</Table.Th>
                <Table.Th ta="right">In {parentCurrency}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(({ role, side, meta }) => (
                <Table.Tr key={role}>
                  <Table.Td fw={500}>{role}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{meta.accountName}</Text>
                    <Text size="xs" c="dimmed">
                      {meta.companyName}
                      {meta.name ? ` · only with ${sideNameText(meta)}` : ""}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace">
                    {formatAmount(side.local, side.currency)}{" "}
                    <Text span size="xs" c="dimmed">
                      {side.currency}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right" ff={side.rate !== null && side.currency !== parentCurrency ? "monospace" : undefined}>
                    {rateText(pair.kind, side, parentCurrency)}
                  </Table.Td>
                  <AmountCell>{money(side.translated)}</AmountCell>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr fw={650} data-testid="pair-difference">
                <Table.Td colSpan={4}>Difference (to {postedTo})</Table.Td>
                <AmountCell>{money(view.difference)}</AmountCell>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>

        {view.inCurrency ? <InCurrency view={view} inCurrency={view.inCurrency} left={info.left} right={info.right} /> : null}

        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Part
            label={view.inCurrency ? "Exchange part" : "Translation part"}
            amount={money(view.translationPart)}
            text={view.inCurrency ? EXCHANGE_PART_TEXT : TRANSLATION_PART_TEXT}
            testId="translation-part"
          />
          <Part label="Book part" amount={money(view.bookPart)} text={view.inCurrency ? BOOK_PART_IN_CURRENCY_TEXT(view.inCurrency.currency) : BOOK_PART_TEXT} testId="book-part" />
        </SimpleGrid>

        {tone === "withinTolerance" ? (
          <Alert color="teal" variant="light" radius="md" title={`Matched within tolerance: ${money(view.difference)} difference, posted to ${postedTo}`} data-testid="within-tolerance">
            The two sides differ by no more than the group&apos;s tolerance of {money(tolerance)}, so the pair counts as matched. Both sides are still
            eliminated in full and the difference goes to {postedTo}, so the entry balances and the reports show the same.
          </Alert>
        ) : tone === "translation" ? (
          <Alert color="orange" variant="light" radius="md" title={`Unmatched difference of ${money(view.difference)}`} data-testid="unmatched">
            {view.inCurrency
              ? `The books agree in ${view.inCurrency.currency}: all of it is ${EXCHANGE_PART_TEXT}. It is booked to ${postedTo}.`
              : `The books agree at the same rates: all of it is ${TRANSLATION_PART_TEXT}. It is booked to ${postedTo}.`}
          </Alert>
        ) : tone === "book" ? (
          <Alert color="red" variant="light" radius="md" title={`Unmatched difference of ${money(view.difference)}`} data-testid="unmatched">
            {money(view.bookPart)} of it is in the books: at the same rates ({pair.kind === "receivablePayable" ? "the closing rate, for a balance" : "each month's average, for a flow"}) the two
            sides do not cancel. One company has recorded something the other has not (a transaction in transit, a missing charge, a wrong
            account), or converted it at rates other than those on FOREX Management. Check both companies&apos; entries; until they agree, the
            difference is booked to {postedTo}.
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** Both sides in the accounts' one currency: where the pair's book part comes from when one of them is a foreign-currency account. */
function InCurrency({ view, inCurrency, left, right }: { view: PairView; inCurrency: NonNullable<PairView["inCurrency"]>; left: string; right: string }) {
  const { currency } = inCurrency;
  const apart = inCurrency.left + inCurrency.right;
  return (
    <Text size="sm" data-testid="in-currency">
      Compared in {currency}, the currency both accounts hold: {view.pair.left.companyName}&apos;s {left.toLowerCase()} {formatAmount(inCurrency.left, currency)} and{" "}
      {view.pair.right.companyName}&apos;s {right.toLowerCase()} {formatAmount(inCurrency.right, currency)}, {apart === 0 ? "so they agree" : `${formatAmount(Math.abs(apart), currency)} apart`}.
    </Text>
  );
}

function Part({ label, amount, text, testId }: { label: string; amount: string; text: string; testId: string }) {
  return (
    <Stack gap={0} data-testid={testId}>
      <Group gap={6}>
        <Text size="sm" fw={600}>
          {label}:
        </Text>
        <Text size="sm" ff="monospace">
          {amount}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {text}
      </Text>
    </Stack>
  );
}
