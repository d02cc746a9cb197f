import { Button, Checkbox, Group, Stack, Text } from "@mantine/core";
import type { Company } from "@groupledger/contract";
import { IconPlayerPlay } from "@tabler/icons-react";
import { shiftMonth } from "@groupledger/domain";
import { longMonth, runFormProblem, runSize, shortMonth, type RunForm as RunFormValue } from "../model.ts";
import { AdminGate, useAdminOnly } from "../../team/permissions.tsx";
import { Section } from "../../screens/components/Section.tsx";
import { MonthRangeInputs } from "../../screens/components/MonthInput.tsx";
import { Failure } from "../../screens/components/Failure.tsx";


interface Props {
  subsidiaries: Company[];
  openingMonth: string;
  /** The current calendar month: the last one a run may include. */
  today: string;
  value: RunFormValue;
  onChange: (next: RunFormValue) => void;
  /** Why a run cannot start now (another one is going), if so. */
  busyReason: string | null;
  starting: boolean;
  error: string | null;
  onStart: () => void;
}

/** Which subsidiaries and which months: every month of the range is posted for each of them, in order. */
export function RunForm({ subsidiaries, openingMonth, today, value, onChange, busyReason, starting, error, onStart }: Props) {
  const adminOnly = useAdminOnly("start a run that posts to QuickBooks");
  const problem = runFormProblem(value, openingMonth);
  const size = runSize(value);
  return (
    <Section label="New run">
      <Text size="sm" c="dimmed" maw={820}>
        Posts one entry per subsidiary and month, month by month, in the background: you can leave this screen and come back. Months already
        posted are skipped as duplicates; a subsidiary whose month fails is not posted for its later months, so its books never have a gap.
      </Text>
      <Group align="flex-start" gap="xl">
        <Checkbox.Group label="Subsidiaries" value={value.realmIds} onChange={(realmIds) => onChange({ ...value, realmIds })}>
          <Stack gap={6} mt={6}>
            {subsidiaries.map((c) => (
              <Checkbox key={c.realmId} value={c.realmId} label={`${c.companyName} (${c.homeCurrency})`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Stack gap={6}>
          <MonthRangeInputs
            from={value.from}
            to={value.to}
            onFrom={(from) => onChange({ ...value, from })}
            onTo={(to) => onChange({ ...value, to })}
            valueFormat="MMM YYYY"
            w={150}
            min={shiftMonth(openingMonth, 1)}
            max={today}
            monthName={shortMonth}
          />
          <Text size="xs" c="dimmed">
            From {longMonth(shiftMonth(openingMonth, 1))} (after the opening month) to {longMonth(today)}.
          </Text>
        </Stack>
      </Group>
      <Group gap="md">
        <AdminGate reason={adminOnly}>
          <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} disabled={problem !== null || busyReason !== null} loading={starting} onClick={onStart}>
            {size > 0 ? `Start run (${size} ${size === 1 ? "entry" : "entries"})` : "Start run"}
          </Button>
        </AdminGate>
        {problem ?? busyReason ? (
          <Text size="sm" c={problem ? "red.8" : "dimmed"} role={problem ? "alert" : undefined} data-testid="run-form-problem">
            {problem ?? busyReason}
          </Text>
        ) : null}
      </Group>
      <Failure title="The run did not start" message={error} />
    </Section>
  );
}
