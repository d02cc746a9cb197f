import { Button, Group, Paper, Select, Stack, Text } from "@mantine/core";
import type { Company, ObalLockRequest, ObalState } from "@groupledger/contract";
import { IconLock, IconRotate } from "@tabler/icons-react";
import { useState } from "react";
import { AdminGate, useAdminOnly } from "../../team/permissions.tsx";
import { calendarLabel, monthName, naturalMonthOf } from "../model.ts";
import { Section } from "../../screens/components/Section.tsx";
import { Failure } from "../../screens/components/Failure.tsx";

interface LockFormProps {
  parent: Company;
  busy: boolean;
  error: string | null;
  onLock: (request: ObalLockRequest) => void;
}

/** Fiscal years offered: the server accepts 2000-2100; recent years first is what anyone opening books needs. */
function fiscalYearOptions(now: Date): { value: string; label: string }[] {
  const last = now.getFullYear();
  const out: { value: string; label: string }[] = [];
  for (let y = last; y >= Math.max(2000, last - 15); y--) out.push({ value: String(y), label: `FY ${y}` });
  return out;
}

/**
 * Lock the opening period: a fiscal year and a fiscal month of the parent, each option saying the
 * calendar month-end it means, so a non-January fiscal year cannot be misread.
 */
export function LockForm({ parent, busy, error, onLock }: LockFormProps) {
  const adminOnly = useAdminOnly("lock the opening period");
  const start = parent.fiscalYearStartMonth;
  const [year, setYear] = useState<string | null>(null);
  const [month, setMonth] = useState<string | null>(null);
  const fy = year === null ? null : Number(year);
  const monthOptions = Array.from({ length: 12 }, (_, i) => {
    const fiscalMonth = i + 1;
    const natural = fy === null ? null : naturalMonthOf(fy, fiscalMonth, start);
    return {
      value: String(fiscalMonth),
      label: natural ? `Month ${fiscalMonth}: ${calendarLabel(natural.year, natural.month)}` : `Month ${fiscalMonth}: ${monthName(((start - 1 + i) % 12) + 1)}`,
    };
  });
  const natural = fy !== null && month !== null ? naturalMonthOf(fy, Number(month), start) : null;

  return (
    <Section label="Lock the opening period">
      <Text size="sm" c="dimmed" maw={720}>
        Choose the month-end whose balances open the consolidation. {parent.companyName}&apos;s fiscal year starts in {monthName(start)};
        a fiscal year is named by the calendar year it ends in.
      </Text>
      <Group align="flex-end" gap="md">
        <Select label="Fiscal year" placeholder="Choose a year" data={fiscalYearOptions(new Date())} value={year} onChange={setYear} w={160} allowDeselect={false} />
        <Select
          label="Fiscal month"
          placeholder="Choose a month"
          data={monthOptions}
          value={month}
          onChange={setMonth}
          w={260}
          allowDeselect={false}
          maxDropdownHeight={320}
        />
        <AdminGate reason={adminOnly}>
          <Button
            leftSection={<IconLock size={16} aria-hidden />}
            disabled={natural === null}
            loading={busy}
            onClick={() => {
              if (fy === null || month === null || natural === null) return;
              onLock({ year: fy, month: Number(month), naturalYear: natural.year, naturalMonth: natural.month });
            }}
          >
            Lock period
          </Button>
        </AdminGate>
      </Group>
      {natural ? (
        <Text size="sm" data-testid="lock-preview">
          Opening balances as of the end of <strong>{calendarLabel(natural.year, natural.month)}</strong> (fiscal month {month} of FY {fy}).
        </Text>
      ) : null}
      <Failure title="The period was not locked" message={error} />
    </Section>
  );
}

/** The locked period, with the only way to change it: a reset (confirmed in a dialog). */
export function LockedPeriod({ state, onReset }: { state: ObalState; onReset: () => void }) {
  const adminOnly = useAdminOnly("reset the opening period");
  if (state.naturalYear === null || state.naturalMonth === null) return null;
  return (
    <Paper withBorder radius="md" p="md" bg="white" component="section" aria-label="Opening period">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <IconLock size={20} aria-hidden />
          <Stack gap={0}>
            <Text fw={650} data-testid="locked-period">
              Opening balances as of {calendarLabel(state.naturalYear, state.naturalMonth)}
            </Text>
            <Text size="sm" c="dimmed">
              Fiscal month {state.month} of FY {state.year}. Locked: reset it to choose another month.
            </Text>
          </Stack>
        </Group>
        <AdminGate reason={adminOnly}>
          <Button variant="default" color="red" leftSection={<IconRotate size={16} aria-hidden />} onClick={onReset}>
            Reset…
          </Button>
        </AdminGate>
      </Group>
    </Paper>
  );
}
