import { Stack, Table, Text } from "@mantine/core";
import { formatAmount } from "@groupledger/domain";
import { entityRows, methodLabel, type Statements } from "../model.ts";

const mono = { fontVariantNumeric: "tabular-nums" } as const;

/** Each company of the group: how it was translated, what it earned in its own and the parent's currency, its CTA and NCI. */
export function EntitiesView({ statements, currency }: { statements: Statements; currency: string }) {
  const rows = entityRows(statements);
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
  const anyNci = rows.some((r) => r.nci !== null);
  const nciTotal = (f: (n: NonNullable<(typeof rows)[number]["nci"]>) => number) =>
    anyNci ? formatAmount(sum((r) => (r.nci ? f(r.nci) : 0)), currency) : <Text span c="dimmed">–</Text>;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" maw={820}>
        Net income is before eliminations, credit positive: in the company&apos;s own currency and translated into {currency} at each month&apos;s
        average rate. The CTA change is the period&apos;s translation difference on the company&apos;s net assets (credit positive). NCI is the
        outside shareholders&apos; share of a subsidiary that is not wholly owned.
      </Text>
      <Table.ScrollContainer minWidth={1080}>
        <Table fz="sm" verticalSpacing={6} highlightOnHover withTableBorder aria-label="Entities" style={{ background: "white" }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th miw={200}>Entity</Table.Th>
              <Table.Th>Currency</Table.Th>
              <Table.Th>Method</Table.Th>
              <Table.Th ta="right">Net income (local)</Table.Th>
              <Table.Th ta="right">Net income ({currency})</Table.Th>
              <Table.Th ta="right">CTA change ({currency})</Table.Th>
              <Table.Th ta="right">NCI share</Table.Th>
              <Table.Th ta="right">NCI in net income</Table.Th>
              <Table.Th ta="right">NCI closing</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id} data-entity={r.id}>
                <Table.Td fw={500}>{r.name}</Table.Td>
                <Table.Td>{r.currency}</Table.Td>
                <Table.Td c={r.method === "none" ? "dimmed" : undefined} style={{ whiteSpace: "nowrap" }}>
                  {methodLabel(r.method)}
                </Table.Td>
                <Table.Td ta="right" style={mono}>
                  {formatAmount(r.netIncomeLocal, r.currency)}
                </Table.Td>
                <Table.Td ta="right" style={mono}>
                  {formatAmount(r.netIncomeTranslated, currency)}
                </Table.Td>
                <Table.Td ta="right" style={mono}>
                  {r.method === "none" ? <Text span c="dimmed">–</Text> : formatAmount(r.ctaChange, currency)}
                </Table.Td>
                <Table.Td ta="right">{r.nci ? r.nci.share : <Text span c="dimmed">–</Text>}</Table.Td>
                <Table.Td ta="right" style={mono}>
                  {r.nci ? formatAmount(r.nci.netIncome, currency) : <Text span c="dimmed">–</Text>}
                </Table.Td>
                <Table.Td ta="right" style={mono}>
                  {r.nci ? formatAmount(r.nci.closing, currency) : <Text span c="dimmed">–</Text>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr style={{ borderTop: "2px solid var(--mantine-color-gray-4)" }}>
              <Table.Th colSpan={4}>Group, before eliminations</Table.Th>
              <Table.Th ta="right" style={mono}>
                {formatAmount(sum((r) => r.netIncomeTranslated), currency)}
              </Table.Th>
              <Table.Th ta="right" style={mono}>
                {formatAmount(sum((r) => r.ctaChange), currency)}
              </Table.Th>
              <Table.Th />
              <Table.Th ta="right" style={mono}>
                {nciTotal((n) => n.netIncome)}
              </Table.Th>
              <Table.Th ta="right" style={mono}>
                {nciTotal((n) => n.closing)}
              </Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
