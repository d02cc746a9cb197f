import { Alert, Badge, Paper, Select, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { CASH_FLOW_CLASSES, CASH_FLOW_CLASS_LABELS, formatAmount, shiftMonth, type CashFlowClass } from "@groupledger/domain";
import type { CashFlowReport } from "@groupledger/contract";
import { messageOf } from "../../../lib/forms.ts";
import { Failure } from "../../screens/components/Failure.tsx";
import { ReportControls } from "../components/ReportControls.tsx";
import { ReportProblems, ReportWarnings } from "../components/ReportProblems.tsx";
import { type AreaGroup, ReportsAreaScreen, useAreaPeriod } from "../components/ReportsAreaScreen.tsx";
import { firstBookMonth, periodLabel } from "../period.ts";
import { useCashFlow, useCashFlowClasses, useSaveCashFlowClasses } from "./api.ts";
import { cashFlowRows, reconciliationText } from "./model.ts";

const DESCRIPTION =
  "The group's consolidated statement of cash flows, indirect method (IAS 7, ASC 230): from the period's profit through non-cash items and working capital to investing and financing, with intra-group flows eliminated and the effect of exchange rate changes on each subsidiary's cash on its own line.";

const mono = { fontVariantNumeric: "tabular-nums" } as const;

/** /consolidation/reports/cash-flow: the statement for the period the address names, and each parent account's class. */
export function CashFlowPage() {
  return <ReportsAreaScreen description={DESCRIPTION}>{(group) => <CashFlowSection group={group} />}</ReportsAreaScreen>;
}

function CashFlowSection({ group }: { group: AreaGroup }) {
  const { companies } = group;
  const { period, onPeriod, currentMonth, fyStart, valid } = useAreaPeriod(group, "month");
  const statement = useCashFlow(valid ? { from: period.from, to: period.to } : null);
  const data = statement.data;
  return (
    <Stack gap="md" data-testid="cash-flow">
      <ReportControls
        period={period}
        compare="none"
        fyStart={fyStart}
        firstMonth={firstBookMonth(companies, shiftMonth(currentMonth, -36))}
        lastMonth={currentMonth}
        currentMonth={currentMonth}
        onPeriod={onPeriod}
      />
      {statement.isPending && valid ? <Skeleton height={480} radius="md" /> : null}
      <Failure title="The statement could not be prepared" message={statement.error?.message} />
      {data ? (
        <div style={{ opacity: statement.isPlaceholderData ? 0.55 : 1 }} aria-busy={statement.isFetching || undefined}>
          <Statement report={data} title={`Consolidated statement of cash flows, ${periodLabel(period, fyStart)}`} />
        </div>
      ) : null}
      <ClassesEditor />
    </Stack>
  );
}

function Statement({ report, title }: { report: CashFlowReport; title: string }) {
  const s = report.statement;
  return (
    <Paper withBorder radius="md" p="md" bg="white">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="xs" c="dimmed">
          In {report.parentCurrency}. Inflows positive, outflows in parentheses.
        </Text>
        {!report.ok || !s ? (
          <ReportProblems problems={report.problems} title="The statement cannot be drawn up yet" />
        ) : (
          <>
            <Reconciliation statement={s} />
            <Table aria-label="Consolidated statement of cash flows" verticalSpacing={4} data-testid="cash-flow-statement">
              <Table.Tbody>
                {cashFlowRows(s).map((r) => (
                  <Table.Tr key={r.key} data-testid={`cf-${r.key}`}>
                    <Table.Td pl={r.kind === "line" ? "lg" : undefined} fw={r.kind === "line" ? undefined : 700}>
                      {r.label}
                    </Table.Td>
                    <Table.Td ta="right" fw={r.kind === "subtotal" || r.kind === "total" ? 700 : undefined} style={mono}>
                      {r.amount === null ? "" : formatAmount(r.amount, s.currency)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {s.exchangeEffect.entities.length ? <ExchangeEffect statement={s} /> : null}
          </>
        )}
        <ReportWarnings warnings={report.warnings} />
      </Stack>
    </Paper>
  );
}

function Reconciliation({ statement }: { statement: NonNullable<CashFlowReport["statement"]> }) {
  const r = reconciliationText(statement);
  return (
    <Alert color={r.ok ? "teal" : "red"} role={r.ok ? "status" : "alert"} data-testid="cash-flow-reconciliation">
      {r.text}
    </Alert>
  );
}

/** IAS 7.28, per subsidiary: its cash at the rates, and the two parts of the effect. */
function ExchangeEffect({ statement: s }: { statement: NonNullable<CashFlowReport["statement"]> }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        Effect of exchange rate changes on cash, by subsidiary (IAS 7.28)
      </Title>
      <Table aria-label="Effect of exchange rate changes on cash by subsidiary" verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Subsidiary</Table.Th>
            <Table.Th ta="right">Opening cash</Table.Th>
            <Table.Th ta="right">Closing cash</Table.Th>
            <Table.Th ta="right">Cash flows (at each month&apos;s average rate)</Table.Th>
            <Table.Th ta="right">On opening cash</Table.Th>
            <Table.Th ta="right">On the cash flows</Table.Th>
            <Table.Th ta="right">Effect</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {s.exchangeEffect.entities.map((e) => (
            <Table.Tr key={e.entity}>
              <Table.Td>{e.name}</Table.Td>
              <Table.Td ta="right" style={mono}>
                {formatAmount(e.openingCashLocal, e.currency)} at {e.openingRate} = {formatAmount(e.openingCash, s.currency)}
              </Table.Td>
              <Table.Td ta="right" style={mono}>
                {formatAmount(e.closingCashLocal, e.currency)} at {e.closingRate} = {formatAmount(e.closingCash, s.currency)}
              </Table.Td>
              <Table.Td ta="right" style={mono}>
                {formatAmount(e.netCashFlow, s.currency)}
              </Table.Td>
              <Table.Td ta="right" style={mono}>
                {formatAmount(e.onOpeningCash, s.currency)}
              </Table.Td>
              <Table.Td ta="right" style={mono}>
                {formatAmount(e.onCashFlows, s.currency)}
              </Table.Td>
              <Table.Td ta="right" fw={700} style={mono}>
                {formatAmount(e.total, s.currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

const CLASS_OPTIONS = CASH_FLOW_CLASSES.map((c) => ({ value: c, label: CASH_FLOW_CLASS_LABELS[c] }));

/** Each parent balance-sheet account's class: the default from its QuickBooks type, changed here. */
function ClassesEditor() {
  const classes = useCashFlowClasses();
  const save = useSaveCashFlowClasses();
  if (classes.isPending) return <Skeleton height={200} radius="md" />;
  if (!classes.data) return <Failure title="The cash-flow classes could not be loaded" message={classes.error?.message} />;
  const { accounts, fixed } = classes.data;
  const choose = (account: string, defaultClass: CashFlowClass, value: string | null) => {
    if (!value) return;
    save.mutate({ classes: [{ account, cashFlowClass: value === defaultClass ? null : (value as CashFlowClass) }] });
  };
  return (
    <Paper withBorder radius="md" p="md" bg="white" component="section" aria-label="Cash-flow classes">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Where each account goes
        </Title>
        <Text size="sm" c="dimmed" maw={760}>
          Each of the parent&apos;s balance-sheet accounts starts from its QuickBooks type: Bank is cash, receivables, payables and other current items are working capital, accumulated depreciation is a non-cash item, fixed and other assets are investing, long-term liabilities and equity are financing. Subsidiaries&apos; accounts follow the parent account they are mapped to.
        </Text>
        {save.error ? (
          <Alert color="red" role="alert">
            {messageOf(save.error)}
          </Alert>
        ) : null}
        <Table aria-label="Cash-flow class of each account" verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Account</Table.Th>
              <Table.Th>QuickBooks type</Table.Th>
              <Table.Th>Cash-flow class</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.map((a) => (
              <Table.Tr key={a.account}>
                <Table.Td>{a.accountNumber ? `${a.accountNumber} ${a.name}` : a.name}</Table.Td>
                <Table.Td>{a.accountType}</Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Cash-flow class of ${a.name}`}
                    data={CLASS_OPTIONS}
                    value={a.cashFlowClass}
                    onChange={(v) => choose(a.account, a.defaultClass, v)}
                    allowDeselect={false}
                    size="xs"
                    w={240}
                    disabled={save.isPending}
                    rightSectionWidth={a.chosenClass ? 80 : undefined}
                    rightSection={a.chosenClass ? <Badge size="xs" variant="light">changed</Badge> : undefined}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
            {fixed.map((f) => (
              <Table.Tr key={f.account}>
                <Table.Td>{f.name}</Table.Td>
                <Table.Td />
                <Table.Td c="dimmed">{f.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
