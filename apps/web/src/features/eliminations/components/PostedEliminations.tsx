import { Anchor, Badge, Skeleton, Table, Text } from "@mantine/core";
import type { PostingSummary } from "@groupledger/contract";
import { NewTab } from "../../entries/components/QuickBooksLink.tsx";
import { Section } from "../../screens/components/Section.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

const STATUS: Record<PostingSummary["status"], { label: string; color: string }> = {
  posted: { label: "Posted", color: "teal" },
  deleted: { label: "Deleted in QuickBooks", color: "red" },
  replaced: { label: "Replaced", color: "gray" },
};

/** The elimination entries posted so far, newest period first, each with its link into QuickBooks. */
export function PostedEliminations({ postings, loading, error }: { postings: PostingSummary[] | undefined; loading: boolean; error: Error | null }) {
  return (
    <Section label="Posted elimination entries">
      {loading ? (
        <Skeleton height={60} />
      ) : error ? (
        <Failure title="The posted entries could not be loaded" message={error.message} />
      ) : !postings || postings.length === 0 ? (
        <Text size="sm" c="dimmed">
          None yet. Each period&apos;s eliminations are posted once, as one entry in the parent&apos;s QuickBooks.
        </Text>
      ) : (
        <HeadedTable withTableBorder fz="sm" verticalSpacing={4} aria-label="Posted elimination entries" columns={["Period", "Entry", "Posted", "Status"]}>
          {postings.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>{p.period.label}</Table.Td>
              <Table.Td>
                {p.journalEntryUrl && p.status === "posted" ? (
                  <Anchor href={p.journalEntryUrl} target="_blank" rel="noopener noreferrer" size="sm">
                    {p.docNumber} <NewTab />
                  </Anchor>
                ) : (
                  p.docNumber
                )}
              </Table.Td>
              <Table.Td>
                {p.postedAt.slice(0, 10)}
                {p.postedBy ? ` by ${p.postedBy}` : ""}
              </Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color={STATUS[p.status].color}>
                  {STATUS[p.status].label}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </HeadedTable>
      )}
    </Section>
  );
}
