import { Text } from "@mantine/core";
import { monthLabel, rangeProblem, type MonthRangeValue } from "../model.ts";
import { MonthRangeInputs } from "../../screens/components/MonthInput.tsx";


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
  return (
    <div>
      <MonthRangeInputs
        idPrefix={idPrefix}
        from={value.from}
        to={value.to}
        onFrom={(from) => onChange({ ...value, from })}
        onTo={(to) => onChange({ ...value, to })}
        valueFormat="MMM YYYY"
        size="sm"
        w={140}
        disabled={disabled}
        monthName={monthLabel}
      />
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
