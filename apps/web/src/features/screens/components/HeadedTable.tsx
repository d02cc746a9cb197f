import { Table, type TableProps, type TableThProps } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * One column's heading: its text, or its content with the `Table.Th` props it needs (`ta`, `w`…);
 * `null` is a column with no heading (a row's actions).
 */
export type Column = string | null | ({ label?: ReactNode } & Omit<TableThProps, "children">);

function Heading({ column }: { column: Column }) {
  if (column === null || typeof column === "string") return <Table.Th>{column ?? undefined}</Table.Th>;
  const { label, ...th } = column;
  return <Table.Th {...th}>{label}</Table.Th>;
}

/** A table with one row of column headings and its body rows (`children`); every other prop is Mantine's `Table`'s (spacing, borders, aria-label). */
export function HeadedTable({ columns, children, ...table }: TableProps & { columns: readonly Column[] }) {
  return (
    <Table {...table}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column, i) => (
            <Heading key={i} column={column} />
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
}
