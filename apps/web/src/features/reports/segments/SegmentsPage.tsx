import { Alert, Button, Group, Paper, SegmentedControl, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { formatAmount, shiftMonth } from "@groupledger/domain";
import { SEGMENTS_OFF, type SegmentDimension, type SegmentReport } from "@groupledger/contract";
import { syncActive } from "../../companies/api.ts";
import { Failure } from "../../screens/components/Failure.tsx";
import { ReportControls } from "../components/ReportControls.tsx";
import { ReportProblems, ReportWarnings } from "../components/ReportProblems.tsx";
import { type AreaGroup, ReportsAreaScreen, useAreaPeriod } from "../components/ReportsAreaScreen.tsx";
import { firstBookMonth, periodLabel } from "../period.ts";
import { useEnableSegments, useSegments } from "./api.ts";
import { balanceColumns, type BalanceColumnView, columnTotal, DIMENSION_LABELS, dimensionOf, matchedSegments, segmentColumns, statementKindOf, type SegmentColumnView } from "./model.ts";

const DESCRIPTION =
  "The group's consolidated profit and loss or balance sheet by QuickBooks class or location (IFRS 8, ASC 280): one column per segment across the companies, what carries none, the intra-group eliminations in their own column, and the consolidated figure each row adds up to.";

const mono = { fontVariantNumeric: "tabular-nums" } as const;
/** The account column stays in view while a wide statement scrolls sideways. */
const sticky = { position: "sticky", left: 0, background: "var(--mantine-color-white)", zIndex: 1 } as const;

/** /consolidation/reports/segments: the P&L or balance sheet by class or location for the period the address names. */
export function SegmentsPage() {
  return <ReportsAreaScreen description={DESCRIPTION}>{(group) => <SegmentsSection group={group} />}</ReportsAreaScreen>;
}

function SegmentsSection({ group }: { group: AreaGroup }) {
  const { companies, status } = group;
  const { period, onPeriod, currentMonth, fyStart, valid, params, setParams } = useAreaPeriod(group, "month");
  const by = dimensionOf(params);
  const kind = statementKindOf(params);
  const onParam = (name: "segmentBy" | "segmentStatement") => (value: string) =>
    setParams(
      (old) => {
        const next = new URLSearchParams(old);
        next.set(name, value);
        return next;
      },
      { replace: true },
    );
  const statement = useSegments(valid ? { from: period.from, to: period.to, by, statement: kind } : null);
  const data = statement.data;
  // Syncs that read the classes and locations: the statement is asked again once they have all ended.
  const syncing = Object.values(status).some(syncActive);
  const wasSyncing = useRef(syncing);
  const client = useQueryClient();
  useEffect(() => {
    if (wasSyncing.current && !syncing) void client.invalidateQueries({ queryKey: ["segments"] });
    wasSyncing.current = syncing;
  }, [syncing, client]);
  return (
    <Stack gap="md" data-testid="segments">
      <ReportControls
        period={period}
        compare="none"
        fyStart={fyStart}
        firstMonth={firstBookMonth(companies, shiftMonth(currentMonth, -36))}
        lastMonth={currentMonth}
        currentMonth={currentMonth}
        onPeriod={onPeriod}
      />
      <Group gap="md">
        <SegmentedControl
          aria-label="Statement"
          value={kind}
          onChange={onParam("segmentStatement")}
          data={[
            { value: "income", label: "Profit and loss" },
            { value: "balance", label: "Balance sheet" },
          ]}
          w={300}
        />
        <SegmentedControl
          aria-label="Segments by"
          value={by}
          onChange={onParam("segmentBy")}
          data={[
            { value: "class", label: "By class" },
            { value: "location", label: "By location" },
          ]}
          w={280}
        />
      </Group>
      {statement.isPending && valid ? <Skeleton height={480} radius="md" /> : null}
      <Failure title="The statement could not be prepared" message={statement.error?.message} />
      {data ? (
        <div style={{ opacity: statement.isPlaceholderData ? 0.55 : 1 }} aria-busy={statement.isFetching || undefined}>
          {data.kind === "balance" ? (
            <BalanceSheetStatement report={data} by={data.by} title={`Consolidated balance sheet by ${DIMENSION_LABELS[data.by].one.toLowerCase()}, at the end of ${periodLabel(period, fyStart)}`} />
          ) : (
            <Statement report={data} by={data.by} title={`Consolidated profit and loss by ${DIMENSION_LABELS[data.by].one.toLowerCase()}, ${periodLabel(period, fyStart)}`} />
          )}
        </div>
      ) : null}
    </Stack>
  );
}

function Statement({ report, by, title }: { report: SegmentReport; by: SegmentDimension; title: string }) {
  const s = report.statement;
  const money = (n: number) => formatAmount(n, report.parentCurrency);
  return (
    <Paper withBorder radius="md" p="md" bg="white">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="xs" c="dimmed">
          In {report.parentCurrency}. Revenue and profit positive, expenses positive as costs; each company&apos;s segments at the rates its books are translated at.
        </Text>
        {!s ? (
          <StatementProblems report={report} />
        ) : (
          <>
            <Alert color={s.reconciles ? "teal" : "red"} role={s.reconciles ? "status" : "alert"} data-testid="segments-reconciliation">
              {s.reconciles
                ? `The segments, ${DIMENSION_LABELS[by].none.toLowerCase()} and the eliminations add up to the consolidated profit and loss on every line, to the cent: net income ${money(s.netIncome.total)}.`
                : "The columns do not add up to the consolidated profit and loss on every line; the consolidated figures stand in the last column."}
            </Alert>
            <Matched report={report} by={by} />
            {s.segments.length === 0 ? (
              <Text size="sm">
                No {by === "class" ? "classes" : "locations"} in the group&apos;s books for this period: everything is in the &quot;{DIMENSION_LABELS[by].none}&quot; column. Tag lines in QuickBooks with a {by === "class" ? "class" : "location"} and sync to split them.
              </Text>
            ) : null}
            <SegmentTable statement={s} by={by} money={money} />
          </>
        )}
        <ReportWarnings warnings={report.warnings} />
      </Stack>
    </Paper>
  );
}


type BalanceSheet = NonNullable<SegmentReport["balanceSheet"]>;

/** The balance sheet by segment at the period's end (IFRS 8.23, ASC 280-10-50-25): segment assets and liabilities; equity not split. */
function BalanceSheetStatement({ report, by, title }: { report: SegmentReport; by: SegmentDimension; title: string }) {
  const s = report.balanceSheet;
  const money = (n: number) => formatAmount(n, report.parentCurrency);
  return (
    <Paper withBorder radius="md" p="md" bg="white">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="xs" c="dimmed">
          In {report.parentCurrency}. Assets positive, liabilities and equity positive as credits; each company&apos;s segment balances at the rates its balances are translated at (the closing rate for a foreign operation).
          Equity is not split by {DIMENSION_LABELS[by].one.toLowerCase()}: it is translated at historical rates, and neither IFRS 8 nor ASC 280 asks for segment equity, so it is all in &quot;{DIMENSION_LABELS[by].none}&quot;.
          The Group column holds what consolidation itself adds: the investment&apos;s elimination, goodwill and non-controlling interests.
        </Text>
        {!s ? (
          <StatementProblems report={report} />
        ) : (
          <>
            <Alert color={s.reconciles ? "teal" : "red"} role={s.reconciles ? "status" : "alert"} data-testid="segments-reconciliation">
              {s.reconciles
                ? `The segments, ${DIMENSION_LABELS[by].none.toLowerCase()}, the eliminations and the group column add up to the consolidated balance sheet on every line, to the cent: total assets ${money(s.totalAssets.total)} = liabilities and equity ${money(s.totalLiabilitiesAndEquity.total)}.`
                : "The columns do not add up to the consolidated balance sheet on every line; the consolidated figures stand in the last column."}
            </Alert>
            <Matched report={report} by={by} />
            {s.segments.length === 0 ? (
              <Text size="sm">
                No balances carry a {by === "class" ? "class" : "location"} at the period&apos;s end: everything is in the &quot;{DIMENSION_LABELS[by].none}&quot; column.
              </Text>
            ) : null}
            <BalanceTable sheet={s} by={by} money={money} />
          </>
        )}
        <ReportWarnings warnings={report.warnings} />
      </Stack>
    </Paper>
  );
}

function BalanceTable({ sheet: s, by, money }: { sheet: BalanceSheet; by: SegmentDimension; money: (n: number) => string }) {
  const columns = balanceColumns(s, by);
  const shaded = (c: BalanceColumnView) => c.kind === "eliminations" || c.kind === "group";
  const line = (key: string, label: string, amounts: BalanceSheet["totalAssets"], strong = false) => (
    <Table.Tr key={key} data-testid={`seg-${key}`}>
      <Table.Td pl={strong ? undefined : "lg"} fw={strong ? 700 : undefined} style={sticky}>
        {label}
      </Table.Td>
      {columns.map((c) => (
        <Table.Td key={c.key} ta="right" fw={strong || c.kind === "total" ? 700 : undefined} style={{ ...mono, ...(shaded(c) ? { background: "var(--mantine-color-gray-0)" } : {}) }}>
          {money(c.pick(amounts))}
        </Table.Td>
      ))}
    </Table.Tr>
  );
  const heading = (key: string, label: string) => (
    <Table.Tr key={key}>
      <Table.Td fw={700} style={sticky}>
        {label}
      </Table.Td>
      <Table.Td colSpan={columns.length} />
    </Table.Tr>
  );
  return (
    <Table.ScrollContainer minWidth={400 + columns.length * 130}>
      <Table aria-label={`Balance sheet by ${DIMENSION_LABELS[by].one.toLowerCase()}`} verticalSpacing={4} fz="sm" data-testid="segments-balance-sheet">
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={sticky}>Account</Table.Th>
            {columns.map((c) => (
              <Table.Th key={c.key} ta="right" title={c.holders ?? undefined} data-testid={`seg-col-${c.key}`} style={shaded(c) ? { background: "var(--mantine-color-gray-0)" } : undefined}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {heading("assets", "Assets")}
          {s.assets.map((r) => line(`asset:${r.account}`, r.name, r))}
          {line("assets-total", "Total assets", s.totalAssets, true)}
          {heading("liabilities", "Liabilities")}
          {s.liabilities.map((r) => line(`liability:${r.account}`, r.name, r))}
          {line("liabilities-total", "Total liabilities", s.totalLiabilities, true)}
          {heading("equity", "Equity")}
          {s.equity.map((r) => line(`equity:${r.account}`, r.name, r))}
          {line("equity-total", "Total equity", s.totalEquity, true)}
          {line("liabilities-equity-total", "Total liabilities and equity", s.totalLiabilitiesAndEquity, true)}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Segments matched by name across companies, said outright. */
function Matched({ report, by }: { report: SegmentReport; by: SegmentDimension }) {
  const matched = matchedSegments(report.statement ?? report.balanceSheet!);
  return (
    <Text size="sm" data-testid="segments-matched">
      {by === "class" ? "Classes" : "Locations"} with the same name in several companies are one segment (case and spacing aside).
      {matched.length === 0 ? " None matched in this period." : ` Matched: ${matched.map((m) => `${m.name}: ${m.companies}`).join("; ")}.`}
    </Text>
  );
}

type Statement = NonNullable<SegmentReport["statement"]>;

function SegmentTable({ statement: s, by, money }: { statement: Statement; by: SegmentDimension; money: (n: number) => string }) {
  const columns = segmentColumns(s, by);
  const cellStyle = (c: SegmentColumnView) => ({ ...mono, ...(c.kind === "eliminations" || c.kind === "other" ? { background: "var(--mantine-color-gray-0)" } : {}) });
  const line = (key: string, label: string, amounts: (c: SegmentColumnView) => number, strong = false) => (
    <Table.Tr key={key} data-testid={`seg-${key}`}>
      <Table.Td pl={strong ? undefined : "lg"} fw={strong ? 700 : undefined} style={sticky}>
        {label}
      </Table.Td>
      {columns.map((c) => (
        <Table.Td key={c.key} ta="right" fw={strong || c.kind === "total" ? 700 : undefined} style={cellStyle(c)}>
          {money(amounts(c))}
        </Table.Td>
      ))}
    </Table.Tr>
  );
  const heading = (key: string, label: string) => (
    <Table.Tr key={key}>
      <Table.Td fw={700} style={sticky}>
        {label}
      </Table.Td>
      <Table.Td colSpan={columns.length} />
    </Table.Tr>
  );
  return (
    <Table.ScrollContainer minWidth={400 + columns.length * 130}>
      <Table aria-label={`Profit and loss by ${DIMENSION_LABELS[by].one.toLowerCase()}`} verticalSpacing={4} fz="sm" data-testid="segments-statement">
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={sticky}>Account</Table.Th>
            {columns.map((c) => (
              <Table.Th key={c.key} ta="right" title={c.holders ?? undefined} data-testid={`seg-col-${c.key}`} style={c.kind === "eliminations" || c.kind === "other" ? { background: "var(--mantine-color-gray-0)" } : undefined}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {heading("revenue", "Revenue")}
          {s.revenue.map((r) => line(`revenue:${r.account}`, r.name, (c) => c.pick(r)))}
          {line("revenue-total", "Total revenue", (c) => columnTotal(s.revenue, c), true)}
          {heading("expenses", "Expenses")}
          {s.expenses.map((r) => line(`expense:${r.account}`, r.name, (c) => c.pick(r)))}
          {line("expenses-total", "Total expenses", (c) => columnTotal(s.expenses, c), true)}
          {line("net-income", "Net income", (c) => c.pick(s.netIncome), true)}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Why there is no statement, and, for a group that does not read its segments yet, the way to start. */
function StatementProblems({ report }: { report: SegmentReport }) {
  return (
    <>
      <ReportProblems problems={report.problems} title="The statement cannot be drawn up yet" />
      {report.problems.some((p) => p.code === SEGMENTS_OFF) ? <ReadSegments /> : null}
    </>
  );
}

/** Turns segments on: each company syncs its classes and locations, with progress on Connected Companies. */
function ReadSegments() {
  const enable = useEnableSegments();
  return (
    <Stack gap={4} align="flex-start">
      <Button onClick={() => enable.mutate()} loading={enable.isPending} disabled={enable.isSuccess}>
        Read classes and locations from QuickBooks
      </Button>
      {enable.isSuccess ? (
        <Text size="sm" role="status">
          Reading them: {enable.data.syncs.length} {enable.data.syncs.length === 1 ? "company is" : "companies are"} syncing. The statement appears here when they have finished.
        </Text>
      ) : null}
      {enable.error ? (
        <Text size="sm" c="red" role="alert">
          {enable.error.message}
        </Text>
      ) : null}
    </Stack>
  );
}

