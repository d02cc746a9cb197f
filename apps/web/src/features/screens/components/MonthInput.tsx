import { Group, Text } from "@mantine/core";
import { MonthPickerInput, type MonthPickerInputProps } from "@mantine/dates";
import "@mantine/dates/styles.css";

const toPicker = (month: string) => `${month}-01`;
const fromPicker = (date: string | null) => (date ? date.slice(0, 7) : null);
const ariaLabels = { previousYear: "Previous year", nextYear: "Next year", yearLevelControl: "Choose a year", previousDecade: "Previous decade", nextDecade: "Next decade" };

type PickerProps = Omit<MonthPickerInputProps, "type" | "value" | "onChange" | "minDate" | "maxDate" | "ariaLabels" | "getMonthControlProps" | "popoverProps">;

export interface MonthInputProps extends PickerProps {
  /** "YYYY-MM". */
  value: string;
  onChange: (month: string) => void;
  /** The first and last months offered, if limited. */
  min?: string;
  max?: string;
  /** How a month of the calendar is named to assistive technology. */
  monthName: (month: string) => string;
}

/** A month picker that reads and writes "YYYY-MM", its calendar's controls and months named. */
export function MonthInput({ value, onChange, min, max, monthName, ...rest }: MonthInputProps) {
  return (
    <MonthPickerInput
      {...rest}
      value={toPicker(value)}
      onChange={(d: string | null) => {
        const month = fromPicker(d);
        if (month) onChange(month);
      }}
      minDate={min === undefined ? undefined : toPicker(min)}
      maxDate={max === undefined ? undefined : toPicker(max)}
      ariaLabels={ariaLabels}
      getMonthControlProps={(date: string) => ({ "aria-label": monthName(date.slice(0, 7)) })}
      popoverProps={{ withinPortal: true }}
    />
  );
}

/** From and To months side by side; `onFrom` and `onTo` get the month picked, `idPrefix` names the fields' ids when a screen needs them. */
export function MonthRangeInputs({
  from,
  to,
  onFrom,
  onTo,
  idPrefix,
  ...common
}: Omit<MonthInputProps, "value" | "onChange" | "label" | "id"> & { from: string; to: string; onFrom: (month: string) => void; onTo: (month: string) => void; idPrefix?: string }) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <MonthInput {...common} id={idPrefix && `${idPrefix}-from`} label="From" value={from} onChange={onFrom} />
      <Text size="sm" c="dimmed" pb={8}>
        to
      </Text>
      <MonthInput {...common} id={idPrefix && `${idPrefix}-to`} label="To" value={to} onChange={onTo} />
    </Group>
  );
}
