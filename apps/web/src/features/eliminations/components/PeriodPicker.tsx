import { Group, Text } from "@mantine/core";
import { PeriodFields } from "../../runs/components/PeriodFields.tsx";
import { longMonth, type PeriodChoice, type PeriodKind } from "../../runs/model.ts";
import { Section } from "../../screens/components/Section.tsx";

/** Which period to eliminate: a month, or one of the parent's fiscal quarters or years, after the opening month. */
export function PeriodPicker({
  openingMonth,
  kind,
  choices,
  chosen,
  loading,
  onKind,
  onPeriod,
  label = "Period",
}: {
  /** The section's heading and accessible name, when a screen has more than one. */
  label?: string;
  openingMonth: string;
  kind: PeriodKind;
  choices: PeriodChoice[];
  chosen: PeriodChoice | null;
  /** The posted entries are still loading, so the default period is not known yet. */
  loading: boolean;
  onKind: (kind: PeriodKind) => void;
  onPeriod: (to: string) => void;
}) {
  return (
    <Section label={label}>
      <Text size="sm" c="dimmed" maw={820}>
        Periods start after the opening month ({longMonth(openingMonth)}); quarters and years are the parent&apos;s fiscal ones. Balances are
        taken at the period end, flows over the whole period.
      </Text>
      <Group align="flex-end" gap="md">
        <PeriodFields kindLabel="Period kind" kind={kind} choices={choices} chosen={chosen} loading={loading} onKind={onKind} onPeriod={onPeriod} />
      </Group>
    </Section>
  );
}
