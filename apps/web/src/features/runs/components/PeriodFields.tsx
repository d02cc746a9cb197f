import { SegmentedControl, Select, Stack, Text } from "@mantine/core";
import { useId } from "react";
import { choiceLabel, PERIOD_KINDS, type PeriodChoice, type PeriodKind } from "../model.ts";

/**
 * Period kind (month, fiscal quarter, fiscal year) and the period itself, newest first: the
 * fields of every screen that posts a period (runs, eliminations).
 */
export interface PeriodFieldsProps {
  kindLabel: string;
  kind: PeriodKind;
  choices: PeriodChoice[];
  chosen: PeriodChoice | null;
  /** The default period is not known yet (posted periods still loading). */
  loading: boolean;
  onKind: (kind: PeriodKind) => void;
  onPeriod: (to: string) => void;
}

export function PeriodFields({ kindLabel, kind, choices, chosen, loading, onKind, onPeriod }: PeriodFieldsProps) {
  const labelId = useId();
  const newestFirst = [...choices].reverse();
  return (
    <>
      <Stack gap={4}>
        <Text size="sm" fw={500} id={labelId}>
          {kindLabel}
        </Text>
        <SegmentedControl aria-labelledby={labelId} data={[...PERIOD_KINDS]} value={kind} onChange={(v) => onKind(v as PeriodKind)} />
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
    </>
  );
}
