import { Stack, Table, Text } from "@mantine/core";
import type { AcquisitionFigures } from "@groupledger/contract";
import { figureLines } from "../model.ts";

interface Props {
  companyName: string;
  figures: AcquisitionFigures;
  currency: string;
  parentCurrency: string;
  /** Where the figures come from: "As saved", "As proposed from the books". */
  caption: string;
  /** Why they may not match the form (it has unsaved edits). */
  stale?: string | null;
}

/** What the acquisition gives, computed by the server exactly as the consolidation computes it. */
export function FiguresTable({ companyName, figures, currency, parentCurrency, caption, stale = null }: Props) {
  const lines = figureLines(figures, currency, parentCurrency);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {caption}
      </Text>
      {stale ? (
        <Text size="xs" c="orange.9" data-testid="figures-stale">
          {stale}
        </Text>
      ) : null}
      <Table verticalSpacing={6} aria-label={`Figures of ${companyName}'s acquisition`} maw={720}>
        <Table.Tbody>
          {lines.map((l) => (
            <Table.Tr key={l.label} data-testid="figure">
              <Table.Th w="35%" scope="row" fw={l.result ? 700 : 500}>
                {l.label}
              </Table.Th>
              <Table.Td ta="right" w="25%" style={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }} fw={l.result ? 700 : undefined}>
                {l.value}
              </Table.Td>
              <Table.Td>
                {l.note ? (
                  <Text size="xs" c={l.value === "Missing" ? "red.8" : "dimmed"}>
                    {l.note}
                  </Text>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        In {parentCurrency}, credits positive.
      </Text>
    </Stack>
  );
}
