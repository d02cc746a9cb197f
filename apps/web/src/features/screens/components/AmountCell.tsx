import { Table, type TableTdProps } from "@mantine/core";

/** A table cell holding an amount or a rate: right-aligned in the monospace face, so columns of figures line up. */
export function AmountCell(props: TableTdProps) {
  return <Table.Td ta="right" ff="monospace" {...props} />;
}
