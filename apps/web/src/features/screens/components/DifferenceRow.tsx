import { Table, type MantineColor } from "@mantine/core";
import type { ReactNode } from "react";
import { AmountCell } from "./AmountCell.tsx";

/** A table row comparing one account: its name, the two amounts compared, then the difference in bold (in `differenceColor` when given). */
export function DifferenceRow({ name, amounts, difference, differenceColor }: { name: ReactNode; amounts: readonly [string, string]; difference: string; differenceColor?: MantineColor }) {
  return (
    <Table.Tr>
      <Table.Td>{name}</Table.Td>
      <AmountCell>{amounts[0]}</AmountCell>
      <AmountCell>{amounts[1]}</AmountCell>
      <AmountCell c={differenceColor} fw={600}>
        {difference}
      </AmountCell>
    </Table.Tr>
  );
}
