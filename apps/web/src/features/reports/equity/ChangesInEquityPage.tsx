import { Alert, List, Skeleton, Stack, Table, Text } from "@mantine/core";
import type { ChangesInEquityReport, Company } from "@groupledger/contract";
import { formatAmount, localMonthOf, shiftMonth } from "@groupledger/domain";
import { useSearchParams } from "react-router";
import { useCompanies, useCompanyStatus, type StatusMap } from "../../companies/api.ts";
import { AmountCell } from "../../screens/components/AmountCell.tsx";
import { Failure } from "../../screens/components/Failure.tsx";
import { HeadedTable } from "../../screens/components/HeadedTable.tsx";
import { MonthRangeInputs } from "../../screens/components/MonthInput.tsx";
import { WithFixLink } from "../../screens/components/FixLink.tsx";
import { Screen } from "../../screens/components/Screen.tsx";
import { ReportProblems } from "../components/ReportProblems.tsx";
import { ReportsAreaNav } from "../components/ReportsAreaNav.tsx";
import { warningFix } from "../model.ts";
import { defaultMonth, firstBookMonth, longMonth, rangeProblem, readState, spanLabel, writeState } from "../period.ts";
import { useChangesInEquity } from "./api.ts";
import { reconciliation, visibleColumns, yearToDate } from "./model.ts";

const DESCRIPTION =
  "How the group's equity moved over a period, component by component: share capital, retained earnings, the translation reserve (CTA) and non-controlling interests, from the balance sheet at its start to the balance sheet at its end (IAS 1.106, ASC 810-10-50-1A).";

/** /consolidation/reports/equity: the consolidated statement of changes in equity (issue 23). */
export function ChangesInEquityPage() {
  const companies = useCompanies();
  const status = useCompanyStatus();
  return (
    <Screen title="Statement of changes in equity" description={DESCRIPTION}>
      <Stack gap="md">
        <ReportsAreaNav />
        {companies.isPending || status.isPending ? <Skeleton height={360} radius="md" /> : null}
        <Failure title="The companies could not be loaded" message={companies.error?.message ?? status.error?.message} />
        {companies.data && status.data ? <EquitySection companies={companies.data} status={status.data} /> : null}
      </Stack>
    </Screen>
  );
}

function EquitySection({ companies, status }: { companies: Company[]; status: StatusMap }) {
  const parent = companies.find((c) => c.parent);
  const [params, setParams] = useSearchParams();
  const currentMonth = localMonthOf(new Date());
  const fyStart = parent?.fiscalYearStartMonth ?? 1;
  const fromAddress = readState(params).period;
  const period = fromAddress ?? { kind: "custom" as const, ...yearToDate(defaultMonth(companies, status, currentMonth), fyStart) };
  // The same address parameters as the statements page, so the period goes along between them.
  const update = (from: string, to: string) => {
    const state = readState(params);
    setParams((p) => writeState(p, { kind: "custom", from, to, compare: state.compare ?? "none", view: state.view ?? "balance-sheet" }), { replace: true });
  };
  const problem = rangeProblem(period.from, period.to);
  const statement = useChangesInEquity(parent && !problem ? { from: period.from, to: period.to } : null);

  if (!parent) {
    return (
      <Alert color="gray" title="Choose a parent company first">
        The statement is drawn up in the parent&apos;s currency and on its chart of accounts: set the parent on Connected Companies.
      </Alert>
    );
  }
  const data = statement.data;
  return (
    <Stack gap="md">
      <MonthRangeInputs
        from={period.from}
        to={period.to}
        onFrom={(m) => update(m, period.to)}
        onTo={(m) => update(period.from, m)}
        min={firstBookMonth(companies, shiftMonth(currentMonth, -36))}
        max={currentMonth}
        monthName={longMonth}
        w={170}
      />
      {problem ? (
        <Text size="sm" c="red.8" role="alert">
          {problem}
        </Text>
      ) : null}
      {statement.isPending && !problem ? <Skeleton height={360} radius="md" data-testid="equity-loading" /> : null}
      <Failure title="The statement could not be prepared" message={statement.error?.message} />
      {data ? (
        <div style={{ opacity: statement.isPlaceholderData ? 0.55 : 1 }} aria-busy={statement.isFetching || undefined}>
          <EquityStatement report={data} />
        </div>
      ) : null}
    </Stack>
  );
}

function EquityStatement({ report }: { report: ChangesInEquityReport }) {
  const s = report.statement;
  return (
    <Stack gap="sm">
      <ReportProblems problems={report.problems} title="The statement cannot be computed yet" />
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
      {s ? <StatementTable statement={s} report={report} /> : null}
    </Stack>
  );
}

function StatementTable({ statement: s, report }: { statement: NonNullable<ChangesInEquityReport["statement"]>; report: ChangesInEquityReport }) {
  const columns = visibleColumns(s);
  const currency = report.parentCurrency;
  const line = reconciliation(s, currency, report.period.to);
  const title = `Consolidated statement of changes in equity, ${spanLabel(report.period.from, report.period.to)} (${currency})`;
  const strong = (kind: string) => kind === "opening" || kind === "closing" || kind === "comprehensiveIncome";
  return (
    <Stack gap="xs">
      <Text fw={700}>{title}</Text>
      <Table.ScrollContainer minWidth={900}>
        <HeadedTable aria-label="Consolidated statement of changes in equity" columns={[null, ...columns.map((c) => ({ label: c.label, ta: "right" as const }))]}>
          {s.rows.map((r, i) => (
            <Table.Tr key={`${r.kind}-${i}`} data-testid={`equity-row-${r.kind}`} fw={strong(r.kind) ? 700 : undefined} bg={r.kind === "closing" ? "gray.0" : undefined}>
              <Table.Td fs={r.kind === "comprehensiveIncome" ? "italic" : undefined}>{r.label}</Table.Td>
              {columns.map((c) => (
                <AmountCell key={c.id}>{formatAmount(r.amounts[c.id], currency)}</AmountCell>
              ))}
            </Table.Tr>
          ))}
          {[s.balanceSheet, s.difference].map((r) => (
            <Table.Tr key={r.kind} data-testid={`equity-row-${r.kind}`} c={r.kind === "difference" && !s.reconciles ? "red.8" : "dimmed"}>
              <Table.Td>{r.label}</Table.Td>
              {columns.map((c) => (
                <AmountCell key={c.id}>{formatAmount(r.amounts[c.id], currency)}</AmountCell>
              ))}
            </Table.Tr>
          ))}
        </HeadedTable>
      </Table.ScrollContainer>
      <Text size="sm" fw={600} c={line.ok ? "teal.9" : "red.8"} role="status" data-testid="equity-reconciliation">
        {line.ok ? "✓ " : "✗ "}
        {line.text}
      </Text>
      <Text size="xs" c="dimmed">
        Opening: the consolidated balance sheet at the end of {longMonth(s.openingMonth)}. Each movement is the consolidation&apos;s own figure for the period (profit and its attribution, exchange differences, dividends, acquisitions, changes in ownership, disposals); a difference is shown, never absorbed.
      </Text>
    </Stack>
  );
}
