import { Drawer, Skeleton, Table, Text } from "@mantine/core";
import { formatDateTime } from "../../companies/format.ts";
import { HISTORY_EVENTS, useFxHistory } from "../api.ts";
import { rateChanges } from "../history.ts";
import { monthLabel } from "../model.ts";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

const Change = ({ change }: { change: { old: string; new: string } | null }) =>
  change ? (
    <Text size="xs" ff="monospace" style={{ whiteSpace: "nowrap" }}>
      {change.old || "—"} → <b>{change.new || "cleared"}</b>
    </Text>
  ) : (
    <Text size="xs" c="dimmed">
      unchanged
    </Text>
  );

/** Who changed which rate, when, from what to what (the issue's audit of rate changes), from the account's audit log. */
export function HistoryDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const history = useFxHistory(opened);
  const changes = history.data ? rateChanges(history.data.entries) : [];
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size={960} title={<Text fw={700}>Rate change history</Text>}>
      <Text size="sm" c="dimmed" mb="sm">
        Every change to a rate (typed, imported or fetched), newest first, from the last {HISTORY_EVENTS} events of the account's audit log.
      </Text>
      {history.isPending ? (
        <Skeleton height={200} />
      ) : history.error ? (
        <Failure title="The history could not be loaded" message={history.error.message} />
      ) : changes.length === 0 ? (
        <Text size="sm">No rate has been changed yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <HeadedTable striped withTableBorder fz="xs" aria-label="Rate changes" columns={["When", "Who", "Rate", "Average", "End of period"]}>
            {changes.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(c.at)}</Table.Td>
                <Table.Td>{c.who}</Table.Td>
                <Table.Td style={{ whiteSpace: "nowrap" }}>
                  {c.currency} {monthLabel(c.month)}
                </Table.Td>
                <Table.Td>
                  <Change change={c.avgfx} />
                </Table.Td>
                <Table.Td>
                  <Change change={c.endfx} />
                </Table.Td>
              </Table.Tr>
            ))}
          </HeadedTable>
        </Table.ScrollContainer>
      )}
    </Drawer>
  );
}
