import { Group, List, Paper, Stack, Table, Text } from "@mantine/core";
import type { RunPreview } from "@groupledger/contract";
import { IconCircleCheck } from "@tabler/icons-react";
import { useEffect, useRef } from "react";
import { formatAmount } from "@groupledger/domain";
import { CTA_PART_LABELS, CTA_PARTS, creditText, ctaAddsUp, ctaLineAmount, shortMonth } from "../model.ts";
import { AmountCell } from "../../screens/components/AmountCell.tsx";

type Cta = NonNullable<RunPreview["cta"]>;
const nowrap = { whiteSpace: "nowrap" } as const;

/**
 * Where the CTA line comes from, month by month: the opening net assets retranslated from the
 * previous closing rate to this one, the month's net income from its average rate to the closing
 * rate, dividends and other equity movements, and the rounding of the translated lines; they add
 * up to the month's change, and the months to the line in the entry.
 */
export function CtaExplanation({ preview, cta }: { preview: RunPreview; cta: Cta }) {
  const ref = useRef<HTMLDivElement>(null);
  // Opened from the CTA line, which may be far up a long entry: bring the explanation into view.
  // A block body: recent Chromium returns a Promise from scrollIntoView, which React would take for a cleanup.
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
  }, []);
  const money = (n: number) => creditText(n, preview.parentCurrency);
  const line = ctaLineAmount(preview);
  const addsUp = ctaAddsUp(preview);
  return (
    <Paper ref={ref} withBorder radius="md" p="md" bg="yellow.0" component="section" aria-label="How the CTA is made up" data-testid="cta-explanation">
      <Stack gap="xs">
        <Text fw={650}>
          Cumulative translation adjustment: {money(cta.change)} on {cta.name}
        </Text>
        <Text size="sm" c="dimmed" maw={900}>
          Assets and liabilities are translated at each month&apos;s closing rate, income and expenses at its average rate, equity at historical
          rates; the CTA takes up the difference. Rates are {preview.parentCurrency} per {preview.currency}. &quot;Cr&quot; raises the CTA (a credit on
          its line), &quot;Dr&quot; lowers it.
        </Text>
        <Table.ScrollContainer minWidth={900}>
          <Table withTableBorder withColumnBorders fz="xs" verticalSpacing={4} aria-label="CTA by month">
            <Table.Thead>
              <Table.Tr>
                <Table.Th rowSpan={2}>Month</Table.Th>
                <Table.Th rowSpan={2} ta="right">
                  Opening net assets ({preview.currency})
                </Table.Th>
                <Table.Th rowSpan={2} ta="right">
                  Closing rate, previous → this
                </Table.Th>
                <Table.Th rowSpan={2} ta="right">
                  Average rate
                </Table.Th>
                <Table.Th colSpan={CTA_PARTS.length + 1} ta="center">
                  Parts of the change ({preview.parentCurrency})
                </Table.Th>
              </Table.Tr>
              <Table.Tr>
                {CTA_PARTS.map((k) => (
                  <Table.Th key={k} ta="right">
                    {CTA_PART_LABELS[k].short}
                  </Table.Th>
                ))}
                <Table.Th ta="right">Change</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {cta.months.map((m) => (
                <Table.Tr key={m.month} data-testid={`cta-month-${m.month}`}>
                  <Table.Td style={nowrap}>{shortMonth(m.month)}</Table.Td>
                  <AmountCell style={nowrap}>{formatAmount(m.openingNetAssetsLocal, preview.currency)}</AmountCell>
                  <AmountCell style={nowrap}>{m.previousClosingRate} → {m.closingRate}</AmountCell>
                  <AmountCell>{m.averageRate}</AmountCell>
                  {CTA_PARTS.map((k) => (
                    <Table.Td key={k} ta="right" ff="monospace" style={nowrap}>
                      {money(m[k])}
                    </Table.Td>
                  ))}
                  <AmountCell fw={600} style={nowrap}>{money(m.change)}</AmountCell>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr fw={650} data-testid="cta-total">
                <Table.Td colSpan={4}>Total for {preview.period.label}</Table.Td>
                {CTA_PARTS.map((k) => (
                  <Table.Td key={k} ta="right" ff="monospace" style={nowrap}>
                    {money(cta.total[k])}
                  </Table.Td>
                ))}
                <AmountCell style={nowrap}>{money(cta.total.change)}</AmountCell>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
        <List size="xs" c="dimmed" spacing={0} aria-label="How each part is worked out">
          {CTA_PARTS.map((k) => (
            <List.Item key={k}>
              <Text span size="xs" fw={600}>
                {CTA_PART_LABELS[k].short}
              </Text>
              : {CTA_PART_LABELS[k].formula}.
            </List.Item>
          ))}
        </List>
        {addsUp ? (
          <Group gap={6}>
            <IconCircleCheck size={16} color="var(--mantine-color-teal-7)" aria-hidden />
            <Text size="sm" c="teal.9" data-testid="cta-adds-up">
              Each month&apos;s parts add up to its change, and the months add up to {money(cta.change)}: the CTA line of the entry.
            </Text>
          </Group>
        ) : (
          <Text size="sm" c="red.8" fw={600} role="alert">
            The parts add up to {money(cta.total.change)}, not the {money(line)} on the CTA line. Do not post this entry; contact support.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
