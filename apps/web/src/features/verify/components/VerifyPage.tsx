import { Alert, Button, Group, Paper, Select, Skeleton, Text, Title } from "@mantine/core";
import { IconAlertTriangle, IconCircleCheck, IconRefresh } from "@tabler/icons-react";
import { useState } from "react";
import { useCompanyStatus } from "../../companies/api.ts";
import { GroupGate, type GroupSetup } from "../../eliminations/components/GroupGate.tsx";
import { useAccountNumbers } from "../../obal/useAccountNumbers.ts";
import { localMonthOf } from "@groupledger/domain";
import { longMonth } from "../../runs/model.ts";
import { Screen } from "../../screens/components/Screen.tsx";
import { usePostedPeriods, useVerify } from "../api.ts";
import { defaultMonth, headline, monthChoices } from "../model.ts";
import { CheckCard } from "./CheckCard.tsx";
import { VerifyCauses } from "./VerifyCauses.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

/** /consolidation/verify (SPEC §2): does what is in QuickBooks at a month-end equal what the consolidation says it should be? */
export function VerifyPage() {
  return (
    <Screen
      title="Verify Consolidation"
      description="Reconcile a month-end: what is posted in the parent's QuickBooks for each subsidiary against its translated trial balance, and the parent's QuickBooks trial balance against the consolidation. Every difference is listed by account; nothing is rounded away."
      maw={1280}
    >
      <GroupGate needsOpening why="Verify compares what was posted for the subsidiaries in the parent's books with the consolidation.">
        {(setup) => <Verify setup={setup} />}
      </GroupGate>
    </Screen>
  );
}

function Verify({ setup }: { setup: GroupSetup }) {
  const { parent } = setup;
  const openingMonth = setup.openingMonth!;
  const today = localMonthOf(new Date());
  const [picked, setPicked] = useState<string | null>(null);
  const postings = usePostedPeriods();
  const status = useCompanyStatus();
  const numbers = useAccountNumbers([{ realmId: parent.realmId, lastSyncedAt: status.data?.[parent.realmId]?.sync.lastSyncedAt ?? null }]).get(parent.realmId)!;
  const month = picked ?? (postings.data || postings.error ? defaultMonth(postings.data ?? [], openingMonth, today) : null);
  const result = useVerify(month);
  const data = result.data && result.data.month === month ? result.data : null;
  const head = data ? headline(data) : null;

  return (
    <>
      <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Month to verify">
        <Group align="flex-end" gap="md">
          <Select
            label="Month-end"
            placeholder={postings.isPending ? "Loading…" : "Choose a month"}
            data={monthChoices(openingMonth, today).map((m) => ({ value: m, label: longMonth(m) }))}
            value={month}
            onChange={(v) => v && setPicked(v)}
            allowDeselect={false}
            searchable
            maxDropdownHeight={320}
            w={240}
          />
          <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void result.refetch()} loading={result.isFetching} disabled={month === null}>
            Check again
          </Button>
          <Text size="sm" c="dimmed" maw={560}>
            From the opening month ({longMonth(openingMonth)}). QuickBooks is read afresh each time, so an entry edited or deleted there shows up.
          </Text>
        </Group>
      </Paper>

      {result.error ? (
        <Failure title="The month could not be verified" message={result.error.message} />
      ) : !data || !head ? (
        <Skeleton height={220} radius="md" />
      ) : (
        <>
          <Alert
            color={head.tone === "ok" ? "teal" : head.tone === "differences" ? "red" : "orange"}
            variant={head.tone === "ok" ? "light" : "filled"}
            radius="md"
            icon={head.tone === "ok" ? <IconCircleCheck size={22} aria-hidden /> : <IconAlertTriangle size={22} aria-hidden />}
            title={
              <Title order={2} size="h3" c="inherit">
                {head.title}
              </Title>
            }
            data-testid="verify-headline"
          >
            <Text size="sm" c="inherit">
              {longMonth(data.month)}: {head.detail}
            </Text>
            <VerifyCauses causes={data.causes} />
          </Alert>
          {data.subsidiaries.map((s) => (
            <CheckCard
              key={s.realmId}
              title={s.companyName}
              subtitle={`What is posted for it in ${parent.companyName}'s QuickBooks, from the opening balance to ${longMonth(data.month)}, against its translated trial balance.`}
              status={s.status}
              message={s.message}
              accounts={s.accounts}
              differences={s.differences}
              missingMonths={s.missingMonths}
              missingEntries={s.missingEntries}
              currency={data.parentCurrency}
              numbers={numbers}
            />
          ))}
          <CheckCard
            title="Group"
            subtitle={`${parent.companyName}'s trial balance in QuickBooks for the fiscal year to ${longMonth(data.month)}, against the consolidation before non-controlling interests. Retained earnings and dividends are compared as one line.`}
            status={data.group.status}
            message={data.group.message}
            accounts={data.group.accounts}
            differences={data.group.differences}
            currency={data.parentCurrency}
            numbers={numbers}
          />
        </>
      )}
    </>
  );
}
