import { Group, Paper, SegmentedControl, Select, Stack, Text, Title } from "@mantine/core";
import { choiceLabel, longMonth, PERIOD_KINDS, type PeriodChoice, type PeriodKind } from "../../runs/model.ts";

/** Which period to eliminate: a month, or one of the parent's fiscal quarters or years, after the opening month. */
export function PeriodPicker({
  openingMonth,
  kind,
  choices,
  chosen,
  loading,
  onKind,
  onPeriod,
}: {
  openingMonth: string;
  kind: PeriodKind;
  choices: PeriodChoice[];
  chosen: PeriodChoice | null;
  /** The posted entries are still loading, so the default period is not known yet. */
  loading: boolean;
  onKind: (kind: PeriodKind) => void;
  onPeriod: (to: string) => void;
}) {
  const newestFirst = [...choices].reverse();
  return (
    <Paper withBorder radius="md" p="lg" bg="white" component="section" aria-label="Period">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Period
        </Title>
        <Text size="sm" c="dimmed" maw={820}>
          Periods start after the opening month ({longMonth(openingMonth)}); quarters and years are the parent&apos;s fiscal ones. Balances are
          taken at the period end, flows over the whole period.
        </Text>
        <Group align="flex-end" gap="md">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="elimination-kind-label">
              Period kind
            </Text>
            <SegmentedControl aria-labelledby="elimination-kind-label" data={[...PERIOD_KINDS]} value={kind} onChange={(v) => onKind(v as PeriodKind)} />
          </Stack>
          <Select
            label={kind === "month" ? "Month" : kind === "quarter" ? "Fiscal quarter" : "Fiscal year"}
            placeholder={loading ? "Loading…" : choices.length === 0 ? "None after the opening month yet" : "Choose a period"}
            data={newestFirst.map((c) => ({ value: c.to, label: choiceLabel(c) }))}
            value={chosen?.to ?? null}
            onChange={(v) => v && onPeriod(v)}
            allowDeselect={false}
            disabled={choices.length === 0}
            maxDropdownHeight={320}
            w={320}
          />
        </Group>
      </Stack>
    </Paper>
  );
}
