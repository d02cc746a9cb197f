import { Group, Text } from "@mantine/core";
import { MonthPickerInput } from "@mantine/dates";
import "@mantine/dates/styles.css";
import { monthLabel, rangeProblem, type MonthRangeValue } from "../model.ts";

const toPicker = (month: string) => `${month}-01`;
const fromPicker = (date: string | null) => (date ? date.slice(0, 7) : null);
const ariaLabels = { previousYear: "Previous year", nextYear: "Next year", yearLevelControl: "Choose a year", previousDecade: "Previous decade", nextDecade: "Next decade" };

/** From and To months (inclusive), with the server's limits said before it is asked. */
export function MonthRangeFields({
  value,
  onChange,
  disabled = false,
  note = null,
  idPrefix,
}: {
  value: MonthRangeValue;
  onChange: (next: MonthRangeValue) => void;
  disabled?: boolean;
  /** Said under the fields when the range itself is fine (why they are disabled, for example). */
  note?: string | null;
  idPrefix: string;
}) {
  const problem = rangeProblem(value);
  const common = {
    valueFormat: "MMM YYYY",
    size: "sm" as const,
    w: 140,
    disabled,
    popoverProps: { withinPortal: true },
    ariaLabels,
    getMonthControlProps: (date: string) => ({ "aria-label": monthLabel(date.slice(0, 7)) }),
  };
  return (
    <div>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <MonthPickerInput
          {...common}
          id={`${idPrefix}-from`}
          label="From"
          value={toPicker(value.from)}
          onChange={(d) => {
            const from = fromPicker(d);
            if (from) onChange({ ...value, from });
          }}
        />
        <Text size="sm" c="dimmed" pb={8}>
          to
        </Text>
        <MonthPickerInput
          {...common}
          id={`${idPrefix}-to`}
          label="To"
          value={toPicker(value.to)}
          onChange={(d) => {
            const to = fromPicker(d);
            if (to) onChange({ ...value, to });
          }}
        />
      </Group>
      {problem ? (
        <Text size="xs" c="red.8" mt={4} role="alert">
          {problem}
        </Text>
      ) : note ? (
        <Text size="xs" c="dimmed" mt={4}>
          {note}
        </Text>
      ) : null}
    </div>
  );
}
