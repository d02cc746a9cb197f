import { Alert, Button, Group, Paper, SegmentedControl, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef } from "react";
import { formatAmount, shiftMonth } from "@groupledger/domain";
import { SEGMENTS_OFF, type SegmentDimension, type SegmentReport } from "@groupledger/contract";
import { syncActive } from "../../companies/api.ts";
import { Failure } from "../../screens/components/Failure.tsx";
import { ReportControls } from "../components/ReportControls.tsx";
import { ReportProblems, ReportWarnings } from "../components/ReportProblems.tsx";
import { type AreaGroup, ReportsAreaScreen, useAreaPeriod } from "../components/ReportsAreaScreen.tsx";
import { firstBookMonth, periodLabel } from "../period.ts";
import { useEnableSegments, useSegments } from "./api.ts";
import { balanceColumns, cashColumns, DIMENSION_LABELS, dimensionOf, matchedSegments, segmentColumns, statementKindOf } from "./model.ts";

const DESCRIPTION =
  "The group's consolidated profit and loss, balance sheet, statement of cash flows or changes in equity by QuickBooks class or location (IFRS 8, ASC 280): one column per segment across the companies, what carries none, the intra-group eliminations in their own column, and the consolidated figure each row adds up to.";

const mono = { fontVariantNumeric: "tabular-nums" } as const;
/** The account column stays in view while a wide statement scrolls sideways. */
const sticky = { position: "sticky", left: 0, background: "var(--mantine-color-white)", zIndex: 1 } as const;

/** /consolidation/reports/segments: the P&L, balance sheet, cash flow or changes in equity by class or location for the period the address names. */
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
            { value: "cashflow", label: "Cash flow" },
            { value: "equity", label: "Changes in equity" },
          ]}
          w={560}
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
          ) : data.kind === "cashflow" ? (
            <CashFlowStatement report={data} by={data.by} title={`Consolidated statement of cash flows by ${DIMENSION_LABELS[data.by].one.toLowerCase()}, ${periodLabel(period, fyStart)}`} />
          ) : data.kind === "equity" ? (
            <EquityStatement report={data} by={data.by} title={`Changes in equity by ${DIMENSION_LABELS[data.by].one.toLowerCase()}, ${periodLabel(period, fyStart)}`} />
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
    <StatementShell
      report={report}
      by={by}
      title={title}
      note={<>In {report.parentCurrency}. Revenue and profit positive, expenses positive as costs; each company&apos;s segments at the rates its books are translated at.</>}
      reconciles={s ? s.reconciles : null}
      reconciled={s ? `The segments, ${DIMENSION_LABELS[by].none.toLowerCase()} and the eliminations add up to the consolidated profit and loss on every line, to the cent: net income ${money(s.netIncome.total)}.` : ""}
      notReconciled="The columns do not add up to the consolidated profit and loss on every line; the consolidated figures stand in the last column."
      empty={
        s && s.segments.length === 0 ? (
          <Text size="sm">
            No {by === "class" ? "classes" : "locations"} in the group&apos;s books for this period: everything is in the &quot;{DIMENSION_LABELS[by].none}&quot; column. Tag lines in QuickBooks with a {by === "class" ? "class" : "location"} and sync to split them.
          </Text>
        ) : null
      }
    >
      {s ? <SegmentTable statement={s} by={by} money={money} /> : null}
    </StatementShell>
  );
}

/**
 * A statement by segment's frame: its title and note, then (when drawn up) whether it reconciles,
 * what matched and its table, else why not; its warnings under it.
 */
function StatementShell({ report, by, title, note, reconciles, reconciled, notReconciled, empty, children }: { report: SegmentReport; by: SegmentDimension; title: string; note: ReactNode; reconciles: boolean | null; reconciled: string; notReconciled: string; empty?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" bg="white">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="xs" c="dimmed">
          {note}
        </Text>
        {reconciles === null ? (
          <StatementProblems report={report} />
        ) : (
          <>
            <Alert color={reconciles ? "teal" : "red"} role={reconciles ? "status" : "alert"} data-testid="segments-reconciliation">
              {reconciles ? reconciled : notReconciled}
            </Alert>
            <Matched report={report} by={by} />
            {empty ?? null}
            {children}
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
    <StatementShell
      report={report}
      by={by}
      title={title}
      note={
        <>
          In {report.parentCurrency}. Assets positive, liabilities and equity positive as credits; each company&apos;s segment balances at the rates its balances are translated at (the closing rate for a foreign operation).
          Equity is not split by {DIMENSION_LABELS[by].one.toLowerCase()}: it is translated at historical rates, and neither IFRS 8 nor ASC 280 asks for segment equity, so it is all in &quot;{DIMENSION_LABELS[by].none}&quot;.
          The Group column holds what consolidation itself adds: the investment&apos;s elimination, goodwill and non-controlling interests.
        </>
      }
      reconciles={s ? s.reconciles : null}
      reconciled={
        s ? `The segments, ${DIMENSION_LABELS[by].none.toLowerCase()}, the eliminations and the group column add up to the consolidated balance sheet on every line, to the cent: total assets ${money(s.totalAssets.total)} = liabilities and equity ${money(s.totalLiabilitiesAndEquity.total)}.` : ""
      }
      notReconciled="The columns do not add up to the consolidated balance sheet on every line; the consolidated figures stand in the last column."
      empty={
        s && s.segments.length === 0 ? (
          <Text size="sm">
            No balances carry a {by === "class" ? "class" : "location"} at the period&apos;s end: everything is in the &quot;{DIMENSION_LABELS[by].none}&quot; column.
          </Text>
        ) : null
      }
    >
      {s ? <BalanceTable sheet={s} by={by} money={money} /> : null}
    </StatementShell>
  );
}

function BalanceTable({ sheet: s, by, money }: { sheet: BalanceSheet; by: SegmentDimension; money: (n: number) => string }) {
  return (
    <AmountsTable label={`Balance sheet by ${DIMENSION_LABELS[by].one.toLowerCase()}`} testId="segments-balance-sheet" firstHeader="Account" columns={balanceColumns(s, by)} money={money}>
      {(row) => (
        <>
          {row.heading("assets", "Assets")}
          {s.assets.map((r) => row.line(`asset:${r.account}`, r.name, r))}
          {row.line("assets-total", "Total assets", s.totalAssets, true)}
          {row.heading("liabilities", "Liabilities")}
          {s.liabilities.map((r) => row.line(`liability:${r.account}`, r.name, r))}
          {row.line("liabilities-total", "Total liabilities", s.totalLiabilities, true)}
          {row.heading("equity", "Equity")}
          {s.equity.map((r) => row.line(`equity:${r.account}`, r.name, r))}
          {row.line("equity-total", "Total equity", s.totalEquity, true)}
          {row.line("liabilities-equity-total", "Total liabilities and equity", s.totalLiabilitiesAndEquity, true)}
        </>
      )}
    </AmountsTable>
  );
}

type CashFlow = NonNullable<SegmentReport["cashFlow"]>;
type CashAmounts = CashFlow["netCashFlow"];
type Equity = NonNullable<SegmentReport["changesInEquity"]>;

/** A money column of any of the statements: what it picks from a row's amounts, shaded for the eliminations and the group's own. */
interface ColumnOf<A> {
  key: string;
  label: string;
  holders: string | null;
  pick: (a: A) => number;
  kind: string;
}

/** The statement's table: the row names stay in view while the segment columns scroll sideways. */
function AmountsTable<A>({ label, testId, firstHeader, columns, money, children }: { label: string; testId: string; firstHeader: string; columns: readonly ColumnOf<A>[]; money: (n: number) => string; children: (row: RowOf<A>) => ReactNode }) {
  const shaded = (c: ColumnOf<A>) => (c.kind === "eliminations" || c.kind === "group" || c.kind === "other" ? { background: "var(--mantine-color-gray-0)" } : {});
  const row: RowOf<A> = {
    line: (key, name, amounts, strong = false) => (
      <Table.Tr key={key} data-testid={`seg-${key}`}>
        <Table.Td pl={strong ? undefined : "lg"} fw={strong ? 700 : undefined} style={sticky}>
          {name}
        </Table.Td>
        {columns.map((c) => (
          <Table.Td key={c.key} ta="right" fw={strong || c.kind === "total" ? 700 : undefined} style={{ ...mono, ...shaded(c) }}>
            {money(c.pick(amounts))}
          </Table.Td>
        ))}
      </Table.Tr>
    ),
    heading: (key, name) => (
      <Table.Tr key={key}>
        <Table.Td fw={700} style={sticky}>
          {name}
        </Table.Td>
        <Table.Td colSpan={columns.length} />
      </Table.Tr>
    ),
  };
  return (
    <Table.ScrollContainer minWidth={400 + columns.length * 130}>
      <Table aria-label={label} verticalSpacing={4} fz="sm" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={sticky}>{firstHeader}</Table.Th>
            {columns.map((c) => (
              <Table.Th key={c.key} ta="right" title={c.holders ?? undefined} data-testid={`seg-col-${c.key}`} style={shaded(c)}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children(row)}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
interface RowOf<A> {
  line: (key: string, name: string, amounts: A, strong?: boolean) => ReactNode;
  heading: (key: string, name: string) => ReactNode;
}

/** The statement of cash flows by segment (IAS 7.50(d)): each segment's own, the eliminations, the consolidated statement. */
function CashFlowStatement({ report, by, title }: { report: SegmentReport; by: SegmentDimension; title: string }) {
  const s = report.cashFlow;
  const money = (n: number) => formatAmount(n, report.parentCurrency);
  const none = DIMENSION_LABELS[by].none;
  const lines = (row: RowOf<CashAmounts>, list: CashFlow["investing"]["lines"], prefix: string) => list.map((l) => row.line(`${prefix}:${l.account}`, l.name, l));
  const differs = s ? [...s.difference.segments, s.difference.unallocated, s.difference.eliminations, s.difference.total].some((v) => v !== 0) : false;
  return (
    <StatementShell
      report={report}
      by={by}
      title={title}
      note={
        <>
          In {report.parentCurrency}, indirect method; inflows positive. Each {DIMENSION_LABELS[by].one.toLowerCase()} starts from its profit and moves by its own balances, at the rates the consolidated statement uses (each month&apos;s average for a foreign
          operation), with the effect of exchange-rate changes on its own cash. Not split by {DIMENSION_LABELS[by].one.toLowerCase()}, and so in &quot;{none}&quot;: dividends paid, share issues and transactions with non-controlling interests (equity
          is the group&apos;s, not a segment&apos;s), and whatever the books do not tag. &quot;Net transfers from (to) the rest of the group&quot; is the cash a segment&apos;s profit and balances do not explain, moved between it and the rest of the
          group (takings paid into an untagged bank account, say); &quot;{none}&quot; carries it with the opposite sign. A {DIMENSION_LABELS[by].one.toLowerCase()}&apos;s cash is what QuickBooks&apos; balance sheet by{" "}
          {DIMENSION_LABELS[by].one.toLowerCase()} shows on the bank accounts: below nil when its payments are tagged and its receipts are not. Eliminations: the intra-group flows the consolidated statement takes out of the companies&apos; own.
        </>
      }
      reconciles={s ? s.reconciles : null}
      reconciled={s ? `Every column reconciles its opening to its closing cash, and the segments, ${none.toLowerCase()} and the eliminations add up to the consolidated statement of cash flows on every line, to the cent: cash ${money(s.openingCash.total)} → ${money(s.closingCash.total)}.` : ""}
      notReconciled="A column does not reconcile its opening to its closing cash (the difference row shows by how much); the consolidated figures stand in the last column."
    >
      {s ? (
        <AmountsTable label={`Statement of cash flows by ${DIMENSION_LABELS[by].one.toLowerCase()}`} testId="segments-cash-flow" firstHeader="Cash flows" columns={cashColumns(s, by)} money={money}>
          {(row) => (
            <>
              {row.heading("operating", "Operating activities")}
              {row.line("profit", "Profit for the period", s.operating.profit)}
              {lines(row, s.operating.adjustments, "adjustment")}
              {lines(row, s.operating.workingCapital, "working-capital")}
              {row.line("operating-total", "Net cash from operating activities", s.operating.total, true)}
              {row.heading("investing", "Investing activities")}
              {lines(row, s.investing.lines, "investing")}
              {row.line("investing-total", "Net cash from investing activities", s.investing.total, true)}
              {row.heading("financing", "Financing activities")}
              {lines(row, s.financing.lines, "financing")}
              {row.line("financing-total", "Net cash from financing activities", s.financing.total, true)}
              {row.line("net-cash-flow", "Net increase (decrease) in cash", s.netCashFlow, true)}
              {row.line("exchange-effect", "Effect of exchange-rate changes on cash", s.exchangeEffect)}
              {row.line("opening-cash", "Cash at the beginning of the period", s.openingCash)}
              {row.line("closing-cash", "Cash at the end of the period", s.closingCash, true)}
              {differs ? row.line("difference", "Difference (closing cash not explained)", s.difference, true) : null}
            </>
          )}
        </AmountsTable>
      ) : null}
    </StatementShell>
  );
}

const EQUITY_ROW_LABELS: Record<Equity["rows"][number]["kind"], string> = {
  opening: "At the start of the period",
  profit: "Profit for the period",
  otherComprehensiveIncome: "Exchange differences and other comprehensive income",
  transactionsWithOwners: "Transactions with owners (dividends, share issues, NCI)",
  transfers: "Net transfers from (to) the rest of the group",
  closing: "At the end of the period",
};

/** Changes in equity by segment: a segment's net assets rolled forward; the group's equity in the total (IFRS 8.23, 8.28). */
function EquityStatement({ report, by, title }: { report: SegmentReport; by: SegmentDimension; title: string }) {
  const s = report.changesInEquity;
  const money = (n: number) => formatAmount(n, report.parentCurrency);
  const none = DIMENSION_LABELS[by].none;
  return (
    <StatementShell
      report={report}
      by={by}
      title={title}
      note={
        <>
          In {report.parentCurrency}, credit positive. A {DIMENSION_LABELS[by].one.toLowerCase()} has no equity of its own (IFRS 8 and ASC 280 ask for segment profit, assets and liabilities): its column is its net assets, its assets less its
          liabilities as on the balance sheet by {DIMENSION_LABELS[by].one.toLowerCase()}, moved by its profit, the exchange differences on translating them, and its net transfers with the rest of the group (the same figure as on its cash
          flow). Share capital, reserves, dividends and non-controlling interests are the group&apos;s, in &quot;{none}&quot;, with the rest of the group&apos;s net assets. The Consolidated column is the statement of changes in equity&apos;s total equity.
        </>
      }
      reconciles={s ? s.reconciles : null}
      reconciled={`Every column rolls from its opening to its closing figure, and the segments, ${none.toLowerCase()} and the eliminations add up to the consolidated statement of changes in equity's total equity on every line, to the cent.`}
      notReconciled={`The statement does not reconcile${s && s.balanceSheetDifference !== 0 ? `: the consolidated statement of changes in equity is ${money(s.balanceSheetDifference)} from the balance sheet` : ""}; the consolidated figures stand in the last column.`}
    >
      {s ? (
        <AmountsTable label={`Changes in equity by ${DIMENSION_LABELS[by].one.toLowerCase()}`} testId="segments-equity" firstHeader="Movement" columns={cashColumns(s, by)} money={money}>
          {(row) => <>{s.rows.map((r) => row.line(`equity:${r.kind}`, EQUITY_ROW_LABELS[r.kind], r, r.kind === "opening" || r.kind === "closing"))}</>}
        </AmountsTable>
      ) : null}
    </StatementShell>
  );
}

/** Segments matched by name across companies, said outright. */
function Matched({ report, by }: { report: SegmentReport; by: SegmentDimension }) {
  const matched = matchedSegments(report.statement ?? report.balanceSheet ?? report.cashFlow ?? report.changesInEquity!);
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
  // A section's total, column by column.
  const total = (rows: Statement["revenue"]): Statement["netIncome"] => {
    const sum = (pick: (r: Statement["netIncome"]) => number) => rows.reduce((t, r) => t + pick(r), 0);
    return { segments: s.segments.map((_, i) => sum((r) => r.segments[i]!)), unallocated: sum((r) => r.unallocated), eliminations: sum((r) => r.eliminations), otherAdjustments: sum((r) => r.otherAdjustments), total: sum((r) => r.total) };
  };
  return (
    <AmountsTable label={`Profit and loss by ${DIMENSION_LABELS[by].one.toLowerCase()}`} testId="segments-statement" firstHeader="Account" columns={columns} money={money}>
      {(row) => (
        <>
          {row.heading("revenue", "Revenue")}
          {s.revenue.map((r) => row.line(`revenue:${r.account}`, r.name, r))}
          {row.line("revenue-total", "Total revenue", total(s.revenue), true)}
          {row.heading("expenses", "Expenses")}
          {s.expenses.map((r) => row.line(`expense:${r.account}`, r.name, r))}
          {row.line("expenses-total", "Total expenses", total(s.expenses), true)}
          {row.line("net-income", "Net income", s.netIncome, true)}
        </>
      )}
    </AmountsTable>
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

