import { Badge, Table, Text } from "@mantine/core";
import { formatAmount } from "@groupledger/domain";
import { IconCircleCheck } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { AmountCell } from "../../screens/components/AmountCell.tsx";

/** Whether debits equal credits, as a badge. */
export function BalancedBadge({ balanced }: { balanced: boolean }) {
  return balanced ? (
    <Badge color="teal" variant="light" leftSection={<IconCircleCheck size={14} aria-hidden />} data-testid="balanced">
      Balanced
    </Badge>
  ) : (
    <Badge color="red" variant="filled" data-testid="balanced">
      Does not balance
    </Badge>
  );
}

/** An account as the parent's chart labels it: its number (dimmed) when it has one, then its name. */
export function NumberedName({ number, name }: { number: string | undefined; name: ReactNode }) {
  return (
    <>
      {number ? (
        <Text span c="dimmed" size="xs" mr={6}>
          {number}
        </Text>
      ) : null}
      {name}
    </>
  );
}

export interface EntryLineView {
  account: string;
  name: string;
  debit: number;
  credit: number;
}

/**
 * A journal entry's lines, one per parent account, debits and credits in the parent's currency
 * (a zero left blank), and their totals. `numbers` are the parent's account numbers by account id.
 * A line may look different (a run's CTA line): `lineLook` highlights its row, gives it a test id
 * and its own account cell.
 */
export function EntryLinesTable<L extends EntryLineView>({
  label,
  lines,
  currency,
  totals,
  numbers,
  highlightOnHover,
  lineLook,
}: {
  label: string;
  lines: readonly L[];
  currency: string;
  totals: { debit: number; credit: number };
  numbers: ReadonlyMap<string, string>;
  highlightOnHover?: boolean;
  lineLook?: (line: L) => { highlight: boolean; testId?: string; account: ReactNode };
}) {
  const money = (n: number) => (n === 0 ? "" : formatAmount(n, currency));
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover={highlightOnHover} withTableBorder fz="sm" verticalSpacing={4} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Parent account</Table.Th>
            <Table.Th ta="right" w={200}>
              Debit ({currency})
            </Table.Th>
            <Table.Th ta="right" w={200}>
              Credit ({currency})
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((l) => {
            const look = lineLook?.(l);
            return (
              <Table.Tr
                key={l.account}
                data-testid={look?.testId}
                bg={look?.highlight ? "var(--mantine-color-yellow-1)" : undefined}
                fw={look?.highlight ? 600 : undefined}
              >
                <Table.Td>{look ? look.account : <NumberedName number={numbers.get(l.account)} name={l.name} />}</Table.Td>
                <AmountCell>{money(l.debit)}</AmountCell>
                <AmountCell>{money(l.credit)}</AmountCell>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={650} data-testid="entry-totals">
            <Table.Td>Total</Table.Td>
            <AmountCell>{formatAmount(totals.debit, currency)}</AmountCell>
            <AmountCell>{formatAmount(totals.credit, currency)}</AmountCell>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}
