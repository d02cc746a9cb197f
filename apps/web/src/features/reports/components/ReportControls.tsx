import { Button, Group, Paper, SegmentedControl, Select, Stack, Text, Tooltip } from "@mantine/core";
import { IconFileSpreadsheet, IconFileTypeCsv, IconMail } from "@tabler/icons-react";
import type { ReactNode } from "react";
import {
  COMPARISONS,
  PERIOD_KINDS,
  longMonth,
  periodChoices,
  periodContaining,
  rangeProblem,
  type Comparison,
  type PeriodKind,
  type ReportPeriod,
} from "../period.ts";
import type { ReportFormat } from "../api.ts";
import { MonthInput } from "../../screens/components/MonthInput.tsx";

interface Props {
  period: ReportPeriod;
  compare: Comparison;
  fyStart: number;
  /** The oldest and newest months the pickers offer. */
  firstMonth: string;
  lastMonth: string;
  currentMonth: string;
  onPeriod: (p: ReportPeriod) => void;
  /** Absent: no comparison to choose (a statement that has none, like the cash flow). */
  onCompare?: (c: Comparison) => void;
}


function MonthField({ label, value, min, max, onChange, w = 150 }: { label: string; value: string; min: string; max: string; onChange: (m: string) => void; w?: number }) {
  return (
    <MonthInput label={label} value={value} onChange={onChange} min={min} max={max} valueFormat="MMMM YYYY" monthName={longMonth} w={w} />
  );
}

/** Which months the report covers, what it is compared with, and the files. */
export function ReportControls(p: Props) {
  const { period, fyStart } = p;
  const setKind = (kind: PeriodKind) => p.onPeriod(periodContaining(kind, period.to, fyStart, period));
  const custom = period.kind === "custom" ? rangeProblem(period.from, period.to) : null;

  let picker: ReactNode;
  if (period.kind === "month") {
    picker = <MonthField label="Month" value={period.to} min={p.firstMonth} max={p.lastMonth} onChange={(m) => p.onPeriod(periodContaining("month", m, fyStart))} w={170} />;
  } else if (period.kind === "quarter" || period.kind === "year") {
    const kind = period.kind;
    const choices = periodChoices(kind, p.firstMonth, p.lastMonth, fyStart, p.currentMonth);
    picker = (
      <Select
        label={kind === "quarter" ? "Fiscal quarter" : "Fiscal year"}
        data={choices.map((c) => ({ value: c.value, label: c.label }))}
        value={period.to}
        onChange={(v) => v && p.onPeriod(periodContaining(kind, v, fyStart))}
        allowDeselect={false}
        maxDropdownHeight={320}
        w={270}
      />
    );
  } else {
    picker = (
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <MonthField label="From" value={period.from} min={p.firstMonth} max={p.lastMonth} onChange={(from) => p.onPeriod({ ...period, from })} />
        <Text size="sm" c="dimmed" pb={8}>
          to
        </Text>
        <MonthField label="To" value={period.to} min={p.firstMonth} max={p.lastMonth} onChange={(to) => p.onPeriod({ ...period, to })} />
      </Group>
    );
  }

  return (
    <Paper withBorder radius="md" p="md" bg="white" component="section" aria-label="Report period">
      <Stack gap={6}>
        <Group align="flex-end" gap="md">
            <Stack gap={4}>
              <Text size="sm" fw={500} id="report-period-kind">
                Period
              </Text>
              <SegmentedControl aria-labelledby="report-period-kind" data={[...PERIOD_KINDS]} value={period.kind} onChange={(v) => setKind(v as PeriodKind)} />
            </Stack>
            {picker}
            {p.onCompare ? (
              <Select
                label="Compare with"
                data={COMPARISONS.map((c) => ({ value: c.value, label: c.label }))}
                value={p.compare}
                onChange={(v) => v && p.onCompare?.(v as Comparison)}
                allowDeselect={false}
                w={210}
              />
            ) : null}
        </Group>
        {custom ? (
          <Text size="xs" c="red.8" role="alert">
            {custom}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

interface DownloadProps {
  /** Why the files cannot be made yet (the report has problems, or is loading); null when they can. */
  blocked: string | null;
  downloading: ReportFormat | null;
  onDownload: (format: ReportFormat) => void;
}

/** Download Excel and Download CSV: the report shown, as files named by the server. */
export function DownloadButtons({ blocked, downloading, onDownload }: DownloadProps) {
  const button = (format: ReportFormat, label: string, icon: ReactNode) => {
    const b = (
      <Button
        variant="default"
        leftSection={icon}
        onClick={() => onDownload(format)}
        loading={downloading === format}
        disabled={blocked !== null || (downloading !== null && downloading !== format)}
      >
        {label}
      </Button>
    );
    return blocked ? (
      <Tooltip label={blocked} multiline w={260}>
        <span>{b}</span>
      </Tooltip>
    ) : (
      b
    );
  };
  return (
    <Group gap="xs">
      {button("xlsx", "Download Excel", <IconFileSpreadsheet size={16} aria-hidden />)}
      {button("csv", "Download CSV", <IconFileTypeCsv size={16} aria-hidden />)}
      {button("email", "Email Excel", <IconMail size={16} aria-hidden />)}
    </Group>
  );
}
