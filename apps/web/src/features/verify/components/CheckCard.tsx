import { Badge, Group, Table, Text } from "@mantine/core";
import type { VerifyResult } from "@groupledger/contract";
import { IconAlertTriangle, IconCircleCheck } from "@tabler/icons-react";
import { formatAmount } from "@groupledger/domain";
import { longMonth } from "../../runs/model.ts";
import { CHECK_STATUS, type CheckStatus } from "../model.ts";
import { NumberedName } from "../../entries/components/EntryLines.tsx";
import { Section } from "../../screens/components/Section.tsx";
import {} from "../../screens/components/AmountCell.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { DifferenceRow } from "../../screens/components/DifferenceRow.tsx";

type Difference = VerifyResult["group"]["differences"][number];

/**
 * One check of a month-end: a subsidiary's postings against its translated trial balance, or the
 * parent's QuickBooks trial balance against the consolidation. Says its result, what is missing
 * and every account that differs.
 */
export function CheckCard({
  title,
  subtitle,
  status,
  message,
  accounts,
  differences,
  missingMonths = [],
  missingEntries = [],
  currency,
  numbers,
}: {
  title: string;
  subtitle: string;
  status: CheckStatus;
  message: string;
  accounts: number;
  differences: Difference[];
  missingMonths?: string[];
  missingEntries?: string[];
  currency: string;
  /** The parent's account numbers by account id, to name accounts as its chart does. */
  numbers: ReadonlyMap<string, string>;
}) {
  const s = CHECK_STATUS[status];
  const money = (n: number) => formatAmount(n, currency);
  return (
    <Section
      label={title}
      testId="check"
      description={subtitle}
      aside={
        <Badge
          color={s.color}
          variant={status === "ok" ? "light" : "filled"}
          size="lg"
          leftSection={status === "ok" ? <IconCircleCheck size={14} aria-hidden /> : status === "not_posted" ? null : <IconAlertTriangle size={14} aria-hidden />}
          data-testid="check-status"
          style={{ flexShrink: 0 }}
        >
        {s.label}
      </Badge>
    }
  >
      <Text size="sm">{message}</Text>
      {status === "ok" || status === "differences" ? (
        <Text size="xs" c="dimmed">
          {accounts} account{accounts === 1 ? "" : "s"} compared.
        </Text>
      ) : null}
      {missingMonths.length > 0 ? (
        <Group gap={6} data-testid="missing-months">
          <Text size="sm" fw={500}>
            Months not posted:
          </Text>
          {missingMonths.map((m) => (
            <Badge key={m} variant="outline" color="orange" size="sm">
              {longMonth(m)}
            </Badge>
          ))}
        </Group>
      ) : null}
      {missingEntries.length > 0 ? (
        <Group gap={6} data-testid="missing-entries">
          <Text size="sm" fw={500}>
            Entries GroupLedger posted that QuickBooks no longer has:
          </Text>
          {missingEntries.map((id) => (
            <Badge key={id} variant="outline" color="red" size="sm">
              Entry {id}
            </Badge>
          ))}
        </Group>
      ) : null}
      {differences.length > 0 ? (
        <Table.ScrollContainer minWidth={640}>
          <HeadedTable
            striped
            withTableBorder
            fz="sm"
            verticalSpacing={4}
            aria-label={`${title}: differences`}
            columns={["Account", { label: "Expected", ta: "right" }, { label: "In QuickBooks", ta: "right" }, { label: "Difference", ta: "right" }]}
          >
            {differences.map((d) => (
              <DifferenceRow
                key={d.account}
                name={<NumberedName number={numbers.get(d.account)} name={d.name} />}
                amounts={[money(d.expected), money(d.actual)]}
                difference={money(d.difference)}
                differenceColor="red.9"
              />
            ))}
          </HeadedTable>
        </Table.ScrollContainer>
      ) : null}
    </Section>
  );
}
