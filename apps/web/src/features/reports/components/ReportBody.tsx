import { Alert, Group, List, Paper, Stack, Tabs, Text, Title } from "@mantine/core";
import type { Company } from "@groupledger/contract";
import { useMemo, type ReactNode } from "react";
import { drillableAccounts, warningFix, type Report } from "../model.ts";
import { longMonth, periodLabel, spanLabel, type ReportState, type ReportView } from "../period.ts";
import { EntitiesView } from "./EntitiesView.tsx";
import { ReportProblems } from "./ReportProblems.tsx";
import { BalanceSheetPanel, IncomeStatementPanel } from "./Statements.tsx";
import type { DrillContext } from "./StatementTable.tsx";
import { TrendChart } from "./TrendChart.tsx";
import { WorksheetView } from "./WorksheetView.tsx";
import { WithFixLink } from "../../screens/components/FixLink.tsx";

interface Props {
  report: Report;
  parent: Company;
  state: ReportState;
  numbers: ReadonlyMap<string, string>;
  /** The period ends in the current month: its figures will still change. */
  inProgress: boolean;
  onView: (view: ReportView) => void;
  /** The report's files, beside its heading. */
  downloads: ReactNode;
}

const generated = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

/** The heading, what stops the consolidation (if anything), and the report's tabs. */
export function ReportBody({ report, parent, state, numbers, inProgress, onView, downloads }: Props) {
  const { period, parentCurrency: currency } = report;
  const statements = report.report;
  const cmp = report.comparison;
  // Headings name the periods the server computed, which is what the figures are.
  const label = periodLabel({ kind: state.kind, from: period.from, to: period.to }, parent.fiscalYearStartMonth);
  const priorLabel = cmp?.ok && cmp.balanceSheet && cmp.incomeStatement ? spanLabel(cmp.period.from, cmp.period.to) : null;
  const accounts = useMemo(() => (statements ? drillableAccounts(statements.worksheet) : new Set<string>()), [statements]);
  const drill: DrillContext = {
    from: period.from,
    to: period.to,
    prior: priorLabel && cmp ? { from: cmp.period.from, to: cmp.period.to } : null,
    accounts,
    numbers,
  };
  const common = { currency, periodLabel: spanLabel(period.from, period.to), priorLabel, drill };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2} size="h3">
            {parent.companyName}: consolidated, {label}
          </Title>
          <Text size="sm" c="dimmed">
            In {currency} · opening balances as at the end of {longMonth(report.openingMonth)} · prepared {generated(report.generatedAt)}
          </Text>
          {inProgress ? (
            <Text size="sm" c="orange.8" data-testid="in-progress">
              {longMonth(period.to)} is not over yet: these figures will change as its books do.
            </Text>
          ) : null}
        </Stack>
        {downloads}
      </Group>
      <ReportProblems
        problems={report.problems}
        title={
          statements
            ? `The consolidation for ${spanLabel(period.from, period.to)} has problems: the figures below are incomplete until they are fixed`
            : `The consolidation for ${spanLabel(period.from, period.to)} cannot be computed yet`
        }
      />
      {report.warnings.length ? (
        <Alert color="yellow" radius="md" title="Read these with the figures" data-testid="report-warnings">
          <List size="sm" spacing={6}>
            {report.warnings.map((w) => (
              <List.Item key={w}>
                <WithFixLink message={w} fix={warningFix(w)} fw={600} />
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {cmp && !cmp.ok ? (
        <ReportProblems
          problems={cmp.problems}
          color="orange"
          title={`The comparison period (${spanLabel(cmp.period.from, cmp.period.to)}) cannot be computed, so it is left out`}
        />
      ) : null}
      {statements ? (
        <Tabs value={state.view} onChange={(v) => v && onView(v as ReportView)} keepMounted={false} variant="outline" radius="md">
          <Tabs.List>
            <Tabs.Tab value="balance-sheet">Balance sheet</Tabs.Tab>
            <Tabs.Tab value="income-statement">Income statement</Tabs.Tab>
            <Tabs.Tab value="worksheet">Worksheet</Tabs.Tab>
            <Tabs.Tab value="entities">Entities</Tabs.Tab>
            <Tabs.Tab value="trend">Trend</Tabs.Tab>
          </Tabs.List>
          <Paper p="md" bg="white" radius={0} style={{ border: "1px solid var(--mantine-color-gray-3)", borderTop: "none" }}>
            <Tabs.Panel value="balance-sheet">
              <BalanceSheetPanel b={statements.balanceSheet} prior={priorLabel ? cmp!.balanceSheet : null} {...common} />
            </Tabs.Panel>
            <Tabs.Panel value="income-statement">
              <IncomeStatementPanel p={statements.incomeStatement} prior={priorLabel ? cmp!.incomeStatement : null} {...common} />
            </Tabs.Panel>
            <Tabs.Panel value="worksheet">
              <WorksheetView worksheet={statements.worksheet} currency={currency} from={period.from} to={period.to} accounts={accounts} numbers={numbers} />
            </Tabs.Panel>
            <Tabs.Panel value="entities">
              <EntitiesView statements={statements} currency={currency} />
            </Tabs.Panel>
            <Tabs.Panel value="trend">
              <TrendChart from={period.from} to={period.to} currency={currency} exponent={report.exponent} />
            </Tabs.Panel>
          </Paper>
        </Tabs>
      ) : null}
    </Stack>
  );
}
