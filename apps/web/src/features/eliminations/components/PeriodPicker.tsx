import { Group, Text } from "@mantine/core";
import { PeriodFields, type PeriodFieldsProps } from "../../runs/components/PeriodFields.tsx";
import { longMonth } from "../../runs/model.ts";
import { Section } from "../../screens/components/Section.tsx";

/** Which period to eliminate: a month, or one of the parent's fiscal quarters or years, after the opening month. */
export function PeriodPicker({
  openingMonth,
  label = "Period",
  ...fields
}: Omit<PeriodFieldsProps, "kindLabel"> & {
  /** The section's heading and accessible name, when a screen has more than one. */
  label?: string;
  openingMonth: string;
}) {
  return (
    <Section label={label}>
      <Text size="sm" c="dimmed" maw={820}>
        Periods start after the opening month ({longMonth(openingMonth)}); quarters and years are the parent&apos;s fiscal ones. Balances are
        taken at the period end, flows over the whole period.
      </Text>
      <Group align="flex-end" gap="md">
        <PeriodFields kindLabel="Period kind" {...fields} />
      </Group>
    </Section>
  );
}
