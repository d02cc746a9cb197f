import { Badge, Button, Table, Text } from "@mantine/core";
import type { RunSummary } from "@groupledger/contract";
import { doneCount, RUN_STATUS, shortMonth } from "../model.ts";
import { Section } from "../../screens/components/Section.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";

const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

/** The account's runs, newest first; any of them can be opened to see its items. */
export function RecentRuns({ runs, selected, onOpen }: { runs: RunSummary[]; selected: string | null; onOpen: (runId: string) => void }) {
  return (
    <Section label="Recent runs">
      {runs.length === 0 ? (
        <Text size="sm" c="dimmed">
          No runs yet.
        </Text>
      ) : (
        <HeadedTable
          withTableBorder
          highlightOnHover
          fz="sm"
          verticalSpacing={4}
          aria-label="Runs"
          columns={["Started", "By", "Months", { label: "Subsidiaries", ta: "right" }, "Status", "Result", null]}
        >
          {runs.map((r) => {
            const status = RUN_STATUS[r.status];
            return (
              <Table.Tr key={r.id} bg={r.id === selected ? "blue.0" : undefined} aria-current={r.id === selected ? "true" : undefined}>
                <Table.Td>{when(r.createdAt)}</Table.Td>
                <Table.Td>{r.createdBy ?? (r.trigger === "nightly" ? "Nightly setting" : "—")}</Table.Td>
                <Table.Td>
                  {r.kind === "replace" ? "Replace changed: " : ""}
                  {shortMonth(r.from)} – {shortMonth(r.to)}
                </Table.Td>
                <Table.Td ta="right">{r.realmIds.length}</Table.Td>
                <Table.Td>
                  <Badge color={status.color} variant="light" size="sm">
                    {status.label}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {doneCount(r.counts)} of {r.counts.total}: {r.counts.posted} {r.kind === "replace" ? "replaced" : "posted"}, {r.counts.skipped} skipped, {r.counts.failed} failed
                </Table.Td>
                <Table.Td ta="right">
                  <Button size="compact-sm" variant="subtle" onClick={() => onOpen(r.id)} disabled={r.id === selected}>
                    {r.id === selected ? "Shown" : "Open"}
                  </Button>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </HeadedTable>
      )}
    </Section>
  );
}
